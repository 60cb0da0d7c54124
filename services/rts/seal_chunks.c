/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-seal-chunks: the packager of RTS sealed chunk streams
 * (chunk_format.h, docs/rts.md, docs/man/ara-seal-chunks.1). It runs where
 * the content is prepared, never on the device.
 *
 *   ara-seal-chunks --key-file FILE|- --key-id HEX [--chunk-size N] IN OUT
 *
 * The key (16 or 32 bytes, AES-128/256-GCM) is read as hex from a file or
 * stdin, never from the command line, where ps would show it. OUT appears
 * whole or not at all (ara_out_open) and is never IN. The nonce prefix is
 * fresh from getrandom.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <mbedtls/platform_util.h>

#include "ara_cli.h"
#include "chunk_format.h"
#include "ara/hex.h"

/* Exit statuses (docs/man/ara-seal-chunks.1), beside ARA_CLI_OK and
 * ARA_CLI_USAGE (also a malformed key or key ID, an empty IN, OUT is IN). */
enum ara_seal_exit {
	ARA_SEAL_EXIT_FAILED = 1, /* the random source or the cipher failed */
	ARA_SEAL_EXIT_IO = 3,	  /* IN, OUT or the key file cannot be read or written */
};

static const char usage_text[] =
	"usage: ara-seal-chunks --key-file FILE --key-id HEX [--chunk-size N] IN OUT\n"
	"Seal IN as an RTS chunk stream (AES-GCM) into OUT, which appears whole\n"
	"or not at all and is never IN.\n"
	"\n"
	"  -k, --key-file FILE  the content key: 32 or 64 hex digits (AES-128 or\n"
	"                       AES-256) and at most one newline; - reads stdin\n"
	"  -i, --key-id HEX     the key ID: 32 hex digits\n"
	"  -c, --chunk-size N   plaintext bytes per chunk, 1..65536 (default 65536)\n"
	"  -h, --help           print this help to stdout and exit 0\n"
	"  -V, --version        print the version to stdout and exit 0\n"
	"\n"
	"Exit status: 0 sealed; 1 the random source or the cipher failed;\n"
	"  2 usage error, a malformed key or key ID, an empty IN, or OUT is IN;\n"
	"  3 I/O error (IN, OUT or the key file cannot be read or written).\n";

struct options {
	const char *key_file;
	struct ara_rts_header h;
	const char *in, *out;
};

static void parse_options(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "key-file", required_argument, NULL, 'k' },
		{ "key-id", required_argument, NULL, 'i' },
		{ "chunk-size", required_argument, NULL, 'c' },
		ARA_CLI_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	bool have_key_id = false;
	int c;

	opt->h.chunk_size = ARA_RTS_CHUNK_MAX;
	while ((c = getopt_long(argc, argv, ":k:i:c:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'k':
			opt->key_file = optarg;
			break;
		case 'i':
			if (ara_hex_decode(optarg, opt->h.key_id, sizeof(opt->h.key_id)) !=
			    sizeof(opt->h.key_id))
				ara_usage_error("--key-id: '%s' is not 32 hex digits", optarg);
			have_key_id = true;
			break;
		case 'c':
			opt->h.chunk_size =
				(uint32_t)ara_cli_number("--chunk-size", optarg, 1, ARA_RTS_CHUNK_MAX);
			break;
		default:
			ara_cli_option(c, argv, usage_text);
		}
	}
	if (opt->key_file == NULL)
		ara_usage_error("--key-file is required");
	if (!have_key_id)
		ara_usage_error("--key-id is required");
	if (argc - optind != 2)
		ara_usage_error("IN and OUT are required, and nothing after them");
	opt->in = argv[optind];
	opt->out = argv[optind + 1];
	if (strcmp(opt->in, opt->out) == 0)
		ara_usage_error("%s: IN and OUT are the same file", opt->out);
}

/* The key from its file or stdin; its length in bytes (16 or 32). */
static size_t read_key(const char *path, uint8_t key[32])
{
	char text[2 * 32 + 2 + 1]; /* 64 digits, a newline, one byte to spare, NUL */
	const char *name = strcmp(path, "-") == 0 ? "stdin" : path;
	int fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	long n;

	if (fd < 0)
		ara_die_file(ARA_SEAL_EXIT_IO, path, "cannot open the key file");
	if (ara_read_upto(fd, text, sizeof(text) - 1, &len) != 0)
		ara_die_file(ARA_SEAL_EXIT_IO, name, "cannot read the key");
	if (fd != 0)
		close(fd);
	if (len > 0 && text[len - 1] == '\n')
		len--;
	text[len] = '\0';
	n = len == 32 || len == 64 ? ara_hex_decode(text, key, 32) : -1;
	mbedtls_platform_zeroize(text, sizeof(text));
	if (n != 16 && n != 32)
		ara_die(ARA_CLI_USAGE, "%s: the key is not 32 or 64 hex digits and a newline", name);
	return (size_t)n;
}

/* Up to want bytes of IN; fewer only at its end. */
static size_t read_some(int fd, const char *path, uint8_t *buf, size_t want)
{
	size_t n;

	if (ara_read_upto(fd, buf, want, &n) != 0)
		ara_die_file(ARA_SEAL_EXIT_IO, path, "cannot read");
	return n;
}

/* Seals IN into out, one chunk ahead: a chunk is final if nothing follows.
 * Returns the number of chunks. */
static uint32_t seal(mbedtls_gcm_context *gcm, const struct options *opt, int in, int out)
{
	static uint8_t cur[ARA_RTS_CHUNK_MAX], next[ARA_RTS_CHUNK_MAX],
		sealed[ARA_RTS_CHUNK_MAX + ARA_RTS_TAG_BYTES];
	uint8_t header[ARA_RTS_HEADER_BYTES];
	size_t cur_len, next_len;
	uint32_t index = 0;

	ara_rts_header_encode(&opt->h, header);
	if (ara_write_all(out, header, sizeof(header)) != 0)
		ara_die_file(ARA_SEAL_EXIT_IO, opt->out, "cannot write");
	cur_len = read_some(in, opt->in, cur, opt->h.chunk_size);
	if (cur_len == 0)
		ara_die(ARA_CLI_USAGE, "%s: empty: a stream has at least one chunk", opt->in);
	for (;;) {
		int final;

		next_len = cur_len == opt->h.chunk_size ?
				   read_some(in, opt->in, next, opt->h.chunk_size) : 0;
		final = next_len == 0;
		if (index == UINT32_MAX)
			ara_die(ARA_CLI_USAGE, "%s: more than 2^32 - 1 chunks", opt->in);
		if (ara_rts_seal(gcm, &opt->h, index, final, cur, cur_len, sealed) != 0)
			ara_die(ARA_SEAL_EXIT_FAILED, "sealing chunk %u failed", index);
		if (ara_write_all(out, sealed, cur_len + ARA_RTS_TAG_BYTES) != 0)
			ara_die_file(ARA_SEAL_EXIT_IO, opt->out, "cannot write");
		if (final)
			return index + 1;
		memcpy(cur, next, next_len);
		cur_len = next_len;
		index++;
	}
}

int main(int argc, char **argv)
{
	struct options opt = { 0 };
	mbedtls_gcm_context gcm;
	struct ara_out out;
	uint8_t key[32];
	size_t key_len;
	uint32_t chunks;
	int in, same;

	ara_cli_init("ara-seal-chunks");
	parse_options(argc, argv, &opt);
	in = open(opt.in, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		ara_die_file(ARA_SEAL_EXIT_IO, opt.in, "cannot open");
	same = ara_same_file(in, opt.out);
	if (same < 0)
		ara_die_file(ARA_SEAL_EXIT_IO, opt.out, "cannot stat");
	if (same)
		ara_usage_error("%s: OUT is IN (%s): sealing would destroy the input",
				opt.out, opt.in);
	key_len = read_key(opt.key_file, key);
	if (getrandom(opt.h.prefix, sizeof(opt.h.prefix), 0) != sizeof(opt.h.prefix))
		ara_die(ARA_SEAL_EXIT_FAILED, "getrandom: %s", strerror(errno));
	mbedtls_gcm_init(&gcm);
	if (mbedtls_gcm_setkey(&gcm, MBEDTLS_CIPHER_ID_AES, key, (unsigned int)key_len * 8) != 0)
		ara_die(ARA_SEAL_EXIT_FAILED, "the cipher refused the key");
	mbedtls_platform_zeroize(key, sizeof(key));
	if (ara_out_open(&out, opt.out, 0644) != 0)
		ara_die_file(ARA_SEAL_EXIT_IO, opt.out, "cannot create a temporary file beside it");
	chunks = seal(&gcm, &opt, in, out.fd);
	mbedtls_gcm_free(&gcm);
	close(in);
	if (ara_out_commit(&out) != 0)
		ara_die_file(ARA_SEAL_EXIT_IO, opt.out, "cannot write");
	printf("ara-seal-chunks: %u chunks of at most %u bytes\n", chunks, opt.h.chunk_size);
	return ARA_CLI_OK;
}
