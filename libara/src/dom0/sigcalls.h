/* SPDX-License-Identifier: Apache-2.0 */
/*
 * App code's signal calls, checked and performed by ARA (signal.c): one
 * policy for both ways in, the filter's trap (signal.c) and the system
 * call service (svc_syscall.c). Each takes the call's arguments as the
 * kernel would, App pointers read and written through the argument checks
 * (copy.c), and returns the call's result, -errno on failure.
 */
#ifndef ARA_DOM0_SIGCALLS_H
#define ARA_DOM0_SIGCALLS_H

#include <stdint.h>

/*
 * rt_sigaction: the App's handler is kept in DOM0 and ARA's signal entry
 * installed for it; EINVAL for SIGSYS, which is ARA's.
 */
long ara_app_sigaction(uint64_t sig, uint64_t act, uint64_t oact, uint64_t size);

/*
 * How a call reaches App memory: through the kernel (ara_copy_*, the trap
 * path, whose handler runs with every signal blocked), or with plain loads
 * and stores (ara_direct_*, the service, with SIGSEGV and SIGBUS unblocked).
 */
enum ara_app_via { ARA_VIA_KERNEL, ARA_VIA_DIRECT };

/*
 * rt_sigprocmask on *mask, the App's mask: the new one, never blocking
 * SIGSYS (nor SIGKILL, SIGSTOP), goes back in *mask, the old one to oset.
 * The caller applies *mask (the trap path through the frame it hands
 * rt_sigreturn, the service with the real call). pid, for ARA_VIA_KERNEL:
 * the process's ID as the caller has it from the kernel for this call
 * (ara_copy_*_as), or 0 to ask.
 */
long ara_app_sigprocmask(uint64_t how, uint64_t set, uint64_t oset, uint64_t size, uint64_t *mask,
			 enum ara_app_via via, int32_t pid);

#endif
