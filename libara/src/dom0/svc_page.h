/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ARA's system-call page: the only instructions from which the seccomp
 * filter lets a system call through unchecked (seccomp.c).
 *
 * One page of DOM0 code, mapped at initialisation with DOM0's key (so App
 * code cannot execute it), built from libara/src/region/: `svc #0; ret`
 * pairs at fixed offsets, through which every system call DOM0 makes goes
 * (sys.h, clone.S, sigreturn.S, unblock.S, svc_syscall.c), and the boot
 * code of an image that an App's execve started (execve.c), which runs
 * before that image's libara makes the page its own. Before, the filter let through any svc in
 * libara's text; now only this page's, and its address need not follow
 * libara's: an image started by execve gets it where the inherited filter
 * expects it.
 */
#ifndef ARA_DOM0_SVC_PAGE_H
#define ARA_DOM0_SVC_PAGE_H

/* Byte offsets in the page (svc_page.S lays them out); ARA_SVC_CALL, every system call's, is ara/sys.h's. */
#include "ara/sys.h"
#define ARA_SVC_DEFERRED 8	 /* svc #0; ret: unblock.S's rt_sigprocmask only */
#define ARA_SVC_DEFERRED_POINT 12 /* the ret after it: interrupted.c knows this pc */
#define ARA_SVC_BOOT 16		 /* an exec'd image's entry (libara/src/region/boot.c) */
/*
 * The system call service's rt_sigprocmask (svc_syscall.c), a restartable
 * section: x9 = the call header's state word, the call in x0-x3 and x8.
 * It makes the call only if no signal waits (ARA_CALL_ACTIVE), else returns
 * ARA_SVC_SIGMASK_WAITING with nothing done. A signal that interrupts it
 * before its svc has run waits, and resumes it at its start
 * (libara/src/interrupt.c): the state is read again.
 */
#define ARA_SVC_SIGMASK 32	 /* ldr x10, [x9]; cbnz x10: the restart point */
#define ARA_SVC_SIGMASK_SVC 40	 /* its svc: [ARA_SVC_SIGMASK, here] is the section */
#define ARA_SVC_SIGMASK_WAITING 1

#ifndef __ASSEMBLER__
#include <stdint.h>

/*
 * Maps the page (or, after an App's execve, checks the inherited one) and
 * points ara_svc_entry at it: first thing in initialisation, for the
 * inherited filter refuses some calls (pkey_alloc) from anywhere else.
 */
void ara_svc_page_init(void);

/* Once the keys exist: tags the page DOM0 (App code cannot execute it). */
void ara_svc_page_protect(void);

/* The page's address (for the filter's prefix and interrupted.c). */
uint64_t ara_svc_page(void);
#endif

#endif
