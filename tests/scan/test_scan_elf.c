/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_scan_elf ELF NM_LIST OBJDUMP_LIST
 *
 * Scans the executable segments of ELF (built from por_sites.S) and checks
 * the sites found against two lists made at build time by binutils:
 *   - NM_LIST (nm): the labels expect_por_write_*, one per planted write;
 *   - OBJDUMP_LIST (objdump -d): every instruction objdump prints as
 *     "msr s3_3_c10_c2_4, ..." (or "msr por_el0, ..."), which must be
 *     exactly the sites that are MSR (objdump 2.40 cannot name MSRR).
 * Then patches a copy of the whole file and checks that every site is now
 * NOP, that nothing else changed, and that the write encodings in .data are
 * still there.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ara/scan.h"
#include "elf_image.h"

#define SITES_MAX 4096
#define LABEL_PREFIX "expect_por_write_"

struct sites {
	uint64_t addr[SITES_MAX];
	size_t n;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static bool add_site(struct sites *s, uint64_t addr)
{
	if (s->n == SITES_MAX) {
		fprintf(stderr, "more than %d sites\n", SITES_MAX);
		return false;
	}
	s->addr[s->n++] = addr;
	return true;
}

static bool same_sites(const char *what, struct sites *got,
		       struct sites *want)
{
	bool same = got->n == want->n;

	qsort(got->addr, got->n, sizeof(got->addr[0]), cmp_u64);
	qsort(want->addr, want->n, sizeof(want->addr[0]), cmp_u64);
	for (size_t i = 0; same && i < got->n; i++)
		same = got->addr[i] == want->addr[i];
	if (!same) {
		fprintf(stderr, "FAIL %s: scanner found %zu sites, expected %zu\n",
			what, got->n, want->n);
		for (size_t i = 0; i < got->n || i < want->n; i++)
			fprintf(stderr, "  %#14llx  %#14llx\n",
				i < got->n ? (unsigned long long)got->addr[i] : 0,
				i < want->n ? (unsigned long long)want->addr[i] : 0);
	}
	return same;
}

/* Addresses of the nm symbols named LABEL_PREFIX*. */
static bool read_labels(const char *path, struct sites *out)
{
	FILE *f = fopen(path, "r");
	char line[512], name[256], type;
	unsigned long long addr;
	bool ok = true;

	if (!f) {
		perror(path);
		return false;
	}
	while (ok && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 &&
		    !strncmp(name, LABEL_PREFIX, strlen(LABEL_PREFIX)))
			ok = add_site(out, addr);
	fclose(f);
	return ok;
}

/* Addresses of the instructions objdump disassembles as MSR to POR_EL0:
 * lines "  addr:\tword \tmsr\ts3_3_c10_c2_4, xN". */
static bool read_objdump_msr(const char *path, struct sites *out)
{
	FILE *f = fopen(path, "r");
	char line[512], mnemonic[32], operands[128];
	unsigned long long addr;
	unsigned int word;
	bool ok = true;

	if (!f) {
		perror(path);
		return false;
	}
	while (ok && fgets(line, sizeof(line), f))
		if (sscanf(line, " %llx: %x %31s %127[^\n]", &addr, &word,
			   mnemonic, operands) == 4 &&
		    !strcmp(mnemonic, "msr") &&
		    (!strncmp(operands, "s3_3_c10_c2_4,", 14) ||
		     !strncmp(operands, "por_el0,", 8)))
			ok = add_site(out, addr);
	fclose(f);
	return ok;
}

static uint32_t word_at(const uint8_t *p)
{
	uint32_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/* The scanner's sites in every executable segment, as addresses; msr_only
 * receives those that are MSR rather than MSRR (bit 22 clear). */
static bool scan_segments(const struct elf_image *img,
			  const struct elf_segment *seg, size_t nseg,
			  struct sites *all, struct sites *msr_only)
{
	static size_t offsets[SITES_MAX];

	for (size_t i = 0; i < nseg; i++) {
		const uint8_t *code = img->bytes + seg[i].offset;
		size_t found = 0;

		if (ara_scan_por_writes(code, seg[i].size, offsets, SITES_MAX,
					&found) != ARA_SCAN_OK ||
		    found > SITES_MAX) {
			fprintf(stderr, "FAIL scan of segment %zu\n", i);
			return false;
		}
		for (size_t k = 0; k < found; k++) {
			uint64_t addr = seg[i].vaddr + offsets[k];

			if (!add_site(all, addr))
				return false;
			if (!(word_at(code + offsets[k]) & (1u << 22)) &&
			    !add_site(msr_only, addr))
				return false;
		}
	}
	return true;
}

/* Writes in the whole file, code and data alike. */
static size_t writes_in_file(const struct elf_image *img)
{
	size_t found = 0;

	if (ara_scan_por_writes(img->bytes, img->size & ~(size_t)3, NULL, 0,
				&found) != ARA_SCAN_OK)
		return 0;
	return found;
}

/* True if file offset off starts a site (an address in sites). */
static bool is_site(const struct elf_segment *seg, size_t nseg,
		    const struct sites *sites, size_t off)
{
	for (size_t i = 0; i < nseg; i++) {
		if (off < seg[i].offset || off - seg[i].offset >= seg[i].size)
			continue;
		uint64_t addr = seg[i].vaddr + (off - seg[i].offset);

		for (size_t k = 0; k < sites->n; k++)
			if (sites->addr[k] == addr)
				return true;
	}
	return false;
}

/* Patches a copy; only the sites may change, each into a NOP. */
static bool patch_copy(const struct elf_image *img,
		       const struct elf_segment *seg, size_t nseg,
		       const struct sites *sites, size_t file_writes)
{
	struct elf_image copy = { malloc(img->size), img->size };
	size_t patched = 0, changed = 0;
	bool ok = copy.bytes != NULL;

	if (ok)
		memcpy(copy.bytes, img->bytes, img->size);
	for (size_t i = 0; ok && i < nseg; i++) {
		size_t n = 0;

		ok = ara_patch_por_writes(copy.bytes + seg[i].offset,
					  seg[i].size, &n) == ARA_SCAN_OK;
		patched += n;
	}
	for (size_t off = 0; ok && off < img->size; off++) {
		if (off % 4 == 0 && is_site(seg, nseg, sites, off)) {
			ok = word_at(copy.bytes + off) == ARA_INSN_NOP;
			changed += 4;
			off += 3;
		} else {
			ok = copy.bytes[off] == img->bytes[off];
		}
		if (!ok)
			fprintf(stderr, "FAIL byte %#zx after patching\n", off);
	}
	ok = ok && patched == sites->n && changed == 4 * sites->n &&
	     writes_in_file(&copy) == file_writes - sites->n;
	printf("scan-elf: patched %zu sites; every other byte identical; "
	       "%zu write encodings left outside code\n",
	       patched, writes_in_file(&copy));
	elf_image_free(&copy);
	return ok;
}

int main(int argc, char **argv)
{
	static struct sites found, found_msr, labels, disasm;
	struct elf_segment seg[ELF_SEGMENTS_MAX];
	struct elf_image img;
	size_t nseg = 0, file_writes;
	bool ok;

	if (argc != 4) {
		fprintf(stderr, "usage: %s ELF NM_LIST OBJDUMP_LIST\n", argv[0]);
		return 2;
	}
	if (elf_image_load(argv[1], &img) ||
	    elf_exec_segments(&img, argv[1], seg, &nseg))
		return 1;
	ok = scan_segments(&img, seg, nseg, &found, &found_msr) &&
	     read_labels(argv[2], &labels) &&
	     read_objdump_msr(argv[3], &disasm);
	file_writes = writes_in_file(&img);
	printf("scan-elf: %s: %zu sites found, %zu labelled, %zu MSR per "
	       "objdump, %zu write encodings in the whole file\n", argv[1],
	       found.n, labels.n, disasm.n, file_writes);
	ok = ok && labels.n > 0 && disasm.n > 0 &&
	     same_sites("labels", &found, &labels) &&
	     same_sites("objdump", &found_msr, &disasm);
	/* The .data copy must exist, or "left untouched" proves nothing. */
	if (ok && file_writes <= found.n) {
		fprintf(stderr, "FAIL no write encodings outside code\n");
		ok = false;
	}
	ok = ok && patch_copy(&img, seg, nseg, &found, file_writes);
	elf_image_free(&img);
	printf("%s\n", ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}
