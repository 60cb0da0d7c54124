/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A device as the load generator plays it: an ARA instance's key and its
 * evidence, made once (dev-insecure, or tpm: a quote by ara-tpm-quote, the
 * program DOM0 runs for it, services/provision/tpm_evidence.h), and per
 * session the ATTEST that
 * PROVISION_BEGIN makes and the opening of the DELIVER that
 * PROVISION_FINISH does (services/provision/session.c), with the same
 * wire, binding, signature and HPKE code DOM0 links. Host code: not DOM0.
 */
#ifndef ARA_LOAD_DEVICE_H
#define ARA_LOAD_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "binding.h"
#include "dev_evidence.h"
#include "hpke.h"
#include "wire.h"

/* The largest ATTEST a load device sends: tpm evidence of a short IMA log. */
#define LOAD_ATTEST_MAX (16u << 10)
#define LOAD_EVIDENCE_MAX (LOAD_ATTEST_MAX - 1024u)
/* The largest reply: a DELIVER with the largest secret. */
#define LOAD_REPLY_MAX (ARA_WIRE_HEADER + ARA_WIRE_POINT + 2u + ARA_WIRE_SECRET_MAX + ARA_HPKE_NT)

/* How a tpm device quotes: ara-tpm-quote --tcti TCTI --ima-log IMA_LOG quote. */
struct load_tpm {
	const char *quote, *tcti, *ima_log;
};

struct load_device {
	uint8_t sk[ARA_HPKE_NSK], pub[ARA_HPKE_NPK];
	uint8_t backend; /* enum ara_evidence_backend */
	uint64_t issued_at;
	struct ara_wire_digests digests;
	uint8_t *evidence; /* malloc'd */
	size_t evidence_len;
};

/* What one session keeps between its ATTEST and the reply. */
struct load_session {
	uint8_t share_sk[ARA_HPKE_NSK];
	uint8_t info[ARA_HPKE_INFO_BYTES];
};

/*
 * A fresh instance key with evidence made now over it and digests: tpm
 * evidence if tpm is given, else dev-insecure. Again on an initialised
 * device: new key, new evidence. 0, or -1 with a message on stderr.
 */
int load_device_init(struct load_device *d, const struct ara_wire_digests *digests,
		     const struct load_tpm *tpm, uint64_t now);

/*
 * The ATTEST answering challenge (a whole CHALLENGE message) for the
 * secret name, into out[LOAD_ATTEST_MAX]: a fresh key share, signed by
 * the instance key over the session. 0 or -1.
 */
int load_device_attest(const struct load_device *d, struct load_session *s,
		       const uint8_t *challenge, size_t challenge_len, const char *name,
		       uint8_t *out, size_t *len);

/*
 * Opens a DELIVER for the session: the secret into out[ARA_WIRE_SECRET_MAX]
 * and its length. 0, or -1 if reply is not a DELIVER that opens.
 */
int load_device_open(const struct load_session *s, const char *name, const uint8_t *reply,
		     size_t reply_len, uint8_t *out, size_t *out_len);

/* Wipes the session's share. */
void load_session_wipe(struct load_session *s);

#endif
