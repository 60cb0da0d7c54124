/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Why a provisioner refused: the code of its REFUSE message
 * (docs/provisioning.md), which ara_provision_fetch() hands to the App
 * (ara/provision_client.h). The values are on the wire: append only.
 */
#ifndef ARA_REFUSAL_H
#define ARA_REFUSAL_H

/* Reasons a provisioner gives in a REFUSE (its log says more). */
enum ara_refusal {
	ARA_REFUSE_MALFORMED = 1,  /* a message did not decode */
	ARA_REFUSE_BACKEND = 2,	   /* the policy does not accept this evidence backend */
	ARA_REFUSE_EVIDENCE = 3,   /* the evidence does not verify or bind the instance key */
	ARA_REFUSE_MEASUREMENT = 4, /* a measured digest is not the policy's */
	ARA_REFUSE_STALE = 5,	   /* the evidence is older than the policy allows */
	ARA_REFUSE_SESSION = 6,	   /* the session signature does not verify */
	ARA_REFUSE_SECRET = 7,	   /* no such secret for this App */
	ARA_REFUSE_INTERNAL = 8,   /* the provisioner failed */
};

#endif
