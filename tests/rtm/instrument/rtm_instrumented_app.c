/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An App built with ara_rtm_app() (cmake/AraRtm.cmake), under ara-loader
 * with the real runtime and DOM0's log (docs/rtm.md):
 *
 *   log     makes N indirect calls, enough to fill a log segment, then
 *           asks for a report: every call and every return is in the
 *           exported segment file or the report's pending entries,
 *           nothing dropped or refused, and the file holds exactly the
 *           sealed segments;
 *   hijack  overwrites its saved return address (test-only memory
 *           corruption) and returns: the report's last entry is that
 *           return, to the corrupted address;
 *   threads THREADS threads make CALLS indirect calls each, all at once
 *           and as fast as they can, and the program exits: the runtime's
 *           exit-time evidence must verify (rtm_threads.sh runs ara-verify).
 *
 * Needs ARA_EVIDENCE (reports are signed) and ARA_RTM_SEGMENTS. Prints
 * "rtm_instrumented: PASS" or FAIL lines.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/rtm.h"
#include "ara/rtm_runtime.h"
#include "check.h"
#include "rtm_format.h"


static uint8_t report[ARA_RTM_REPORT_MAX];
static uint64_t segment[ARA_RTM_SEGMENT_ENTRIES];

/* What the checks read from a report. */
struct view {
	uint64_t entries, sealed, dropped, refused;
	uint32_t pending;
	const uint8_t *pending_at;
};

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A fresh report over a random nonce, read into *v; 0 on success. */
static int fetch_report(struct view *v)
{
	uint8_t nonce[ARA_RTM_NONCE_BYTES];
	uint32_t len = 0;

	if (getrandom(nonce, sizeof(nonce), 0) != sizeof(nonce)) {
		printf("FAIL: getrandom\n");
		return -1;
	}
	int status = ara_rtm_report(nonce, report, sizeof(report), &len);
	if (status != ARA_OK || len < ARA_RTM_HEADER_BYTES || len > sizeof(report)) {
		printf("FAIL: ara_rtm_report: %d (%s), %u bytes\n", status, ara_strerror(status), len);
		return -1;
	}
	check(memcmp(report + ARA_RTM_OFF_NONCE, nonce, sizeof(nonce)) == 0, "the report's nonce");
	v->entries = le64(report + ARA_RTM_OFF_ENTRIES);
	v->sealed = le64(report + ARA_RTM_OFF_SEALED);
	v->dropped = le64(report + ARA_RTM_OFF_DROPPED);
	v->refused = le64(report + ARA_RTM_OFF_REFUSED);
	v->pending = le32(report + ARA_RTM_OFF_PENDING);

	/* Skip the module records to the pending entries. */
	size_t off = ARA_RTM_HEADER_BYTES;
	uint32_t modules = le32(report + ARA_RTM_OFF_MODULES);
	for (uint32_t i = 0; i < modules; i++) {
		if (off + ARA_RTM_MODULE_FIXED_BYTES > len) {
			printf("FAIL: report truncated in module %u\n", i);
			return -1;
		}
		off += ARA_RTM_MODULE_FIXED_BYTES + ((le32(report + off + 24) + 7u) & ~7u);
	}
	if (off + (size_t)v->pending * ARA_RTM_ENTRY_BYTES + ARA_RTM_SIG_BYTES != len) {
		printf("FAIL: report of %u bytes does not hold %u pending entries\n", len, v->pending);
		return -1;
	}
	v->pending_at = report + off;
	return 0;
}

static uint64_t pending_entry(const struct view *v, uint32_t i)
{
	return le64(v->pending_at + (size_t)i * ARA_RTM_ENTRY_BYTES);
}

/* The return address the last probe saw at entry (nothing corrupts it). */
static void *volatile seen_ra;

__attribute__((noinline)) static int probe(int x)
{
	seen_ra = __builtin_return_address(0);
	return x + 1;
}

/* Counts the entries equal to icall and ret in [entries, entries + n). */
static void tally(const uint64_t *entries, size_t n, uint64_t icall, uint64_t ret, size_t *icalls,
		  size_t *rets)
{
	for (size_t i = 0; i < n; i++) {
		*icalls += entries[i] == icall;
		*rets += entries[i] == ret;
	}
}

static int run_log(void)
{
	/* 2 entries per call: more than a segment. */
	enum { N = ARA_RTM_SEGMENT_ENTRIES / 2 + 4000 };
	const char *path = getenv("ARA_RTM_SEGMENTS");
	int (*volatile fp)(int) = probe;
	long sum = 0;
	struct view v;
	struct stat st;

	if (!path) {
		printf("FAIL: ARA_RTM_SEGMENTS is not set\n");
		return 1;
	}
	unlink(path); /* a previous run's segments; the first export is later */
	for (int i = 0; i < N; i++)
		sum += fp(i);
	check(sum == (long)N * (N + 1) / 2, "the calls' results");
	if (fetch_report(&v) != 0)
		return 1;

	check(v.sealed == 1, "%llu segments sealed, expected 1", (unsigned long long)v.sealed);
	check(v.dropped == 0 && v.refused == 0, "%llu dropped, %llu refused",
	      (unsigned long long)v.dropped, (unsigned long long)v.refused);
	check(v.pending == v.entries - v.sealed * ARA_RTM_SEGMENT_ENTRIES,
	      "%u pending of %llu entries", v.pending, (unsigned long long)v.entries);
	check(stat(path, &st) == 0 && (uint64_t)st.st_size == v.sealed * ARA_RTM_SEGMENT_BYTES,
	      "%s holds %lld bytes for %llu sealed segments", path, (long long)st.st_size,
	      (unsigned long long)v.sealed);

	/* Every call and every return, in the sealed segment or pending. */
	uint64_t icall = ara_rtm_entry(ARA_RTM_ICALL, (void *)probe);
	uint64_t ret = ara_rtm_entry(ARA_RTM_RET, seen_ra);
	size_t icalls = 0, rets = 0;
	FILE *f = fopen(path, "rb");
	check(f && fread(segment, sizeof(segment), 1, f) == 1, "reading the segment from %s", path);
	if (f)
		fclose(f);
	tally(segment, ARA_RTM_SEGMENT_ENTRIES, icall, ret, &icalls, &rets);
	for (uint32_t i = 0; i < v.pending; i++) {
		uint64_t e = pending_entry(&v, i);
		tally(&e, 1, icall, ret, &icalls, &rets);
	}
	check(icalls == N && rets == N, "%zu calls and %zu returns logged, %d made", icalls, rets, N);
	check(v.pending >= 2 && pending_entry(&v, v.pending - 2) == icall &&
		      pending_entry(&v, v.pending - 1) == ret,
	      "the last entries are the last call and its return");
	printf("ara-evidence: all %d indirect calls and their returns are in the exported "
	       "segment or the report\n",
	       N);
	return check_failures() != 0;
}

/* Where hijacked() returns to: the report's last entry must say so. */
__attribute__((noreturn, noinline)) static void landing(void)
{
	struct view v;

	if (fetch_report(&v) == 0) {
		check(v.pending >= 1 && pending_entry(&v, v.pending - 1) ==
					       ara_rtm_entry(ARA_RTM_RET, (void *)landing),
		      "the last entry is not the corrupted return to %p", (void *)landing);
		printf("ara-evidence: the corrupted return to landing() is the report's last entry\n");
	} else {
		check(0, "no report after the corrupted return");
	}
	printf("rtm_instrumented: %s\n", check_failures() ? "FAIL" : "PASS");
	fflush(stdout);
	_exit(check_failures() != 0);
}

/* Test-only memory corruption: overwrites its own saved return address. */
__attribute__((noinline)) static void hijacked(void)
{
	void *volatile *slot = (void *volatile *)((char *)__builtin_frame_address(0) + 8);

	*slot = (void *)landing;
}

enum { THREADS = 8, CALLS = 49152 }; /* 2 entries a call: 6 segments in all */

static pthread_barrier_t start;

static void *logger(void *arg)
{
	int (*volatile fp)(int) = probe;
	long sum = 0;

	(void)arg;
	pthread_barrier_wait(&start);
	for (int i = 0; i < CALLS; i++)
		sum += fp(i);
	return sum == (long)CALLS * (CALLS + 1) / 2 ? NULL : (void *)&start; /* NULL: right */
}

static int run_threads(void)
{
	pthread_t t[THREADS];

	if (pthread_barrier_init(&start, NULL, THREADS)) {
		printf("FAIL: pthread_barrier_init\n");
		return 1;
	}
	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, logger, NULL)) {
			printf("FAIL: pthread_create\n");
			return 1;
		}
	for (int i = 0; i < THREADS; i++) {
		void *res;

		check(pthread_join(t[i], &res) == 0 && res == NULL, "thread %d", i);
	}
	printf("rtm_instrumented: %d threads made %d indirect calls each\n", THREADS, CALLS);
	return check_failures() != 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "threads") == 0) {
		int rc = run_threads();
		printf("rtm_instrumented: %s\n", rc ? "FAIL" : "PASS");
		return rc;
	}
	if (argc == 2 && strcmp(argv[1], "log") == 0) {
		int rc = run_log();
		printf("rtm_instrumented: %s\n", rc ? "FAIL" : "PASS");
		return rc;
	}
	if (argc == 2 && strcmp(argv[1], "hijack") == 0) {
		hijacked(); /* returns to landing(), which ends the test */
		printf("FAIL: hijacked() returned to its caller\n");
		return 1;
	}
	fprintf(stderr, "usage: %s log|hijack|threads\n", argv[0]);
	return 2;
}
