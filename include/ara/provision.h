/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Attested provisioning (docs/provisioning.md): how an App obtains a secret
 * that it never sees, from a provisioner (ara-provision) that releases it
 * only to a verified ARA instance.
 *
 * The App carries the messages: it connects to the provisioner, receives a
 * CHALLENGE, hands it to PROVISION_BEGIN, sends the ATTEST that ARA writes,
 * and hands the reply to PROVISION_FINISH. ARA keeps the secret in DOM0 and
 * gives the App a handle; services use the secret by handle, never by
 * value. ara_provision_fetch() (ara/provision_client.h) does all of
 * this over a connected socket.
 *
 * A process has platform evidence only if ARA_EVIDENCE named a backend when
 * it started (dev-insecure or tpm); without it, and in a forked child (whose
 * DOM0 heap starts empty), PROVISION_BEGIN returns ARA_E_NO_EVIDENCE.
 */
#ifndef ARA_PROVISION_H
#define ARA_PROVISION_H

#include <stdint.h>

#include "ara/ara.h"

#define ARA_FID_PROVISION_BEGIN ARA_FID(ARA_MODULE_RTS, 1)  /* struct ara_provision_begin_arg */
#define ARA_FID_PROVISION_FINISH ARA_FID(ARA_MODULE_RTS, 2) /* struct ara_provision_finish_arg */
#define ARA_FID_SECRET_INFO ARA_FID(ARA_MODULE_RTS, 3)	     /* struct ara_secret_info_arg */
#define ARA_FID_SECRET_HMAC ARA_FID(ARA_MODULE_RTS, 4)	     /* struct ara_secret_hmac_arg */
#define ARA_FID_SECRET_DESTROY ARA_FID(ARA_MODULE_RTS, 5)    /* struct ara_secret_destroy_arg */

/* An ATTEST message is never longer (header and largest body, wire.h). */
#define ARA_PROVISION_ATTEST_MAX (12u + (512u << 10) + 1024u)
#define ARA_PROVISION_NAME_MAX 64u
/* Sessions begun and not yet finished, per process; secrets held, per process. */
#define ARA_PROVISION_SESSIONS 4u
#define ARA_PROVISION_SECRETS 16u

/*
 * PROVISION_BEGIN: ARA checks the CHALLENGE, makes a fresh key share,
 * signs it with the instance key over this session, and writes the ATTEST
 * message. With ARA_PROVISION_SESSIONS sessions unfinished, it ends the
 * oldest. ARA_E_BADMSG: the challenge does not decode; ARA_E_BUSY: every
 * session is inside a call right now; ARA_E_INVAL: a bad name or too small
 * a buffer.
 */
struct ara_provision_begin_arg {
	uint64_t challenge;	/* in: the provisioner's CHALLENGE message */
	uint64_t name;		/* in: the secret asked for, [A-Za-z0-9._-]{1,64} */
	uint64_t attest;	/* in: where ARA writes the ATTEST message */
	uint32_t challenge_len; /* in */
	uint32_t name_len;	/* in */
	uint32_t attest_cap;	/* in: ARA_PROVISION_ATTEST_MAX always suffices */
	uint32_t attest_len;	/* out */
	uint32_t session;	/* out: for PROVISION_FINISH */
	uint32_t reserved;
};

/*
 * PROVISION_FINISH: ARA opens the DELIVER with the session's share and
 * keeps the secret; the session ends whatever the outcome (one reply per
 * session). ARA_E_REFUSED: the reply is a REFUSE (the App can decode its
 * code and text itself); ARA_E_PROVISIONER: the manifest pins the
 * provisioner's key and the reply is a DELIVER without that key's
 * signature over this session (checked before anything is opened);
 * ARA_E_BADMSG: the reply does not decode or does not open (it was not
 * sealed to this session); ARA_E_NOENT: no such session; ARA_E_NOMEM:
 * ARA_PROVISION_SECRETS secrets are held already, or the module the secret
 * is for holds all it can; ARA_E_INVAL: a secret for another module (a
 * content key, "kid-" or "cenc-") longer than that module takes (64 bytes).
 * A secret for another module is handed to it and not kept here
 * (docs/provisioning.md, "Secrets for the other services"): its handle
 * answers SECRET_INFO and SECRET_DESTROY (which withdraws it), and
 * SECRET_HMAC refuses it (ARA_E_SECURITY).
 */
struct ara_provision_finish_arg {
	uint64_t reply;	    /* in: the provisioner's DELIVER or REFUSE */
	uint32_t reply_len; /* in */
	uint32_t session;   /* in */
	uint32_t handle;    /* out: the secret's handle */
	uint32_t reserved;
};

/* SECRET_INFO: what a handle holds, but not the value. */
struct ara_secret_info_arg {
	uint32_t handle;			/* in */
	uint32_t length;			/* out: the secret's length in bytes */
	uint32_t name_len;			/* out */
	uint32_t reserved;
	char name[ARA_PROVISION_NAME_MAX];	/* out: not NUL-terminated */
};

/* SECRET_HMAC: HMAC-SHA256 of the App's message, keyed with the secret. */
struct ara_secret_hmac_arg {
	uint64_t msg;	  /* in: App memory */
	uint32_t msg_len; /* in: at most ARA_SECRET_HMAC_MAX */
	uint32_t handle;  /* in */
	uint8_t mac[32];  /* out */
};
#define ARA_SECRET_HMAC_MAX (64u << 10)

/*
 * SECRET_DESTROY: the secret is wiped (withdrawn from the module it was
 * handed to) and its handle no longer valid.
 */
struct ara_secret_destroy_arg {
	uint32_t handle; /* in */
	uint32_t reserved;
};

#endif
