/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared parts of the attack programs. Each attack runs in a forked child
 * (which inherits the App's DOM2 row and ARA's state) so that one fault ends
 * one attempt; the child's exit status says what happened (enum outcome).
 */
#ifndef ARA_TEST_ATTACK_H
#define ARA_TEST_ATTACK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ara/boot.h"
#include "por_sysreg.h"

enum outcome {
	OUT_PKUERR = 40,       /* SEGV_PKUERR (ARA ends the process on it): the overlay stopped it */
	OUT_SEGV_OTHER = 41,   /* SIGSEGV, another si_code */
	OUT_SIGILL = 42,       /* undefined instruction (the gate's UDF fill) */
	OUT_SIGOTHER = 43,     /* SIGTRAP, SIGBUS */
	OUT_PROBE_DOM2 = 44,   /* App code ran with DOM2's row; its DOM0 read faulted */
	OUT_RETURNED = 45,     /* the attempt returned normally (no fault) */
	/* ARA ended the process, e.g. for a fault taken with a row other than DOM2's */
	OUT_ARA_STOPPED = ARA_EXIT_REFUSED,
	OUT_BREACH_POR = 98,   /* App code ran with a row other than DOM2's */
	OUT_BREACH_READ = 99,  /* App code read a DOM0 byte */
};

struct range {
	uint64_t start, end;
	char perms[5];
	unsigned int pkey;
};

/* Ranges of /proc/self/smaps with ProtectionKey pkey; returns how many. */
size_t attack_ranges(unsigned int pkey, struct range *out, size_t max);

/*
 * The gate's DOM1 page, the one executable range of DOM1's key (which also
 * holds libara's read-only data): 0, or -1 if there is not exactly one.
 */
int attack_gate_dom1_page(struct range *out);

/* The string in DOM0's read-only data whose appearance in any output is a leak. */
#define ATTACK_CANARY "ARA-DOM0-CANARY"

/* DOM0's ranges, as attack_main found them. */
#define ATTACK_DOM0_MAX 512
extern struct range attack_dom0[ATTACK_DOM0_MAX];
extern size_t attack_n_dom0;

/*
 * With ARA_ATTACK_SERVICES set, makes the services hold state in DOM0 (an
 * instance key, an RTM log, a signed report) before the attack; 0, or 1 if
 * a service failed. attack_main calls it.
 */
int attack_load_services(void);

/* An attack of a program: its name on the command line, and its run (0: stopped). */
struct attack_entry {
	const char *name;
	int (*run)(void);
};

/*
 * main() of a program of attacks, usage PROGRAM ATTACK: checks that it runs
 * under ARA, finds DOM0's ranges, and returns what the named attack returns
 * (2 for a usage error).
 */
int attack_main(int argc, char **argv, const struct attack_entry *attacks, size_t n);

/*
 * The verdict on a call that must fail with want_errno (rc: its result, -1
 * on failure): 0 and an evidence line if it did; 1 and a line the ctests
 * look for ("was not refused") if it succeeded, or 1 if it failed otherwise.
 */
int attack_refused(const char *what, long rc, int want_errno);

/*
 * Sets the POE record of a signal frame's context (a ucontext_t's
 * uc_mcontext.__reserved, reserved_size bytes), as a forger would; 0 if found.
 */
int attack_frame_set_por(unsigned char *reserved, size_t reserved_size, uint64_t por);

/*
 * Calls gadget with a forged POR_EL0 row (DOM0 readable) in x0, as a POR_EL0
 * write gadget would take it, then reads every readable DOM0 range: exits
 * OUT_BREACH_READ with a LEAK line if DOM0's canary is read, OUT_BREACH_POR
 * if the row changed without a leak, OUT_RETURNED if it stayed DOM2's (the
 * read then faulted as OUT_PROBE_DOM2 before that).
 */
__attribute__((noreturn)) void attack_run_gadget_then_read(void (*gadget)(uint64_t));

/* Prints the canary's neighbourhood if buf, read from DOM0 at from, holds it. */
void attack_show_leak(const unsigned char *buf, size_t len, uint64_t from);

/* Reads every readable DOM0 range with read_fn and shows what leaked. */
void attack_exploit_reads(ssize_t (*read_fn)(void *dst, uint64_t src, size_t len));

/* Installs the fault classifier (on an alternate stack). */
void attack_install_handlers(void);

/* The address the probe tries to read; the fault address it expects. */
void attack_set_probe_target(uint64_t dom0_addr);

/* Marks that App-chosen code runs now: its fault is OUT_PROBE_DOM2. */
void attack_probe_running(void);

/* Forks; the child runs fn(arg); returns the child's outcome. */
int attack_run(void (*fn)(uint64_t), uint64_t arg);

const char *attack_outcome_name(int outcome);


/* hostile.S */
__attribute__((noreturn)) void ara_test_hostile_jump(uint64_t target, uint64_t fill, uint64_t x16,
						     uint64_t sp, uint64_t x30);
void ara_test_probe_entry(void);
__attribute__((noreturn)) void ara_test_probe_main(void);

#endif
