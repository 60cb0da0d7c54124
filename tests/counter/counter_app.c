/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The counter module (ara/counter.h) in a running App: values that only
 * grow and that READ reports, bad input and the end of a counter refused
 * with the counter unchanged, no function that sets one, threads racing
 * without a repeat, and the fork rule: a child's counters start at 0 in an
 * epoch of its own, and its parent's go on as they were.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ara/counter.h"
#include "check.h"

#define EPOCH ARA_COUNTER_EPOCH_BYTES

static uint64_t value_of(uint32_t counter, uint8_t epoch[EPOCH])
{
	uint64_t v = 0;
	int st = ara_counter_read(counter, &v, epoch);

	check(st == ARA_OK, "READ %u: %s", counter, ara_strerror(st));
	return v;
}

static void grows(const uint8_t epoch[EPOCH])
{
	uint8_t e[EPOCH];
	uint64_t v, before = value_of(0, NULL);

	check(before == 0, "counter 0 starts at %llu, not 0", (unsigned long long)before);
	for (uint64_t want = 1; want <= 50; want++) {
		int st = ara_counter_increment(0, 1, &v, e);

		check(st == ARA_OK && v == want, "INCREMENT 0: %s, value %llu, expected %llu",
		      ara_strerror(st), (unsigned long long)v, (unsigned long long)want);
		check(memcmp(e, epoch, EPOCH) == 0, "INCREMENT's epoch is not the process's");
		check(value_of(0, e) == want, "READ 0 after INCREMENT to %llu", (unsigned long long)want);
	}
	check(ara_counter_increment(0, 950, &v, NULL) == ARA_OK && v == 1000,
	      "a block of 950 ends at %llu, not 1000", (unsigned long long)v);
	check(value_of(1, NULL) == 0, "counter 1 moved with counter 0");
}

static void bad_input(void)
{
	struct ara_counter_arg a = { .counter = ARA_COUNTERS, .delta = 1 };
	void *unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t v = 0;
	int st;

	check(secure_call(ARA_FID_COUNTER_INCREMENT, &a) == ARA_E_NOENT, "counter 16 not refused");
	a = (struct ara_counter_arg){ .counter = UINT32_MAX };
	check(secure_call(ARA_FID_COUNTER_READ, &a) == ARA_E_NOENT, "READ of counter 2^32-1 not refused");
	a = (struct ara_counter_arg){ .counter = 0, .flags = 1, .delta = 1 };
	check(secure_call(ARA_FID_COUNTER_INCREMENT, &a) == ARA_E_INVAL, "flags 1 not refused");
	a = (struct ara_counter_arg){ .counter = 0, .flags = 4 };
	check(secure_call(ARA_FID_COUNTER_READ, &a) == ARA_E_INVAL, "READ with flags 4 not refused");
	check(ara_counter_increment(0, 0, &v, NULL) == ARA_E_INVAL, "INCREMENT by 0 not refused");
	a = (struct ara_counter_arg){ .counter = 0, .delta = 1 };
	check(secure_call(ARA_FID_COUNTER_READ, &a) == ARA_E_INVAL, "READ with a delta not refused");
	check(secure_call(ARA_FID_COUNTER_INCREMENT, NULL) == ARA_E_INVAL, "NULL argument not refused");
	st = secure_call(ARA_FID_COUNTER_INCREMENT, unmapped);
	check(unmapped != MAP_FAILED && st == ARA_E_FAULT, "unmapped argument: %s", ara_strerror(st));
	/* No other function of the module answers: none sets, resets or lowers a counter. */
	for (uint32_t f = 0; f <= 64; f++) {
		uint32_t fid = ARA_FID(ARA_MODULE_COUNTER, f);

		if (fid == ARA_FID_COUNTER_INCREMENT || fid == ARA_FID_COUNTER_READ)
			continue;
		a = (struct ara_counter_arg){ .counter = 0, .delta = 1 };
		st = secure_call(fid, &a);
		check(st == ARA_E_NOFUNC, "function %u of the counter module: %s", f, ara_strerror(st));
	}
	check(value_of(0, NULL) == 1000, "a refused call changed counter 0");
}

static void the_end(void)
{
	uint32_t c = ARA_COUNTERS - 1;
	uint64_t v = 0;
	int st;

	check(ara_counter_increment(c, UINT64_MAX - 1, &v, NULL) == ARA_OK && v == UINT64_MAX - 1,
	      "INCREMENT by 2^64-2");
	st = ara_counter_increment(c, 2, &v, NULL);
	check(st == ARA_E_SECURITY, "INCREMENT past the end: %s", ara_strerror(st));
	check(ara_counter_increment(c, 1, &v, NULL) == ARA_OK && v == UINT64_MAX,
	      "INCREMENT to the end itself");
	st = ara_counter_increment(c, 1, &v, NULL);
	check(st == ARA_E_SECURITY, "INCREMENT at the end: %s", ara_strerror(st));
	check(value_of(c, NULL) == UINT64_MAX, "the counter moved at its end");
}

#define THREADS 4
#define THREAD_CALLS 5000

static void *racer(void *p)
{
	uint64_t *got = p;

	for (int i = 0; i < THREAD_CALLS; i++)
		if (ara_counter_increment(2, 1, &got[i], NULL) != ARA_OK)
			got[i] = 0; /* never a value: the check fails */
	return NULL;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void threads(void)
{
	uint64_t *got = calloc(THREADS * THREAD_CALLS, sizeof(*got));
	pthread_t t[THREADS];
	int bad = 0;

	check(got != NULL, "calloc");
	if (!got)
		return;
	for (int i = 0; i < THREADS; i++)
		check(pthread_create(&t[i], NULL, racer, got + i * THREAD_CALLS) == 0, "pthread_create");
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	qsort(got, THREADS * THREAD_CALLS, sizeof(*got), by_value);
	for (uint64_t k = 0; k < THREADS * THREAD_CALLS; k++)
		bad += got[k] != k + 1;
	check(bad == 0, "%d of %d racing increments not each of 1..%d once", bad,
	      THREADS * THREAD_CALLS, THREADS * THREAD_CALLS);
	check(value_of(2, NULL) == THREADS * THREAD_CALLS, "counter 2 after the race");
	free(got);
}

/* What a child saw, sent to its parent through a pipe. */
struct child_view {
	uint8_t epoch[EPOCH];
	uint64_t read0, inc0, inc0_again;
	int st;
};

static void child(int fd)
{
	struct child_view w = { 0 };

	w.st = ara_counter_read(0, &w.read0, w.epoch);
	if (w.st == ARA_OK)
		w.st = ara_counter_increment(0, 1, &w.inc0, NULL);
	if (w.st == ARA_OK)
		w.st = ara_counter_increment(0, 1, &w.inc0_again, NULL);
	_exit(write(fd, &w, sizeof(w)) == (ssize_t)sizeof(w) ? 0 : 1);
}

static int run_child(struct child_view *w)
{
	int fd[2], status;
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid == 0)
		child(fd[1]);
	close(fd[1]);
	if (pid < 0 || read(fd[0], w, sizeof(*w)) != (ssize_t)sizeof(*w) ||
	    waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		close(fd[0]);
		return -1;
	}
	close(fd[0]);
	return 0;
}

static void fork_rule(const uint8_t epoch[EPOCH])
{
	struct child_view a, b;
	uint8_t e[EPOCH];
	uint64_t v = 0;

	check(run_child(&a) == 0 && run_child(&b) == 0, "a child did not report");
	check(a.st == ARA_OK, "the child's calls: %s", ara_strerror(a.st));
	check(a.read0 == 0 && a.inc0 == 1 && a.inc0_again == 2,
	      "the child's counter 0: %llu, then %llu, %llu; expected 0, then 1, 2",
	      (unsigned long long)a.read0, (unsigned long long)a.inc0,
	      (unsigned long long)a.inc0_again);
	check(memcmp(a.epoch, epoch, EPOCH) != 0, "a child's epoch is its parent's");
	check(memcmp(a.epoch, b.epoch, EPOCH) != 0, "two children share an epoch");
	/* The parent's counter is where it was, and goes on from there. */
	check(value_of(0, e) == 1000, "the parent's counter 0 changed with its child's");
	check(memcmp(e, epoch, EPOCH) == 0, "the parent's epoch changed at the fork");
	check(ara_counter_increment(0, 1, &v, NULL) == ARA_OK && v == 1001,
	      "the parent's INCREMENT after the fork: %llu", (unsigned long long)v);
}

int main(void)
{
	static const uint8_t zero[EPOCH];
	uint8_t epoch[EPOCH];

	value_of(0, epoch);
	check(memcmp(epoch, zero, EPOCH) != 0, "the epoch is zero");
	grows(epoch);
	bad_input();
	the_end();
	threads();
	fork_rule(epoch);
	return check_report("counter");
}
