/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A vfork child tied to its parent thread (clone.c): it must not outlive
 * it while it shares the memory. The kernel's wait for a vfork child is
 * killable, so the parent's thread group can end (a SIGKILL, ARA ending
 * the process, another thread's execve) while the child runs on, alone,
 * in DOM0's state that a task killed inside ARA may have left half-changed
 * or locked. So the child runs with the parent-death signal SIGKILL, set
 * by ARA before its first App instruction and kept from App code, until
 * ARA's execveat replaces its image (it then shares nothing).
 */
#ifndef ARA_DOM0_VFORK_H
#define ARA_DOM0_VFORK_H

#include <stdint.h>

#include "thread.h"

/*
 * In a vfork child of parent (its parent's process ID), before App code
 * runs: the parent-death signal SIGKILL, and the end of the child (with
 * ARA_EXIT_DOM0_CORRUPT) if its parent thread died before that took hold.
 */
void ara_vfork_child_tie(int32_t parent);

/*
 * Around the execveat that replaces the calling task's image (execve.c):
 * before it, a vfork child's parent-death signal becomes the App's (0
 * unless it asked for one), and a thread of the process that owns the
 * memory is counted as an execve that may end its sibling threads; after
 * it, if the kernel refused the image, both are undone.
 */
void ara_vfork_exec_begin(void);
void ara_vfork_exec_end(void);

/* prctl(PR_SET_PDEATHSIG, sig) for App code (the filter traps that option). */
long ara_app_prctl(struct ara_thread *t, uint64_t option, uint64_t sig);

#endif
