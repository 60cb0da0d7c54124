/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A tracer that lands a signal at each instruction of a call, one call at
 * a time (gate_windows.c, sigmask_windows.c): it runs an App under
 * ara-loader as its tracee; the App prints "secure_call ADDRESS" first and
 * stops itself (SIGSTOP) before each call, and the tracer single-steps
 * into the call and delivers SIGUSR1 at the instruction it chose.
 */
#ifndef ARA_TESTS_STEP_TRACER_H
#define ARA_TESTS_STEP_TRACER_H

#include <stdint.h>
#include <stdio.h>

struct step_regs {
	uint64_t x[31], sp, pc, pstate;
};

/* The tracee's registers at its current stop. */
struct step_regs step_regs(void);

/* The instruction at pc (ptrace reads any page, DOM0's too). */
uint32_t step_insn_at(uint64_t pc);

enum step_result { STEP_FAILED = -1, STEP_LANDED, STEP_RETURNED };

/*
 * At the tracee's stop before a call: steps to entry, then j instructions
 * on, calling seen (if not NULL) for each instruction it steps over, and
 * continues the tracee: with SIGUSR1 at instruction j (STEP_LANDED, *at =
 * its pc), or without a signal if the call returned before j
 * (STEP_RETURNED, *at = the path's length). STEP_FAILED (a FAIL line
 * printed): entry not reached, or the tracee stopped for something else.
 */
enum step_result step_call(uint64_t entry, long j, void (*seen)(const struct step_regs *r),
			   uint64_t *at);

/* Continues the tracee from its stop with no signal: 0, or -1 (a FAIL line printed). */
int step_continue(void);

/*
 * Runs argv (ara-loader, its arguments, the App and the App's) as the
 * tracee and, at each of the App's stops before a call, at_stop(the App's
 * secure_call, the call's number from 0), which must leave the tracee
 * continued (step_call, step_continue) and return 0, or return -1 to end
 * the run. Other signals reach the tracee as they came. Returns the App's
 * output to read to its end (its lines after the address), or NULL (a
 * FAIL line printed, the tracee killed); *calls = the stops handled.
 */
FILE *step_run(char *const argv[], int (*at_stop)(uint64_t secure_call, long n), long *calls);

#endif
