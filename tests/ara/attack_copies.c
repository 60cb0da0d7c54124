/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Attacks through a service's copies of App memory by the kernel
 * (ara_copy_from_app: process_vm_readv, libara/src/dom0/copy.c), which
 * POR_EL0 does not govern: a service domain's row stops its own loads and
 * stores, not the kernel's. So the copies' range check, against the
 * protected ranges the seal left the services (ara_protected_view), is
 * the one wall. SECRET_HMAC (provisioning's domain) reads its message that
 * way; App code names DOM0 and every service domain's memory as the
 * message, one byte, and compares the MAC with those of the 256 byte
 * values in App memory: an oracle that reads any byte it is let copy.
 * Every one must be ARA_E_FAULT. The twin, against the variant without the
 * range check (no-copy-range-check), reads DOM0's canary string through
 * it, while each service domain still has its own key.
 * The secret needs the instance (ARA_EVIDENCE=dev-insecure): the App
 * provisions its own (tests/rts/self_provision.h).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "ara/provision.h"
#include "attack.h"
#include "attack_libara.h"
#include "self_provision.h"

static const uint8_t secret[32] = "attack-copies: an HMAC key!!!!!";
static uint32_t handle;
static uint8_t macs[256][32]; /* the MAC of each one-byte message */

static int hmac(uint64_t msg, uint32_t len, uint8_t mac[32])
{
	struct ara_secret_hmac_arg a = { .msg = msg, .msg_len = len, .handle = handle };
	const int st = secure_call(ARA_FID_SECRET_HMAC, &a);

	memcpy(mac, a.mac, sizeof(a.mac));
	return st;
}

/* The secret, and the MAC of every byte value from App memory: the oracle's table. */
static int oracle_ready(void)
{
	int st = ara_test_self_provision_handle("copies-hmac", secret, sizeof(secret), &handle);

	if (st != ARA_OK) {
		printf("FAIL: provisioning the HMAC key: %s (%d)\n", ara_strerror(st), st);
		return 1;
	}
	for (unsigned int b = 0; b < 256; b++) {
		static uint8_t byte;

		byte = (uint8_t)b;
		if ((st = hmac((uintptr_t)&byte, 1, macs[b])) != ARA_OK) {
			printf("FAIL: SECRET_HMAC of App memory: %s\n", ara_strerror(st));
			return 1;
		}
	}
	return 0;
}

/* One byte at addr through the oracle: its value, -1 if refused (ARA_E_FAULT), -2 otherwise. */
static int read_byte(uint64_t addr)
{
	uint8_t mac[32];
	const int st = hmac(addr, 1, mac);

	if (st == ARA_E_FAULT)
		return -1;
	if (st != ARA_OK) {
		printf("FAIL: SECRET_HMAC of 0x%llx: %s, not ARA_E_FAULT\n", (unsigned long long)addr,
		       ara_strerror(st));
		return -2;
	}
	for (unsigned int b = 0; b < 256; b++)
		if (memcmp(mac, macs[b], sizeof(mac)) == 0)
			return (int)b;
	printf("FAIL: SECRET_HMAC of 0x%llx matches no byte value\n", (unsigned long long)addr);
	return -2;
}

/* The first byte of each readable range on pkey: refused, or a BREACH line. 0, or 1. */
static int refused_on_key(unsigned int pkey, const char *what, size_t *tried)
{
	static struct range r[ATTACK_DOM0_MAX];
	const size_t n = attack_ranges(pkey, r, ATTACK_DOM0_MAX);

	for (size_t i = 0; i < n; i++) {
		int b;

		if (r[i].perms[0] != 'r')
			continue;
		++*tried;
		if ((b = read_byte(r[i].start)) != -1) {
			if (b >= 0)
				printf("BREACH: SECRET_HMAC read %s at 0x%llx (0x%02x): was not refused\n",
				       what, (unsigned long long)r[i].start, (unsigned int)b);
			return 1;
		}
	}
	return 0;
}

static int attack_hmac_of_dom0(void)
{
	static const struct {
		unsigned int pkey;
		const char *what;
	} keys[] = {
		{ ARA_PKEY_DOM0, "the core's memory" },
		{ ARA_PKEY_PROVISION, "provisioning's memory" },
		{ ARA_PKEY_RTS, "the RTS's memory" },
		{ ARA_PKEY_RTM, "the RTM's memory" },
	};
	uint64_t size = 0;
	const uint64_t canary = attack_libara_symbol("dom0_canary", &size);
	char shown[128];
	size_t tried = 0, i;

	if (!canary || size == 0 || size >= sizeof(shown) || oracle_ready())
		return 1;
	/* The canary first: in the twin, read whole through the oracle. */
	for (i = 0; i < size - 1; i++) {
		const int b = read_byte(canary + i);

		if (b < 0)
			break;
		shown[i] = (char)b;
	}
	if (i > 0) {
		shown[i] = 0;
		printf("BREACH: SECRET_HMAC read %zu bytes of libara's DOM0 data: %s\n", i, shown);
		return 1;
	}
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (refused_on_key(keys[k].pkey, keys[k].what, &tried))
			return 1;
	printf("ara-evidence: SECRET_HMAC with its message in libara's DOM0 canary and at each of "
	       "%zu readable ranges of the core's and the service domains' keys: ARA_E_FAULT, "
	       "nothing read\n",
	       tried);
	return 0;
}

static const struct attack_entry attacks[] = {
	{ "copies_hmac_of_dom0", attack_hmac_of_dom0 },
};

int main(int argc, char **argv)
{
	if (argc == 3)
		attack_libara_file = argv[2];
	return attack_main(argc == 3 ? 2 : argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
