/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sealed monotonic counters (services/counter/, ara_counter(3)): numbers a
 * compromised App can advance (by any amount, up to the end) but never
 * repeat or rewind within the process, for unique sequence numbers
 * (nonces, message numbers) and the version of the newest state the App
 * wrote. A result is not evidence: it is not signed, so a party that has
 * it only from the App has the App's word for it.
 *
 * Each process has ARA_COUNTERS counters, numbered 0 to ARA_COUNTERS - 1,
 * each starting at 0. Their values live only in ARA (DOM0), never in App
 * memory. Every result carries the process's epoch, 16 random bytes drawn
 * when ARA starts: the pair (epoch, value) is never issued twice. A forked
 * child does not share its parent's counters: its own start at 0 in a new
 * epoch, drawn in the child, so nothing the child does reaches the
 * parent's values and nothing it issues equals one the parent issued. A
 * program started with execve, or the App started again, is a new epoch
 * too: the counters live as long as the process, and a relying party that
 * keeps values across runs keeps the epoch with them.
 */
#ifndef ARA_COUNTER_H
#define ARA_COUNTER_H

#include <stdint.h>

#include "ara/ara.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The counter module's function IDs: module 3 (ara/ara.h, ARA_FID),
 * functions 16 and 17. The gate's table gives module 3's function f the
 * slot of the test module's (ara/gate.h, ARA_GATE_HASH_SHIFT), whose
 * test-only services take the low numbers.
 */
#define ARA_MODULE_COUNTER 0x0003u
/*
 * INCREMENT adds delta (1 or more: a block of delta numbers, the last of
 * which is returned) and returns the new value. READ returns the value
 * (delta 0). Both fill epoch. Refused, with the counter unchanged:
 * ARA_E_NOENT, counter is not below ARA_COUNTERS; ARA_E_INVAL, flags is
 * not 0 (no flag is defined), or delta is 0 for INCREMENT or not 0 for
 * READ; ARA_E_SECURITY, the increment would pass UINT64_MAX (a counter
 * never wraps: at its end it stays there and refuses); ARA_E_NOMEM, this
 * process's counters could not be made (no DOM0 memory, or no randomness
 * for a forked child's epoch).
 */
#define ARA_FID_COUNTER_INCREMENT ARA_FID(ARA_MODULE_COUNTER, 16) /* struct ara_counter_arg */
#define ARA_FID_COUNTER_READ ARA_FID(ARA_MODULE_COUNTER, 17) /* struct ara_counter_arg */

#define ARA_COUNTERS 16u
#define ARA_COUNTER_EPOCH_BYTES 16u

struct ara_counter_arg {
	uint32_t counter; /* in: 0 .. ARA_COUNTERS - 1 */
	uint32_t flags;	  /* in: 0 */
	uint64_t delta;	  /* in: INCREMENT: how much to add, at least 1; READ: 0 */
	uint64_t value;	  /* out: the counter's value, after the increment */
	uint8_t epoch[ARA_COUNTER_EPOCH_BYTES]; /* out: this process's epoch */
};

/* The calls, for an App: what secure_call returns; *value and epoch (if not NULL) on ARA_OK. */
static inline int ara_counter_increment(uint32_t counter, uint64_t delta, uint64_t *value,
					uint8_t epoch[ARA_COUNTER_EPOCH_BYTES])
{
	struct ara_counter_arg a;
	int st;

	__builtin_memset(&a, 0, sizeof(a)); /* C and C++ alike */
	a.counter = counter;
	a.delta = delta;
	st = secure_call(ARA_FID_COUNTER_INCREMENT, &a);

	if (st == ARA_OK) {
		*value = a.value;
		if (epoch)
			__builtin_memcpy(epoch, a.epoch, sizeof(a.epoch));
	}
	return st;
}

static inline int ara_counter_read(uint32_t counter, uint64_t *value,
				   uint8_t epoch[ARA_COUNTER_EPOCH_BYTES])
{
	struct ara_counter_arg a;
	int st;

	__builtin_memset(&a, 0, sizeof(a));
	a.counter = counter;
	st = secure_call(ARA_FID_COUNTER_READ, &a);

	if (st == ARA_OK) {
		*value = a.value;
		if (epoch)
			__builtin_memcpy(epoch, a.epoch, sizeof(a.epoch));
	}
	return st;
}

#ifdef __cplusplus
}
#endif

#endif
