/* SPDX-License-Identifier: Apache-2.0 */
/* One provisioning session over a connected socket (serve.c). */
#ifndef ARA_PROVISION_SERVE_H
#define ARA_PROVISION_SERVE_H

#include <stdio.h>

#include "decide_store.h"
#include "policy.h"
#include "report.h"

/* Seconds a peer has, from the CHALLENGE on, for its whole ATTEST. */
#define ARA_SERVE_TIMEOUT 30

/*
 * Runs the session on fd: CHALLENGE, ATTEST, then DELIVER or REFUSE (or
 * REPORT, then VERDICT or REFUSE, with reports not NULL: report.h). Logs
 * one line to log, "session ID (PEER): delivered ..." or "... refused
 * (REASON): WHY". Returns 0 if the secret was delivered or the report
 * decided, else the enum ara_refusal. Never closes fd. With a store (NULL:
 * none), the decision is the store's (decide.h) and every record goes to
 * its audit log too.
 */
int ara_serve(int fd, const struct ara_policy *p, const struct ara_decide_store *store,
	      const struct ara_report_ctx *reports,
	      unsigned long id, const char *peer, FILE *log);

#endif
