/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-tpm-quote: the device side of the tpm evidence backend, a separate
 * process that ARA's init spawns (tpm2-tss needs libc, which ARA's
 * isolated domain does not have; docs/evidence-tpm.md).
 *
 *   ara-tpm-quote [--tcti CONF] [--ima-log PATH] quote
 *       reads the 32-byte binding on stdin, quotes PCR 10 (SHA-256) with
 *       the AK qualified by it, then reads the IMA log, and writes the
 *       evidence blob (tpm_blob.h) on stdout.
 *   ara-tpm-quote [--tcti CONF] enrol PEMFILE
 *       creates the AK if ARA_TPM_AK_HANDLE is empty and writes its public
 *       key to PEMFILE (tpm_enrol.h).
 *
 * Exit 0 on success; otherwise one line on stderr naming what failed, and
 * exit 1 (2 for a usage error).
 */
#include "tpm_blob.h"
#include "tpm_client.h"
#include "tpm_enrol.h"

#include <tss2/tss2_mu.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "ara-tpm-quote"
#define DEFAULT_IMA_LOG "/sys/kernel/security/ima/binary_runtime_measurements"

static int usage(void)
{
	fprintf(stderr, "usage: " PROG " [--tcti CONF] [--ima-log PATH] quote < binding > blob\n"
			"       " PROG " [--tcti CONF] enrol PEMFILE\n");
	return 2;
}

/* Up to max bytes of fd until end of file; *n is how many were read, and
 * max + 1 means there were more. */
static int read_all(int fd, uint8_t *buf, size_t max, size_t *n)
{
	ssize_t r;

	*n = 0;
	while (*n <= max) {
		r = read(fd, buf + *n, max + 1 - *n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		*n += (size_t)r;
	}
	return 0;
}

static int write_all(int fd, const uint8_t *buf, size_t len)
{
	ssize_t w;

	while (len) {
		w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* TPM2_Quote of SHA-256 PCR 10 by the AK, qualifyingData = binding:
 * the attest bytes as the TPM returned them, and the signature marshalled. */
static int quote(struct ara_tpm *t, const uint8_t binding[ARA_TPM_BINDING_LEN],
		 TPM2B_ATTEST *attest, uint8_t *sig, size_t *sig_len)
{
	TPM2B_DATA qualifying = { .size = ARA_TPM_BINDING_LEN };
	/* The AK's own scheme, stated again: a TPM refuses a mismatch. */
	const TPMT_SIG_SCHEME scheme = { .scheme = TPM2_ALG_ECDSA,
					 .details.ecdsa.hashAlg = TPM2_ALG_SHA256 };
	TPML_PCR_SELECTION pcrs = {
		.count = 1,
		.pcrSelections = { { .hash = TPM2_ALG_SHA256, .sizeofSelect = 3 } },
	};
	TSS2L_SYS_AUTH_RESPONSE rsp;
	TPMT_SIGNATURE signature;
	size_t off = 0;
	TSS2_RC rc;

	memcpy(qualifying.buffer, binding, ARA_TPM_BINDING_LEN);
	pcrs.pcrSelections[0].pcrSelect[ARA_IMA_PCR / 8] = (uint8_t)(1u << (ARA_IMA_PCR % 8));
	t->tries = 0;
	do {
		memset(attest, 0, sizeof(*attest));
		attest->size = sizeof(attest->attestationData);
		memset(&signature, 0, sizeof(signature));
		rc = Tss2_Sys_Quote(t->sys, ARA_TPM_AK_HANDLE, &ara_tpm_empty_auth, &qualifying,
				    &scheme, &pcrs, attest, &signature, &rsp);
	} while (ara_tpm_again(t, rc));
	if (rc != TSS2_RC_SUCCESS)
		return ara_tpm_fail(t, "TPM2_Quote with the AK at 0x81010002", rc);
	if (attest->size > ARA_TPM_ATTEST_MAX) {
		fprintf(stderr, PROG ": the TPM's attest is %u bytes, more than %u\n", attest->size,
			ARA_TPM_ATTEST_MAX);
		return -1;
	}
	rc = Tss2_MU_TPMT_SIGNATURE_Marshal(&signature, sig, ARA_TPM_SIGNATURE_MAX, &off);
	if (rc != TSS2_RC_SUCCESS)
		return ara_tpm_fail(t, "Tss2_MU_TPMT_SIGNATURE_Marshal", rc);
	*sig_len = off;
	return 0;
}

/* The IMA log, whole: securityfs reports no size, so read to the end. */
static int read_log(const char *path, uint8_t *buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int r;

	if (fd < 0) {
		fprintf(stderr, PROG ": cannot open the IMA log %s: %m\n", path);
		return -1;
	}
	r = read_all(fd, buf, ARA_TPM_LOG_MAX, len);
	close(fd);
	if (r) {
		fprintf(stderr, PROG ": cannot read the IMA log %s: %m\n", path);
		return -1;
	}
	if (*len > ARA_TPM_LOG_MAX) {
		fprintf(stderr, PROG ": the IMA log %s exceeds %u bytes\n", path, ARA_TPM_LOG_MAX);
		return -1;
	}
	return 0;
}

static int cmd_quote(const char *tcti, const char *log_path)
{
	uint8_t binding[ARA_TPM_BINDING_LEN + 1];
	uint8_t sig[ARA_TPM_SIGNATURE_MAX];
	size_t n, sig_len = 0, log_len = 0, at;
	static TPM2B_ATTEST attest;
	struct ara_tpm t;
	uint8_t *blob;
	int r;

	if (read_all(0, binding, ARA_TPM_BINDING_LEN, &n)) {
		fprintf(stderr, PROG ": cannot read the binding from stdin: %m\n");
		return 1;
	}
	if (n != ARA_TPM_BINDING_LEN) {
		fprintf(stderr, PROG ": the binding on stdin is %s32 bytes\n",
			n > ARA_TPM_BINDING_LEN ? "more than " : "fewer than ");
		return 1;
	}
	if (ara_tpm_open(&t, PROG, tcti))
		return 1;
	r = quote(&t, binding, &attest, sig, &sig_len);
	ara_tpm_close(&t);
	if (r)
		return 1;

	/* The log is read after the quote: it then holds at least what the
	 * quoted PCR covers, and the verifier finds the prefix that does. */
	blob = malloc(ARA_TPM_EVIDENCE_MAX);
	if (!blob) {
		fprintf(stderr, PROG ": out of memory for the blob\n");
		return 1;
	}
	at = ARA_TPM_BLOB_HEADER + 3 * ARA_TPM_BLOB_PREFIX + attest.size + sig_len;
	/* + 1: read_log learns that a log is too long by reading one more byte. */
	if (at + ARA_TPM_LOG_MAX + 1 > ARA_TPM_EVIDENCE_MAX ||
	    read_log(log_path, blob + at, &log_len)) {
		free(blob);
		return 1;
	}
	memcpy(blob, ARA_TPM_BLOB_MAGIC, 4);
	blob[4] = 0;
	blob[5] = ARA_TPM_BLOB_VERSION;
	blob[6] = blob[7] = 0;
	at = ARA_TPM_BLOB_HEADER;
	put_be32(blob + at, attest.size);
	memcpy(blob + at + 4, attest.attestationData, attest.size);
	at += 4 + attest.size;
	put_be32(blob + at, (uint32_t)sig_len);
	memcpy(blob + at + 4, sig, sig_len);
	at += 4 + sig_len;
	put_be32(blob + at, (uint32_t)log_len);
	at += 4 + log_len;
	r = write_all(1, blob, at);
	free(blob);
	if (r) {
		fprintf(stderr, PROG ": cannot write the blob to stdout: %m\n");
		return 1;
	}
	return 0;
}

static int cmd_enrol(const char *tcti, const char *pem_path)
{
	struct ara_tpm t;
	int r;

	if (ara_tpm_open(&t, PROG, tcti))
		return 1;
	r = ara_tpm_enrol(&t, pem_path);
	ara_tpm_close(&t);
	return r ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tcti", required_argument, NULL, 't' },
		{ "ima-log", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	const char *tcti = ARA_TPM_DEFAULT_TCTI, *log_path = DEFAULT_IMA_LOG;
	int c;

	/* tpm2-tss logs its own errors on stderr, several lines for one
	 * failure; ours is the one line that names it. TSS2_LOG set by the
	 * caller (to debug) still wins. */
	setenv("TSS2_LOG", "all+none", 0);
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		if (c == 't')
			tcti = optarg;
		else if (c == 'l')
			log_path = optarg;
		else
			return usage();
	}
	if (argc - optind == 1 && strcmp(argv[optind], "quote") == 0)
		return cmd_quote(tcti, log_path);
	if (argc - optind == 2 && strcmp(argv[optind], "enrol") == 0)
		return cmd_enrol(tcti, argv[optind + 1]);
	return usage();
}
