/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RTM_LOG, RTM_EXPORT and RTM_BATCH (ara/rtm.h, docs/rtm.md), in DOM0.
 *
 * An append takes no lock: it reserves a slot of the open segment with one
 * atomic add on its fill and stores the entry there (struct
 * ara_rtm_segment, rtm_state.h). The App's hooks append through the gate
 * (ara_rtm_append, entry/gate.S), which does just that without reaching
 * this file, and passes the rest on as RTM_LOG. Everything else is under the RTM lock:
 * the run's first entry, a refused entry, and a full segment. That one is
 * sealed once every reserved slot of it is written: DOM0 chains it (H <-
 * SHA-256(H || segment)), keeps it until the App exports it and opens the
 * other buffer; in batch mode it signs a checkpoint at the same moment.
 * Nothing is ever dropped: while the other buffer still waits for its
 * export, an entry that finds the open one full is not taken
 * (ARA_RTM_LOG_FULL), and the App exports and logs it again. Nothing the
 * App does removes an entry: it can only export (a copy).
 */
#include "ara/boot.h"
#include "ara/gate.h"
#include "ara/rtm.h"
#include "ara/service.h"
#include "provision_calls.h"
#include "rtm_state.h"

#include <mbedtls/sha256.h>

/* What the gate's append (entry/gate.S, ara/gate.h) takes for the RTM's. */
_Static_assert(__builtin_offsetof(struct ara_rtm_segment, fill) == 0, "gate.S: ldadd on the segment");
_Static_assert(__builtin_offsetof(struct ara_rtm_segment, slot) == ARA_GATE_RTM_SLOTS, "ara/gate.h");
_Static_assert(ARA_RTM_SEGMENT_ENTRIES == ARA_GATE_RTM_ENTRIES, "ara/gate.h");
_Static_assert(ARA_FID_RTM_LOG == ARA_GATE_FID_RTM_LOG, "ara/gate.h");
_Static_assert(ARA_RTM_KIND_SHIFT == ARA_GATE_RTM_ENTRY_SHIFT + 8 &&
		       (ARA_GATE_RTM_ENTRY_MASK | ((ARA_RTM_ICALL | ARA_RTM_RET | ARA_RTM_IJMP) << 8)) ==
			       0xffff &&
		       ARA_RTM_USER_ADDR_LIMIT == UINT64_C(1) << ARA_GATE_RTM_ENTRY_SHIFT,
	       "ara/gate.h: the gate's entry check is entry_valid's");

/* The module's per-process state: a forked child starts a run of its own. */
struct rtm_live {
	int lock;
	struct ara_rtm *rtm; /* made at the first use, never freed */
};

ARA_MODULE(ara_rtm_module, .name = "rtm", .state_size = sizeof(struct rtm_live),
	   .boot_size = sizeof(struct ara_rtm_snapshot), .ready = ara_rtm_modules_init);

static int start_run(struct ara_rtm *r)
{
	mbedtls_sha256_context c;
	int failed;

	if (ara_random_bytes(r->run_id, sizeof(r->run_id)))
		return -1;
	mbedtls_sha256_init(&c);
	failed = mbedtls_sha256_starts(&c, 0) ||
		 mbedtls_sha256_update(&c, (const uint8_t *)ARA_RTM_CHAIN_LABEL,
				       ARA_RTM_CHAIN_LABEL_BYTES) ||
		 mbedtls_sha256_update(&c, r->run_id, sizeof(r->run_id)) ||
		 mbedtls_sha256_finish(&c, r->chain);
	mbedtls_sha256_free(&c);
	return failed ? -1 : 0;
}

/* The open segment, for the gate's append (the core's lane) and rtm_log's (r->lane). */
static void set_lane(struct ara_rtm *r, struct ara_rtm_segment *s)
{
	ara_append_lane_set(s);
	__atomic_store_n(&r->lane, s, __ATOMIC_RELEASE);
}

struct ara_rtm *ara_rtm_lock(void)
{
	struct rtm_live *l = ara_module_state(&ara_rtm_module);
	struct ara_rtm *r;

	if (!l)
		return NULL;
	ara_lock(&l->lock);
	if (l->rtm)
		return l->rtm;
	/* The first use in this process: 2 MiB of log, made once, never freed. */
	r = ara_dom0_calloc(1, sizeof(*r));
	if (!r || start_run(r)) {
		ara_dom0_free(r);
		ara_unlock(&l->lock);
		return NULL;
	}
	/*
	 * seg[1] full until its first seal opens it, as every waiting segment
	 * is: an appender that finds it published before it is opened must
	 * not reserve a slot the opening then hands out again.
	 */
	r->seg[1].fill = ARA_RTM_SEGMENT_ENTRIES;
	/* From now on appenders, the gate's too, take seg[0] without the lock. */
	set_lane(r, &r->seg[0]);
	__atomic_store_n(&l->rtm, r, __ATOMIC_RELEASE);
	return r;
}

void ara_rtm_unlock(void)
{
	/* Made by ara_rtm_lock, which the caller holds. */
	ara_unlock(&((struct rtm_live *)ara_module_state(&ara_rtm_module))->lock);
}

static int entry_valid(uint64_t entry)
{
	unsigned int kind = (unsigned int)(entry >> ARA_RTM_KIND_SHIFT);

	return (kind == ARA_RTM_ICALL || kind == ARA_RTM_RET || kind == ARA_RTM_IJMP) &&
	       (entry & ARA_RTM_ADDR_MASK) < ARA_RTM_USER_ADDR_LIMIT;
}

/*
 * The append without the lock: 0, or -1 if s is full (nothing stored).
 * entry is valid, so not 0: a written slot is one that is not 0.
 */
static int append(struct ara_rtm_segment *s, uint64_t entry)
{
	/* Acquire: a slot of a segment opened again is stored after its zeroing. */
	uint64_t i = __atomic_fetch_add(&s->fill, 1, __ATOMIC_ACQUIRE);

	if (i >= ARA_RTM_SEGMENT_ENTRIES)
		return -1;
	__atomic_store_n(&s->slot[i], entry, __ATOMIC_RELEASE);
	return 0;
}

/*
 * Waits until slots [0, n) of s are written. An appender stores right after
 * its reservation; only a thread descheduled (or a vfork child stopped) in
 * between makes this wait. A signal inside append() below waits for the
 * gate's way out, after the store; one inside the gate's append, after its
 * reservation, has ARA's handler store the entry (libara/src/interrupt.c).
 */
static void wait_written(const struct ara_rtm_segment *s, uint64_t n)
{
	const volatile uint64_t *slot = s->slot;
	uint64_t i = 0;

	/* Eight at a time: the scan costs about two instructions an entry. */
	for (; i + 8 <= n; i += 8)
		if (!(slot[i] && slot[i + 1] && slot[i + 2] && slot[i + 3] && slot[i + 4] &&
		      slot[i + 5] && slot[i + 6] && slot[i + 7]))
			break;
	for (; i < n; i++)
		while (!slot[i])
			ara_sys0(__NR_sched_yield);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
}

uint32_t ara_rtm_pending(struct ara_rtm *r, int final)
{
	struct ara_rtm_segment *s = &r->seg[r->active];
	uint64_t n;

	if (r->closed)
		return r->closed_pending; /* fill says nothing any more */
	n = final ? __atomic_exchange_n(&s->fill, ARA_RTM_FILL_CLOSED, __ATOMIC_ACQ_REL)
		  : __atomic_load_n(&s->fill, __ATOMIC_ACQUIRE);
	if (n > ARA_RTM_SEGMENT_ENTRIES)
		n = ARA_RTM_SEGMENT_ENTRIES;
	wait_written(s, n);
	return (uint32_t)n;
}

void ara_rtm_close(struct ara_rtm *r, uint32_t pending, int written)
{
	if (r->closed)
		return;
	if (written) {
		r->closed = 1;
		r->closed_pending = pending;
		return;
	}
	/* Appenders since ara_rtm_pending found it full and wait for the lock: none wrote. */
	__atomic_store_n(&r->seg[r->active].fill, pending, __ATOMIC_RELEASE);
}

/*
 * seg[active] is full and the other buffer free: chains the full one, makes
 * it the waiting segment and opens the other. ARA_RTM_SEGMENT_READY, or
 * ARA_E_INTERNAL if hashing failed (nothing changed: the next LOG tries
 * again). In batch mode a checkpoint that cannot be signed is left out,
 * and the verifier, which wants one per segment, refuses the run.
 */
static enum ara_status seal(struct ara_rtm *r)
{
	struct ara_rtm_segment *full = &r->seg[r->active], *next = &r->seg[r->active ^ 1];
	struct ara_rtm_sink cp = { .buf = r->checkpoint, .cap = sizeof(r->checkpoint) };

	wait_written(full, ARA_RTM_SEGMENT_ENTRIES);
	if (ara_rtm_chain_segment(r->chain, full->slot))
		return ARA_E_INTERNAL;
	r->waiting = 1;
	r->waiting_index = r->sealed++;
	r->active ^= 1;
	r->checkpoint_len = 0;
	/*
	 * next is all zero (RTM_EXPORT cleared it); appenders that still hold
	 * it from its last turn find it full until now. Published first, opened
	 * second: no slot is reserved in a segment that is not yet the open one
	 * (a signal in the gate's append checks that, libara/src/interrupt.c).
	 */
	set_lane(r, next);
	__atomic_store_n(&next->fill, 0, __ATOMIC_RELEASE);
	/* Signed now: its chain and counts are the state at this seal. */
	if (r->batch &&
	    ara_rtm_write_doc(r, ARA_RTM_DOC_CHECKPOINT, 0, 0, r->batch_nonce, &cp) == ARA_OK)
		r->checkpoint_len = cp.len;
	return ARA_RTM_SEGMENT_READY;
}

/* The append's locked path: the first entry, a refused one, a full segment. */
static enum ara_status log_locked(uint64_t entry)
{
	struct ara_rtm *r;
	enum ara_status st = ARA_OK;

	if (!(r = ara_rtm_lock()))
		return ARA_E_NOMEM;
	/* After the final report no transfer may happen: it would go unreported. */
	if (r->closed)
		ara_stop(ARA_EXIT_RTM_CLOSED, "App code logged a transfer after the RTM's final report",
			 (long)(entry & ARA_RTM_ADDR_MASK));
	if (!entry_valid(entry)) {
		r->refused++;
		ara_rtm_unlock();
		return ARA_E_INVAL;
	}
	/* Another thread may have sealed and opened a segment meanwhile. */
	while (append(&r->seg[r->active], entry)) {
		if (r->waiting) {
			st = ARA_RTM_LOG_FULL; /* not taken: the App exports, then logs it again */
			break;
		}
		if ((st = seal(r)) != ARA_RTM_SEGMENT_READY)
			break; /* not taken: the App's hook ends the run */
	}
	ara_rtm_unlock();
	return st;
}

static enum ara_status rtm_log(void *arg)
{
	struct rtm_live *l = ara_module_state(&ara_rtm_module);
	struct ara_rtm *r = l ? __atomic_load_n(&l->rtm, __ATOMIC_ACQUIRE) : NULL;
	struct ara_rtm_segment *s = r ? __atomic_load_n(&r->lane, __ATOMIC_ACQUIRE) : NULL;
	uint64_t entry;

	memcpy(&entry, arg, sizeof(entry));
	if (s && entry_valid(entry) && append(s, entry) == 0)
		return ARA_OK;
	return log_locked(entry);
}

static enum ara_status rtm_export(void *arg)
{
	struct ara_rtm_export_arg *a = arg;
	struct ara_rtm_segment *s;
	struct ara_rtm *r;
	enum ara_status st;

	if (!(r = ara_rtm_lock()))
		return ARA_E_NOMEM;
	if (!r->waiting) {
		ara_rtm_unlock();
		return ARA_E_NOENT;
	}
	if (r->checkpoint_len > a->checkpoint_cap) {
		ara_rtm_unlock();
		return ARA_E_INVAL;
	}
	s = &r->seg[r->active ^ 1];
	st = ara_copy_to_app(a->segment, s->slot, ARA_RTM_SEGMENT_BYTES);
	if (st == ARA_OK && r->checkpoint_len)
		st = ara_copy_to_app(a->checkpoint, r->checkpoint, r->checkpoint_len);
	if (st == ARA_OK) {
		a->index = r->waiting_index;
		a->checkpoint_len = r->checkpoint_len;
		r->waiting = 0;
		/* Zero again, as the next seal expects: a slot not 0 is a written one. */
		memset(s->slot, 0, sizeof(s->slot));
	}
	ara_rtm_unlock();
	return st;
}

static enum ara_status rtm_batch(void *arg)
{
	struct ara_rtm_batch_arg *a = arg;
	struct ara_provision_instance_arg instance;
	struct ara_rtm *r;

	if (ara_service_call(ARA_FID_PROVISION_INSTANCE, &instance) != ARA_OK)
		return ARA_E_NO_EVIDENCE; /* no key to sign checkpoints with */
	if (!(r = ara_rtm_lock()))
		return ARA_E_NOMEM;
	/* Once per run: a second nonce would let the App choose which the verifier sees. */
	if (r->batch) {
		ara_rtm_unlock();
		return ARA_E_INVAL;
	}
	r->batch = 1;
	memcpy(r->batch_nonce, a->nonce, sizeof(r->batch_nonce));
	ara_rtm_unlock();
	return ARA_OK;
}

ARA_SERVICE(svc_rtm_log, .fid = ARA_FID_RTM_LOG, .flags = ARA_SVC_VALUE | ARA_SVC_SIMD, .arg_size = 8,
	    .name = "rtm_log", .module = &ara_rtm_module, .handler = rtm_log);
ARA_SERVICE(svc_rtm_export, .fid = ARA_FID_RTM_EXPORT, .flags = ARA_SVC_IN | ARA_SVC_OUT,
	    .arg_size = sizeof(struct ara_rtm_export_arg), .name = "rtm_export",
	    .module = &ara_rtm_module, .handler = rtm_export);
/*
 * SIMD: check-simd-services.cmake takes its ara_service_call to reach every
 * internal function, provisioning's signature (mbedtls's DRBG callback) too.
 */
ARA_SERVICE(svc_rtm_batch, .fid = ARA_FID_RTM_BATCH, .flags = ARA_SVC_IN | ARA_SVC_SIMD,
	    .arg_size = sizeof(struct ara_rtm_batch_arg), .name = "rtm_batch",
	    .module = &ara_rtm_module, .handler = rtm_batch);
