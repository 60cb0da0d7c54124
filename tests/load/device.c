/* SPDX-License-Identifier: Apache-2.0 */
/* A load device: DOM0's side of a session, on the host (device.h). */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mbedtls/platform_util.h>

#include "ara_cli.h"
#include "device.h"
#include "p256.h"

/* A key pair from fresh random bytes, as DOM0 makes its keys. */
static int fresh_keypair(uint8_t sk[ARA_HPKE_NSK], uint8_t pk[ARA_HPKE_NPK])
{
	uint8_t ikm[32];
	int r = ara_random(ikm, sizeof(ikm)) || ara_hpke_derive_keypair(ikm, sizeof(ikm), sk, pk);

	mbedtls_platform_zeroize(ikm, sizeof(ikm));
	return r ? -1 : 0;
}

/* The tpm evidence over binding: ara-tpm-quote's stdout, the binding on its stdin. */
static int tpm_quote(const struct load_tpm *tpm, const uint8_t binding[32], uint8_t *out,
		     size_t *len)
{
	int in[2], from[2], status = 0, r = -1;
	pid_t pid;

	*len = 0;

	if (pipe2(in, O_CLOEXEC) || pipe2(from, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(from[1], 1);
		execl(tpm->quote, tpm->quote, "--tcti", tpm->tcti, "--ima-log", tpm->ima_log, "quote",
		      (char *)NULL);
		fprintf(stderr, "ara-loadgen: %s: cannot run: %s\n", tpm->quote, strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(from[1]);
	if (pid > 0 && !ara_write_all(in[1], binding, 32)) {
		close(in[1]);
		in[1] = -1;
		/* One byte more than fits: a larger blob is refused, not cut. */
		r = ara_read_upto(from[0], out, LOAD_EVIDENCE_MAX + 1, len) ||
				    *len == 0 || *len > LOAD_EVIDENCE_MAX ?
			    -1 :
			    0;
	}
	if (in[1] >= 0)
		close(in[1]);
	close(from[0]);
	if (pid > 0 && (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
			WEXITSTATUS(status) != 0))
		r = -1;
	if (r)
		fprintf(stderr, "ara-loadgen: %s made no evidence (status %d, %zu bytes)\n",
			tpm->quote, WIFEXITED(status) ? WEXITSTATUS(status) : -1, *len);
	return r;
}

int load_device_init(struct load_device *d, const struct ara_wire_digests *digests,
		     const struct load_tpm *tpm, uint64_t now)
{
	struct ara_wire_attest a = { .issued_at = now };
	uint8_t binding[32];

	if (!d->evidence && !(d->evidence = malloc(LOAD_EVIDENCE_MAX + 1)))
		return -1;
	if (fresh_keypair(d->sk, d->pub))
		return -1;
	d->backend = tpm ? ARA_EVIDENCE_TPM : ARA_EVIDENCE_DEV_INSECURE;
	d->issued_at = now;
	d->digests = *digests;
	a.backend = d->backend;
	a.instance_pub = d->pub;
	a.digests = *digests;
	if (ara_provision_binding(&a, binding))
		return -1;
	if (tpm)
		return tpm_quote(tpm, binding, d->evidence, &d->evidence_len);
	d->evidence_len = ARA_DEV_INSECURE_EVIDENCE_BYTES;
	return ara_dev_insecure_evidence(binding, d->evidence) == ARA_DEV_INSECURE_OK ? 0 : -1;
}

int load_device_attest(const struct load_device *d, struct load_session *s,
		       const uint8_t *challenge, size_t challenge_len, const char *name,
		       uint8_t *out, size_t *len)
{
	uint8_t share_pub[ARA_HPKE_NPK], hash[32], sig[ARA_WIRE_SIG];
	struct ara_wire_attest a = {
		.backend = d->backend,
		.issued_at = d->issued_at,
		.instance_pub = d->pub,
		.digests = d->digests,
		.share_pub = share_pub,
		.name = (const uint8_t *)name,
		.name_len = strlen(name),
		.evidence = d->evidence,
		.evidence_len = d->evidence_len,
	};

	if (fresh_keypair(s->share_sk, share_pub) ||
	    ara_wire_encode_attest(&a, out, LOAD_ATTEST_MAX, len) != ARA_WIRE_OK ||
	    ara_provision_session_hash(challenge, challenge_len, out, a.signed_len, hash) ||
	    ara_p256_sign(d->sk, hash, sig))
		return -1;
	ara_wire_set_sig(out, *len, sig);
	return ara_provision_hpke_info(challenge, challenge_len, out, *len, s->info) ? -1 : 0;
}

int load_device_open(const struct load_session *s, const char *name, const uint8_t *reply,
		     size_t reply_len, uint8_t *out, size_t *out_len)
{
	struct ara_wire_deliver d;
	struct ara_hpke_ctx ctx;
	int r;

	if (ara_wire_decode_deliver(reply, reply_len, &d) != ARA_WIRE_OK)
		return -1;
	r = ara_hpke_setup_base_r(d.enc, s->share_sk, s->info, sizeof(s->info), &ctx) ||
	    ara_hpke_open(&ctx, (const uint8_t *)name, strlen(name), d.ct, d.ct_len, out);
	ara_hpke_ctx_wipe(&ctx);
	*out_len = d.ct_len - ARA_HPKE_NT;
	return r ? -1 : 0;
}

void load_session_wipe(struct load_session *s)
{
	mbedtls_platform_zeroize(s, sizeof(*s));
}
