/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-seal-chunks: the packager of RTS sealed chunk streams
 * (chunk_format.h, docs/rts.md). It runs where the content is prepared,
 * never on the device.
 *
 *   ara-seal-chunks --key HEX --key-id HEX [--chunk-size N] IN OUT
 *
 * KEY: 16 or 32 bytes (AES-128/256-GCM); KEY-ID: 16 bytes; N: 1..65536
 * (default 65536). The nonce prefix is fresh from getrandom.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <mbedtls/platform_util.h>

#include "chunk_format.h"
#include "hex.h"

static void die(const char *what)
{
	fprintf(stderr, "ara-seal-chunks: %s\n", what);
	exit(2);
}

/* Up to want bytes from f; fewer only at the end of the file. */
static size_t read_some(FILE *f, uint8_t *buf, size_t want)
{
	size_t n = fread(buf, 1, want, f);

	if (ferror(f))
		die("cannot read the input");
	return n;
}

int main(int argc, char **argv)
{
	static const struct option options[] = { { "key", required_argument, NULL, 'k' },
						 { "key-id", required_argument, NULL, 'i' },
						 { "chunk-size", required_argument, NULL, 'c' },
						 { NULL, 0, NULL, 0 } };
	static uint8_t cur[ARA_RTS_CHUNK_MAX], next[ARA_RTS_CHUNK_MAX],
		sealed[ARA_RTS_CHUNK_MAX + ARA_RTS_TAG_BYTES];
	struct ara_rts_header h = { .chunk_size = ARA_RTS_CHUNK_MAX };
	uint8_t key[32], header[ARA_RTS_HEADER_BYTES];
	long key_len = 0;
	size_t cur_len, next_len;
	mbedtls_gcm_context gcm;
	uint32_t index = 0;
	FILE *in, *out;
	int c;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (c == 'k')
			key_len = ara_hex_decode(optarg, key, sizeof(key));
		else if (c == 'i' &&
			 ara_hex_decode(optarg, h.key_id, sizeof(h.key_id)) != sizeof(h.key_id))
			die("--key-id takes 16 bytes of hex");
		else if (c == 'c')
			h.chunk_size = (uint32_t)strtoul(optarg, NULL, 10);
		else if (c != 'i')
			die("usage: ara-seal-chunks --key HEX --key-id HEX [--chunk-size N] IN OUT");
	}
	if (key_len != 16 && key_len != 32)
		die("--key takes 16 or 32 bytes of hex");
	if (h.chunk_size == 0 || h.chunk_size > ARA_RTS_CHUNK_MAX)
		die("--chunk-size is 1..65536");
	if (optind + 2 != argc || !(in = fopen(argv[optind], "rb")) ||
	    !(out = fopen(argv[optind + 1], "wb")))
		die("usage: ara-seal-chunks --key HEX --key-id HEX [--chunk-size N] IN OUT");
	if (getrandom(h.prefix, sizeof(h.prefix), 0) != sizeof(h.prefix))
		die("getrandom failed");
	mbedtls_gcm_init(&gcm);
	if (mbedtls_gcm_setkey(&gcm, MBEDTLS_CIPHER_ID_AES, key, (unsigned)key_len * 8))
		die("bad key");
	mbedtls_platform_zeroize(key, sizeof(key));
	ara_rts_header_encode(&h, header);
	if (fwrite(header, 1, sizeof(header), out) != sizeof(header))
		die("cannot write the output");
	/* One chunk ahead: a chunk is final if nothing follows it. */
	cur_len = read_some(in, cur, h.chunk_size);
	if (cur_len == 0)
		die("the input is empty");
	for (;;) {
		int final;

		next_len = cur_len == h.chunk_size ? read_some(in, next, h.chunk_size) : 0;
		final = next_len == 0;
		if (index == UINT32_MAX || ara_rts_seal(&gcm, &h, index, final, cur, cur_len, sealed))
			die("sealing failed (or more than 2^32 - 1 chunks)");
		if (fwrite(sealed, 1, cur_len + ARA_RTS_TAG_BYTES, out) != cur_len + ARA_RTS_TAG_BYTES)
			die("cannot write the output");
		if (final)
			break;
		memcpy(cur, next, next_len);
		cur_len = next_len;
		index++;
	}
	mbedtls_gcm_free(&gcm);
	if (fclose(out) || fclose(in))
		die("cannot close the files");
	printf("ara-seal-chunks: %u chunks of at most %u bytes\n", index + 1, h.chunk_size);
	return 0;
}
