/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Raw system calls of DOM0's, the core's and the services' (ara/service.h):
 * no libc wrapper, no errno, no cancellation point. Each returns the
 * kernel's value (-errno on failure). The svc itself is on ARA's
 * system-call page (libara/src/dom0/svc_page.h), the one place the filter
 * lets through: a branch and link there, which costs x30 and x16.
 */
#ifndef ARA_SYS_H
#define ARA_SYS_H

/* The page's `svc #0; ret` for every system call (svc_page.h lays out the others). */
#define ARA_SVC_CALL 0

#ifndef __ASSEMBLER__
#include <asm/unistd.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Where DOM0's system calls go: libara's own `svc #0; ret` until the page
 * is mapped, the page from then on (before the filter exists). DOM0 data
 * (libara/src/dom0/state.c).
 */
extern uint64_t ara_svc_entry;

static inline long ara_sys6(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a0;
	register long x1 __asm__("x1") = a1;
	register long x2 __asm__("x2") = a2;
	register long x3 __asm__("x3") = a3;
	register long x4 __asm__("x4") = a4;
	register long x5 __asm__("x5") = a5;
	register uint64_t x16 __asm__("x16") = ara_svc_entry + ARA_SVC_CALL;

	__asm__ volatile("blr x16"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5), "r"(x16)
			 : "memory", "cc", "x30");
	return x0;
}

#define ara_sys0(nr) ara_sys6(nr, 0, 0, 0, 0, 0, 0)
#define ara_sys1(nr, a) ara_sys6(nr, (long)(a), 0, 0, 0, 0, 0)
#define ara_sys2(nr, a, b) ara_sys6(nr, (long)(a), (long)(b), 0, 0, 0, 0)
#define ara_sys3(nr, a, b, c) ara_sys6(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define ara_sys4(nr, a, b, c, d) \
	ara_sys6(nr, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define ara_sys5(nr, a, b, c, d, e) \
	ara_sys6(nr, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)

static inline int ara_sys_failed(long ret)
{
	return ret < 0 && ret > -4096;
}

/*
 * DOM0 ends the task: first it forgets the address the kernel would store
 * 0 to at this thread's exit (clear_child_tid), which the kernel would do
 * with DOM0's row (docs/kernel-access.md). The filter already refuses App
 * code a registration in ARA's ranges; this is the second wall.
 */
__attribute__((noreturn)) static inline void ara_sys_exit_group(int status)
{
#ifndef ARA_TEST_VARIANT_NO_TID_GUARD
	ara_sys1(__NR_set_tid_address, 0);
#endif
	for (;;)
		ara_sys1(__NR_exit_group, status);
}

#endif

#endif
