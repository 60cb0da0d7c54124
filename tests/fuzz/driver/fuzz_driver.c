/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A driver for libFuzzer targets built with gcc: it replays every file of a
 * seed corpus through LLVMFuzzerTestOneInput, then a fixed number of
 * deterministic mutations of those seeds. Under ASan/UBSan (the host build)
 * any memory error or undefined behaviour aborts the run, and so does a
 * target's own invariant check. A smoke test, not a fuzzer: it keeps the
 * targets working and the parsers honest near valid input. The same target
 * sources link with clang -fsanitize=fuzzer for open-ended fuzzing.
 *
 * Usage: <target> CORPUS_DIR ITERATIONS
 * Prints "fuzz-driver: <n> seeds, <m> mutated inputs, no crash" at the end.
 * The mutations depend only on the corpus: a failure reproduces by running
 * the same command again (under a debugger, say).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>

#include "fuzz_driver.h"

#define MAX_SEEDS 256u
#define MAX_SEED_SIZE (1u << 20)
#define GROWTH 256u /* bytes mutations may add to a seed */

struct seed {
	uint8_t *data;
	size_t size;
};

static struct seed seeds[MAX_SEEDS];
static size_t nseeds;
static uint64_t rng_state = 0x9e3779b97f4a7c15ull; /* fixed: reproducible */

static noreturn void die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz-driver: %s%s%s\n", what, detail[0] ? ": " : "",
		detail);
	exit(2);
}

static uint64_t rng(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

/* A position in [0, n), biased towards the start, where headers are. */
static size_t position(size_t n)
{
	size_t limit = (size_t)1 << (rng() % 16);

	return (size_t)(rng() % (n < limit ? n : limit));
}

/* Runs one input from its own allocation, so ASan sees an over-read. */
static void run(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);

	if (copy == NULL)
		die("out of memory", "");
	memcpy(copy, data, size);
	LLVMFuzzerTestOneInput(copy, size);
	free(copy);
}

static void load_seed(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;
	struct seed *s = &seeds[nseeds];

	if (nseeds == MAX_SEEDS)
		die("too many seeds in", dir);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	s->data = malloc(MAX_SEED_SIZE);
	if (f == NULL || s->data == NULL)
		die("cannot read seed", path);
	s->size = fread(s->data, 1, MAX_SEED_SIZE, f);
	if (ferror(f) || !feof(f))
		die("seed unreadable or larger than 1 MiB", path);
	fclose(f);
	nseeds++;
}

/* Loads the corpus' regular files, in name order. */
static void load_corpus(const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);

	if (n < 0)
		die("cannot list the corpus", dir);
	for (int i = 0; i < n; i++) {
		if (names[i]->d_type == DT_REG)
			load_seed(dir, names[i]->d_name);
		free(names[i]);
	}
	free(names);
	if (nseeds == 0)
		die("no seeds in", dir); /* testing nothing must not pass */
}

static const uint8_t byte_values[] = { 0x00, 0x01, 0x7f, 0x80, 0xff,
				       '\n', ' ', '0', 'a', '/' };
static const uint64_t word_values[] = { 0, 1, 0x1000, 0xffff, 0xffffffffu,
					0x7fffffffffffffffull,
					0x8000000000000000ull, UINT64_MAX };

/* One random edit of buf (len bytes, room for cap). */
static size_t mutate_once(uint8_t *buf, size_t len, size_t cap)
{
	size_t pos = len ? position(len) : 0;
	size_t n;

	switch (rng() % 8) {
	case 0: /* flip a bit */
		if (len)
			buf[pos] ^= (uint8_t)(1u << (rng() % 8));
		break;
	case 1:
		if (len)
			buf[pos] = byte_values[rng() % sizeof(byte_values)];
		break;
	case 2:
		if (len)
			buf[pos] = (uint8_t)rng();
		break;
	case 3: /* an interesting 64-bit little-endian value */
		if (len >= 8) {
			uint64_t v = word_values[rng() % (sizeof(word_values) /
							  sizeof(word_values[0]))];

			pos = position(len - 7) & ~(size_t)7;
			memcpy(buf + pos, &v, sizeof(v));
		}
		break;
	case 4: /* insert a byte */
		if (len < cap) {
			memmove(buf + pos + 1, buf + pos, len - pos);
			buf[pos] = byte_values[rng() % sizeof(byte_values)];
			len++;
		}
		break;
	case 5: /* delete a byte */
		if (len) {
			memmove(buf + pos, buf + pos + 1, len - pos - 1);
			len--;
		}
		break;
	case 6: /* truncate */
		len = pos;
		break;
	default: /* copy a chunk over another place */
		if (len >= 2) {
			size_t from = position(len);

			n = 1 + rng() % (len - (from > pos ? from : pos));
			memmove(buf + pos, buf + from, n);
		}
		break;
	}
	return len;
}

int main(int argc, char **argv)
{
	unsigned long iterations;
	uint8_t *buf;
	char *end;

	if (argc != 3)
		die("usage: <target> CORPUS_DIR ITERATIONS", "");
	errno = 0;
	iterations = strtoul(argv[2], &end, 10);
	if (errno != 0 || *end != '\0' || end == argv[2])
		die("ITERATIONS is not a number", argv[2]);
	load_corpus(argv[1]);
	for (size_t i = 0; i < nseeds; i++)
		run(seeds[i].data, seeds[i].size);

	buf = malloc(MAX_SEED_SIZE + GROWTH);
	if (buf == NULL)
		die("out of memory", "");
	for (unsigned long i = 0; i < iterations; i++) {
		const struct seed *s = &seeds[rng() % nseeds];
		size_t len = s->size, edits = 1 + rng() % 4;

		memcpy(buf, s->data, len);
		while (edits--)
			len = mutate_once(buf, len, s->size + GROWTH);
		run(buf, len);
	}
	free(buf);
	for (size_t i = 0; i < nseeds; i++)
		free(seeds[i].data);
	printf("fuzz-driver: %zu seeds, %lu mutated inputs, no crash\n", nseeds,
	       iterations);
	return 0;
}
