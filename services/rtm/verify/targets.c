/* SPDX-License-Identifier: Apache-2.0 */
/* Valid targets of an AArch64 ELF file (targets.h). */
#include "targets.h"

#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

#include "ara/bytes.h"

static int addrs_push(struct ara_rtm_addrs *a, uint64_t v)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 256;
		uint64_t *p = realloc(a->v, cap * sizeof(*p));

		if (p == NULL)
			return -1;
		a->v = p;
		a->cap = cap;
	}
	a->v[a->n++] = v;
	return 0;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

static void addrs_sort(struct ara_rtm_addrs *a)
{
	size_t out = 0;

	if (a->n == 0)
		return;
	qsort(a->v, a->n, sizeof(*a->v), cmp_u64);
	for (size_t i = 1; i < a->n; i++)
		if (a->v[i] != a->v[out])
			a->v[++out] = a->v[i];
	a->n = out + 1;
}

int ara_rtm_addrs_has(const struct ara_rtm_addrs *a, uint64_t vaddr)
{
	return a->n > 0 && bsearch(&vaddr, a->v, a->n, sizeof(*a->v), cmp_u64) != NULL;
}

/* Symbols: function entries, and their names for messages. */
struct sym_ctx {
	struct ara_rtm_targets *t;
	size_t cap;
	int oom;
};

static int add_symbol(void *ctx, const struct ara_rtm_elf_sym *s)
{
	struct sym_ctx *c = ctx;
	struct ara_rtm_targets *t = c->t;

	/*
	 * An undefined symbol is an import, unless an ET_EXEC gives it a value:
	 * then that is its PLT entry, the function's address in the program.
	 */
	if (s->type != STT_FUNC || (s->shndx == SHN_UNDEF && s->value == 0) ||
	    ara_rtm_elf_exec_load_of_vaddr(&t->elf, s->value) == NULL)
		return 0;
	if (addrs_push(&t->func, s->value))
		return c->oom = 1;
	if (s->name[0] == '\0')
		return 0;
	if (t->nsyms == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		struct ara_rtm_sym *p = realloc(t->syms, cap * sizeof(*p));

		if (p == NULL)
			return c->oom = 1;
		t->syms = p;
		c->cap = cap;
	}
	t->syms[t->nsyms++] = (struct ara_rtm_sym){ .addr = s->value, .name = s->name };
	return 0;
}

static int cmp_sym(const void *x, const void *y)
{
	const struct ara_rtm_sym *a = x, *b = y;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

/* Address-taken code: what R_AARCH64_RELATIVE relocations store, if it is code. */
static int add_relative(void *ctx, uint64_t target)
{
	struct sym_ctx *c = ctx;

	if (ara_rtm_elf_exec_load_of_vaddr(&c->t->elf, target) == NULL)
		return 0;
	if (addrs_push(&c->t->ijmp, target))
		return c->oom = 1;
	return 0;
}

/* BLRAA, BLRAB (Rn, Rm) and BLRAAZ, BLRABZ (Rn): Arm ARM C6.2, "BLRAA, ...". */
static int is_pac_call(uint32_t w)
{
	return (w & 0xfffffc00u) == 0xd73f0800u || (w & 0xfffffc00u) == 0xd73f0c00u ||
	       (w & 0xfffffc1fu) == 0xd63f081fu || (w & 0xfffffc1fu) == 0xd63f0c1fu;
}

/*
 * Every 4-byte-aligned word of the executable segments, decoded on its
 * own: code has no other structure to follow, and a word of data (a
 * literal pool) that happens to decode as a call only adds a target.
 */
static int add_return_sites(struct ara_rtm_targets *t, const char **why)
{
	csh cs;
	cs_insn *insn;
	int r = 0;

	if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &cs) != CS_ERR_OK) {
		*why = "capstone cannot open an AArch64 disassembler";
		return -1;
	}
	insn = cs_malloc(cs);
	if (insn == NULL) {
		cs_close(&cs);
		*why = "out of memory";
		return -1;
	}
	for (unsigned int i = 0; i < t->elf.nloads && r == 0; i++) {
		const Elf64_Phdr *ph = &t->elf.loads[i];
		uint64_t skip = (4 - (ph->p_vaddr & 3)) & 3;

		if (!(ph->p_flags & PF_X))
			continue;
		for (uint64_t off = skip; off + 4 <= ph->p_filesz; off += 4) {
			const uint8_t *code = t->elf.mem + ph->p_offset + off;
			size_t size = 4;
			uint64_t pc = ph->p_vaddr + off;
			int call = is_pac_call(ara_get_le32(code));

			if (!call && cs_disasm_iter(cs, &code, &size, &pc, insn))
				call = insn->id == ARM64_INS_BL || insn->id == ARM64_INS_BLR;
			if (call && addrs_push(&t->ret, ph->p_vaddr + off + 4)) {
				*why = "out of memory";
				r = -1;
				break;
			}
		}
	}
	cs_free(insn, 1);
	cs_close(&cs);
	return r;
}

int ara_rtm_targets_build(struct ara_rtm_targets *t, const uint8_t *mem, size_t size,
			  const char **why)
{
	struct sym_ctx c = { .t = t };
	enum ara_rtm_elf_err err;

	memset(t, 0, sizeof(*t));
	err = ara_rtm_elf_open(&t->elf, mem, size);
	if (err == ARA_RTM_ELF_OK)
		err = ara_rtm_elf_symbols(&t->elf, add_symbol, &c);
	if (err == ARA_RTM_ELF_OK && !c.oom)
		err = ara_rtm_elf_relative(&t->elf, add_relative, &c);
	if (err != ARA_RTM_ELF_OK) {
		*why = ara_rtm_elf_strerror(err);
		goto fail;
	}
	for (size_t i = 0; i < t->func.n && !c.oom; i++)
		c.oom = addrs_push(&t->ijmp, t->func.v[i]) != 0;
	if (c.oom) {
		*why = "out of memory";
		goto fail;
	}
	if (add_return_sites(t, why))
		goto fail;
	addrs_sort(&t->func);
	addrs_sort(&t->ret);
	addrs_sort(&t->ijmp);
	if (t->nsyms > 0)
		qsort(t->syms, t->nsyms, sizeof(*t->syms), cmp_sym);
	return 0;
fail:
	ara_rtm_targets_free(t);
	return -1;
}

void ara_rtm_targets_free(struct ara_rtm_targets *t)
{
	free(t->func.v);
	free(t->ret.v);
	free(t->ijmp.v);
	free(t->syms);
	memset(t, 0, sizeof(*t));
}

int ara_rtm_targets_vaddr(const struct ara_rtm_targets *t, uint64_t start, uint64_t offset,
			  uint64_t addr, uint64_t *vaddr)
{
	uint64_t off = addr - start + offset; /* the caller has start <= addr */
	const Elf64_Phdr *ph;

	if (off < offset) /* wrapped: no file is that large */
		return -1;
	ph = ara_rtm_elf_load_of_offset(&t->elf, off);
	if (ph == NULL)
		return -1;
	*vaddr = off - ph->p_offset + ph->p_vaddr;
	return 0;
}

const struct ara_rtm_sym *ara_rtm_targets_symbol(const struct ara_rtm_targets *t, uint64_t vaddr)
{
	size_t lo = 0, hi = t->nsyms; /* the answer is below hi */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == 0 ? NULL : &t->syms[lo - 1];
}
