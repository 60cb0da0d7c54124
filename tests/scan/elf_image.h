/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test helper: an arm64 ELF file read whole into memory, and its executable
 * PT_LOAD segments, the code the loader would map executable.
 */
#ifndef ARA_TEST_ELF_IMAGE_H
#define ARA_TEST_ELF_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#define ELF_SEGMENTS_MAX 16

struct elf_image {
	uint8_t *bytes; /* malloc'd, so aligned for any word access */
	size_t size;
};

/* One executable segment's bytes in the file; size is p_filesz rounded
 * down to whole instructions. */
struct elf_segment {
	size_t offset;
	size_t size;
	uint64_t vaddr;
};

/* 0, or -1 after printing why to stderr. */
int elf_image_load(const char *path, struct elf_image *img);
void elf_image_free(struct elf_image *img);

/* Checks that img is a little-endian ELF64 for AArch64 whose program
 * headers and executable segments lie inside the file, and lists those
 * segments. 0, or -1 after printing why to stderr. */
int elf_exec_segments(const struct elf_image *img, const char *name,
		      struct elf_segment seg[ELF_SEGMENTS_MAX], size_t *count);

#endif /* ARA_TEST_ELF_IMAGE_H */
