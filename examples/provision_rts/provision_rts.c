/* SPDX-License-Identifier: Apache-2.0 */
/*
 * provision_rts: decrypts a sealed stream with a key the App never sees.
 *
 *   provision_rts HOST:PORT IN OUT
 *
 * IN is a sealed chunk stream (ara-seal-chunks: AES-GCM chunks under a
 * content key, docs/rts.md). Its header names the key's ID; the key is
 * provisioned as "kid-<key ID in hex>". The App connects to the
 * provisioner (ara-provision) at HOST:PORT and has ARA obtain that key by
 * attested provisioning: ARA proves to the provisioner what it loaded, and
 * the key goes to ARA's memory, never to the App's (ara/provision.h). The
 * App then hands ARA the stream chunk by chunk; ARA opens each chunk with
 * the key and gives back the clear text, which goes to OUT.
 *
 * Run it under ara-loader with ARA_EVIDENCE set (dev-insecure on a test
 * machine): without platform evidence ARA cannot attest. Exit status 0 when
 * the whole stream was decrypted, 1 when something failed (the message
 * says what), 2 on bad arguments.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ara/provision_client.h>
#include <ara/rts.h>

#define HEADER_BYTES 36 /* "ARAS", version, 3 zero bytes, key ID, nonce prefix, chunk size */
#define CHUNK_MAX 65536
#define TAG_BYTES 16

/* A TCP connection to HOST:PORT, retried for 10 s while the provisioner starts; or -1. */
static int connect_to(const char *spec)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	char host[64];
	const char *colon = strrchr(spec, ':');

	if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof(host))
		return -1;
	snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec);
	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1)
		return -1;
	sa.sin_port = htons((uint16_t)atoi(colon + 1));
	for (int tries = 0; tries < 100; tries++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			return fd;
		if (fd >= 0)
			close(fd);
		usleep(100000);
	}
	return -1;
}

/* Has ARA obtain the key called name from the provisioner at server. */
static int fetch_key(const char *server, const char *name)
{
	struct ara_provision_refusal why;
	struct ara_secret_info_arg info;
	uint32_t handle;
	int fd = connect_to(server), st;

	if (fd < 0) {
		fprintf(stderr, "provision_rts: cannot connect to the provisioner at %s\n", server);
		return -1;
	}
	st = ara_provision_fetch(fd, name, &handle, &why);
	close(fd);
	if (st == ARA_E_REFUSED) {
		fprintf(stderr, "provision_rts: the provisioner refused: %s\n", why.text);
		return -1;
	}
	if (st != ARA_OK) {
		fprintf(stderr, "provision_rts: provisioning failed: %s\n", ara_strerror(st));
		return -1;
	}
	/* What ARA holds now: the key's name and length, never its value. */
	info = (struct ara_secret_info_arg){ .handle = handle };
	st = secure_call(ARA_FID_SECRET_INFO, &info);
	if (st != ARA_OK) {
		fprintf(stderr, "provision_rts: secret info: %s\n", ara_strerror(st));
		return -1;
	}
	printf("provision_rts: ARA holds '%.*s', %u bytes\n", (int)info.name_len, info.name,
	       info.length);
	return 0;
}

/* Decrypts the stream after its header (in) through ARA into out: the chunk count, or -1. */
static long decrypt(FILE *in, FILE *out, const uint8_t header[HEADER_BYTES])
{
	static uint8_t chunk[CHUNK_MAX + TAG_BYTES], clear[CHUNK_MAX];
	struct ara_rts_open_arg stream = { .header = (uintptr_t)header, .header_len = HEADER_BYTES };
	struct ara_rts_close_arg close_arg;
	uint32_t size = (uint32_t)header[32] << 24 | (uint32_t)header[33] << 16 |
			(uint32_t)header[34] << 8 | header[35];
	long n = 0;
	int st;

	if (size == 0 || size > CHUNK_MAX) {
		fprintf(stderr, "provision_rts: the stream's chunk size %u is not 1..%u\n", size,
			CHUNK_MAX);
		return -1;
	}
	st = secure_call(ARA_FID_RTS_STREAM_OPEN, &stream);
	if (st != ARA_OK) {
		fprintf(stderr, "provision_rts: opening the stream: %s\n", ara_strerror(st));
		return -1;
	}
	for (;;) {
		struct ara_rts_chunk_arg a = { .in = (uintptr_t)chunk, .out = (uintptr_t)clear,
					       .out_cap = sizeof(clear), .stream = stream.stream };
		size_t got = fread(chunk, 1, size + TAG_BYTES, in);
		int next;

		if (got == 0)
			break;
		/* The last chunk is the one nothing follows: ARA checks it was sealed as last. */
		next = fgetc(in);
		a.final = next == EOF;
		if (next != EOF)
			ungetc(next, in);
		a.in_len = (uint32_t)got;
		st = secure_call(ARA_FID_RTS_STREAM_CHUNK, &a);
		if (st != ARA_OK) {
			fprintf(stderr, "provision_rts: chunk %ld: %s\n", n, ara_strerror(st));
			return -1;
		}
		if (fwrite(clear, 1, a.out_len, out) != a.out_len) {
			perror("provision_rts: writing the output");
			return -1;
		}
		n++;
	}
	/* CLOSE fails unless the stream ended with its last chunk: a cut stream is refused. */
	close_arg = (struct ara_rts_close_arg){ .stream = stream.stream };
	st = secure_call(ARA_FID_RTS_STREAM_CLOSE, &close_arg);
	if (st != ARA_OK) {
		fprintf(stderr, "provision_rts: closing the stream: %s\n", ara_strerror(st));
		return -1;
	}
	return n;
}

int main(int argc, char **argv)
{
	uint8_t header[HEADER_BYTES];
	char name[4 + 32 + 1] = "kid-";
	FILE *in, *out;
	long chunks;

	if (argc != 4) {
		fprintf(stderr, "usage: provision_rts HOST:PORT IN OUT\n");
		return 2;
	}
	in = fopen(argv[2], "rb");
	if (!in) {
		perror(argv[2]);
		return 1;
	}
	if (fread(header, 1, sizeof(header), in) != sizeof(header) || memcmp(header, "ARAS", 4)) {
		fprintf(stderr, "provision_rts: %s: not a sealed chunk stream\n", argv[2]);
		return 1;
	}
	for (int i = 0; i < 16; i++)
		snprintf(name + 4 + 2 * i, 3, "%02x", header[8 + i]);
	if (fetch_key(argv[1], name))
		return 1;
	out = fopen(argv[3], "wb");
	if (!out) {
		perror(argv[3]);
		return 1;
	}
	chunks = decrypt(in, out, header);
	if (fclose(out) || chunks < 0)
		return 1;
	printf("provision_rts: decrypted %ld chunks of %s into %s\n", chunks, argv[2], argv[3]);
	return 0;
}
