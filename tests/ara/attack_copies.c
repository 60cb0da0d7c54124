/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Attacks through the services' copies of App memory by the kernel
 * (ara_copy_from_app and ara_copy_to_app: process_vm_readv/writev,
 * libara/src/dom0/copy.c), which POR_EL0 does not govern: a service
 * domain's row stops its own loads and stores, not the kernel's. So the
 * copies' range check, against the protected ranges the seal left the
 * services (ara_protected_view), is the one wall.
 *   copies_hmac_of_dom0: SECRET_HMAC (provisioning's domain) reads its
 *     message that way. The App makes it an oracle of one byte (the MACs
 *     of the 256 byte values first) and names libara's DOM0 canary, the
 *     first byte of every readable range on ARA's keys, and two bytes
 *     across each range's ends.
 *   copies_report_into_ara: RTM_REPORT (the RTM's domain) writes its
 *     document that way; the App aims its first 256 bytes at the end of
 *     every writable range on ARA's keys.
 * Every one must be ARA_E_FAULT. The twins, against the variant without
 * the range check (no-copy-range-check, every domain still on its own
 * key), read memory on every key provisioning's row cannot load from (the
 * core's, the RTS's, the RTM's, the extra domain's), and write the RTM's
 * header into the extra domain's heap, which the RTM's row cannot store to.
 * The services need the instance (ARA_EVIDENCE=dev-insecure): the App
 * provisions its own secret (tests/rts/self_provision.h).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "ara/provision.h"
#include "ara/rtm.h"
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

/*
 * ARA's keys: whether provisioning's row (the oracle's) loads from the key
 * itself, and whether the key has writable ranges.
 */
static const struct {
	unsigned int pkey;
	const char *what;
	int row_reads, writable;
} keys[] = {
	{ ARA_PKEY_EXTRA, "the extra domain's memory", 0, 1 }, /* first: the write's safe target */
	{ ARA_PKEY_DOM0, "the core's memory", 0, 1 },
	{ ARA_PKEY_DOM1, "libara's read-only data and the gate", 1, 0 },
	{ ARA_PKEY_PROVISION, "provisioning's memory", 1, 1 },
	{ ARA_PKEY_RTS, "the RTS's memory", 0, 1 },
	{ ARA_PKEY_RTM, "the RTM's memory", 0, 1 },
};
#define KEYS (sizeof(keys) / sizeof(keys[0]))

static struct range ranges[ATTACK_DOM0_MAX];

/* The ranges of key k with perm ('r' or 'w') in ranges; how many, 0 with a FAIL line. */
static size_t ranges_of(size_t k, char perm)
{
	const size_t n = attack_ranges(keys[k].pkey, ranges, ATTACK_DOM0_MAX);
	size_t kept = 0;

	for (size_t i = 0; i < n; i++)
		if (ranges[i].perms[perm == 'r' ? 0 : 1] == perm)
			ranges[kept++] = ranges[i];
	if (kept == 0)
		printf("FAIL: no %s range on key %u (%s) in /proc/self/smaps\n",
		       perm == 'r' ? "readable" : "writable", keys[k].pkey, keys[k].what);
	return kept;
}

/*
 * One byte at the start of each readable range on every key, and two across
 * each end: refused, or a BREACH line for each byte read. Counts the
 * ranges tried and the keys read; 0, or 1 if a key had no readable range.
 */
static int read_ranges(size_t *tried, size_t *keys_read)
{
	for (size_t k = 0; k < KEYS; k++) {
		const size_t n = ranges_of(k, 'r');
		size_t read = 0, across = 0;
		uint8_t mac[32];

		if (n == 0)
			return 1;
		for (size_t i = 0; i < n; i++, ++*tried) {
			const int b = read_byte(ranges[i].start);

			if (b >= 0 && read++ == 0) /* the first of the key's, shown */
				printf("BREACH: SECRET_HMAC read %s at 0x%llx (0x%02x): was not refused\n",
				       keys[k].what, (unsigned long long)ranges[i].start, (unsigned int)b);
			if (hmac(ranges[i].start - 1, 2, mac) == ARA_OK ||
			    hmac(ranges[i].end - 1, 2, mac) == ARA_OK)
				across++;
		}
		if (read > 1 || across)
			printf("BREACH: SECRET_HMAC read %zu of the %zu ranges of %s, and across the "
			       "ends of %zu\n",
			       read, n, keys[k].what, across);
		*keys_read += read && !keys[k].row_reads;
	}
	return 0;
}

static int attack_hmac_of_dom0(void)
{
	uint64_t size = 0;
	const uint64_t canary = attack_libara_symbol("dom0_canary", &size);
	char shown[128];
	size_t tried = 0, keys_read = 0, i, unloadable = 0;

	if (!canary || size == 0 || size >= sizeof(shown) || oracle_ready())
		return 1;
	for (i = 0; i < size - 1; i++) {
		const int b = read_byte(canary + i);

		if (b < 0)
			break;
		shown[i] = (char)b;
	}
	if (i > 0) {
		shown[i] = 0;
		printf("BREACH: SECRET_HMAC read %zu bytes of libara's data: %s\n", i, shown);
	}
	if (read_ranges(&tried, &keys_read))
		return 1;
	for (size_t k = 0; k < KEYS; k++)
		unloadable += !keys[k].row_reads;
	if (keys_read == unloadable)
		printf("copies: SECRET_HMAC read memory on each of the %zu keys provisioning's row "
		       "cannot load from\n",
		       unloadable);
	if (i == 0 && keys_read == 0)
		printf("ara-evidence: SECRET_HMAC with its message in libara's DOM0 canary and at "
		       "each of %zu readable ranges on the core's, libara's and every service "
		       "domain's keys (and across their ends): ARA_E_FAULT, nothing read\n",
		       tried);
	return 0;
}

/*
 * RTM_REPORT with its document's first 256 bytes (the header, "ARARTM01"
 * first) aimed at the last 256 bytes of each writable range on every key:
 * refused (ARA_E_FAULT), or the header read back through the oracle and a
 * BREACH line. The first target is the extra domain's heap's end, which
 * nothing uses; after a write that went through, stop (the next could
 * break ARA).
 */
static int attack_report_into_ara(void)
{
	size_t tried = 0;

	if (oracle_ready() || ara_rtm_append(ara_rtm_entry(ARA_RTM_ICALL, 0x1a4e)) != ARA_OK)
		return 1;
	for (size_t k = 0; k < KEYS; k++) {
		const size_t n = keys[k].writable ? ranges_of(k, 'w') : 0;

		if (n == 0 && keys[k].writable)
			return 1;
		for (size_t i = 0; i < n; i++, tried++) {
			const uint64_t at = ranges[i].end - 256;
			struct ara_rtm_report_arg a = { .out = at, .out_cap = 256 };
			char magic[9] = { 0 };
			int st;

			memset(a.nonce, 0x4e, sizeof(a.nonce));
			if ((st = secure_call(ARA_FID_RTM_REPORT, &a)) == ARA_E_FAULT)
				continue;
			for (int j = 0; j < 8; j++) {
				const int b = read_byte(at + (uint64_t)j);

				magic[j] = b > 0 ? (char)b : '?';
			}
			printf("BREACH: RTM_REPORT (%s) wrote into %s at 0x%llx, which now reads %s: was "
			       "not refused\n",
			       ara_strerror(st), keys[k].what, (unsigned long long)at, magic);
			return 0;
		}
	}
	printf("ara-evidence: RTM_REPORT's document aimed at the end of each of %zu writable "
	       "ranges on the core's and every service domain's keys: ARA_E_FAULT, nothing "
	       "written\n",
	       tried);
	return 0;
}

static const struct attack_entry attacks[] = {
	{ "copies_hmac_of_dom0", attack_hmac_of_dom0 },
	{ "copies_report_into_ara", attack_report_into_ara },
};

int main(int argc, char **argv)
{
	if (argc == 3)
		attack_libara_file = argv[2];
	return attack_main(argc == 3 ? 2 : argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
