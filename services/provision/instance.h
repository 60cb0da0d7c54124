/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A process's ARA instance for provisioning (DOM0 only): the instance key
 * made at initialisation, the platform evidence that binds it to the
 * measured digests, the sessions begun and the secrets received.
 *
 * It lives on the heap of provisioning's domain (key 3) and is reached
 * through the module's state (ara_module_state), which a forked child
 * finds new: a child has no instance, no sessions and no secrets, and
 * PROVISION_BEGIN says so.
 * Other modules reach it only through provisioning's internal functions
 * (provision_calls.h), and receive the secrets meant for them through the
 * core (ara_handover).
 */
#ifndef ARA_PROVISION_INSTANCE_H
#define ARA_PROVISION_INSTANCE_H

#include <stddef.h>
#include <stdint.h>

#include "ara/provision.h"
#include "ara/service.h"
#include "binding.h"
#include "hpke.h"
#include "wire.h"

enum ara_slot_state {
	ARA_SLOT_FREE = 0,
	ARA_SLOT_BUSY,	 /* claimed by one call, being filled or emptied */
	ARA_SLOT_ACTIVE, /* a session awaiting FINISH; a secret held */
};

struct ara_session {
	uint32_t state; /* enum ara_slot_state; first: release wipes what follows */
	uint32_t id;	/* generation << 8 | slot + 1: never 0, never reused soon */
	uint64_t begun; /* order of PROVISION_BEGINs: the oldest goes first when all are taken */
	uint8_t share_sk[ARA_HPKE_NSK];
	uint8_t info[ARA_HPKE_INFO_BYTES];
	uint8_t name[ARA_WIRE_NAME_MAX];
	uint32_t name_len;
};

/*
 * A secret received. One another module's rules take (ara_handover) is
 * handed to it and not kept: its slot keeps the name and length for
 * SECRET_INFO and the handle for SECRET_DESTROY, which withdraws it.
 */
struct ara_secret {
	uint32_t state;
	uint32_t handle; /* as a session's id */
	uint8_t name[ARA_WIRE_NAME_MAX];
	uint32_t name_len;
	uint32_t len;
	uint32_t handed; /* 1: handed over, value holds nothing */
	uint8_t value[ARA_WIRE_SECRET_MAX];
};

struct ara_instance {
	int lock; /* the session and secret tables' */
	uint8_t sk[ARA_HPKE_NSK];
	uint8_t pub[ARA_HPKE_NPK];
	uint8_t backend; /* enum ara_evidence_backend */
	uint64_t issued_at;
	struct ara_wire_digests digests;
	uint8_t *evidence; /* on the DOM0 heap */
	size_t evidence_len;
	uint32_t generation; /* for ids and handles */
	uint64_t sessions_begun;
	struct ara_session sessions[ARA_PROVISION_SESSIONS];
	struct ara_secret secrets[ARA_PROVISION_SECRETS];
};

/*
 * The module (instance.c). Its start hook, before the filter, makes the
 * instance if ARA_EVIDENCE names a backend (dev-insecure or tpm); fatal if
 * it names another or the evidence cannot be made (no App code has run,
 * nothing is lost).
 */
extern const struct ara_module ara_provision_module;

/* This process's instance, or NULL (none configured, or a forked child). */
struct ara_instance *ara_instance(void);

/*
 * The session and secret tables, under the instance lock: a call claims a
 * free slot (FREE -> BUSY, with a fresh id) or takes an active one by id
 * (ACTIVE -> BUSY), works on it without the lock, and releases it (to
 * ACTIVE or FREE; FREE wipes it). With every session slot taken, a claim
 * ends the oldest session awaiting FINISH (an App that never finishes
 * cannot lock itself out). NULL: all slots busy in calls, or no such id.
 */
struct ara_session *ara_session_claim(struct ara_instance *in);
struct ara_session *ara_session_take(struct ara_instance *in, uint32_t id);
void ara_session_release(struct ara_instance *in, struct ara_session *s, enum ara_slot_state to);

/*
 * Stores a secret that FINISH opened, or hands it to the module whose rules
 * take its name (ara_handover), which then replaces one handed earlier
 * under that name (whose handle holds nothing from then on). ARA_OK and
 * *handle; ARA_E_NOMEM (the table, or the recipient's, is full); what
 * ara_handover refused it for.
 */
enum ara_status ara_secret_store(struct ara_instance *in, const uint8_t *name, size_t name_len,
				 const uint8_t *value, size_t len, uint32_t *handle);

/*
 * Copies a held secret into out (ARA_WIRE_SECRET_MAX bytes) for a service
 * to use, and wipes nothing: the caller wipes out when done. ARA_OK;
 * ARA_E_NOENT (the handle holds nothing); ARA_E_SECURITY (the secret was
 * handed to another module: provisioning holds no copy).
 */
enum ara_status ara_secret_copy(struct ara_instance *in, uint32_t handle, uint8_t *out,
				uint32_t *len);

/* A handle's name and length; 0, or -1 as above. */
int ara_secret_describe(struct ara_instance *in, uint32_t handle, uint8_t *name,
			uint32_t *name_len, uint32_t *len);

/*
 * Wipes a secret, or withdraws it from the module it was handed to. ARA_OK;
 * ARA_E_NOENT (the handle holds nothing); what the withdrawal was refused
 * for (the secret then stays).
 */
enum ara_status ara_secret_destroy(struct ara_instance *in, uint32_t handle);

#endif
