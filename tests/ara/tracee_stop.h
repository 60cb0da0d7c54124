/* SPDX-License-Identifier: Apache-2.0 */
/* The stop before each call of a step_tracer.h tracee (gate_windows_app.c, sigmask_windows_app.c). */
#ifndef ARA_TESTS_TRACEE_STOP_H
#define ARA_TESTS_TRACEE_STOP_H

#include <signal.h>
#include <sys/syscall.h>

/* kill(pid, SIGSTOP) as one svc: no libc code (and no trapped call) around it. */
static inline void stop_self(long pid)
{
	register long x0 __asm__("x0") = pid;
	register long x1 __asm__("x1") = SIGSTOP;
	register long x8 __asm__("x8") = SYS_kill;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x1), "r"(x8) : "memory");
}

#endif
