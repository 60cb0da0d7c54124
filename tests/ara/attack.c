/* SPDX-License-Identifier: Apache-2.0 */
#define _GNU_SOURCE
#include "attack.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ara/domains.h"
#include "ara/rtm.h"

/*
 * Set once App-chosen code runs; shared with the parent, which must tell
 * "the probe ran and its DOM0 read was stopped" from "stopped before it":
 * ARA ends the child itself on a pkey fault (ARA_EXIT_PKEY_FAULT).
 */
static volatile sig_atomic_t *probe_ran;
static volatile uint64_t probe_target;

static volatile sig_atomic_t *shared_flag(void)
{
	if (!probe_ran) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("attack: mmap");
			exit(2);
		}
		probe_ran = p;
	}
	return probe_ran;
}

size_t attack_ranges(unsigned int pkey, struct range *out, size_t max)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	struct range cur = { 0 };
	size_t n = 0;

	if (!f) {
		perror("attack: /proc/self/smaps");
		exit(2);
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e;
		unsigned int key;
		char perms[5];

		if (sscanf(line, "%llx-%llx %4s", &s, &e, perms) == 3) {
			cur.start = s;
			cur.end = e;
			memcpy(cur.perms, perms, sizeof(cur.perms));
		} else if (sscanf(line, "ProtectionKey: %u", &key) == 1 && key == pkey && n < max) {
			cur.pkey = key;
			out[n++] = cur;
		}
	}
	fclose(f);
	return n;
}

int attack_gate_dom1_page(struct range *out)
{
	struct range dom1[16];
	const size_t n = attack_ranges(ARA_PKEY_DOM1, dom1, 16);
	int found = 0;

	for (size_t i = 0; i < n; i++)
		if (dom1[i].perms[2] == 'x')
			*out = dom1[i], found++;
	return found == 1 ? 0 : -1;
}

/*
 * Runs with the kernel's initial POR_EL0 (key 0 only) on the alternate
 * stack, which is App memory: it can report, not touch ARA.
 */
static void classify(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (*shared_flag())
		_exit(OUT_PROBE_DOM2);
	if (sig == SIGSEGV)
		_exit(si->si_code == SEGV_PKUERR ? OUT_PKUERR : OUT_SEGV_OTHER);
	_exit(sig == SIGILL ? OUT_SIGILL : OUT_SIGOTHER);
}

void attack_install_handlers(void)
{
	static char altstack[64 * 1024];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa;
	const int sigs[] = { SIGSEGV, SIGILL, SIGTRAP, SIGBUS };

	if (sigaltstack(&ss, NULL)) {
		perror("attack: sigaltstack");
		exit(2);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = classify;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL)) {
			perror("attack: sigaction");
			exit(2);
		}
}

void attack_set_probe_target(uint64_t dom0_addr)
{
	probe_target = dom0_addr;
}

void attack_probe_running(void)
{
	*shared_flag() = 1;
}

/* App-chosen code: reached only through a hostile x30. */
void ara_test_probe_main(void)
{
	uint64_t por = por_el0_read();

	if (por != ARA_POR_DOM2)
		_exit(OUT_BREACH_POR);
	*shared_flag() = 1;
	/* A DOM0 byte: if this load completes, ARA's isolation is broken. */
	(void)*(volatile uint8_t *)(uintptr_t)probe_target;
	_exit(OUT_BREACH_READ);
}

int attack_run(void (*fn)(uint64_t), uint64_t arg)
{
	int status;
	pid_t pid;

	*shared_flag() = 0;
	pid = fork();

	if (pid < 0) {
		perror("attack: fork");
		exit(2);
	}
	if (pid == 0) {
		fn(arg);
		_exit(OUT_RETURNED);
	}
	if (waitpid(pid, &status, 0) != pid) {
		perror("attack: waitpid");
		exit(2);
	}
	/* ARA ended the child on a pkey fault: the overlay stopped it, as SEGV_PKUERR would. */
	if (WIFEXITED(status) && WEXITSTATUS(status) == ARA_EXIT_PKEY_FAULT)
		return *shared_flag() ? OUT_PROBE_DOM2 : OUT_PKUERR;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	fprintf(stderr, "attack: child killed by signal %d\n", WTERMSIG(status));
	return 128 + WTERMSIG(status);
}

const char *attack_outcome_name(int outcome)
{
	switch (outcome) {
	case OUT_PKUERR: return "SEGV_PKUERR";
	case OUT_SEGV_OTHER: return "SIGSEGV (not PKUERR)";
	case OUT_SIGILL: return "SIGILL";
	case OUT_SIGOTHER: return "SIGTRAP/SIGBUS";
	case OUT_PROBE_DOM2: return "App code ran with DOM2's row";
	case OUT_RETURNED: return "returned";
	case OUT_ARA_STOPPED: return "ARA stopped the process (a fault with a row other than DOM2's)";
	case OUT_BREACH_POR: return "BREACH: App code ran with another row";
	case OUT_BREACH_READ: return "BREACH: App code read DOM0";
	default: return "unexpected exit";
	}
}

struct range attack_dom0[ATTACK_DOM0_MAX];
size_t attack_n_dom0;

/*
 * With ARA_ATTACK_SERVICES=1 (and ARA_EVIDENCE naming a backend): the
 * services hold state in DOM0 before the attack, as in an App that uses
 * them: an instance key, an RTM log with entries, a signed report made.
 * 0, or 1 if a service did not answer as it should.
 */
static int load_services(void)
{
	static uint8_t report[ARA_RTM_REPORT_MAX];
	struct ara_rtm_report_arg a = { .out = (uintptr_t)report, .out_cap = sizeof(report) };
	int st;

	for (uint64_t i = 0; i < 1000; i++) {
		st = secure_call(ARA_FID_RTM_LOG,
				 (void *)(uintptr_t)ara_rtm_entry(ARA_RTM_RET, 0x400000 + 4 * i));
		if (st != ARA_OK) {
			printf("FAIL: RTM_LOG: %s\n", ara_strerror(st));
			return 1;
		}
	}
	memset(a.nonce, 0xa5, sizeof(a.nonce));
	if ((st = secure_call(ARA_FID_RTM_REPORT, &a)) != ARA_OK) {
		printf("FAIL: RTM_REPORT: %s\n", ara_strerror(st));
		return 1;
	}
	printf("ara-evidence: services loaded: an instance key, 1000 RTM entries, a %u-byte "
	       "signed report\n",
	       a.out_len);
	return 0;
}

int attack_load_services(void)
{
	return getenv("ARA_ATTACK_SERVICES") ? load_services() : 0;
}

int attack_main(int argc, char **argv, const struct attack_entry *attacks, size_t n)
{
	setvbuf(stdout, NULL, _IONBF, 0); /* an attack that succeeds may end the process abruptly */
	if (argc != 2) {
		fprintf(stderr, "usage: %s ATTACK\n", argv[0]);
		return 2;
	}
	if (por_el0_read() != ARA_POR_DOM2) {
		printf("FAIL: not running under ARA\n");
		return 1;
	}
	if (attack_load_services())
		return 1;
	attack_n_dom0 = attack_ranges(ARA_PKEY_DOM0, attack_dom0, ATTACK_DOM0_MAX);
	if (attack_n_dom0 < 4) {
		printf("FAIL: found %zu DOM0 ranges\n", attack_n_dom0);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(argv[1], attacks[i].name) == 0)
			return attacks[i].run();
	fprintf(stderr, "%s: no attack named %s\n", argv[0], argv[1]);
	return 2;
}

int attack_refused(const char *what, long rc, int want_errno)
{
	if (rc >= 0) {
		printf("%s was not refused\n", what);
		return 1;
	}
	if (errno != want_errno) {
		printf("%s failed, but not with %s: %s\n", what, strerror(want_errno), strerror(errno));
		return 1;
	}
	printf("ara-evidence: %s: refused with %s\n", what, strerror(errno));
	return 0;
}

void attack_run_gadget_then_read(void (*gadget)(uint64_t))
{
	uint64_t por;

	gadget(ARA_POR_ROW(ARA_PERM_RW, ARA_PERM_X, ARA_PERM_RWX));
	por = por_el0_read();
	printf("after the gadget: POR_EL0 0x%llx\n", (unsigned long long)por);
	attack_probe_running(); /* a fault from here on is the read of DOM0 */
	for (size_t i = 0; i < attack_n_dom0; i++) {
		const char *p;

		if (attack_dom0[i].perms[0] != 'r')
			continue;
		p = memmem((const void *)(uintptr_t)attack_dom0[i].start,
			   attack_dom0[i].end - attack_dom0[i].start, ATTACK_CANARY,
			   sizeof(ATTACK_CANARY) - 1);
		if (p) {
			printf("LEAK at 0x%llx: %.50s\n", (unsigned long long)(uintptr_t)p, p);
			_exit(OUT_BREACH_READ);
		}
	}
	_exit(por == ARA_POR_DOM2 ? OUT_RETURNED : OUT_BREACH_POR);
}

void attack_show_leak(const unsigned char *buf, size_t len, uint64_t from)
{
	const size_t n = sizeof(ATTACK_CANARY) - 1;

	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(buf + i, ATTACK_CANARY, n) == 0) {
			printf("LEAK at 0x%llx: %.60s\n", (unsigned long long)(from + i), buf + i);
			return;
		}
	printf("LEAK: read %zu bytes of DOM0 at 0x%llx\n", len, (unsigned long long)from);
}

void attack_exploit_reads(ssize_t (*read_fn)(void *dst, uint64_t src, size_t len))
{
	static unsigned char buf[1 << 20];

	for (size_t i = 0; i < attack_n_dom0; i++) {
		size_t len = attack_dom0[i].end - attack_dom0[i].start;
		ssize_t got;

		if (attack_dom0[i].perms[0] != 'r')
			continue;
		if (len > sizeof(buf))
			len = sizeof(buf);
		got = read_fn(buf, attack_dom0[i].start, len);
		if (got > 0)
			attack_show_leak(buf, (size_t)got, attack_dom0[i].start);
	}
}

int attack_frame_set_por(unsigned char *reserved, size_t reserved_size, uint64_t por)
{
	const uint32_t poe_magic = 0x504f4530; /* uapi asm/sigcontext.h, Linux 6.12 */

	for (size_t off = 0; off + 8 <= reserved_size;) {
		uint32_t magic, size;

		memcpy(&magic, reserved + off, 4);
		memcpy(&size, reserved + off + 4, 4);
		if (magic == 0 || size < 8)
			break;
		if (magic == poe_magic) {
			memcpy(reserved + off + 8, &por, 8);
			return 0;
		}
		off += size;
	}
	return -1;
}
