/* SPDX-License-Identifier: Apache-2.0 */
#include "cache_head.h"

#include <linux/audit.h>
#include <linux/seccomp.h>

/* The most numbers a head covers; far above arm64's. */
#define MAX_NR 1024u

/* Runs of numbers with one outcome: run i starts at start[i] and ends where run i + 1 starts. */
struct runs {
	uint32_t start[MAX_NR + 1];
	uint8_t allow[MAX_NR + 1];
	size_t n;
};

struct emitter {
	struct sock_filter *out; /* NULL: only count */
	size_t len, cap;
	size_t end; /* the index of the first instruction after the head */
};

static void emit(struct emitter *e, uint16_t code, uint32_t k, uint8_t jt, uint8_t jf)
{
	if (e->out && e->len < e->cap) {
		e->out[e->len].code = code;
		e->out[e->len].jt = jt;
		e->out[e->len].jf = jf;
		e->out[e->len].k = k;
	}
	e->len++;
}

/* To the instruction after the head: the rest of the filter. */
static void emit_rest(struct emitter *e)
{
	emit(e, BPF_JMP | BPF_JA, (uint32_t)(e->end - e->len - 1), 0, 0);
}

/*
 * A binary search over runs lo..hi with A = nr: a number that does not pass
 * costs a few compares before it reaches the rest of the filter.
 */
static void tree(struct emitter *e, const struct runs *r, size_t lo, size_t hi)
{
	struct emitter dry = { NULL, 0, 0, 0 };
	size_t mid;

	if (lo == hi) {
		if (r->allow[lo])
			emit(e, BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
		else
			emit_rest(e);
		return;
	}
	mid = (lo + hi + 1) / 2;
	tree(&dry, r, lo, mid - 1); /* the size of the left half, jumped over */
	if (dry.len <= 255) {
		emit(e, BPF_JMP | BPF_JGE | BPF_K, r->start[mid], (uint8_t)dry.len, 0);
	} else {
		emit(e, BPF_JMP | BPF_JGE | BPF_K, r->start[mid], 0, 1);
		emit(e, BPF_JMP | BPF_JA, (uint32_t)dry.len, 0, 0);
	}
	tree(e, r, lo, mid - 1);
	tree(e, r, mid, hi);
}

static void head(struct emitter *e, const struct runs *r)
{
	emit(e, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch), 0, 0);
	emit(e, BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_AARCH64, 1, 0);
	emit_rest(e);
	emit(e, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr), 0, 0);
	tree(e, r, 0, r->n - 1);
}

size_t ara_seccomp_cache_head(const uint8_t *allowed, uint32_t count, struct sock_filter *out, size_t cap)
{
	struct runs r;
	struct emitter e = { NULL, 0, 0, 0 };

	if (count == 0 || count > MAX_NR)
		return 0;
	r.n = 0;
	/* Number count and above: the rest of the filter. */
	for (uint32_t nr = 0; nr <= count; nr++) {
		const uint8_t allow = nr < count && allowed[nr];

		if (r.n == 0 || allow != r.allow[r.n - 1]) {
			r.start[r.n] = nr;
			r.allow[r.n++] = allow;
		}
	}
	head(&e, &r); /* its length, so that the jumps to the rest know where it ends */
	if (e.len > cap)
		return 0;
	e = (struct emitter){ out, 0, cap, e.len };
	head(&e, &r);
	return e.len;
}
