/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM's state in DOM0 (docs/rtm.md): the log of the current run, its
 * chain and counts. One per process, on the DOM0 heap, reached through the
 * state page (ara_live->rtm): a forked child finds none and starts a run of
 * its own. Every field is read and written under ara_live->rtm_lock.
 */
#ifndef ARA_RTM_STATE_H
#define ARA_RTM_STATE_H

#include <stdint.h>

#include "ara/rtm.h"
#include "rtm_format.h"

struct ara_rtm_module {
	uint64_t start, end, offset;
	uint64_t inode;
	uint32_t dev_major, dev_minor;
	uint32_t path_len;
	char path[ARA_RTM_MODULE_PATH_MAX];
};

/* modules.c: the code modules at initialisation (before the filter, once). */
void ara_rtm_modules_init(void);
/* The snapshot and its count; NULL if it did not fit the format. */
const struct ara_rtm_module *ara_rtm_modules(uint32_t *count);
/* *changed: the live code mappings differ from the snapshot. 0, or -1 (maps unreadable). */
int ara_rtm_modules_changed(int *changed);

struct ara_rtm {
	uint8_t run_id[ARA_RTM_HASH_BYTES];
	uint8_t chain[ARA_RTM_HASH_BYTES]; /* H over the sealed segments */
	uint64_t entries, sealed, dropped, refused;
	uint64_t sequence; /* documents written in the run */
	uint32_t active;   /* log[active] fills; log[!active] is the sealed one */
	uint32_t fill;	   /* entries in log[active] */
	int waiting;	   /* log[!active] waits for RTM_EXPORT */
	uint64_t waiting_index;
	int batch;
	uint8_t batch_nonce[ARA_RTM_NONCE_BYTES];
	uint32_t checkpoint_len; /* the waiting segment's checkpoint (batch mode) */
	uint8_t checkpoint[ARA_RTM_CHECKPOINT_MAX];
	int closed; /* a final report was written: any later LOG ends the process */
	uint64_t log[2][ARA_RTM_SEGMENT_ENTRIES];
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
 * Writes a document of this kind over nonce (rtm_format.h) to out, signed
 * with the instance key; a report carries the pending entries, a
 * checkpoint none; final (a report only) sets ARA_RTM_DOC_FINAL. With the
 * lock held. ARA_OK; ARA_E_NO_EVIDENCE without an instance key;
 * ARA_E_INVAL if out is too small; ARA_E_NOTSUP if the code modules did
 * not fit the format (too many, or a path too long); ARA_E_NOMEM (the
 * live mappings could not be read), ARA_E_FAULT, ARA_E_INTERNAL.
 */
enum ara_status ara_rtm_write_doc(struct ara_rtm *r, uint32_t kind, int final,
				  const uint8_t nonce[ARA_RTM_NONCE_BYTES], struct ara_rtm_sink *out);

#endif
