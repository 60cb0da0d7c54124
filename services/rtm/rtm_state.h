/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM's state (docs/rtm.md): the log of the current run, its chain and
 * counts. One per process, on the RTM domain's heap, reached through the
 * module's state (log.c): a forked child finds none and starts a run of its
 * own. Every field of struct ara_rtm is read and written under the RTM lock
 * (ara_rtm_lock), but the open segment's fill and slots, which appenders
 * take without it (struct ara_rtm_segment), and lane, which they read.
 */
#ifndef ARA_RTM_STATE_H
#define ARA_RTM_STATE_H

#include <stdint.h>

#include "ara/rtm.h"
#include "ara/service.h"
#include "rtm_format.h"

/* The module (log.c). */
extern const struct ara_module ara_rtm_module;

/* A logged address is a user one: below arm64's 48-bit user address space's end. */
#define ARA_RTM_USER_ADDR_LIMIT (UINT64_C(1) << 48)

struct ara_rtm_module {
	uint64_t start, end, offset;
	uint64_t inode;
	uint32_t dev_major, dev_minor;
	uint32_t path_len;
	char path[ARA_RTM_MODULE_PATH_MAX];
};

/* The code modules at initialisation: the module's boot state (ara_module_boot). */
struct ara_rtm_snapshot {
	uint32_t count;
	int too_many; /* more modules, or a longer path, than the format holds */
	struct ara_rtm_module m[ARA_RTM_MODULES_MAX];
};

/*
 * modules.c: the code modules at initialisation (the module's ready hook,
 * last: the mappings as App code finds them).
 */
void ara_rtm_modules_init(void);
/* The snapshot and its count; NULL if it did not fit the format. */
const struct ara_rtm_module *ara_rtm_modules(uint32_t *count);
/* *changed: the live code mappings differ from the snapshot. 0, or -1 (maps unreadable). */
int ara_rtm_modules_changed(int *changed);

/*
 * One segment of the log, as the append paths fill it (the gate's
 * ara_rtm_append, entry/gate.S, and log.c): an appender reserves
 * slot[fill] with one atomic add on fill and stores its entry there; a
 * valid entry is never 0 (its kind is 1..3), so a slot is written once it
 * is not 0. fill >= ARA_RTM_SEGMENT_ENTRIES: full, sealed or closed; the
 * append goes to the locked path. A signal between the gate's add and its
 * store completes the store (libara/src/interrupt.c).
 */
struct ara_rtm_segment {
	uint64_t fill;
	uint64_t pad[7]; /* fill alone in its cache line: the appenders' only shared write */
	uint64_t slot[ARA_RTM_SEGMENT_ENTRIES];
};
#define ARA_RTM_FILL_CLOSED (UINT64_C(1) << 62) /* a final report's: never below it again */

struct ara_rtm {
	uint8_t run_id[ARA_RTM_HASH_BYTES];
	uint8_t chain[ARA_RTM_HASH_BYTES]; /* H over the sealed segments */
	uint64_t sealed, refused;
	uint64_t sequence; /* documents written in the run */
	uint32_t active;   /* seg[active] fills (the append lane); seg[!active] is the sealed one */
	int waiting;	   /* seg[!active] waits for RTM_EXPORT */
	uint64_t waiting_index;
	int batch;
	uint8_t batch_nonce[ARA_RTM_NONCE_BYTES];
	uint32_t checkpoint_len; /* the waiting segment's checkpoint (batch mode) */
	uint8_t checkpoint[ARA_RTM_CHECKPOINT_MAX];
	int closed; /* a final report was written: any later LOG ends the process */
	uint32_t closed_pending; /* the open segment's entries when it closed */
	struct ara_rtm_segment *lane; /* seg[active], as the gate's lane has it; for rtm_log */
	struct ara_rtm_segment seg[2];
};

/*
 * Locks the RTM and returns its state, made (with a fresh run) at the first
 * call; NULL, unlocked, if the DOM0 heap cannot hold it.
 */
struct ara_rtm *ara_rtm_lock(void);
void ara_rtm_unlock(void);

/* Where a document goes: a DOM0 buffer (buf) or App memory (app). */
struct ara_rtm_sink {
	uint8_t *buf;
	uint64_t app;
	uint32_t cap, len;
};

/*
 * With the lock held: the number of entries in the open segment, every one
 * of them written (it waits for appenders between their reservation and
 * their store). final: also closes the segment to appenders, atomically
 * with the count, so that no entry can follow the final report.
 */
uint32_t ara_rtm_pending(struct ara_rtm *r, int final);
/*
 * With the lock held, after a final report's ara_rtm_pending: closes the
 * log if the report was written, else opens the segment again.
 */
void ara_rtm_close(struct ara_rtm *r, uint32_t pending, int written);

/*
 * Writes a document of this kind over nonce (rtm_format.h) to out, signed
 * with the instance key; a report carries the first pending entries of the
 * open segment (ara_rtm_pending), a checkpoint none (pending 0); final (a report only) sets ARA_RTM_DOC_FINAL. With the
 * lock held. ARA_OK; ARA_E_NO_EVIDENCE without an instance key;
 * ARA_E_INVAL if out is too small; ARA_E_NOTSUP if the code modules did
 * not fit the format (too many, or a path too long); ARA_E_NOMEM (the
 * live mappings could not be read), ARA_E_FAULT, ARA_E_INTERNAL.
 */
enum ara_status ara_rtm_write_doc(struct ara_rtm *r, uint32_t kind, int final, uint32_t pending,
				  const uint8_t nonce[ARA_RTM_NONCE_BYTES], struct ara_rtm_sink *out);

/*
 * sha256_ce.c: chain <- SHA-256(chain || segment), the segment's
 * ARA_RTM_SEGMENT_BYTES, with the ARMv8 SHA-256 instructions (FEAT_SHA256)
 * where the CPU has them, else with mbedtls. 0, or -1 (mbedtls failed).
 * It leaves DOM0 values in vector registers: its callers' services must be
 * flagged as using SIMD, for the gate to scrub them.
 */
int ara_rtm_chain_segment(uint8_t chain[ARA_RTM_HASH_BYTES], const uint64_t *segment);

#endif
