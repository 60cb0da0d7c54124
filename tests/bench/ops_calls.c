/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The in-process operations: a plain indirect call (the baseline), a null
 * secure_call, a secure_call into a C service with a value argument, one
 * into a service in a domain of its own (the counter's READ), the
 * cheapest system call, a system call ARA's filter traps
 * and ARA performs, and an open, which ARA checks in a task of its own.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/counter.h"
#include "bench_ops.h"

/*
 * The baseline: what an App pays to call a function it cannot inline. It has
 * secure_call's signature, is called through a volatile pointer (so the
 * compiler can neither inline nor hoist it) and writes a volatile (so it
 * cannot be dropped).
 */
static volatile uint64_t plain_sink;

__attribute__((noinline)) static int plain_function(uint32_t fid, void *arg)
{
	(void)arg;
	plain_sink += fid;
	return 0;
}

static int (*volatile plain_pointer)(uint32_t, void *) = plain_function;

static int no_setup(void)
{
	return 0;
}

static int indirect_run(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		if (plain_pointer(ARA_FID_NULL, NULL) != 0) {
			fprintf(stderr, "ara_bench: the plain function returned non-zero\n");
			return -1;
		}
	}
	return 0;
}

const struct bench_op bench_op_indirect = {
	.name = "indirect",
	.what = "plain call through a volatile function pointer (the baseline)",
	.setup = no_setup,
	.run = indirect_run,
	.teardown = no_setup,
};

/* Checks that ARA answers before anything is timed. */
static int secure_call_setup(void)
{
	int st = secure_call(ARA_FID_NULL, NULL);

	if (st != ARA_OK) {
		fprintf(stderr, "ara_bench: secure_call(ARA_FID_NULL): %s (%d)%s\n",
			ara_strerror(st), st,
			st == ARA_E_NOT_READY ? ": run me under ara-loader" : "");
		return -1;
	}
	return 0;
}

static int secure_call_run(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		int st = secure_call(ARA_FID_NULL, NULL);

		if (st != ARA_OK) {
			fprintf(stderr, "ara_bench: secure_call(ARA_FID_NULL) number %llu: %s (%d)\n",
				(unsigned long long)i, ara_strerror(st), st);
			return -1;
		}
	}
	return 0;
}

const struct bench_op bench_op_secure_call = {
	.name = "secure_call",
	.what = "secure_call(ARA_FID_NULL, NULL): into ARA and back",
	.setup = secure_call_setup,
	.run = secure_call_run,
	.teardown = no_setup,
};

/* ARA_FID_VALUE: the landing, a stack, the service table and a C handler. */
static int secure_value_setup(void)
{
	int st = secure_call(ARA_FID_VALUE, (void *)(uintptr_t)ARA_VALUE_PROBE);

	if (st != ARA_OK) {
		fprintf(stderr, "ara_bench: secure_call(ARA_FID_VALUE): %s (%d)\n", ara_strerror(st), st);
		return -1;
	}
	return 0;
}

static int secure_value_run(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		int st = secure_call(ARA_FID_VALUE, (void *)(uintptr_t)ARA_VALUE_PROBE);

		if (st != ARA_OK) {
			fprintf(stderr, "ara_bench: secure_call(ARA_FID_VALUE) number %llu: %s (%d)\n",
				(unsigned long long)i, ara_strerror(st), st);
			return -1;
		}
	}
	return 0;
}

const struct bench_op bench_op_secure_value = {
	.name = "secure_value",
	.what = "secure_call(ARA_FID_VALUE, v): into a C service with a value argument and back",
	.setup = secure_value_setup,
	.run = secure_value_run,
	.teardown = no_setup,
};

/*
 * ARA_FID_COUNTER_READ: a pointer argument (48 bytes in and out) to a
 * service in the extra domain, through its door (docs/performance.md).
 */
static int counter_read_once(uint64_t i)
{
	struct ara_counter_arg a = { .counter = 0 };
	int st = secure_call(ARA_FID_COUNTER_READ, &a);

	if (st != ARA_OK) {
		fprintf(stderr, "ara_bench: secure_call(ARA_FID_COUNTER_READ) number %llu: %s (%d)\n",
			(unsigned long long)i, ara_strerror(st), st);
		return -1;
	}
	return 0;
}

static int counter_read_setup(void)
{
	return counter_read_once(0);
}

static int counter_read_run(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (counter_read_once(i))
			return -1;
	return 0;
}

const struct bench_op bench_op_counter_read = {
	.name = "counter_read",
	.what = "secure_call(ARA_FID_COUNTER_READ, &a): into a service in a domain of its own and back",
	.setup = counter_read_setup,
	.run = counter_read_run,
	.teardown = no_setup,
};

static long own_pid;

static int getpid_setup(void)
{
	own_pid = getpid();
	return 0;
}

/* syscall(), not getpid(): no libc may answer from a cache. */
static int getpid_run(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		if (syscall(SYS_getpid) != own_pid) {
			fprintf(stderr, "ara_bench: getpid returned another pid\n");
			return -1;
		}
	}
	return 0;
}

const struct bench_op bench_op_getpid = {
	.name = "getpid",
	.what = "syscall(SYS_getpid): into the kernel and back",
	.setup = getpid_setup,
	.run = getpid_run,
	.teardown = no_setup,
};

/*
 * rt_sigprocmask blocking nothing: one plain system call without ARA; under
 * ARA a SIGSYS, ARA's handler and an rt_sigreturn (docs/syscalls.md). Its
 * ratio to getpid is what the trap path costs.
 */
static int sigprocmask_run(uint64_t n)
{
	const uint64_t none = 0;

	for (uint64_t i = 0; i < n; i++) {
		if (syscall(SYS_rt_sigprocmask, SIG_BLOCK, &none, NULL, sizeof(none)) != 0) {
			fprintf(stderr, "ara_bench: rt_sigprocmask failed\n");
			return -1;
		}
	}
	return 0;
}

const struct bench_op bench_op_sigprocmask = {
	.name = "sigprocmask",
	.what = "syscall(SYS_rt_sigprocmask) blocking nothing: trapped and performed by ARA",
	.setup = no_setup,
	.run = sigprocmask_run,
	.teardown = no_setup,
};

/*
 * The same call as libc's sigprocmask, whose definition in the entry
 * object takes it through ARA's system call service (ARA_FID_SYSCALL)
 * instead of the filter's trap: secure_call, ARA's checks and the real
 * rt_sigprocmask from DOM0 (docs/syscalls.md). Setup checks that the
 * service, not the trap, answers.
 */
static int sigprocmask_service_setup(void)
{
	struct ara_info_arg before, after;
	sigset_t none;

	sigemptyset(&none);
	if (secure_call(ARA_FID_INFO, &before) != ARA_OK || sigprocmask(SIG_BLOCK, &none, NULL) != 0 ||
	    secure_call(ARA_FID_INFO, &after) != ARA_OK ||
	    after.syscalls_served != before.syscalls_served + 1) {
		fprintf(stderr, "ara_bench: sigprocmask() did not go through ARA's system call service\n");
		return -1;
	}
	return 0;
}

static int sigprocmask_service_run(uint64_t n)
{
	sigset_t none;

	sigemptyset(&none);
	for (uint64_t i = 0; i < n; i++) {
		if (sigprocmask(SIG_BLOCK, &none, NULL) != 0) {
			fprintf(stderr, "ara_bench: sigprocmask failed\n");
			return -1;
		}
	}
	return 0;
}

const struct bench_op bench_op_sigprocmask_service = {
	.name = "sigprocmask_service",
	.what = "sigprocmask() blocking nothing: through ARA's system call service",
	.setup = sigprocmask_service_setup,
	.run = sigprocmask_service_run,
	.teardown = no_setup,
};

/*
 * openat and close of a file of the App's own: without ARA, two system
 * calls; under ARA the open is trapped, probed, classified and reopened in
 * a task with a private descriptor table (docs/files.md), the close is not.
 */
static char open_path[] = "/tmp/ara-bench-open-XXXXXX";

static int open_setup(void)
{
	int fd = mkstemp(open_path);

	if (fd < 0) {
		perror("ara_bench: mkstemp");
		return -1;
	}
	close(fd);
	return 0;
}

static int open_run(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		int fd = open(open_path, O_RDONLY | O_CLOEXEC);

		if (fd < 0 || close(fd) != 0) {
			perror("ara_bench: open and close");
			return -1;
		}
	}
	return 0;
}

static int open_teardown(void)
{
	return unlink(open_path);
}

const struct bench_op bench_op_open = {
	.name = "open",
	.what = "open and close of a file of the App's own: the open checked by ARA",
	.setup = open_setup,
	.run = open_run,
	.teardown = open_teardown,
};
