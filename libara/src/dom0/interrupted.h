/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A signal that interrupted ARA: a frame, on the thread's DOM0 signal
 * stack, whose POR_EL0 is DOM0's row (interrupted.c says what becomes of
 * it).
 */
#ifndef ARA_DOM0_INTERRUPTED_H
#define ARA_DOM0_INTERRUPTED_H

#include <stdint.h>

#include "sigframe.h"
#include "thread.h"

enum ara_interrupted {
	ARA_INTERRUPTED_APP,	     /* the frame is now an App state: deliver the signal there */
	ARA_INTERRUPTED_RESUME_DOM0, /* the signal waits, or a copy fails: resume ARA as the frame says */
	ARA_INTERRUPTED_REFUSED,     /* a fault inside ARA, or an interrupted signal entry */
};

/* At initialisation: the gate's pages, and DOM0's stacks (as in struct ara_gate_cb). */
void ara_interrupted_init(uint64_t gate, uint64_t stack_base, uint64_t stack_stride);

/*
 * f, a genuine frame (read once from t's signal stack) of signal sig with
 * DOM0's row: rewritten into an App state, or made ready to resume ARA
 * with the signal queued again and blocked until the call's way out.
 */
enum ara_interrupted ara_interrupted(const struct ara_thread *t, struct ara_rt_sigframe *f, int sig);

/*
 * The same for a frame with service domain d's row: made ready to resume
 * the service, the signal waiting for the call's way out, or its copy's
 * fault on App memory turned into the copy's error; or REFUSED (a fault of
 * the service's, or no call of d's where the frame says).
 */
enum ara_interrupted ara_interrupted_service(const struct ara_thread *t, struct ara_rt_sigframe *f,
					     int sig, unsigned int d);

#endif
