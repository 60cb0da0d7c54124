/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tpm_verify_cases AK_PEM BINDING BLOB LOADER_FILE LOADER_NAME EXTENDS
 *
 * The verifier against a genuine blob from swtpm (tpm-e2e.sh): it must
 * accept it with the right claims, and refuse each tampered variant with
 * the reason of the check that catches it. The blob's framing is read
 * here with code of its own, not the verifier's. Prints one line per case
 * and "N passed, N failed"; exits non-zero if any case failed.
 */
#include "ima_builder.h"
#include "synth_log.h"
#include "tpm_blob.h"
#include "tpm_verify.h"

#include <mbedtls/ctr_drbg.h>
#include <mbedtls/ecp.h>
#include <mbedtls/entropy.h>
#include <mbedtls/sha256.h>
#include <tss2/tss2_mu.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned passed, failed;

/* The genuine inputs. */
static uint8_t *blob;
static size_t blob_len;
static uint8_t binding[32];
static struct ara_tpm_policy policy;
static const char *loader_name;
static uint32_t extends;
/* Where the three fields sit in the genuine blob. */
static size_t attest_at, sig_at, log_at;
static uint32_t attest_len, sig_len, log_len;

static int read_file(const char *path, uint8_t **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "tpm_verify_cases: cannot read %s\n", path);
		if (f)
			fclose(f);
		return -1;
	}
	*out = malloc((size_t)n + 1);
	if (!*out || fread(*out, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		return -1;
	}
	fclose(f);
	*len = (size_t)n;
	return 0;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void result(const char *name, int ok, const char *detail)
{
	if (ok)
		passed++;
	else
		failed++;
	printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", name, detail[0] ? ": " : "", detail);
}

/*
 * ara_tpm_verify on an exact heap copy of ev: accepted when reason is NULL,
 * otherwise refused with reason in *why. Returns whether the case passed,
 * and the claims of an accepted blob.
 */
static int expect(const char *name, const uint8_t *ev, size_t len,
		  const struct ara_tpm_policy *p, const uint8_t bind[32], const char *reason,
		  struct ara_tpm_claims *claims)
{
	uint8_t *copy = malloc(len ? len : 1);
	struct ara_tpm_claims c;
	char why[256] = "", detail[400];
	int r, ok;

	if (!copy)
		abort();
	memcpy(copy, ev, len);
	r = ara_tpm_verify(p, copy, len, bind, &c, why, sizeof(why));
	free(copy);
	if (!reason) {
		ok = r == 0;
		snprintf(detail, sizeof(detail), "%s", ok ? "accepted" : why);
	} else {
		ok = r == -1 && strstr(why, reason) != NULL && !strchr(why, '\n');
		snprintf(detail, sizeof(detail), "%s (want: %s)", r ? why : "accepted", reason);
	}
	result(name, ok, detail);
	if (claims)
		*claims = c;
	return ok;
}

/* The genuine blob with its log replaced by log (of n bytes). */
static uint8_t *with_log(const uint8_t *log, size_t n, size_t *len)
{
	uint8_t *ev = malloc(log_at + n);

	if (!ev)
		abort();
	memcpy(ev, blob, log_at);
	put_be32(ev + log_at - 4, (uint32_t)n);
	memcpy(ev + log_at, log, n);
	*len = log_at + n;
	return ev;
}

/* The genuine blob with the byte at `at` set to v. */
static void patched(const char *name, size_t at, uint8_t v, const char *reason)
{
	uint8_t *ev = malloc(blob_len);

	if (!ev)
		abort();
	memcpy(ev, blob, blob_len);
	ev[at] = v;
	expect(name, ev, blob_len, &policy, binding, reason, NULL);
	free(ev);
}

static void flipped(const char *name, size_t at, const char *reason)
{
	patched(name, at, blob[at] ^ 0x01, reason);
}

/* The genuine blob with its attest replaced by a marshalled a: the checks
 * of the attest's fields come before the signature's, so they can be
 * reached without the AK's private key. */
static void with_attest(const char *name, const TPMS_ATTEST *a, const char *reason)
{
	uint8_t *ev = malloc(blob_len + ARA_TPM_ATTEST_MAX);
	size_t n = 0;

	if (!ev)
		abort();
	memcpy(ev, blob, attest_at);
	if (Tss2_MU_TPMS_ATTEST_Marshal(a, ev + attest_at, ARA_TPM_ATTEST_MAX, &n)) {
		result(name, 0, "Tss2_MU_TPMS_ATTEST_Marshal failed");
		free(ev);
		return;
	}
	put_be32(ev + attest_at - 4, (uint32_t)n);
	memcpy(ev + attest_at + n, blob + sig_at - 4, blob_len - (sig_at - 4));
	expect(name, ev, attest_at + n + blob_len - (sig_at - 4), &policy, binding, reason,
	       NULL);
	free(ev);
}

/* The genuine blob with the u32 length at `at` set to v. */
static void length_set(const char *name, size_t at, uint32_t v, const char *reason)
{
	uint8_t *ev = malloc(blob_len);

	if (!ev)
		abort();
	memcpy(ev, blob, blob_len);
	put_be32(ev + at, v);
	expect(name, ev, blob_len, &policy, binding, reason, NULL);
	free(ev);
}

/* The genuine blob with one byte added at the end of a field. */
static void field_grown(const char *name, size_t len_at, size_t end, const char *reason)
{
	uint8_t *ev = malloc(blob_len + 1);

	if (!ev)
		abort();
	memcpy(ev, blob, end);
	ev[end] = 0;
	memcpy(ev + end + 1, blob + end, blob_len - end);
	put_be32(ev + len_at, be32(blob + len_at) + 1);
	expect(name, ev, blob_len + 1, &policy, binding, reason, NULL);
	free(ev);
}

static void sha256_str(const char *s, uint8_t out[32])
{
	mbedtls_sha256((const unsigned char *)s, strlen(s), out, 0);
}

static void case_genuine(void)
{
	struct ara_tpm_claims c;
	TPMS_ATTEST a;
	size_t off = 0;
	int ok;

	if (!expect("genuine blob", blob, blob_len, &policy, binding, NULL, &c))
		return;
	/* The claims, against the attest unmarshalled here. */
	memset(&a, 0, sizeof(a));
	ok = Tss2_MU_TPMS_ATTEST_Unmarshal(blob + attest_at, attest_len, &off, &a) == 0 &&
	     memcmp(c.loader_sha256, policy.loader_sha256, 32) == 0 &&
	     strcmp(c.loader_path, loader_name) == 0 && c.entries_replayed == extends &&
	     c.clock == a.clockInfo.clock && c.reset_count == a.clockInfo.resetCount &&
	     c.restart_count == a.clockInfo.restartCount;
	result("genuine claims", ok, ok ? "" : c.loader_path);
	{
		/* The store finds the AK by the signer the quote names. */
		uint8_t from_blob[ARA_TPM_SIGNER_LEN], from_key[ARA_TPM_SIGNER_LEN];
		char why[128] = "";

		ok = ara_tpm_evidence_signer(blob, blob_len, from_blob, why, sizeof(why)) == 0 &&
		     ara_tpm_ak_signer(policy.ak_pub, from_key) == 0 &&
		     memcmp(from_blob, a.qualifiedSigner.name, sizeof(from_blob)) == 0 &&
		     memcmp(from_blob, from_key, sizeof(from_blob)) == 0;
		result("the quote's signer is the AK's qualified name", ok, why);
	}
	printf("claims: loader %s, %u PCR 10 entries replayed, clock %llu, resets %u, "
	       "restarts %u\n",
	       c.loader_path, c.entries_replayed, (unsigned long long)c.clock, c.reset_count,
	       c.restart_count);
}

static void case_framing(void)
{
	uint8_t *ev = malloc(blob_len + 1);

	if (!ev)
		abort();
	expect("truncated by one byte", blob, blob_len - 1, &policy, binding,
	       "blob: truncated in the log", NULL);
	expect("truncated inside the attest", blob, attest_at + 10, &policy, binding,
	       "blob: truncated in the attest", NULL);
	expect("truncated inside the header", blob, 7, &policy, binding,
	       "blob: shorter than its 8-byte header", NULL);
	expect("empty blob", blob, 0, &policy, binding, "blob: shorter than its 8-byte header",
	       NULL);
	memcpy(ev, blob, blob_len);
	ev[blob_len] = 0;
	expect("one trailing byte", ev, blob_len + 1, &policy, binding,
	       "blob: 1 trailing bytes after the log", NULL);
	free(ev);
	flipped("bad magic", 3, "blob: magic is not ARAT");
	flipped("version 0", 5, "blob: version 0 is not 1");
	flipped("reserved bit", 7, "blob: reserved field is not zero");
	length_set("oversized attest length", attest_at - 4, ARA_TPM_ATTEST_MAX + 1,
		   "blob: attest length 1025 exceeds 1024");
	length_set("oversized signature length", sig_at - 4, ARA_TPM_SIGNATURE_MAX + 1,
		   "blob: signature length 1025 exceeds 1024");
	length_set("oversized log length", log_at - 4, ARA_TPM_LOG_MAX + 1,
		   "blob: log length 458753 exceeds 458752");
	length_set("log length past the end", log_at - 4, log_len + 1,
		   "blob: truncated in the log");
	length_set("huge attest length", attest_at - 4, 0xffffffffu,
		   "blob: attest length 4294967295 exceeds");
}

static void case_attest(void)
{
	TPMS_ATTEST genuine, a;
	TPMS_PCR_SELECTION *sel = &a.attested.quote.pcrSelect.pcrSelections[0];
	uint8_t other[32];
	size_t off = 0;

	flipped("flipped byte in the attest (pcrDigest)", attest_at + attest_len - 1,
		"signature: does not verify under the policy AK");
	flipped("flipped byte in the attest (magic)", attest_at,
		"attest: magic is not TPM2_GENERATED_VALUE");
	/* The quote's type read as TPM2_ST_ATTEST_TIME: a shorter body. */
	flipped("flipped byte in the attest (type)", attest_at + 5,
		"bytes after the TPMS_ATTEST");
	/* qualifiedSigner's size past a TPMU_NAME's. */
	patched("attest with an oversized name", attest_at + 7, 0xff,
		"attest: TPMS_ATTEST does not unmarshal");

	memset(&genuine, 0, sizeof(genuine));
	if (Tss2_MU_TPMS_ATTEST_Unmarshal(blob + attest_at, attest_len, &off, &genuine)) {
		result("attest unmarshals", 0, "");
		return;
	}
	a = genuine;
	/* Tss2_MU round-trips a TPM's attest to the same bytes. */
	with_attest("re-marshalled genuine attest", &a, NULL);
	a = genuine;
	a.type = TPM2_ST_ATTEST_CERTIFY;
	a.attested.certify.name.size = 0;
	a.attested.certify.qualifiedName.size = 0;
	with_attest("a certify, not a quote", &a, "attest: type is not TPM2_ST_ATTEST_QUOTE");
	a = genuine;
	a.extraData.size = 31;
	with_attest("a 31-byte extraData", &a, "attest: extraData is not the binding");
	a = genuine;
	sel->hash = TPM2_ALG_SHA1;
	with_attest("PCR 10 of the SHA-1 bank", &a, "attest: PCR selection is not exactly");
	a = genuine;
	sel->pcrSelect[0] = 1;
	with_attest("PCRs 0 and 10", &a, "attest: PCR selection is not exactly");
	a = genuine;
	sel->pcrSelect[1] = 1u << 3;
	with_attest("PCR 11 instead of 10", &a, "attest: PCR selection is not exactly");
	a = genuine;
	sel->sizeofSelect = 1;
	with_attest("a selection too short for PCR 10", &a,
		    "attest: PCR selection is not exactly");
	a = genuine;
	a.attested.quote.pcrSelect.count = 2;
	a.attested.quote.pcrSelect.pcrSelections[1] = *sel;
	with_attest("two banks", &a, "attest: PCR selection is not exactly");
	a = genuine;
	a.attested.quote.pcrDigest.size = 20;
	with_attest("a 20-byte pcrDigest", &a, "attest: pcrDigest is not a SHA-256 digest");
	field_grown("a byte after the TPMS_ATTEST", attest_at - 4, attest_at + attest_len,
		    "attest: 1 bytes after the TPMS_ATTEST");
	memcpy(other, binding, 32);
	other[31] ^= 0x80;
	expect("a different binding", blob, blob_len, &policy, other,
	       "attest: extraData is not the binding", NULL);
}

static int f_rng(void *ctx, unsigned char *out, size_t n)
{
	return mbedtls_ctr_drbg_random(ctx, out, n);
}

static void case_signature(void)
{
	struct ara_tpm_policy other = policy;
	mbedtls_entropy_context entropy;
	mbedtls_ctr_drbg_context drbg;
	mbedtls_ecp_keypair key;
	size_t olen = 0;
	int r;

	flipped("flipped byte in the signature (s)", sig_at + sig_len - 1,
		"signature: does not verify under the policy AK");
	patched("an SM2 signature", sig_at + 1, TPM2_ALG_SM2,
		"signature: algorithm is not ECDSA");
	patched("an ECDSA-SHA384 signature", sig_at + 3, TPM2_ALG_SHA384,
		"signature: hash is not SHA-256");
	/* Read as RSASSA, r is the whole signature and s is left over. */
	patched("an RSA signature", sig_at + 1, TPM2_ALG_RSASSA,
		"bytes after the TPMT_SIGNATURE");
	field_grown("a byte after the TPMT_SIGNATURE", sig_at - 4, sig_at + sig_len,
		    "signature: 1 bytes after the TPMT_SIGNATURE");

	/* Another P-256 key, as another TPM's AK would be. */
	mbedtls_entropy_init(&entropy);
	mbedtls_ctr_drbg_init(&drbg);
	mbedtls_ecp_keypair_init(&key);
	r = mbedtls_ctr_drbg_seed(&drbg, mbedtls_entropy_func, &entropy, NULL, 0) ||
	    mbedtls_ecp_gen_key(MBEDTLS_ECP_DP_SECP256R1, &key, f_rng, &drbg) ||
	    mbedtls_ecp_write_public_key(&key, MBEDTLS_ECP_PF_UNCOMPRESSED, &olen, other.ak_pub,
					 sizeof(other.ak_pub));
	mbedtls_ecp_keypair_free(&key);
	mbedtls_ctr_drbg_free(&drbg);
	mbedtls_entropy_free(&entropy);
	if (r || olen != sizeof(other.ak_pub)) {
		result("a different AK", 0, "mbedtls could not make a P-256 key");
		return;
	}
	expect("a different AK", blob, blob_len, &other, binding,
	       "signature: does not verify under the policy AK", NULL);
	memset(other.ak_pub + 1, 0, sizeof(other.ak_pub) - 1);
	expect("an AK that is no point", blob, blob_len, &other, binding,
	       "policy: AK is not a P-256 point", NULL);
}

/* The offsets of the log's entries (own walk: sizes only). */
static size_t entry_ends(const uint8_t *log, size_t len, size_t *ends, size_t max)
{
	size_t at = 0, n = 0;

	while (at + 28 <= len && n < max) {
		uint32_t name_len = log[at + 24] | log[at + 25] << 8 | log[at + 26] << 16 |
				    (uint32_t)log[at + 27] << 24;
		const uint8_t *d = log + at + 28 + name_len;
		uint32_t data_len = d[0] | d[1] << 8 | d[2] << 16 | (uint32_t)d[3] << 24;

		at += 28 + name_len + 4 + data_len;
		ends[n++] = at;
	}
	return n;
}

static void case_log(void)
{
	static struct ima_builder b;
	struct ara_tpm_policy other = policy;
	struct ara_tpm_claims c;
	const uint8_t *log = blob + log_at;
	uint8_t d[32], *ev;
	size_t ends[64], n, len;

	n = entry_ends(log, log_len, ends, 64);
	if (n < 3 || ends[n - 1] != log_len) {
		result("log layout", 0, "the synthetic log is not what tpm_synth_log writes");
		return;
	}
	/* The first entry's d-ng digest: 4+20+4+6+4 (header) + 4+8 ("sha256:" NUL). */
	flipped("flipped byte in the log (a file digest)", log_at + 50,
		"ima log: no prefix replays to the quoted PCR 10 digest");
	flipped("flipped byte in the log (template name)", log_at + 30,
		"ima log: entry 0 at offset 0: template is not ima-ng");

	sha256_str("not the loader", other.loader_sha256);
	expect("a loader digest not in the log", blob, blob_len, &other, binding,
	       "ima log: no PCR 10 measurement of the policy loader digest", NULL);
	sha256_str(SYNTH_DECOY_VIOLATION, other.loader_sha256);
	expect("the loader digest only in a violation entry", blob, blob_len, &other, binding,
	       "ima log: no PCR 10 measurement of the policy loader digest", NULL);
	sha256_str(SYNTH_DECOY_PCR11, other.loader_sha256);
	expect("the loader digest only in PCR 11", blob, blob_len, &other, binding,
	       "ima log: no PCR 10 measurement of the policy loader digest", NULL);

	/* The last entry (PCR 10) dropped: the log no longer reaches the quote. */
	ev = with_log(log, ends[n - 2], &len);
	expect("the log without its last entry", ev, len, &policy, binding,
	       "ima log: no prefix replays to the quoted PCR 10 digest", NULL);
	free(ev);

	/* Entries IMA logged after the quote: the prefix rule still verifies,
	 * and a loader measured only after the quote does not count. */
	if (imab_init(&b) || imab_raw(&b, log, log_len)) {
		result("log grown after the quote", 0, "out of memory");
		return;
	}
	sha256_str("measured after the quote", d);
	if (imab_add(&b, 10, "sha256", d, 32, "/usr/lib/ara/late", false, NULL) ||
	    imab_add(&b, 10, "sha256", d, 32, "/usr/lib/ara/later", false, NULL)) {
		result("log grown after the quote", 0, "builder failed");
		imab_free(&b);
		return;
	}
	ev = with_log(b.buf, b.len, &len);
	if (expect("log grown after the quote", ev, len, &policy, binding, NULL, &c))
		result("log grown after the quote: same prefix", c.entries_replayed == extends,
		       c.entries_replayed == extends ? "" : "entries_replayed differs");
	memcpy(other.loader_sha256, d, 32);
	expect("a loader measured only after the quote", ev, len, &other, binding,
	       "ima log: no PCR 10 measurement of the policy loader digest", NULL);
	free(ev);
	/* The whole log must parse, past the prefix too. */
	imab_raw(&b, "\x0a\x00\x00", 3);
	ev = with_log(b.buf, b.len, &len);
	expect("a malformed tail after the quoted prefix", ev, len, &policy, binding,
	       "ima log: entry 8 at offset", NULL);
	free(ev);
	imab_free(&b);
}

static void case_pem(const char *pem, size_t pem_len)
{
	uint8_t pub[65];
	char why[128] = "";

	result("AK PEM parses to the point in use",
	       ara_tpm_ak_from_pem(pem, pem_len, pub, why, sizeof(why)) == 0 &&
		       memcmp(pub, policy.ak_pub, 65) == 0,
	       why);
	result("a truncated PEM is refused",
	       ara_tpm_ak_from_pem(pem, pem_len / 2, pub, why, sizeof(why)) == -1 &&
		       strstr(why, "pem: not a public key"),
	       why);
	result("garbage is refused",
	       ara_tpm_ak_from_pem("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n",
				   58, pub, why, sizeof(why)) == -1,
	       why);
	result("an empty PEM is refused",
	       ara_tpm_ak_from_pem(pem, 0, pub, why, sizeof(why)) == -1 &&
		       strstr(why, "pem: empty"),
	       why);
	/* No room for a reason: still refused, nothing written. */
	result("a refusal with no why buffer",
	       ara_tpm_verify(&policy, blob, 3, binding, &(struct ara_tpm_claims){ 0 }, NULL,
			      0) == -1,
	       "");
}

int main(int argc, char **argv)
{
	uint8_t *pem, *bind, *loader;
	size_t pem_len, bind_len, loader_len;

	if (argc != 7) {
		fprintf(stderr, "usage: tpm_verify_cases AK_PEM BINDING BLOB LOADER_FILE "
				"LOADER_NAME EXTENDS\n");
		return 2;
	}
	if (read_file(argv[1], &pem, &pem_len) || read_file(argv[2], &bind, &bind_len) ||
	    read_file(argv[3], &blob, &blob_len) || read_file(argv[4], &loader, &loader_len))
		return 1;
	loader_name = argv[5];
	extends = (uint32_t)strtoul(argv[6], NULL, 10);
	if (bind_len != 32 || blob_len < 20) {
		fprintf(stderr, "tpm_verify_cases: the binding or the blob has the wrong size\n");
		return 1;
	}
	memcpy(binding, bind, 32);
	mbedtls_sha256(loader, loader_len, policy.loader_sha256, 0);
	{
		char why[128] = "";

		if (ara_tpm_ak_from_pem((char *)pem, pem_len, policy.ak_pub, why, sizeof(why))) {
			fprintf(stderr, "tpm_verify_cases: %s: %s\n", argv[1], why);
			return 1;
		}
	}
	/* The framing, read independently of the verifier. */
	attest_at = ARA_TPM_BLOB_HEADER + 4;
	attest_len = be32(blob + attest_at - 4);
	sig_at = attest_at + attest_len + 4;
	sig_len = be32(blob + sig_at - 4);
	log_at = sig_at + sig_len + 4;
	log_len = be32(blob + log_at - 4);
	if (log_at + log_len != blob_len) {
		fprintf(stderr, "tpm_verify_cases: the blob's fields do not add up\n");
		return 1;
	}

	case_genuine();
	case_framing();
	case_attest();
	case_signature();
	case_log();
	case_pem((char *)pem, pem_len);
	printf("%u passed, %u failed\n", passed, failed);
	free(pem);
	free(bind);
	free(blob);
	free(loader);
	return failed || !passed ? 1 : 0;
}
