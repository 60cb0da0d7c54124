/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The App's side of provisioning (App code, libc): carries the messages
 * between a connected provisioner and ARA (ara/provision.h), and submits
 * the App's RTM evidence (ara/rtm.h) to the same service. Nothing here
 * is trusted by anyone: the App could do all of it differently, and the
 * protocol is built so that it gains nothing by doing so.
 */
#ifndef ARA_PROVISION_CLIENT_H
#define ARA_PROVISION_CLIENT_H

#include <stdint.h>

#include "ara/provision.h"
#include "ara/refusal.h"
#include "ara/rtm.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ara_provision_refusal {
	uint16_t code;	/* enum ara_refusal (ara/refusal.h) */
	char text[201]; /* the provisioner's reason, NUL-terminated */
};

/*
 * Runs one session on fd for the secret called name. ARA_OK with *handle;
 * ARA_E_REFUSED with *refusal filled (if not NULL); ARA_E_PROVISIONER if
 * the manifest pins a provisioner key that did not sign the DELIVER
 * (ara/provision.h); ARA_E_BADMSG if the
 * provisioner sent something that is not a message of the protocol, or
 * closed; otherwise what secure_call returned.
 */
int ara_provision_fetch(int fd, const char *name, uint32_t *handle,
			struct ara_provision_refusal *refusal);

/* One whole message from fd into buf (at most cap bytes); its length, or -1. */
long ara_provision_recv(int fd, uint8_t *buf, unsigned long cap);

/* A service's VERDICT on a submitted RTM report. */
#define ARA_RTM_EAR_MAX 4096u
struct ara_rtm_verdict {
	uint16_t accepted;		/* 1: the run verifies; 0: rejected */
	char text[201];			/* the service's line, NUL-terminated */
	char ear[ARA_RTM_EAR_MAX + 1];	/* the signed EAR (a JWT), "" if the service signs none */
};

/*
 * What makes the signed report over the service's nonce:
 * ara_rtm_report or ara_rtm_report_final (ara/rtm_runtime.h), which export
 * the sealed segments first.
 */
typedef int (*ara_rtm_report_fn)(const uint8_t nonce[ARA_RTM_NONCE_BYTES], void *out,
				 uint32_t cap, uint32_t *len);

/*
 * Submits the run's RTM evidence to the provisioning service on fd
 * (docs/provisioning.md, "RTM reports") and reads its VERDICT: takes the
 * CHALLENGE, has make_report sign a report over its nonce, has ARA make
 * an ATTEST for it (PROVISION_BEGIN; the session is then ended), and
 * sends both with the segments read from segments_path (the file
 * ARA_RTM_SEGMENTS names, read after the report, so it holds what the
 * report covers; NULL, "" or a file that does not exist: none). ARA_OK with *verdict filled, accepted
 * or not; ARA_E_REFUSED with *refusal filled (if not NULL) when the
 * service decided nothing; ARA_E_BADMSG if the service sent something that
 * is not a message of the protocol, or closed; ARA_E_NOMEM; ARA_E_INVAL
 * when the segments file cannot be read or is over 8 MiB (errno says
 * why); otherwise what make_report or PROVISION_BEGIN returned.
 */
int ara_rtm_submit(int fd, ara_rtm_report_fn make_report, const char *segments_path,
		   struct ara_rtm_verdict *verdict, struct ara_provision_refusal *refusal);

#ifdef __cplusplus
}
#endif

#endif
