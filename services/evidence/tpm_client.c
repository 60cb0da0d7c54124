/* SPDX-License-Identifier: Apache-2.0 */
/* A SAPI connection through the TCTI loader (tpm_client.h). */
#include "tpm_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tss2/tss2_rc.h>
#include <tss2/tss2_tctildr.h>

/* A TPM busy with its self-test or another locality answers RETRY or
 * TESTING; a few attempts with a pause ride that out. */
#define TRIES 10u
#define PAUSE_US 50000u

const TSS2L_SYS_AUTH_COMMAND ara_tpm_empty_auth = {
	.count = 1,
	.auths = { { .sessionHandle = TPM2_RH_PW } },
};

int ara_tpm_fail(const struct ara_tpm *t, const char *what, TSS2_RC rc)
{
	fprintf(stderr, "%s: %s: %s (0x%x)\n", t->prog, what, Tss2_RC_Decode(rc), rc);
	return -1;
}

int ara_tpm_open(struct ara_tpm *t, const char *prog, const char *conf)
{
	TSS2_ABI_VERSION abi = TSS2_ABI_VERSION_CURRENT;
	size_t size;
	TSS2_RC rc;

	memset(t, 0, sizeof(*t));
	t->prog = prog;
	rc = Tss2_TctiLdr_Initialize(conf, &t->tcti);
	if (rc != TSS2_RC_SUCCESS) {
		fprintf(stderr, "%s: cannot open the TPM through TCTI \"%s\": %s (0x%x)\n", prog,
			conf, Tss2_RC_Decode(rc), rc);
		t->tcti = NULL;
		return -1;
	}
	size = Tss2_Sys_GetContextSize(0);
	t->sys = calloc(1, size);
	if (!t->sys) {
		fprintf(stderr, "%s: out of memory for the SAPI context\n", prog);
		ara_tpm_close(t);
		return -1;
	}
	rc = Tss2_Sys_Initialize(t->sys, size, t->tcti, &abi);
	if (rc != TSS2_RC_SUCCESS) {
		free(t->sys);
		t->sys = NULL;
		ara_tpm_close(t);
		return ara_tpm_fail(t, "Tss2_Sys_Initialize", rc);
	}
	return 0;
}

void ara_tpm_close(struct ara_tpm *t)
{
	if (t->sys) {
		Tss2_Sys_Finalize(t->sys);
		free(t->sys);
		t->sys = NULL;
	}
	if (t->tcti)
		Tss2_TctiLdr_Finalize(&t->tcti);
}

bool ara_tpm_again(struct ara_tpm *t, TSS2_RC rc)
{
	/* Format-zero warnings of the TPM layer: no handle or parameter bits. */
	if (rc != TPM2_RC_RETRY && rc != TPM2_RC_YIELDED && rc != TPM2_RC_TESTING)
		return false;
	if (++t->tries >= TRIES)
		return false;
	usleep(PAUSE_US);
	return true;
}
