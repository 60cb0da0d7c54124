/* SPDX-License-Identifier: Apache-2.0 */
/* One provisioning session over a connected socket (serve.c). */
#ifndef ARA_PROVISION_SERVE_H
#define ARA_PROVISION_SERVE_H

#include <stdio.h>

#include "decide.h"
#include "policy.h"

/* Seconds a peer has, from the CHALLENGE on, for its whole ATTEST. */
#define ARA_SERVE_TIMEOUT 30

/*
 * Runs the session on fd: CHALLENGE, ATTEST, then DELIVER or REFUSE. Logs
 * one line to log, "session ID (PEER): delivered ..." or "... refused
 * (REASON): WHY". Returns 0 if the secret was delivered, else the enum
 * ara_refusal. Never closes fd. key: the DELIVER is signed with it
 * (docs/provisioning.md, "Provisioner authentication"); NULL: unsigned.
 */
int ara_serve(int fd, const struct ara_policy *p, const struct ara_signing_key *key,
	      unsigned long id, const char *peer, FILE *log);

#endif
