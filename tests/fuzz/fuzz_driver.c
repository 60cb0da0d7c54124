/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_driver [--iterations N] [--seed S] [CORPUS_FILE...]
 *
 * A plain-C stand-in for libFuzzer, so every build (gcc, ASan/UBSan, and
 * the arm64 guest) runs the fuzz targets: it feeds each corpus file to
 * LLVMFuzzerTestOneInput, then N inputs made by mutating corpus entries with
 * a seeded xorshift generator. Deterministic: the same seed and corpus give
 * the same inputs. A property violation aborts inside the target. Each
 * corpus file is read whole, however large.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_check.h"

#define CORPUS_MAX 64
/* How far a mutated input may grow past the largest corpus entry. */
#define GROWTH_MAX 8192

/* Bytes that steer mutations toward the shapes the parsers expect. */
static const char alphabet[] = "0123456789abcdefABx-: \n\0rwxps/[]()";

struct input {
	uint8_t *bytes;
	size_t len, cap;
};

static uint32_t next_random(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

/* The whole file into in; -1 with the reason said. */
static int load(const char *path, struct input *in)
{
	FILE *f = fopen(path, "rb");
	struct stat st;

	if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		perror(path);
		if (f)
			fclose(f);
		return -1;
	}
	in->cap = (size_t)st.st_size;
	in->bytes = malloc(in->cap ? in->cap : 1);
	FUZZ_CHECK(in->bytes);
	in->len = fread(in->bytes, 1, in->cap, f);
	if (in->len != in->cap || ferror(f)) {
		fprintf(stderr, "%s: read %zu of its %zu bytes\n", path, in->len, in->cap);
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static void insert(struct input *in, size_t at, const uint8_t *src, size_t n)
{
	if (n > in->cap - in->len)
		n = in->cap - in->len;
	memmove(in->bytes + at + n, in->bytes + at, in->len - at);
	memmove(in->bytes + at, src, n);
	in->len += n;
}

/* One random edit: flip a bit, overwrite or insert a byte, delete or copy
 * a run, truncate, or splice in part of another corpus entry. */
static void mutate(struct input *in, const struct input *other, uint32_t *rng)
{
	uint32_t r = next_random(rng);
	size_t at = in->len ? next_random(rng) % in->len : 0;
	size_t n = 1 + next_random(rng) % 64;
	uint8_t byte = (uint8_t)alphabet[next_random(rng) % (sizeof(alphabet) - 1)];

	switch (r % 8) {
	case 0:
		if (in->len)
			in->bytes[at] ^= (uint8_t)(1u << ((r >> 8) % 8));
		break;
	case 1:
		if (in->len)
			in->bytes[at] = byte;
		break;
	case 2:
		insert(in, at, &byte, 1);
		break;
	case 3:
		n = n < in->len - at ? n : in->len - at;
		memmove(in->bytes + at, in->bytes + at + n, in->len - at - n);
		in->len -= n;
		break;
	case 4: {
		uint8_t run[64];

		n = n < in->len - at ? n : in->len - at;
		memcpy(run, in->bytes + at, n);
		insert(in, next_random(rng) % (in->len + 1), run, n);
		break;
	}
	case 5:
		in->len = at;
		break;
	case 6:
		if (other->len) {
			size_t from = next_random(rng) % other->len;

			n = n < other->len - from ? n : other->len - from;
			insert(in, at, other->bytes + from, n);
		}
		break;
	default:
		if (in->len)
			in->bytes[at] = (uint8_t)r;
		break;
	}
}

/* Like libFuzzer, hands the target a heap copy of exactly len bytes, so
 * ASan sees any read past the end. */
static void run_exact(const uint8_t *bytes, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);

	FUZZ_CHECK(copy);
	memcpy(copy, bytes, len);
	LLVMFuzzerTestOneInput(copy, len);
	free(copy);
}

int main(int argc, char **argv)
{
	static struct input corpus[CORPUS_MAX], in;
	unsigned long iterations = 10000, seed = 1;
	size_t n = 0, files, largest = 0;
	uint32_t rng;
	int i = 1;

	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "--iterations"))
			iterations = strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoul(argv[i + 1], NULL, 0);
		else
			break;
	}
	for (; i < argc; i++) {
		if (n == CORPUS_MAX || load(argv[i], &corpus[n]))
			return 2;
		run_exact(corpus[n].bytes, corpus[n].len);
		largest = corpus[n].len > largest ? corpus[n].len : largest;
		n++;
	}
	files = n;
	if (n == 0)
		n = 1; /* no corpus: grow inputs from one empty entry */
	in.cap = largest + GROWTH_MAX;
	in.bytes = malloc(in.cap);
	FUZZ_CHECK(in.bytes);
	rng = (uint32_t)seed ? (uint32_t)seed : 1;
	for (unsigned long k = 0; k < iterations; k++) {
		const struct input *base = &corpus[next_random(&rng) % n];
		unsigned int edits = 1 + next_random(&rng) % 8;

		if (base->len)
			memcpy(in.bytes, base->bytes, base->len);
		in.len = base->len;
		for (unsigned int e = 0; e < edits; e++)
			mutate(&in, &corpus[next_random(&rng) % n], &rng);
		run_exact(in.bytes, in.len);
	}
	printf("fuzz-smoke: %zu corpus inputs (the largest %zu bytes, each whole), %lu mutated "
	       "inputs, seed %lu: no property violated\n",
	       files, largest, iterations, seed);
	for (size_t k = 0; k < files; k++)
		free(corpus[k].bytes);
	free(in.bytes);
	return 0;
}
