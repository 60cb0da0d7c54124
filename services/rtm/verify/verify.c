/* SPDX-License-Identifier: Apache-2.0 */
/* ara-verify's decision (verify.h). */
#include "verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "ara/bytes.h"
#include "ara/hex.h"
#include "report_decode.h"

/* A decoded document, its module table's order by address, and its name in messages. */
struct slot {
	struct ara_rtm_doc d;
	const uint8_t *buf;
	uint8_t by_start[ARA_RTM_MODULES_MAX];
	char name[40];
};

struct run {
	const struct ara_rtm_verify_in *in;
	struct ara_rtm_modcache *mc;
	struct slot *docs;
	size_t ndocs;
	char *msg;
	size_t cap;
};

__attribute__((format(printf, 3, 4))) static enum ara_rtm_verdict
say(struct run *r, enum ara_rtm_verdict v, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(r->msg, r->cap, "%s", v == ARA_RTM_VERDICT_REJECTED ? "REJECTED: " : "");

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < r->cap)
		vsnprintf(r->msg + n, r->cap - (size_t)n, fmt, ap);
	va_end(ap);
	return v;
}

static void sort_modules(struct slot *s)
{
	for (uint32_t i = 0; i < s->d.module_count; i++)
		s->by_start[i] = (uint8_t)i;
	/* At most ARA_RTM_MODULES_MAX: insertion sort. */
	for (uint32_t i = 1; i < s->d.module_count; i++)
		for (uint32_t j = i; j > 0 && s->d.modules[s->by_start[j - 1]].start >
						      s->d.modules[s->by_start[j]].start;
		     j--) {
			uint8_t t = s->by_start[j];

			s->by_start[j] = s->by_start[j - 1];
			s->by_start[j - 1] = t;
		}
}

/* The checks of one document on its own and against the one before it in the run. */
static enum ara_rtm_verdict check_doc(struct run *r, struct slot *s, uint32_t kind,
				      const struct slot *prev)
{
	const struct ara_rtm_verify_in *in = r->in;
	const struct ara_rtm_doc *d = &s->d;

	if (d->kind != kind)
		return say(r, ARA_RTM_VERDICT_REJECTED, "%s: is a %s", s->name,
			   d->kind == ARA_RTM_DOC_REPORT ? "report" : "checkpoint");
	if (memcmp(d->instance_pub, in->key, ARA_RTM_PUB_BYTES) != 0)
		return say(r, ARA_RTM_VERDICT_REJECTED, "%s: signed by another instance key",
			   s->name);
	if (ara_rtm_doc_signed_by(s->buf, d, in->key))
		return say(r, ARA_RTM_VERDICT_REJECTED,
			   "%s: signature does not verify under the instance key", s->name);
	if (memcmp(d->nonce, in->nonce, ARA_RTM_NONCE_BYTES) != 0)
		return say(r, ARA_RTM_VERDICT_REJECTED,
			   "%s: nonce is not the verifier's (a replayed or foreign document)",
			   s->name);
	if (in->app_sha256 != NULL && memcmp(d->app_sha256, in->app_sha256, ARA_RTM_HASH_BYTES)) {
		char h[2 * ARA_RTM_HASH_BYTES + 1];

		ara_hex_encode(d->app_sha256, ARA_RTM_HASH_BYTES, h);
		return say(r, ARA_RTM_VERDICT_REJECTED, "%s: App digest %s is not the expected one",
			   s->name, h);
	}
	if (d->flags & ARA_RTM_DOC_MODULES_CHANGED)
		return say(r, ARA_RTM_VERDICT_REJECTED,
			   "%s: the process's code mappings changed after ARA initialised (code "
			   "moved, unmapped or re-protected)",
			   s->name);
	if (d->dropped != 0)
		return say(r, ARA_RTM_VERDICT_REJECTED,
			   "%s: %llu sealed segments were dropped before export", s->name,
			   (unsigned long long)d->dropped);
	/* The instrumentation never makes a refused call: something else called RTM_LOG. */
	if (d->refused != 0)
		return say(r, ARA_RTM_VERDICT_REJECTED, "%s: %llu RTM_LOG calls were refused",
			   s->name, (unsigned long long)d->refused);
	if (prev == NULL)
		return ARA_RTM_VERDICT_OK;
	if (memcmp(d->run_id, prev->d.run_id, ARA_RTM_HASH_BYTES) != 0)
		return say(r, ARA_RTM_VERDICT_REJECTED, "%s: belongs to another run than %s",
			   s->name, prev->name);
	/*
	 * One checkpoint per sealed segment; sequence numbers only increase
	 * (reports share the count, so a report made between two checkpoints
	 * leaves a gap).
	 */
	if (kind == ARA_RTM_DOC_CHECKPOINT &&
	    (d->sequence <= prev->d.sequence || d->sealed != prev->d.sealed + 1))
		return say(r, ARA_RTM_VERDICT_REJECTED,
			   "%s: sequence %llu sealing %llu segments does not follow %s (sequence "
			   "%llu, %llu segments): a checkpoint is missing, repeated or out of order",
			   s->name, (unsigned long long)d->sequence, (unsigned long long)d->sealed,
			   prev->name, (unsigned long long)prev->d.sequence,
			   (unsigned long long)prev->d.sealed);
	if (kind == ARA_RTM_DOC_REPORT &&
	    (d->sequence <= prev->d.sequence || d->sealed != prev->d.sealed))
		return say(r, ARA_RTM_VERDICT_REJECTED,
			   "%s: sequence %llu sealing %llu segments does not end the checkpoints "
			   "(last: sequence %llu, %llu segments)",
			   s->name, (unsigned long long)d->sequence, (unsigned long long)d->sealed,
			   (unsigned long long)prev->d.sequence, (unsigned long long)prev->d.sealed);
	return ARA_RTM_VERDICT_OK;
}

static enum ara_rtm_verdict add_doc(struct run *r, const uint8_t *buf, size_t len, uint32_t kind,
				    const char *name)
{
	struct slot *docs = realloc(r->docs, (r->ndocs + 1) * sizeof(*docs)), *s;
	enum ara_rtm_doc_err err;

	if (docs == NULL)
		return say(r, ARA_RTM_VERDICT_ERROR, "out of memory");
	r->docs = docs;
	s = &docs[r->ndocs];
	s->buf = buf;
	snprintf(s->name, sizeof(s->name), "%s", name);
	err = ara_rtm_doc_decode(buf, len, &s->d);
	if (err != ARA_RTM_DOC_OK)
		return say(r, ARA_RTM_VERDICT_REJECTED, "%s: %s", name, ara_rtm_doc_strerror(err));
	sort_modules(s);
	r->ndocs++;
	return check_doc(r, s, kind, r->ndocs > 1 ? &docs[r->ndocs - 2] : NULL);
}

static enum ara_rtm_verdict read_docs(struct run *r)
{
	const struct ara_rtm_verify_in *in = r->in;
	enum ara_rtm_verdict v;

	if (in->checkpoints != NULL) {
		for (size_t off = 0, k = 1; off < in->checkpoints_len; k++) {
			char name[40];
			size_t len;
			enum ara_rtm_doc_err err = ara_rtm_doc_length(in->checkpoints + off,
								      in->checkpoints_len - off, &len);

			snprintf(name, sizeof(name), "checkpoint #%zu", k);
			if (err != ARA_RTM_DOC_OK)
				return say(r, ARA_RTM_VERDICT_REJECTED, "%s: %s", name,
					   ara_rtm_doc_strerror(err));
			v = add_doc(r, in->checkpoints + off, len, ARA_RTM_DOC_CHECKPOINT, name);
			if (v != ARA_RTM_VERDICT_OK)
				return v;
			off += len;
		}
		if (r->ndocs == 0)
			return say(r, ARA_RTM_VERDICT_REJECTED, "the checkpoints file is empty");
	}
	if (in->report != NULL)
		return add_doc(r, in->report, in->report_len, ARA_RTM_DOC_REPORT, "report");
	return ARA_RTM_VERDICT_OK;
}

/* Recomputes H over the segments; each document's chain must be H at its sealed count. */
static enum ara_rtm_verdict check_chain(struct run *r, uint64_t nseg)
{
	uint8_t h[ARA_RTM_HASH_BYTES];
	size_t j = 0;

	if (ara_rtm_chain_start(r->docs[0].d.run_id, h))
		return say(r, ARA_RTM_VERDICT_ERROR, "SHA-256 failed");
	for (uint64_t i = 0;; i++) {
		/* Documents come in order of sealed count (check_doc). */
		for (; j < r->ndocs && r->docs[j].d.sealed == i; j++)
			if (memcmp(r->docs[j].d.chain, h, sizeof(h)) != 0)
				return say(r, ARA_RTM_VERDICT_REJECTED,
					   "%s: its chain value is not the hash of the segments "
					   "(a segment is missing, altered or out of order)",
					   r->docs[j].name);
		if (i == nseg)
			return ARA_RTM_VERDICT_OK;
		if (ara_rtm_chain_step(h, r->in->segments + i * ARA_RTM_SEGMENT_BYTES))
			return say(r, ARA_RTM_VERDICT_ERROR, "SHA-256 failed");
	}
}

static const struct ara_rtm_module *module_of(const struct slot *s, uint64_t addr)
{
	uint32_t lo = 0, hi = s->d.module_count; /* the last start <= addr is below hi */

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->d.modules[s->by_start[mid]].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= s->d.modules[s->by_start[lo - 1]].end)
		return NULL;
	return &s->d.modules[s->by_start[lo - 1]];
}

/* A module that could not be had: the App's file rejected, or no decision. */
static enum ara_rtm_verdict verdict_of(enum ara_rtm_module_fail fail)
{
	return fail == ARA_RTM_MODULE_REJECTED ? ARA_RTM_VERDICT_REJECTED : ARA_RTM_VERDICT_ERROR;
}

static const char *const kind_text[] = {
	[ARA_RTM_ICALL] = "indirect call to",
	[ARA_RTM_RET] = "return to",
	[ARA_RTM_IJMP] = "indirect jump to",
};
static const char *const not_text[] = {
	[ARA_RTM_ICALL] = "is not a function entry",
	[ARA_RTM_RET] = "is not a return site",
	[ARA_RTM_IJMP] = "is not a function entry or an address-taken label",
};

/* Entry n of the run, logged under the module table of s. */
static enum ara_rtm_verdict check_entry(struct run *r, const struct slot *s, uint64_t n,
					uint64_t e)
{
	unsigned int kind = (unsigned int)(e >> ARA_RTM_KIND_SHIFT);
	uint64_t addr = e & ARA_RTM_ADDR_MASK, vaddr;
	const struct ara_rtm_module *m;
	struct ara_rtm_module_file *f;
	const struct ara_rtm_addrs *set;
	const struct ara_rtm_sym *sym;
	const char *why;
	char symtext[300];
	enum ara_rtm_module_fail fail;

	if (kind != ARA_RTM_ICALL && kind != ARA_RTM_RET && kind != ARA_RTM_IJMP)
		return say(r, ARA_RTM_VERDICT_REJECTED, "entry #%llu: unknown kind %u (0x%016llx)",
			   (unsigned long long)n, kind, (unsigned long long)e);
	m = module_of(s, addr);
	if (m == NULL)
		return say(r, ARA_RTM_VERDICT_REJECTED, "entry #%llu: %s 0x%llx is in no code module",
			   (unsigned long long)n, kind_text[kind], (unsigned long long)addr);
	f = ara_rtm_modcache_get(r->mc, m->path, m->path_len, &why, &fail);
	if (f == NULL)
		return say(r, verdict_of(fail), "%s", why);
	if (ara_rtm_targets_vaddr(&f->targets, m->start, m->offset, addr, &vaddr))
		return say(r, ARA_RTM_VERDICT_REJECTED,
			   "entry #%llu: %s 0x%llx (%s at file offset 0x%llx) is outside the "
			   "file's loadable segments",
			   (unsigned long long)n, kind_text[kind], (unsigned long long)addr, f->path,
			   (unsigned long long)(addr - m->start + m->offset));
	set = kind == ARA_RTM_ICALL ? &f->targets.func
	      : kind == ARA_RTM_RET ? &f->targets.ret
				    : &f->targets.ijmp;
	if (ara_rtm_addrs_has(set, vaddr))
		return ARA_RTM_VERDICT_OK;
	sym = ara_rtm_targets_symbol(&f->targets, vaddr);
	if (sym != NULL)
		snprintf(symtext, sizeof(symtext), "%s+0x%llx", sym->name,
			 (unsigned long long)(vaddr - sym->addr));
	else
		snprintf(symtext, sizeof(symtext), "no symbol before it");
	return say(r, ARA_RTM_VERDICT_REJECTED, "entry #%llu: %s 0x%llx (%s+0x%llx, %s) %s",
		   (unsigned long long)n, kind_text[kind], (unsigned long long)addr, f->path,
		   (unsigned long long)vaddr, symtext, not_text[kind]);
}

/*
 * Every entry in run order. An entry of segment i is checked against the
 * module table of the first document that sealed it (sealed > i): the
 * mappings closest after it was logged; pending entries against the report's.
 */
static enum ara_rtm_verdict check_entries(struct run *r, uint64_t nseg)
{
	enum ara_rtm_verdict v;
	size_t j = 0;
	uint64_t n = 0;

	for (uint64_t i = 0; i < nseg; i++) {
		const uint8_t *seg = r->in->segments + i * ARA_RTM_SEGMENT_BYTES;

		while (r->docs[j].d.sealed <= i)
			j++;
		for (uint32_t k = 0; k < ARA_RTM_SEGMENT_ENTRIES; k++, n++) {
			v = check_entry(r, &r->docs[j], n, ara_get_le64(seg + k * ARA_RTM_ENTRY_BYTES));
			if (v != ARA_RTM_VERDICT_OK)
				return v;
		}
	}
	if (r->in->report != NULL) {
		const struct slot *s = &r->docs[r->ndocs - 1];

		for (uint32_t k = 0; k < s->d.pending_count; k++, n++) {
			v = check_entry(r, s, n, ara_rtm_doc_pending(&s->d, k));
			if (v != ARA_RTM_VERDICT_OK)
				return v;
		}
	}
	return ARA_RTM_VERDICT_OK;
}

/*
 * The App's file, wherever the module cache finds it, gets the App's
 * checks (modules.h) as soon as a document names the App's module, whether
 * or not an entry lands in it.
 */
static enum ara_rtm_verdict check_app_module(struct run *r)
{
	static const char app[] = ARA_RTM_APP_MODULE_PATH;
	const char *why;
	enum ara_rtm_module_fail fail;

	if (!r->mc->app_known && r->in->app_sha256 != NULL) {
		memcpy(r->mc->app_sha256, r->in->app_sha256, ARA_RTM_HASH_BYTES);
		r->mc->app_known = 1;
	}
	for (size_t i = 0; i < r->ndocs; i++)
		for (uint32_t k = 0; k < r->docs[i].d.module_count; k++) {
			const struct ara_rtm_module *m = &r->docs[i].d.modules[k];

			if (m->path_len != sizeof(app) - 1 || memcmp(m->path, app, m->path_len) != 0)
				continue;
			if (ara_rtm_modcache_get(r->mc, m->path, m->path_len, &why, &fail))
				return ARA_RTM_VERDICT_OK;
			return say(r, verdict_of(fail), "%s", why);
		}
	return ARA_RTM_VERDICT_OK;
}

static enum ara_rtm_verdict verify(struct run *r, struct ara_rtm_verify_figures *fig)
{
	const struct ara_rtm_verify_in *in = r->in;
	const struct slot *last;
	uint64_t nseg = in->segments_len / ARA_RTM_SEGMENT_BYTES;
	enum ara_rtm_verdict v;
	char counts[64] = "";

	if (in->report == NULL && in->checkpoints == NULL)
		return say(r, ARA_RTM_VERDICT_ERROR, "neither a report nor checkpoints to verify");
	v = read_docs(r);
	if (v == ARA_RTM_VERDICT_OK)
		v = check_app_module(r);
	if (v != ARA_RTM_VERDICT_OK)
		return v;
	last = &r->docs[r->ndocs - 1];
	/*
	 * A report over a nonce the App knew early (given at its start, or the
	 * batch's) shows the run only up to when the App asked for it; a final
	 * one closed the log, so nothing can follow it.
	 */
	if (!in->interim && (in->report == NULL || !(last->d.flags & ARA_RTM_DOC_FINAL)))
		return say(r, ARA_RTM_VERDICT_REJECTED,
			   "%s: no final report: the evidence covers the run only up to some point "
			   "(--interim accepts that, when the verifier's nonce was fresh)",
			   in->report == NULL ? "checkpoints" : "report");
	if (in->segments_len % ARA_RTM_SEGMENT_BYTES != 0)
		return say(r, ARA_RTM_VERDICT_REJECTED,
			   "segments: %zu bytes is not a whole number of %u-byte segments",
			   in->segments_len, ARA_RTM_SEGMENT_BYTES);
	if (last->d.sealed != nseg)
		return say(r, ARA_RTM_VERDICT_REJECTED, "%s: seals %llu segments, %llu given",
			   last->name, (unsigned long long)last->d.sealed,
			   (unsigned long long)nseg);
	v = check_chain(r, nseg);
	if (v == ARA_RTM_VERDICT_OK)
		v = check_entries(r, nseg);
	if (v != ARA_RTM_VERDICT_OK)
		return v;
	fig->segments = nseg;
	fig->pending = in->report != NULL ? last->d.pending_count : 0;
	fig->entries = nseg * ARA_RTM_SEGMENT_ENTRIES + fig->pending;
	fig->checkpoints = in->checkpoints == NULL ? 0
			   : in->report != NULL	   ? r->ndocs - 1
						   : r->ndocs;
	fig->final = in->report != NULL && (last->d.flags & ARA_RTM_DOC_FINAL);
	if (in->checkpoints != NULL)
		snprintf(counts, sizeof(counts), ", %zu checkpoints", fig->checkpoints);
	return say(r, ARA_RTM_VERDICT_OK,
		   "OK: %llu entries (%llu segments, %u pending%s), all targets valid%s",
		   (unsigned long long)fig->entries, (unsigned long long)fig->segments,
		   fig->pending, counts,
		   fig->final ? ", the whole run (final report)"
			      : "; interim: the run after this evidence is not covered");
}

enum ara_rtm_verdict ara_rtm_verify(const struct ara_rtm_verify_in *in, struct ara_rtm_modcache *mc,
				    struct ara_rtm_verify_figures *fig, char *msg, size_t cap)
{
	struct run r = { .in = in, .mc = mc, .msg = msg, .cap = cap };
	struct ara_rtm_verify_figures figures = { 0 };
	enum ara_rtm_verdict v = verify(&r, &figures);

	free(r.docs);
	if (fig != NULL)
		*fig = figures; /* set only on the way to OK */
	return v;
}
