/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-verify's verdict on stdout: the one line ("ara-verify: OK: ..." or
 * "ara-verify: REJECTED: ..."), or with --json one JSON object whose fields
 * are documented in docs/man/ara-verify.1.
 */
#ifndef ARA_RTM_VERDICT_OUT_H
#define ARA_RTM_VERDICT_OUT_H

#include <stdio.h>

#include "verify.h"

/*
 * msg is verify.h's "OK: ..." or "REJECTED: ..."; fig the figures of an
 * OK. 0, or -1 if f could not be written.
 */
int ara_verdict_print(FILE *f, int json, int ok, const char *msg,
		      const struct ara_rtm_verify_figures *fig);

#endif
