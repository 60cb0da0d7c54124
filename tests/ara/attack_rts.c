/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Attacks through the RTS's plain copies (services/rts: RTS_CENC_DECRYPT
 * reads its sample and writes the clear one with ara_direct_*, loads and
 * stores DOM0 makes itself): App code names DOM0 as the sample, to read
 * DOM0 back through the keystream (decrypted twice, AES-CTR gives the
 * bytes back), and as the clear sample's destination, plain and with a tag
 * in the top byte (the loads and stores ignore it), to write into DOM0.
 * Every one must be ARA_E_FAULT. The twins, against the variant without
 * the copies' range check and without the RTS's own domain
 * (no-copy-range-check-one-domain), read DOM0's canary and get the write
 * made; against the variant without the range check alone, the RTS's
 * domain stops the first attempt (the process ends: a service's fault). A copy that faults on App memory (unmapped, read
 * only) must be ARA_E_FAULT too, with the App going on (rts_copy_faults).
 * The CENC session needs the instance (ARA_EVIDENCE=dev-insecure): the
 * App provisions its own key (tests/rts/self_provision.h).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/rts.h"
#include "attack.h"
#include "attack_libara.h"
#include "self_provision.h"

static const uint8_t key[16] = "attack-rts-key!";
static const uint8_t key_id[16] = "attack-rts-kid";
static uint32_t session;

/* RTS_CENC_DECRYPT of len bytes from in to out, whole-sample protection. */
static int decrypt(uint64_t in, uint64_t out, uint32_t len)
{
	struct ara_rts_cenc_decrypt_arg d = {
		.in = in, .out = out, .in_len = len, .out_cap = len, .iv_len = 16, .session = session,
	};

	memset(d.iv, 0x5a, sizeof(d.iv));
	return secure_call(ARA_FID_RTS_CENC_DECRYPT, &d);
}

static int open_session(void)
{
	const int st = ara_test_cenc_session(key_id, key, &session);

	if (st != ARA_OK) {
		printf("FAIL: a CENC session: %s (%d)\n", ara_strerror(st), st);
		return 1;
	}
	return 0;
}

/*
 * attack_exploit_reads' reader: DOM0 through the keystream, then back. A
 * refusal must be ARA_E_FAULT (a FAIL line otherwise).
 */
static ssize_t read_through_rts(void *dst, uint64_t src, size_t len)
{
	size_t done = 0;

	while (done < len) {
		const uint32_t n = len - done > 65536 ? 65536 : (uint32_t)(len - done);
		const uint64_t to = (uint64_t)(uintptr_t)dst + done;
		const int st = decrypt(src + done, to, n);

		if (st != ARA_OK) {
			if (st != ARA_E_FAULT)
				printf("FAIL: a sample at DOM0 0x%llx: %s, not ARA_E_FAULT\n",
				       (unsigned long long)(src + done), ara_strerror(st));
			break;
		}
		if (decrypt(to, to, n) != ARA_OK) /* the keystream off again */
			break;
		done += n;
	}
	return done ? (ssize_t)done : -1;
}

static int attack_sample_from_dom0(void)
{
	uint8_t out[64];

	if (open_session())
		return 1;
	attack_exploit_reads(read_through_rts);
	/* Tagged: the top byte ignored by the load, refused by the range check. */
	for (size_t i = 0; i < attack_n_dom0; i++) {
		const uint64_t tagged = attack_dom0[i].start | (UINT64_C(0x5a) << 56);

		if (attack_dom0[i].perms[0] == 'r' &&
		    decrypt(tagged, (uintptr_t)out, sizeof(out)) != ARA_E_FAULT) {
			printf("BREACH: RTS_CENC_DECRYPT of a sample at tagged DOM0 0x%llx was not refused\n",
			       (unsigned long long)tagged);
			return 1;
		}
	}
	printf("ara-evidence: RTS_CENC_DECRYPT with its sample in each of %zu DOM0 ranges, untagged "
	       "and tagged: ARA_E_FAULT, nothing of DOM0 read\n", attack_n_dom0);
	return 0;
}

static int attack_clear_into_dom0(void)
{
	uint64_t at[ATTACK_DOM0_MAX + 1];
	const size_t n = attack_dom0_write_targets(at, ATTACK_DOM0_MAX + 1);
	static uint8_t sample[16];

	if (n == 0 || open_session())
		return 1;
	for (size_t i = 0; i < 2 * n; i++) {
		const uint64_t dst = i < n ? at[i] : at[i - n] | (UINT64_C(0x5a) << 56);
		const int st = decrypt((uintptr_t)sample, dst, sizeof(sample));

		if (st == ARA_E_FAULT)
			continue;
		/* Stop at the first: the bytes written over DOM0 data may break ARA. */
		printf("BREACH: RTS_CENC_DECRYPT's clear sample into DOM0 at 0x%llx was not refused: %s\n",
		       (unsigned long long)dst, ara_strerror(st));
		return 1;
	}
	printf("ara-evidence: RTS_CENC_DECRYPT with its clear sample at libara's ara_verbose and %zu "
	       "writable DOM0 ranges, untagged and tagged: ARA_E_FAULT\n", n - 1);
	return 0;
}

/*
 * Faults on App memory (SIGSEGV: unmapped, read-only; SIGBUS: a file
 * mapping past the file's end): resumed in DOM0 as ARA_E_FAULT, the App
 * goes on.
 */
static int attack_copy_faults(void)
{
	const long page = sysconf(_SC_PAGESIZE);
	uint8_t *p = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	const int fd = memfd_create("attack-rts", 0);
	uint8_t *f = MAP_FAILED, clear[256];
	int st_in, st_out, st_bus, st_ok;

	if (fd >= 0 && ftruncate(fd, page) == 0)
		f = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED || f == MAP_FAILED || open_session()) {
		printf("FAIL: setting up\n");
		return 1;
	}
	memset(p, 0x11, 2 * (size_t)page);
	/* The sample runs into a page that is gone; the destination is read-only. */
	if (munmap(p + page, (size_t)page) || mprotect(p, (size_t)page, PROT_READ) ||
	    ftruncate(fd, 0)) {
		printf("FAIL: munmap/mprotect/ftruncate\n");
		return 1;
	}
	st_in = decrypt((uintptr_t)(p + page - 128), (uintptr_t)clear, sizeof(clear));
	st_out = decrypt((uintptr_t)p, (uintptr_t)p, 128);
	st_bus = decrypt((uintptr_t)f, (uintptr_t)clear, 128); /* SIGBUS: beyond the file's end */
	st_ok = decrypt((uintptr_t)p, (uintptr_t)clear, 128);
	if (st_in != ARA_E_FAULT || st_out != ARA_E_FAULT || st_bus != ARA_E_FAULT || st_ok != ARA_OK) {
		printf("FAIL: sample into an unmapped page: %s; clear sample onto a read-only page: %s; "
		       "sample past a file's end: %s; then a good sample: %s\n", ara_strerror(st_in),
		       ara_strerror(st_out), ara_strerror(st_bus), ara_strerror(st_ok));
		return 1;
	}
	printf("ara-evidence: RTS_CENC_DECRYPT from a sample that runs into an unmapped page, onto "
	       "a read-only page and from past a file's end: ARA_E_FAULT each, then a good sample "
	       "decrypted\n");
	return 0;
}

static const struct attack_entry attacks[] = {
	{ "rts_sample_from_dom0", attack_sample_from_dom0 },
	{ "rts_clear_into_dom0", attack_clear_into_dom0 },
	{ "rts_copy_faults", attack_copy_faults },
};

int main(int argc, char **argv)
{
	if (argc == 3)
		attack_libara_file = argv[2];
	return attack_main(argc == 3 ? 2 : argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
