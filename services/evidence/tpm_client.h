/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A connection to a TPM 2.0 through tpm2-tss's SAPI and TCTI loader, for
 * the programs that talk to one (ara-tpm-quote, and the tests' PCR extend
 * helper). Commands are built by tpm2-tss, never marshalled by hand.
 * Failures are reported as one line on stderr, with the TSS2 return code
 * decoded by libtss2-rc.
 */
#ifndef ARA_EVIDENCE_TPM_CLIENT_H
#define ARA_EVIDENCE_TPM_CLIENT_H

#include <stdbool.h>

#include <tss2/tss2_sys.h>

/* The TPM of the device: the kernel's resource manager, so that several
 * processes may use it and transient objects do not leak between them. */
#define ARA_TPM_DEFAULT_TCTI "device:/dev/tpmrm0"

struct ara_tpm {
	const char *prog; /* prefix of the messages */
	TSS2_TCTI_CONTEXT *tcti;
	TSS2_SYS_CONTEXT *sys;
	unsigned tries;
};

/* A command session of one: the empty password (TPM2_RS_PW, EmptyAuth). */
extern const TSS2L_SYS_AUTH_COMMAND ara_tpm_empty_auth;

/* 0, or -1 after reporting why. conf is a tctildr string ("device:/dev/tpmrm0",
 * "swtpm:host=127.0.0.1,port=2321"). */
int ara_tpm_open(struct ara_tpm *t, const char *prog, const char *conf);
void ara_tpm_close(struct ara_tpm *t);

/*
 * Call after each attempt of a command: true (after a pause) while rc asks
 * for a retry (TPM2_RC_RETRY, _YIELDED, _TESTING) and attempts remain:
 *   t->tries = 0; do rc = Tss2_Sys_X(...); while (ara_tpm_again(t, rc));
 */
bool ara_tpm_again(struct ara_tpm *t, TSS2_RC rc);

/* "PROG: WHAT: <decoded rc> (0xRC)" on stderr; returns -1. */
int ara_tpm_fail(const struct ara_tpm *t, const char *what, TSS2_RC rc);

#endif
