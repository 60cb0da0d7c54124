/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A service of one domain calls another service domain's internal function
 * through the core (ara_service_call's relay, libara/src/dom0/dispatch.c),
 * driven by the App through the relay variants' test services
 * (tests/variants/relay.h). Run with an instance (ARA_EVIDENCE=dev-insecure),
 * so that provisioning's internal functions would answer.
 *
 *   domain_relay relayed (against relay): relay-caller, in the extra
 *     domain, reaches WHERE, which names it as a caller, and WHERE runs in
 *     the RTS's domain with that domain's row, on a copy, its result back;
 *     WHERE's own relay, from within a relayed call, is refused
 *     (ARA_E_NOFUNC); provisioning's INSTANCE and SIGN, which name no
 *     caller of the extra domain, and an unknown ID are refused
 *     (ARA_E_NOFUNC), and SIGN writes no signature.
 *   domain_relay forged (against relay-any-caller, the callers' check
 *     removed): the same SIGN returns a signature by the instance key of a
 *     digest the App chose (FORGED), which a compromised service could put
 *     under an RTM report of its own.
 */
#include <stdio.h>
#include <string.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "check.h"
#include "provision_calls.h"
#include "relay.h"

static int relay(uint32_t fid, void *bytes, size_t len)
{
	struct relay_arg a = { .fid = fid, .status = 1 };
	int st;

	memcpy(a.bytes, bytes, len);
	st = secure_call(RELAY_FID_RELAY, &a);
	check(st == ARA_OK, "RELAY of 0x%x: %s", fid, ara_strerror(st));
	memcpy(bytes, a.bytes, len);
	return a.status;
}

static int all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static int sign(struct ara_provision_sign_arg *s)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->digest, "the App's digest, any it chooses", sizeof(s->digest));
	return relay(ARA_FID_PROVISION_SIGN, s, sizeof(*s));
}

static void relayed(void)
{
	struct relay_where_arg w = { .in = 0x0123456789abcdefu, .nested = 1 };
	struct ara_provision_instance_arg inst;
	struct ara_provision_sign_arg s;
	uint8_t unknown[RELAY_BYTES] = { 0 };
	int st;

	st = relay(RELAY_FID_WHERE, &w, sizeof(w));
	check(st == ARA_OK, "relayed WHERE: %s", ara_strerror(st));
	check(w.out == ~UINT64_C(0x0123456789abcdef), "WHERE's result came back: %#llx",
	      (unsigned long long)w.out);
	check(w.por == ARA_POR_SERVICE(ARA_PKEY_RTS), "WHERE ran with the RTS's row: POR_EL0 %#llx",
	      (unsigned long long)w.por);
	check(w.nested == ARA_E_NOFUNC, "a relay from a relayed call is refused: %lld",
	      (long long)w.nested);
	st = secure_call(RELAY_FID_WHERE, &w);
	check(st == ARA_E_NOFUNC, "the App does not reach WHERE: %s", ara_strerror(st));

	memset(&inst, 0, sizeof(inst));
	st = relay(ARA_FID_PROVISION_INSTANCE, &inst, sizeof(inst));
	check(st == ARA_E_NOFUNC, "provisioning's INSTANCE, which names no such caller: %s",
	      ara_strerror(st));
	st = sign(&s);
	check(st == ARA_E_NOFUNC, "provisioning's SIGN, which names no such caller: %s",
	      ara_strerror(st));
	check(all_zero(s.sig, sizeof(s.sig)), "SIGN wrote no signature");
	st = relay(ARA_FID(ARA_MODULE_TEST, 0x1f), unknown, sizeof(unknown));
	check(st == ARA_E_NOFUNC, "an unknown ID: %s", ara_strerror(st));
}

static void forged(void)
{
	struct ara_provision_sign_arg s;
	int st = sign(&s);

	if (st == ARA_OK && !all_zero(s.sig, sizeof(s.sig)))
		printf("FORGED: provisioning signed the App's digest for relay-caller\n");
	check(st == ARA_OK, "SIGN through the open relay: %s", ara_strerror(st));
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "relayed") == 0)
		relayed();
	else if (argc == 2 && strcmp(argv[1], "forged") == 0)
		forged();
	else
		check(0, "usage: domain_relay relayed|forged");
	return check_report("domain-relay");
}
