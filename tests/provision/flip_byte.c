/* SPDX-License-Identifier: Apache-2.0 */
/*
 * flip_byte FILE MARKER: increments the byte after the first occurrence of
 * MARKER in FILE, in place; the file then differs from before in exactly
 * that byte. Test helper (not an ARA App): the provisioning tests make
 * one-byte variants of the App and of libara.so with it.
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	FILE *f;
	long size;
	char *data, *hit;
	size_t mlen;

	if (argc != 3 || !(f = fopen(argv[1], "r+b")))
		return fprintf(stderr, "usage: flip_byte FILE MARKER (a writable FILE)\n"), 2;
	mlen = strlen(argv[2]);
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) ||
	    !(data = malloc((size_t)size)) || fread(data, 1, (size_t)size, f) != (size_t)size)
		return fprintf(stderr, "flip_byte: cannot read %s\n", argv[1]), 1;
	hit = memmem(data, (size_t)size, argv[2], mlen);
	if (!hit || hit + mlen >= data + size)
		return fprintf(stderr, "flip_byte: '%s' not in %s\n", argv[2], argv[1]), 1;
	hit[mlen]++;
	if (fseek(f, hit + mlen - data, SEEK_SET) || fputc(hit[mlen], f) == EOF || fclose(f))
		return fprintf(stderr, "flip_byte: cannot write %s\n", argv[1]), 1;
	printf("flip_byte: %s: byte at %ld incremented\n", argv[1], (long)(hit + mlen - data));
	return 0;
}
