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
 * Exit statuses: tpm_enrol.h (enum ara_tpm_quote_exit); on failure one line
 * on stderr names what failed. docs/man/ara-tpm-quote.1.
 */
#include "ara/bytes.h"
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

#include "ara_cli.h"

#define PROG "ara-tpm-quote"
#define DEFAULT_IMA_LOG "/sys/kernel/security/ima/binary_runtime_measurements"

static const char usage_text[] =
	"usage: " PROG " [--tcti CONF] [--ima-log PATH] quote < BINDING > BLOB\n"
	"       " PROG " [--tcti CONF] enrol PEMFILE\n"
	"quote: quote PCR 10 with the attestation key, qualified by the 32-byte\n"
	"binding read on stdin, and write the evidence blob (the quote, its\n"
	"signature and the IMA log) to stdout.\n"
	"enrol: create the attestation key if there is none, and write its public\n"
	"key to PEMFILE (replaced whole or not at all).\n"
	"\n"
	"  -t, --tcti CONF      the TPM, as a tctildr string (default " ARA_TPM_DEFAULT_TCTI ")\n"
	"  -l, --ima-log PATH   the IMA binary log (default\n"
	"                       " DEFAULT_IMA_LOG ")\n"
	"  -h, --help           print this help to stdout and exit 0\n"
	"  -V, --version        print the version to stdout and exit 0\n"
	"\n"
	"Exit status: 0 done; 1 the TPM failed or refused; 2 usage error, or a\n"
	"  binding that is not 32 bytes; 3 I/O error (stdin, stdout, the IMA log\n"
	"  or PEMFILE).\n";

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
		ara_msg("the TPM's attest is %u bytes, more than %u", attest->size,
			ARA_TPM_ATTEST_MAX);
		return -1;
	}
	rc = Tss2_MU_TPMT_SIGNATURE_Marshal(&signature, sig, ARA_TPM_SIGNATURE_MAX, &off);
	if (rc != TSS2_RC_SUCCESS)
		return ara_tpm_fail(t, "Tss2_MU_TPMT_SIGNATURE_Marshal", rc);
	*sig_len = off;
	return 0;
}

/* The IMA log, whole: securityfs reports no size, so read to the end.
 * Returns 0 or an exit status. */
static int read_log(const char *path, uint8_t *buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int r;

	if (fd < 0) {
		ara_file_error(path, "cannot open the IMA log");
		return ARA_TPM_QUOTE_IO;
	}
	r = ara_read_upto(fd, buf, ARA_TPM_LOG_MAX + 1, len);
	if (r)
		ara_file_error(path, "cannot read the IMA log");
	close(fd);
	if (r)
		return ARA_TPM_QUOTE_IO;
	if (*len > ARA_TPM_LOG_MAX) {
		ara_msg("%s: the IMA log exceeds %u bytes", path, ARA_TPM_LOG_MAX);
		return ARA_TPM_QUOTE_IO;
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

	/* One byte more than a binding: to learn that there were more. */
	if (ara_read_upto(0, binding, sizeof(binding), &n)) {
		ara_file_error("stdin", "cannot read the binding");
		return ARA_TPM_QUOTE_IO;
	}
	if (n != ARA_TPM_BINDING_LEN) {
		ara_msg("the binding on stdin is %s32 bytes",
			n > ARA_TPM_BINDING_LEN ? "more than " : "fewer than ");
		return ARA_TPM_QUOTE_USAGE;
	}
	if (ara_tpm_open(&t, PROG, tcti))
		return ARA_TPM_QUOTE_TPM;
	r = quote(&t, binding, &attest, sig, &sig_len);
	ara_tpm_close(&t);
	if (r)
		return ARA_TPM_QUOTE_TPM;

	/* The log is read after the quote: it then holds at least what the
	 * quoted PCR covers, and the verifier finds the prefix that does. */
	blob = malloc(ARA_TPM_EVIDENCE_MAX);
	if (!blob) {
		ara_msg("out of memory for the blob");
		return ARA_TPM_QUOTE_TPM;
	}
	at = ARA_TPM_BLOB_HEADER + 3 * ARA_TPM_BLOB_PREFIX + attest.size + sig_len;
	/* + 1: read_log learns that a log is too long by reading one more byte. */
	r = at + ARA_TPM_LOG_MAX + 1 > ARA_TPM_EVIDENCE_MAX ? ARA_TPM_QUOTE_TPM :
							       read_log(log_path, blob + at, &log_len);
	if (r) {
		free(blob);
		return r;
	}
	memcpy(blob, ARA_TPM_BLOB_MAGIC, 4);
	blob[4] = 0;
	blob[5] = ARA_TPM_BLOB_VERSION;
	blob[6] = blob[7] = 0;
	at = ARA_TPM_BLOB_HEADER;
	ara_put_be32(blob + at, attest.size);
	memcpy(blob + at + 4, attest.attestationData, attest.size);
	at += 4 + attest.size;
	ara_put_be32(blob + at, (uint32_t)sig_len);
	memcpy(blob + at + 4, sig, sig_len);
	at += 4 + sig_len;
	ara_put_be32(blob + at, (uint32_t)log_len);
	at += 4 + log_len;
	r = ara_write_all(1, blob, at);
	free(blob);
	if (r) {
		ara_file_error("stdout", "cannot write the blob");
		return ARA_TPM_QUOTE_IO;
	}
	return ARA_TPM_QUOTE_OK;
}

static int cmd_enrol(const char *tcti, const char *pem_path)
{
	struct ara_tpm t;
	int r;

	if (ara_tpm_open(&t, PROG, tcti))
		return ARA_TPM_QUOTE_TPM;
	r = ara_tpm_enrol(&t, pem_path);
	ara_tpm_close(&t);
	return r;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tcti", required_argument, NULL, 't' },
		{ "ima-log", required_argument, NULL, 'l' },
		ARA_CLI_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	const char *tcti = ARA_TPM_DEFAULT_TCTI, *log_path = DEFAULT_IMA_LOG;
	int c;

	ara_cli_init(PROG);
	/* tpm2-tss logs its own errors on stderr, several lines for one
	 * failure; ours is the one line that names it. TSS2_LOG set by the
	 * caller (to debug) still wins. */
	setenv("TSS2_LOG", "all+none", 0);
	/* "+": options end at the command. */
	while ((c = getopt_long(argc, argv, "+:t:l:hV", opts, NULL)) != -1) {
		if (c == 't')
			tcti = optarg;
		else if (c == 'l')
			log_path = optarg;
		else
			ara_cli_option(c, argv, usage_text);
	}
	if (argc - optind == 1 && strcmp(argv[optind], "quote") == 0)
		return cmd_quote(tcti, log_path);
	if (argc - optind == 2 && strcmp(argv[optind], "enrol") == 0)
		return cmd_enrol(tcti, argv[optind + 1]);
	if (optind == argc)
		ara_usage_error("no command: quote or enrol");
	if (strcmp(argv[optind], "quote") == 0 || strcmp(argv[optind], "enrol") == 0)
		ara_usage_error("%s: wrong number of arguments", argv[optind]);
	ara_usage_error("unknown command '%s': quote or enrol", argv[optind]);
}
