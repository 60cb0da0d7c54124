/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tpm_synth_log --tcti CONF LOG LOADER_FILE LOADER_NAME
 *
 * Plays the kernel's part for the swtpm end-to-end test: writes an ima-ng
 * log (boot_aggregate, files, the loader with the SHA-256 of LOADER_FILE
 * under the name LOADER_NAME, a violation, an entry in PCR 11) and extends
 * each entry's value into the TPM's SHA-256 bank with TPM2_PCR_Extend, as
 * IMA does (IMA extends every bank; only SHA-256 is quoted). Then reads
 * PCR 10 back and checks that the TPM agrees with ima_builder.c's replay.
 * Prints the number of PCR 10 entries.
 */
#include "ima_builder.h"
#include "synth_log.h"
#include "tpm_client.h"

#include <mbedtls/sha256.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "tpm_synth_log"

static int extend(struct ara_tpm *t, uint32_t pcr, const uint8_t value[32])
{
	TPML_DIGEST_VALUES digests = { .count = 1 };
	TSS2L_SYS_AUTH_RESPONSE rsp;
	TSS2_RC rc;

	digests.digests[0].hashAlg = TPM2_ALG_SHA256;
	memcpy(digests.digests[0].digest.sha256, value, 32);
	t->tries = 0;
	do
		rc = Tss2_Sys_PCR_Extend(t->sys, pcr, &ara_tpm_empty_auth, &digests, &rsp);
	while (ara_tpm_again(t, rc));
	return rc == TSS2_RC_SUCCESS ? 0 : ara_tpm_fail(t, "TPM2_PCR_Extend", rc);
}

static int read_pcr10(struct ara_tpm *t, uint8_t value[32])
{
	TPML_PCR_SELECTION in = { .count = 1 }, out;
	TPML_DIGEST values;
	UINT32 counter;
	TSS2_RC rc;

	in.pcrSelections[0].hash = TPM2_ALG_SHA256;
	in.pcrSelections[0].sizeofSelect = 3;
	in.pcrSelections[0].pcrSelect[1] = 1u << 2;
	memset(&values, 0, sizeof(values));
	rc = Tss2_Sys_PCR_Read(t->sys, NULL, &in, &counter, &out, &values, NULL);
	if (rc != TSS2_RC_SUCCESS)
		return ara_tpm_fail(t, "TPM2_PCR_Read", rc);
	if (values.count != 1 || values.digests[0].size != 32) {
		fprintf(stderr, PROG ": TPM2_PCR_Read returned no SHA-256 PCR 10\n");
		return -1;
	}
	memcpy(value, values.digests[0].buffer, 32);
	return 0;
}

static int file_sha256(const char *path, uint8_t out[32])
{
	mbedtls_sha256_context c;
	unsigned char buf[4096];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		fprintf(stderr, PROG ": cannot open %s\n", path);
		return -1;
	}
	mbedtls_sha256_init(&c);
	mbedtls_sha256_starts(&c, 0);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		mbedtls_sha256_update(&c, buf, n);
	mbedtls_sha256_finish(&c, out);
	mbedtls_sha256_free(&c);
	fclose(f);
	return 0;
}

static void sha256_str(const char *s, uint8_t out[32])
{
	mbedtls_sha256((const unsigned char *)s, strlen(s), out, 0);
}

/* One entry into the log, and its value into the TPM, as IMA does. */
static int add(struct ara_tpm *t, struct ima_builder *b, uint32_t pcr, const uint8_t digest[32],
	       const char *name, bool violation)
{
	uint8_t ext[32];

	if (imab_add(b, pcr, "sha256", digest, 32, name, violation, ext)) {
		fprintf(stderr, PROG ": the log is full\n");
		return -1;
	}
	return extend(t, pcr, ext);
}

static int write_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	int bad;

	if (!f)
		return -1;
	bad = fwrite(p, 1, n, f) != n;
	bad |= fclose(f) != 0;
	return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	static struct ima_builder b;
	uint8_t loader[32], d[32], d2[32], d3[32], d4[32], tpm_pcr[32];
	struct ara_tpm t;
	int r;

	if (argc != 6 || strcmp(argv[1], "--tcti") != 0) {
		fprintf(stderr, "usage: " PROG " --tcti CONF LOG LOADER_FILE LOADER_NAME\n");
		return 2;
	}
	setenv("TSS2_LOG", "all+none", 0);
	if (imab_init(&b) || file_sha256(argv[4], loader) || ara_tpm_open(&t, PROG, argv[2]))
		return 1;
	sha256_str("synthetic boot_aggregate", d);
	sha256_str("/usr/lib/aarch64-linux-gnu/libc.so.6", d2);
	sha256_str(SYNTH_DECOY_VIOLATION, d3);
	sha256_str(SYNTH_DECOY_PCR11, d4);
	r = add(&t, &b, 10, d, "boot_aggregate", false) ||
	    add(&t, &b, 10, d2, "/usr/lib/aarch64-linux-gnu/libc.so.6", false) ||
	    add(&t, &b, 10, d3, "/var/lib/ara/open-writers", true) ||
	    add(&t, &b, 10, loader, argv[5], false) ||
	    add(&t, &b, 11, d4, "/usr/lib/ara/other-pcr", false) ||
	    add(&t, &b, 10, d2, "/etc/ara/app.manifest", false) || read_pcr10(&t, tpm_pcr);
	ara_tpm_close(&t);
	if (!r && memcmp(tpm_pcr, b.pcr[10], 32) != 0) {
		fprintf(stderr, PROG ": the TPM's PCR 10 differs from the log's replay\n");
		r = 1;
	}
	if (!r && write_file(argv[3], b.buf, b.len)) {
		fprintf(stderr, PROG ": cannot write %s\n", argv[3]);
		r = 1;
	}
	if (!r)
		printf("%u\n", b.extends[10]);
	imab_free(&b);
	return r ? 1 : 0;
}
