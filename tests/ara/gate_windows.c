/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara_gate_windows: a signal at each instruction of a secure_call or an
 * RTM append, not only where a random one happens to land (IV5,
 * libara/src/interrupt.c).
 *
 * This program is not an ARA App: it runs gate_windows_app under
 * ara-loader as its tracee. The App stops itself before each call; from
 * there the tracer single-steps to the entry (secure_call or
 * ara_rtm_append) and then j instructions on, and lands a SIGUSR1 there
 * (PTRACE_CONT with the signal), for j = 0, 1, ... until the call returns
 * before j. So every instruction of the path of a null call, of a
 * value-argument call into a C service, of a call to a fid without a
 * service, of an RTM append on the gate's stackless path and of one the
 * gate passes to secure_call's landing (the gate's pages, and DOM0's code
 * the call runs) takes a signal once. It fails unless every call returned its
 * status, the App's handler ran once per signal, and every gate
 * instruction on each path took a signal.
 *
 * usage: gate_windows ARA_LOADER APP
 */
#include <stdint.h>
#include <stdio.h>

#include "ara/gate.h"
#include "step_tracer.h"

#define CALLS 120 /* per kind: more than the longest path's instructions */
#define KINDS 5 /* gate_windows_app.c's; the last two enter through ara_rtm_append */
#define RTM_KIND 3

static uint64_t gate; /* page 0 of .ara_gate */
static int kind; /* of the call being swept */
/* Per kind, the gate offsets (0 .. 3 pages) of a whole path, and which took a signal. */
static unsigned char on_path[KINDS][ARA_GATE_TEXT_SIZE / 4], hit[KINDS][ARA_GATE_TEXT_SIZE / 4];
static long signals;

static int in_gate(uint64_t pc)
{
	return pc >= gate && pc < gate + ARA_GATE_TEXT_SIZE;
}

static void seen(const struct step_regs *r)
{
	if (in_gate(r->pc))
		on_path[kind][(r->pc - gate) / 4] = 1;
}

/* At the App's stop before call number n: steps in and lands the signal. */
static int one_call(uint64_t secure_call, long n)
{
	uint64_t at;

	if (n >= (long)KINDS * CALLS)
		return -1;
	gate = (secure_call & ~(uint64_t)(ARA_PAGE_SIZE - 1)) - ARA_GATE_DOM1_OFFSET;
	kind = (int)(n / CALLS);
	switch (step_call(gate + ARA_GATE_DOM1_OFFSET +
				  (kind >= RTM_KIND ? ARA_GATE_RTM_APPEND : ARA_GATE_SECURE_CALL),
			  n % CALLS, seen, &at)) {
	case STEP_LANDED:
		if (in_gate(at))
			hit[kind][(at - gate) / 4] = 1;
		signals++;
		return 0;
	case STEP_RETURNED:
		return 0;
	default:
		return -1;
	}
}

int main(int argc, char **argv)
{
	char line[256], calls_arg[16];
	long n, made = -1, wrong = -1, handled = -1;
	unsigned int missed = 0, covered = 0;
	FILE *app_out;

	if (argc != 3) {
		fprintf(stderr, "usage: gate_windows ARA_LOADER APP\n");
		return 2;
	}
	snprintf(calls_arg, sizeof(calls_arg), "%d", CALLS);
	app_out = step_run((char *const[]){ argv[1], argv[2], calls_arg, NULL }, one_call, &n);
	if (!app_out)
		return 1;
	while (fgets(line, sizeof(line), app_out)) {
		fputs(line, stdout);
		sscanf(line, "done: %ld calls, %ld wrong, %ld signals handled", &made, &wrong, &handled);
	}
	for (int k = 0; k < KINDS; k++)
		for (unsigned int w = 0; w < ARA_GATE_TEXT_SIZE / 4; w++) {
			if (!on_path[k][w])
				continue;
			covered += hit[k][w];
			if (!hit[k][w]) {
				printf("FAIL: kind %d: gate page %u +0x%03x took no signal\n", k,
				       w * 4 / ARA_PAGE_SIZE, w * 4 % ARA_PAGE_SIZE);
				missed++;
			}
		}
	printf("ara-evidence: gate-windows: %ld calls, %ld signals landed at successive "
	       "instructions (%u gate instructions of the null, value, no-service and RTM append "
	       "paths, each interrupted), %ld wrong statuses, %ld signals handled by the App\n",
	       n, signals, covered, wrong, handled);
	if (made != (long)KINDS * CALLS || wrong != 0 || handled != signals || missed || !covered) {
		printf("FAIL: calls %ld, wrong %ld, handled %ld of %ld signals, %u gate "
		       "instructions without a signal\n", made, wrong, handled, signals, missed);
		return 1;
	}
	return 0;
}
