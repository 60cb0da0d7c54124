/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RTM_LOG, RTM_EXPORT and RTM_BATCH (ara/rtm.h, docs/rtm.md), in DOM0.
 *
 * Entries go into log[active]. When it is full, DOM0 chains it
 * (H <- SHA-256(H || segment)), swaps the two buffers and keeps the sealed
 * one until the App exports it; in batch mode it signs a checkpoint at the
 * same moment. Nothing the App does removes an entry: the App can only
 * export (a copy), and a segment it fails to export before the next one
 * seals is counted as dropped in every later document.
 */
#include "ara/boot.h"
#include "ara/rtm.h"
#include "ara/service.h"
#include "dom0/dom0.h"
#include "dom0/live.h"
#include "dom0/mem.h"
#include "instance.h"
#include "regions.h"
#include "rtm_state.h"

#include <mbedtls/sha256.h>

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

struct ara_rtm *ara_rtm_lock(void)
{
	struct ara_rtm *r;

	ara_live_lock(&ara_live->rtm_lock);
	if (ara_live->rtm)
		return ara_live->rtm;
	/* The first use in this process: 2 MiB of log, made once, never freed. */
	r = ara_dom0_calloc(1, sizeof(*r));
	if (!r || start_run(r)) {
		ara_dom0_free(r);
		ara_live_unlock(&ara_live->rtm_lock);
		return NULL;
	}
	ara_live->rtm = r;
	return r;
}

void ara_rtm_unlock(void)
{
	ara_live_unlock(&ara_live->rtm_lock);
}

/*
 * log[active] is full: chains it and makes it the waiting segment.
 * ARA_RTM_SEGMENT_READY, or ARA_E_INTERNAL if hashing failed (nothing
 * changed: the next LOG tries again). In batch mode a checkpoint that
 * cannot be signed is left out, and the verifier, which wants one per
 * segment, refuses the run.
 */
static enum ara_status seal(struct ara_rtm *r)
{
	mbedtls_sha256_context c;
	struct ara_rtm_sink cp = { .buf = r->checkpoint, .cap = sizeof(r->checkpoint) };
	uint8_t chain[ARA_RTM_HASH_BYTES];
	int failed;

	mbedtls_sha256_init(&c);
	failed = mbedtls_sha256_starts(&c, 0) || mbedtls_sha256_update(&c, r->chain, sizeof(r->chain)) ||
		 mbedtls_sha256_update(&c, (const uint8_t *)r->log[r->active], ARA_RTM_SEGMENT_BYTES) ||
		 mbedtls_sha256_finish(&c, chain);
	mbedtls_sha256_free(&c);
	if (failed)
		return ARA_E_INTERNAL;
	memcpy(r->chain, chain, sizeof(chain));
	if (r->waiting)
		r->dropped++;
	r->waiting = 1;
	r->waiting_index = r->sealed++;
	r->active ^= 1;
	r->fill = 0;
	r->checkpoint_len = 0;
	/* Signed now: its chain and counts are the state at this seal. */
	if (r->batch && ara_rtm_write_doc(r, ARA_RTM_DOC_CHECKPOINT, 0, r->batch_nonce, &cp) == ARA_OK)
		r->checkpoint_len = cp.len;
	return ARA_RTM_SEGMENT_READY;
}

static enum ara_status rtm_log(void *arg)
{
	uint64_t entry, dest;
	unsigned int kind;
	struct ara_rtm *r;
	enum ara_status st = ARA_OK;

	memcpy(&entry, arg, sizeof(entry));
	kind = (unsigned int)(entry >> ARA_RTM_KIND_SHIFT);
	dest = entry & ARA_RTM_ADDR_MASK;
	if (!(r = ara_rtm_lock()))
		return ARA_E_NOMEM;
	/* After the final report no transfer may happen: it would go unreported. */
	if (r->closed)
		ara_stop(ARA_EXIT_RTM_CLOSED, "App code logged a transfer after the RTM's final report",
			 (long)dest);
	if ((kind != ARA_RTM_ICALL && kind != ARA_RTM_RET && kind != ARA_RTM_IJMP) ||
	    dest >= ARA_USER_ADDR_LIMIT) {
		r->refused++;
		ara_rtm_unlock();
		return ARA_E_INVAL;
	}
	/* Full after a seal that failed: seal before taking the entry. */
	if (r->fill == ARA_RTM_SEGMENT_ENTRIES && (st = seal(r)) != ARA_RTM_SEGMENT_READY) {
		r->refused++;
		ara_rtm_unlock();
		return st;
	}
	r->log[r->active][r->fill++] = entry;
	r->entries++;
	if (r->fill == ARA_RTM_SEGMENT_ENTRIES)
		st = seal(r);
	ara_rtm_unlock();
	return st;
}

static enum ara_status rtm_export(void *arg)
{
	struct ara_rtm_export_arg *a = arg;
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
	st = ara_copy_to_app(a->segment, r->log[r->active ^ 1], ARA_RTM_SEGMENT_BYTES);
	if (st == ARA_OK && r->checkpoint_len)
		st = ara_copy_to_app(a->checkpoint, r->checkpoint, r->checkpoint_len);
	if (st == ARA_OK) {
		a->index = r->waiting_index;
		a->checkpoint_len = r->checkpoint_len;
		r->waiting = 0;
	}
	ara_rtm_unlock();
	return st;
}

static enum ara_status rtm_batch(void *arg)
{
	struct ara_rtm_batch_arg *a = arg;
	struct ara_rtm *r;

	if (!ara_instance())
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

ARA_SERVICE(svc_rtm_log, .fid = ARA_FID_RTM_LOG, .flags = ARA_SVC_VALUE, .arg_size = 8,
	    .name = "rtm_log", .handler = rtm_log);
ARA_SERVICE(svc_rtm_export, .fid = ARA_FID_RTM_EXPORT, .flags = ARA_SVC_IN | ARA_SVC_OUT,
	    .arg_size = sizeof(struct ara_rtm_export_arg), .name = "rtm_export",
	    .handler = rtm_export);
ARA_SERVICE(svc_rtm_batch, .fid = ARA_FID_RTM_BATCH, .flags = ARA_SVC_IN,
	    .arg_size = sizeof(struct ara_rtm_batch_arg), .name = "rtm_batch",
	    .handler = rtm_batch);
