/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Signals landing while the RTS decrypts (docs/security.md, "AES state
 * and signals"): can App code find the content key, or any round key of
 * its schedule, in what a signal shows it?
 *
 * The App provisions a random 16-byte CENC key to its own ARA instance
 * (self_provision.h), computes the key's AES-128 schedule itself, and
 * decrypts 64 KiB samples through RTS_CENC_DECRYPT while a second thread
 * sends it SIGUSR1 without pause. A signal that lands inside DOM0 waits
 * for the call's way out; ARA then builds the handler's frame in App
 * memory, the vector registers included (the kernel's fpsimd record, and
 * SVE's if the thread has one). The handler scans every byte of its
 * siginfo and ucontext for any of the 11 round keys (the key is the
 * first); it also runs with the vector registers the frame holds, so the
 * frame is what it could see. This file is built -mgeneral-regs-only and
 * the App clears the vector registers after its own crypto: a round key
 * in a frame can only have come from ARA. The App requires that signals did wait
 * inside ARA (ARA_FID_INFO), so the test cannot pass without any landing
 * there.
 *
 * Usage: rts_signal_frames clean|leak
 *   clean  no round key in any frame: "no round key in N signal frames"
 *   leak   (libara without the vector-register scrub, tests/variants) the
 *          frames show them: "LEAK: round key R in a signal frame"
 * Run with ARA_EVIDENCE=dev-insecure.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/rts.h"
#include "cenc_sample.h"
#include "self_provision.h"

#define SAMPLE (64u << 10)
#define CALLS 300
#define MIN_WAITED 10

void clear_vregs(void);

static uint8_t round_keys[11][16];
static uint8_t sample[SAMPLE], clear[SAMPLE];
static volatile sig_atomic_t frames, leaked_round = -1, done;
static pid_t main_tid;

static uint8_t xtime(uint8_t b)
{
	return (uint8_t)((b << 1) ^ ((b & 0x80) ? 0x1b : 0));
}

static uint8_t sbox(uint8_t x)
{
	/* The multiplicative inverse in GF(2^8), then the affine map (FIPS 197, 5.1.1). */
	uint8_t inv = 0, r;

	for (unsigned c = 1; c < 256 && x; c++) {
		uint8_t p = 0, a = x, b = (uint8_t)c;

		while (b) {
			if (b & 1)
				p ^= a;
			a = xtime(a);
			b >>= 1;
		}
		if (p == 1) {
			inv = (uint8_t)c;
			break;
		}
	}
	r = inv;
	for (unsigned i = 1; i < 5; i++)
		r ^= (uint8_t)((inv << i) | (inv >> (8 - i)));
	return r ^ 0x63;
}

/* FIPS 197, 5.2: AES-128's 11 round keys, as the cipher uses them in order. */
static void expand(const uint8_t key[16])
{
	uint8_t rcon = 1;

	memcpy(round_keys[0], key, 16);
	for (unsigned r = 1; r < 11; r++) {
		const uint8_t *p = round_keys[r - 1];
		uint8_t *k = round_keys[r];
		uint8_t t[4] = { sbox(p[13]), sbox(p[14]), sbox(p[15]), sbox(p[12]) };

		t[0] ^= rcon;
		rcon = xtime(rcon);
		for (unsigned i = 0; i < 16; i++)
			k[i] = (uint8_t)(p[i] ^ (i < 4 ? t[i] : k[i - 4]));
	}
}

/* Byte by byte: this file is built -mgeneral-regs-only, and calls no libc on the keys. */
static int equal16(const uint8_t *a, const uint8_t *b)
{
	for (unsigned i = 0; i < 16; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* Bytes that start a round key: most positions of a frame are ruled out by one lookup. */
static uint8_t starts_key[256];

static void scan(const uint8_t *b, size_t len)
{
	for (size_t i = 0; i + 16 <= len; i++) {
		if (!starts_key[b[i]])
			continue;
		for (int r = 0; r < 11; r++)
			if (equal16(b + i, round_keys[r]))
				leaked_round = r;
	}
}

static void on_signal(int sig, siginfo_t *info, void *ucontext)
{
	(void)sig;
	scan((const uint8_t *)info, sizeof(*info));
	scan((const uint8_t *)ucontext, sizeof(ucontext_t));
	frames++;
}

static void *sender(void *unused)
{
	const struct timespec pause = { .tv_nsec = 100000 };

	(void)unused;
	while (!done) {
		syscall(SYS_tgkill, getpid(), main_tid, SIGUSR1);
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static void fail(const char *what, int st)
{
	printf("rts_signal_frames: FAILED: %s: %s (%d)\n", what, ara_strerror(st), st);
	exit(1);
}

int main(int argc, char **argv)
{
	static const uint8_t key_id[16] = { 's', 'i', 'g', 'n', 'a', 'l', 's' };
	char name[ARA_CENC_KEY_NAME_BYTES + 1] = { 0 };
	struct ara_rts_cenc_open_arg o = { 0 };
	struct ara_info_arg info = { 0 };
	struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO | SA_RESTART };
	uint8_t key[16];
	pthread_t thread;
	int st, expect_leak;

	if (argc != 2 || (strcmp(argv[1], "clean") && strcmp(argv[1], "leak"))) {
		fprintf(stderr, "usage: rts_signal_frames clean|leak\n");
		return 2;
	}
	expect_leak = strcmp(argv[1], "leak") == 0;
	if (getrandom(key, sizeof(key), 0) != sizeof(key) || getrandom(sample, sizeof(sample), 0) != SAMPLE)
		fail("getrandom", 0);
	expand(key);
	for (int r = 0; r < 11; r++)
		starts_key[round_keys[r][0]] = 1;
	ara_cenc_key_name(key_id, name);
	if ((st = ara_test_self_provision(name, key, sizeof(key))) != ARA_OK)
		fail("provisioning the key", st);
	for (unsigned i = 0; i < sizeof(key); i++) /* round_keys[0] is the key */
		key[i] = 0;
	clear_vregs(); /* the provisioning's own AES ran in App code (clear_vregs.S) */
	memcpy(o.key_id, key_id, sizeof(key_id));
	if ((st = secure_call(ARA_FID_RTS_CENC_OPEN, &o)) != ARA_OK)
		fail("RTS_CENC_OPEN", st);

	main_tid = (pid_t)syscall(SYS_gettid);
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) || pthread_create(&thread, NULL, sender, NULL))
		fail("starting the sender", 0);
	for (int i = 0; i < CALLS; i++) {
		struct ara_rts_cenc_decrypt_arg d = {
			.in = (uintptr_t)sample, .out = (uintptr_t)clear, .in_len = SAMPLE,
			.out_cap = SAMPLE, .iv_len = 8, .session = o.session,
		};

		d.iv[0] = (uint8_t)i;
		if ((st = secure_call(ARA_FID_RTS_CENC_DECRYPT, &d)) != ARA_OK)
			fail("RTS_CENC_DECRYPT", st);
	}
	done = 1;
	pthread_join(thread, NULL);
	if ((st = secure_call(ARA_FID_INFO, &info)) != ARA_OK)
		fail("INFO", st);
	printf("rts_signal_frames: %d calls, %d signal frames, %llu signals waited inside ARA\n", CALLS,
	       (int)frames, (unsigned long long)info.signals_waited);
	if (info.signals_waited < MIN_WAITED) {
		printf("rts_signal_frames: FAILED: fewer than %d signals landed inside ARA\n", MIN_WAITED);
		return 1;
	}
	if (leaked_round >= 0) {
		printf("ara-evidence: rts-signal-frames: LEAK: round key %d in a signal frame%s\n",
		       (int)leaked_round, expect_leak ? "" : " (BREACH)");
		return expect_leak ? 0 : 1;
	}
	printf("ara-evidence: rts-signal-frames: no round key in %d signal frames; %llu signals "
	       "waited inside ARA during %d decryptions\n",
	       (int)frames, (unsigned long long)info.signals_waited, CALLS);
	return expect_leak ? 1 : 0;
}
