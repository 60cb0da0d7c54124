/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The App's signal-mask calls through ARA's system call service
 * (ARA_FID_SYSCALL): ordinary DOM2 code. ara-loader preloads this object
 * ahead of libc, so these definitions take the place of libc's for the App
 * and every library it loads, with no change to their source; libc's own
 * internal calls (in fork, posix_spawn, sigsetjmp, ...) do not go through
 * symbols and keep taking the filter's trap. Both ways in apply the same
 * checks (docs/syscalls.md). A query (no set) is not mediated and goes to
 * the kernel; so does a call the service does not answer (no ARA in this
 * process yet, every DOM0 stack busy), where the filter traps it as usual.
 * They behave as glibc's do: pthread_sigmask never blocks glibc's
 * internal signals and returns the error, sigprocmask sets errno.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ara/ara.h"

#define KERNEL_SIGSET_BYTES 8
/* glibc's SIGCANCEL and SIGSETXID: pthread_sigmask leaves them unblocked. */
#define GLIBC_SIGCANCEL 32
#define GLIBC_SIGSETXID 33

/* rt_sigprocmask's result, -errno on failure; errno as it was. */
static long rt_sigprocmask(int how, const sigset_t *set, sigset_t *oset)
{
	int saved;
	long r;

	if (set) {
		struct ara_syscall_arg a = {
			.nr = SYS_rt_sigprocmask,
			.args = { (uint64_t)(int64_t)how, (uintptr_t)set, (uintptr_t)oset,
				  KERNEL_SIGSET_BYTES },
		};

		if (secure_call(ARA_FID_SYSCALL, &a) == ARA_OK)
			return a.result;
	}
	saved = errno;
	r = syscall(SYS_rt_sigprocmask, how, set, oset, KERNEL_SIGSET_BYTES);
	r = r == -1 ? -errno : r;
	errno = saved;
	return r;
}

/* pthread_sigmask's work, which sigprocmask shares without a call through the PLT. */
static int thread_sigmask(int how, const sigset_t *set, sigset_t *oset)
{
	/* (glibc's sigdelset refuses its internal signals: the bits, directly) */
	const uint64_t internal = (UINT64_C(1) << (GLIBC_SIGCANCEL - 1)) | (UINT64_C(1) << (GLIBC_SIGSETXID - 1));
	uint64_t first;
	sigset_t own;

	if (set) {
		memcpy(&first, set, sizeof(first));
		if (first & internal) {
			memcpy(&own, set, sizeof(own));
			first &= ~internal;
			memcpy(&own, &first, sizeof(first));
			set = &own;
		}
	}
	return (int)-rt_sigprocmask(how, set, oset);
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *oset)
{
	return thread_sigmask(how, set, oset);
}

int sigprocmask(int how, const sigset_t *set, sigset_t *oset)
{
	const int r = thread_sigmask(how, set, oset);

	if (r == 0)
		return 0;
	errno = r;
	return -1;
}
