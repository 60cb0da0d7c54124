/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provisioning wire format, version 1 (docs/provisioning.md has a table
 * per message). Three messages make a session:
 *
 *   provisioner -> device  CHALLENGE  a fresh nonce
 *   device -> provisioner  ATTEST     evidence for the instance key, the
 *                                     measured digests, a fresh key share
 *                                     and the instance key's signature over
 *                                     the session transcript
 *   provisioner -> device  DELIVER    the secret, HPKE-sealed to the share,
 *                                     and (flag SIGNED) the provisioner's
 *                                     signature over the whole transcript
 *                     or   REFUSE     a reason code and a line of text
 *
 * An App submits an RTM report in a session of its own: the same
 * CHALLENGE, then
 *
 *   device -> provisioner  REPORT     an ATTEST for the CHALLENGE, and the
 *                                     run's RTM report over its nonce with
 *                                     the segments it covers
 *   provisioner -> device  VERDICT    accepted or rejected, a line of text
 *                                     and the signed EAR (docs/ear.md)
 *                     or   REFUSE     the REPORT could not be decided
 *
 * Every message is a 12-byte header (magic "ARAP", version, type, flags,
 * body length) and a body; integers are big-endian. Flags are 0 but for a
 * DELIVER's ARA_WIRE_F_SIGNED: version 1 extended, as a decoder that knows
 * no flag refuses a signed DELIVER rather than misreading it. The App carries these
 * bytes and may change any of them: the decoders below check every length
 * against the bytes actually there and return views into the caller's
 * buffer, never copies, never allocations. They use no libc beyond
 * memcpy/memcmp, so DOM0 links the same code as the provisioner.
 */
#ifndef ARA_PROVISION_WIRE_H
#define ARA_PROVISION_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "ara/refusal.h" /* enum ara_refusal: REFUSE's codes */

#define ARA_WIRE_MAGIC "ARAP"
#define ARA_WIRE_VERSION 1u
#define ARA_WIRE_HEADER 12u
#define ARA_WIRE_SHA256 32u
#define ARA_WIRE_POINT 65u /* uncompressed SEC1 P-256 point */
#define ARA_WIRE_SIG 64u   /* ECDSA P-256 r || s, 32 bytes each */
#define ARA_WIRE_NONCE 32u
/* A DELIVER's flag: its body ends in ARA_WIRE_SIG bytes, the provisioner's signature. */
#define ARA_WIRE_F_SIGNED 0x0001u

#define ARA_WIRE_NAME_MAX 64u		 /* secret names: [A-Za-z0-9._-]{1,64} */
#define ARA_WIRE_EVIDENCE_MAX (512u << 10) /* the largest backend's (tpm) */
#define ARA_WIRE_SECRET_MAX 1024u
#define ARA_WIRE_TEXT_MAX 200u /* a REFUSE's reason text */
/* The largest DELIVER: signed, with the largest secret and its 16-byte AEAD tag. */
#define ARA_WIRE_DELIVER_MAX                                                                  \
	(ARA_WIRE_HEADER + ARA_WIRE_POINT + 2u + ARA_WIRE_SECRET_MAX + 16u + ARA_WIRE_SIG)
/* The largest body of any message but a REPORT: an ATTEST with the largest evidence. */
#define ARA_WIRE_BODY_MAX (ARA_WIRE_EVIDENCE_MAX + 1024u)
/* A REPORT's parts: its RTM report (rtm_format.h) and the segments, at most 8. */
#define ARA_WIRE_REPORT_DOC_MAX (2u << 20)
#define ARA_WIRE_REPORT_SEGMENTS_MAX (8u << 20)
#define ARA_WIRE_REPORT_BODY_MAX                                                  \
	(12u + ARA_WIRE_HEADER + ARA_WIRE_BODY_MAX + ARA_WIRE_REPORT_DOC_MAX + \
	 ARA_WIRE_REPORT_SEGMENTS_MAX)
#define ARA_WIRE_TOKEN_MAX 4096u /* a VERDICT's EAR */

enum ara_wire_type {
	ARA_WIRE_CHALLENGE = 1,
	ARA_WIRE_ATTEST = 2,
	ARA_WIRE_DELIVER = 3,
	ARA_WIRE_REFUSE = 4,
	ARA_WIRE_REPORT = 5,
	ARA_WIRE_VERDICT = 6,
};

/* A VERDICT's outcome. */
enum ara_wire_verdict {
	ARA_WIRE_VERDICT_ACCEPTED = 0, /* the run verifies */
	ARA_WIRE_VERDICT_REJECTED = 1,
};

/* Platform-evidence backends (docs/provisioning.md). */
enum ara_evidence_backend {
	ARA_EVIDENCE_DEV_INSECURE = 1, /* a key everyone has: development only */
	ARA_EVIDENCE_TPM = 2,	       /* TPM 2.0 quote over Linux IMA's PCR */
};

enum ara_wire_result {
	ARA_WIRE_OK = 0,
	ARA_WIRE_E_SHORT = -1,	 /* fewer bytes than the header or a length says */
	ARA_WIRE_E_LONG = -2,	 /* more bytes than the message holds */
	ARA_WIRE_E_MAGIC = -3,	 /* not "ARAP" */
	ARA_WIRE_E_VERSION = -4, /* a version this code does not speak */
	ARA_WIRE_E_TYPE = -5,	 /* another message than expected */
	ARA_WIRE_E_FIELD = -6,	 /* a field out of its range (flags, names, sizes) */
	ARA_WIRE_E_SPACE = -7,	 /* the output buffer is too small */
};

/* The measured identity an instance's evidence binds. */
struct ara_wire_digests {
	uint8_t loader[ARA_WIRE_SHA256];
	uint8_t manifest[ARA_WIRE_SHA256];
	uint8_t libara[ARA_WIRE_SHA256];
	uint8_t entry[ARA_WIRE_SHA256];
	uint8_t app[ARA_WIRE_SHA256];
};

struct ara_wire_attest {
	uint8_t backend; /* enum ara_evidence_backend */
	uint64_t issued_at; /* when the evidence was made: seconds since the epoch */
	const uint8_t *instance_pub; /* ARA_WIRE_POINT bytes */
	struct ara_wire_digests digests;
	const uint8_t *share_pub; /* ARA_WIRE_POINT bytes */
	const uint8_t *name;
	size_t name_len;
	const uint8_t *evidence;
	size_t evidence_len;
	const uint8_t *sig; /* ARA_WIRE_SIG bytes */
	/* Encoded bytes of the message before sig: what sig covers, with the challenge. */
	size_t signed_len;
};

struct ara_wire_deliver {
	const uint8_t *enc; /* ARA_WIRE_POINT bytes */
	const uint8_t *ct;
	size_t ct_len; /* the secret's length plus the AEAD tag */
	const uint8_t *sig; /* ARA_WIRE_SIG bytes; NULL: an unsigned DELIVER */
	size_t signed_len;  /* encoded bytes before sig: what it covers, with the transcript */
};

struct ara_wire_refuse {
	uint16_t code; /* enum ara_refusal (ara/refusal.h), or a code this version does not know */
	const uint8_t *text;
	size_t text_len;
};

/* Views into a REPORT: each part is exactly as long as its length says. */
struct ara_wire_report {
	const uint8_t *attest; /* a whole ATTEST message */
	size_t attest_len;
	const uint8_t *report; /* the RTM report (rtm_format.h) */
	size_t report_len;
	const uint8_t *segments; /* concatenated, in index order; may be empty */
	size_t segments_len;
};

struct ara_wire_verdict_msg {
	uint8_t verdict; /* enum ara_wire_verdict */
	const uint8_t *text; /* printable ASCII */
	size_t text_len;
	const uint8_t *token; /* the EAR, a JWT in base64url parts; may be empty */
	size_t token_len;
};

/* Is name a valid secret name ([A-Za-z0-9._-]{1,64})? */
int ara_wire_name_ok(const uint8_t *name, size_t len);

/*
 * The header of msg: its type and the whole message's length (header and
 * body). ARA_WIRE_E_SHORT if fewer than ARA_WIRE_HEADER bytes are given; a
 * stream reader reads the header, then *total - ARA_WIRE_HEADER more bytes.
 * Refuses bodies over ARA_WIRE_BODY_MAX (a REPORT's over
 * ARA_WIRE_REPORT_BODY_MAX) before anything is read.
 */
int ara_wire_peek(const uint8_t *msg, size_t len, uint8_t *type, size_t *total);

/* Decoders: the whole of msg must be exactly one message of that type. */
int ara_wire_decode_challenge(const uint8_t *msg, size_t len, const uint8_t **nonce);
int ara_wire_decode_attest(const uint8_t *msg, size_t len, struct ara_wire_attest *out);
int ara_wire_decode_deliver(const uint8_t *msg, size_t len, struct ara_wire_deliver *out);
int ara_wire_decode_refuse(const uint8_t *msg, size_t len, struct ara_wire_refuse *out);
int ara_wire_decode_report(const uint8_t *msg, size_t len, struct ara_wire_report *out);
int ara_wire_decode_verdict(const uint8_t *msg, size_t len, struct ara_wire_verdict_msg *out);

/* Encoders: *written bytes into out[cap], or ARA_WIRE_E_SPACE / _FIELD. */
int ara_wire_encode_challenge(const uint8_t nonce[ARA_WIRE_NONCE], uint8_t *out, size_t cap,
			      size_t *written);
/*
 * An ATTEST without its signature: a->sig is ignored, the signature's
 * ARA_WIRE_SIG bytes at the end are left for ara_wire_set_sig, and
 * a->signed_len is set to the bytes it covers.
 */
int ara_wire_encode_attest(struct ara_wire_attest *a, uint8_t *out, size_t cap, size_t *written);
/* Writes the signature into the last ARA_WIRE_SIG bytes of a signed ATTEST or DELIVER. */
void ara_wire_set_sig(uint8_t *msg, size_t len, const uint8_t sig[ARA_WIRE_SIG]);
/*
 * A DELIVER; signed: with flag ARA_WIRE_F_SIGNED and the signature's
 * ARA_WIRE_SIG bytes at the end left for ara_wire_set_sig (it covers the
 * *written - ARA_WIRE_SIG bytes before it).
 */
int ara_wire_encode_deliver(const uint8_t enc[ARA_WIRE_POINT], const uint8_t *ct, size_t ct_len,
			    int sign, uint8_t *out, size_t cap, size_t *written);
int ara_wire_encode_refuse(uint16_t code, const char *text, uint8_t *out, size_t cap,
			   size_t *written);
int ara_wire_encode_report(const struct ara_wire_report *r, uint8_t *out, size_t cap,
			   size_t *written);
/* text as REFUSE's (cut at ARA_WIRE_TEXT_MAX, '?' for what is not printable); token may be "". */
int ara_wire_encode_verdict(uint8_t verdict, const char *text, const char *token, uint8_t *out,
			    size_t cap, size_t *written);

#endif
