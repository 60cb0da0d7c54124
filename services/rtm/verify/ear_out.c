/* SPDX-License-Identifier: Apache-2.0 */
/* ara-verify's verdict as an EAR (ear_out.h; docs/ear.md, "ara-verify"). */
#include "ear_out.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ara_cli.h"

#define REJECTED_PREFIX "REJECTED: "

int ara_verify_ear_print(FILE *f, const struct ara_ear_key *k, const struct ara_verify_outcome *o)
{
	char build[64];
	struct ara_ear_rtm rtm = { 0 };
	struct ara_ear_result r = {
		.verifier_build = build,
		.iat = (uint64_t)time(NULL),
		.nonce = o->nonce,
		.app_sha256 = o->app_sha256,
		.instance_pub = o->instance_pub,
	};
	char *jwt;
	int rc;

	/* instance-identity is claimed only for an attested key: an --instance-key is the caller's. */

	snprintf(build, sizeof(build), "ara-verify %s", ara_cli_version);
	if (o->ok) {
		r.status = ARA_EAR_AFFIRMING;
		r.instance_identity = o->attested ? ARA_EAR_TRUSTWORTHY_INSTANCE : 0;
		r.executables = ARA_EAR_APPROVED_RUNTIME;
		rtm = (struct ara_ear_rtm){ o->fig->entries, o->fig->segments, o->fig->pending,
					    o->fig->checkpoints, o->fig->final };
		r.rtm = &rtm;
	} else {
		r.status = ARA_EAR_CONTRAINDICATED;
		r.reason = strncmp(o->msg, REJECTED_PREFIX, strlen(REJECTED_PREFIX)) == 0 ?
				   o->msg + strlen(REJECTED_PREFIX) :
				   o->msg;
		/*
		 * No key: the attestation was refused, the instance is not one
		 * the policy trusts. With one, the run's evidence or the App's
		 * file was refused.
		 */
		if (!o->instance_pub)
			r.instance_identity = ARA_EAR_UNTRUSTWORTHY_INSTANCE;
		else {
			r.instance_identity = o->attested ? ARA_EAR_TRUSTWORTHY_INSTANCE : 0;
			r.executables = ARA_EAR_CONTRAINDICATED_RUNTIME;
		}
	}
	jwt = ara_ear_sign(&r, k);
	if (!jwt) {
		ara_msg("cannot make the EAR (out of memory)");
		return -1;
	}
	rc = fprintf(f, "%s\n", jwt) < 0 || fflush(f) || ferror(f) ? -1 : 0;
	free(jwt);
	return rc;
}
