/* SPDX-License-Identifier: Apache-2.0 */
#include "elf_image.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int elf_image_load(const char *path, struct elf_image *img)
{
	FILE *f = fopen(path, "rb");
	long size = -1;

	img->bytes = NULL;
	img->size = 0;
	if (!f) {
		perror(path);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) == 0)
		size = ftell(f);
	if (size > 0 && fseek(f, 0, SEEK_SET) == 0)
		img->bytes = malloc((size_t)size);
	if (img->bytes && fread(img->bytes, 1, (size_t)size, f) == (size_t)size)
		img->size = (size_t)size;
	fclose(f);
	if (!img->size) {
		fprintf(stderr, "%s: cannot read the file\n", path);
		elf_image_free(img);
		return -1;
	}
	return 0;
}

void elf_image_free(struct elf_image *img)
{
	free(img->bytes);
	img->bytes = NULL;
	img->size = 0;
}

/* True if [offset, offset + len) lies inside the image. */
static int in_image(const struct elf_image *img, uint64_t offset, uint64_t len)
{
	return offset <= img->size && len <= img->size - offset;
}

static int check_header(const struct elf_image *img, const char *name,
			Elf64_Ehdr *eh)
{
	if (img->size < sizeof(*eh)) {
		fprintf(stderr, "%s: too short for an ELF header\n", name);
		return -1;
	}
	memcpy(eh, img->bytes, sizeof(*eh));
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_machine != EM_AARCH64) {
		fprintf(stderr, "%s: not a little-endian ELF64 for AArch64\n",
			name);
		return -1;
	}
	if (eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    !in_image(img, eh->e_phoff,
		      (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr))) {
		fprintf(stderr, "%s: program headers outside the file\n", name);
		return -1;
	}
	return 0;
}

int elf_exec_segments(const struct elf_image *img, const char *name,
		      struct elf_segment seg[ELF_SEGMENTS_MAX], size_t *count)
{
	Elf64_Ehdr eh;

	*count = 0;
	if (check_header(img, name, &eh))
		return -1;
	for (size_t i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, img->bytes + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		/* Instructions sit at 4-aligned addresses, and p_offset is
		 * congruent to p_vaddr modulo the page size. */
		if (!in_image(img, ph.p_offset, ph.p_filesz) ||
		    ph.p_offset % 4 || ph.p_vaddr % 4 ||
		    *count == ELF_SEGMENTS_MAX) {
			fprintf(stderr, "%s: bad executable segment %zu\n", name, i);
			return -1;
		}
		seg[*count].offset = ph.p_offset;
		seg[*count].size = ph.p_filesz & ~(uint64_t)3;
		seg[*count].vaddr = ph.p_vaddr;
		(*count)++;
	}
	if (*count == 0) {
		fprintf(stderr, "%s: no executable segment\n", name);
		return -1;
	}
	return 0;
}
