/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The App's side of provisioning (App code, libc): carries the messages
 * between a connected provisioner and ARA (ara/provision.h). Nothing here
 * is trusted by anyone: the App could do all of it differently, and the
 * protocol is built so that it gains nothing by doing so.
 */
#ifndef ARA_PROVISION_CLIENT_H
#define ARA_PROVISION_CLIENT_H

#include <stdint.h>

#include "ara/provision.h"
#include "ara/refusal.h"

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

#ifdef __cplusplus
}
#endif

#endif
