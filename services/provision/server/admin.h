/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-provision's operator subcommands over the store (store.h): enrol,
 * revoke, policy add, secret add|rotate, deliveries, audit, device. Their
 * command line is in docs/man/ara-provision.1 ("Operator commands").
 */
#ifndef ARA_PROVISION_ADMIN_H
#define ARA_PROVISION_ADMIN_H

/* Their part of ara-provision's --help. */
#define ARA_ADMIN_USAGE \
	"Operator commands over the provisioning service's store:\n" \
	"\n" \
	"  enrol DEVICE [--ak PEM [--ek-chain DER]]\n" \
	"                      enrol a device (if new) and add its TPM attestation key\n" \
	"  revoke DEVICE [--reason TEXT]\n" \
	"                      revoke a device: its sessions are refused from now on\n" \
	"  policy add FILE     add FILE, checked, as the newest policy version\n" \
	"  secret add NAME --value FILE [--once] [--kek FILE]\n" \
	"  secret rotate NAME --value FILE [--once] [--kek FILE]\n" \
	"                      a new secret, or its next version, sealed under the KEK\n" \
	"  deliveries [FILTER] list the deliveries of secrets\n" \
	"  audit [FILTER] [--decision delivered|refused]\n" \
	"                      query the audit log of decisions\n" \
	"  device [DEVICE]     a device (every device): enrolment, revocation, and the\n" \
	"                      time of its last accepted attestation\n" \
	"\n" \
	"  --store URL         sqlite:PATH or postgresql://... (default: the service's,\n" \
	"                      in its state directory)\n" \
	"  --json              JSON lines: one object per record\n" \
	"  FILTER: --device ID --secret NAME --since TIME --until TIME --limit N\n" \
	"          (TIME: RFC 3339 UTC, 2026-01-31T12:00:00Z; --limit: the newest N)\n" \
	"\n" \
	"Exit status: 0 done, 2 usage error or a malformed input file, 3 the store or\n" \
	"a file cannot be opened or the database fails, 4 no such device, secret or\n" \
	"policy, 5 it exists already (or is revoked already).\n"

/* 1 if name is one of the operator subcommands. */
int ara_admin_is_command(const char *name);

/* Runs the subcommand argv[0] with its arguments; returns the exit status. */
int ara_admin_main(int argc, char **argv);

#endif
