/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The gate's append lane is the core's: the gate's stackless append
 * (entry/gate.S) adds one to the word the lane names and stores the App's
 * entry after it, with the core's row. A service domain asks the core for
 * the lane (ara_append_lane_set), and the core sets it only for the domain
 * serving the RTM's log, and only to an 8-byte aligned segment on that
 * domain's heap; any other request ends the process with
 * ARA_EXIT_SERVICE_FAULT (libara/src/dom0/modules.c). The probe's LANE
 * (tests/variants/probe.h) asks for the address the App names, as a
 * compromised service can.
 *
 * A request the core refuses ends the process, so each one is a child that
 * starts this program again with execve (ARA runs it under ARA, with the
 * same libara and an instance of its own: ARA_EVIDENCE): it logs an entry
 * (the RTM's log and its lane exist), has the other modules make their
 * states (a CENC key it provisions itself, a counter), asks for the lane,
 * logs a second entry, and says where that went. The parent judges each
 * child's output and status:
 *   refused rtm (rtm-probe, the probe in the RTM's domain): the lane at a
 *     word of the core's page, at an App buffer, and 4 bytes into the
 *     RTM's open segment each end the child with exit 13 and the core's
 *     line, before the request returns; a fresh segment on the RTM's heap
 *     is set, and the second entry lands in it.
 *   refused extra (domain-probe, the probe in the extra domain): a fresh
 *     segment on the extra domain's heap ends the child likewise.
 *   through segment (rtm-probe-lane-any-segment, the segment's check
 *     removed): the second entry changes the core's page, and goes into the
 *     App's buffer.
 *   through owner (domain-probe-lane-any-owner, the owner's check removed):
 *     the extra domain's segment is set, and the second entry lands there,
 *     not in the RTM's log.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "ara/ara.h"
#include "ara/boot.h"
#include "ara/counter.h"
#include "ara/rtm.h"
#include "check.h"
#include "probe.h"
#include "self_provision.h"
#include "self_run.h"

static const uint64_t first = ara_rtm_entry(ARA_RTM_ICALL, 0x1a4e0001u);
static const uint64_t second = ara_rtm_entry(ARA_RTM_ICALL, 0x1a4e0002u);

/* An App buffer the size of a segment, zeroed: where "app" points the lane. */
static uint64_t app_segment[PROBE_LANE_BYTES / 8] __attribute__((aligned(64)));

/* The core's lines for a refused request (modules.c). */
static const char refused_heap[] = "asked for an append lane that is not a segment on its heap";
static const char refused_aligned[] = "asked for an append lane that is not 8-byte aligned";
static const char refused_owner[] = "asked for the append lane, which only the RTM log's domain sets";

/* ---- The child: one request -------------------------------------------- */

static int locate(enum probe_target t, struct probe_locate_arg *loc)
{
	int st;

	memset(loc, 0, sizeof(*loc));
	loc->which = t;
	st = secure_call(PROBE_FID_LOCATE, loc);
	check(st == ARA_OK, "LOCATE %u: %s", t, ara_strerror(st));
	return st;
}

/* Where the second entry went, after the lane was set. */
static void where_it_went(const char *target, const struct probe_lane_arg *lane,
			  const struct probe_locate_arg *core)
{
	struct probe_locate_arg after;
	struct probe_read_arg back = { .addr = lane->addr + 64, .len = sizeof(second) };

	if (strcmp(target, "core") == 0) {
		if (locate(PROBE_CORE, &after) == ARA_OK && after.digest != core->digest)
			printf("BREACH: the App's entry changed the core's page\n");
		else
			printf("lane: the core's page unchanged\n");
	} else if (strcmp(target, "app") == 0) {
		if (app_segment[8] == second)
			printf("lane: the App's entry went to App memory, not the RTM's log\n");
	} else if (strcmp(target, "fresh") == 0) {
		int st = secure_call(PROBE_FID_READ, &back);

		check(st == ARA_OK, "READ of the probe's segment: %s", ara_strerror(st));
		if (st == ARA_OK && memcmp(back.out, &second, sizeof(second)) == 0)
			printf("lane: the App's entry landed in the probe's segment\n");
	}
}

/*
 * The first entry (the RTM's log and its lane), and the other modules'
 * states, which each makes at its first call in its own domain and which
 * LOCATE wants (probe_service_locate.c). 0, or 1 (printed).
 */
static int make_states(void)
{
	static const uint8_t key[16] = "append-lane-key!", key_id[16] = "append-lane-kid";
	uint64_t value;
	uint32_t session;
	int st;

	if ((st = ara_rtm_append(first)) != ARA_OK) {
		printf("FAIL: the first entry: %s\n", ara_strerror(st));
		return 1;
	}
	if ((st = ara_test_cenc_session(key_id, key, &session)) != ARA_OK ||
	    (st = ara_counter_increment(0, 1, &value, NULL)) != ARA_OK) {
		printf("FAIL: the RTS's or the counter's state: %s\n", ara_strerror(st));
		return 1;
	}
	return 0;
}

static int child(const char *target)
{
	struct probe_lane_arg lane = { 0 };
	struct probe_locate_arg loc = { 0 };
	int st;

	if (make_states())
		return 1;
	if (strcmp(target, "core") == 0) {
		/* A word of the core's page that no later call reads (probe_service_locate.c). */
		if (locate(PROBE_CORE, &loc) != ARA_OK)
			return 1;
		lane.addr = loc.write_at;
	} else if (strcmp(target, "app") == 0) {
		lane.addr = (uintptr_t)app_segment;
	} else if (strcmp(target, "misaligned") == 0) {
		if (locate(PROBE_RTM, &loc) != ARA_OK)
			return 1;
		lane.addr = loc.addr + 4;
	} else if (strcmp(target, "fresh") == 0) {
		lane.fresh = 1;
	} else {
		printf("FAIL: no target %s\n", target);
		return 2;
	}
	printf("lane: asking for %s at 0x%llx\n", target, (unsigned long long)lane.addr);
	st = secure_call(PROBE_FID_LANE, &lane);
	printf("lane: set: %s, at 0x%llx\n", ara_strerror(st), (unsigned long long)lane.addr);
	if (st != ARA_OK)
		return 1;
	st = ara_rtm_append(second);
	check(st == ARA_OK, "the second entry: %s", ara_strerror(st));
	where_it_went(target, &lane, &loc);
	return check_failures() ? 1 : 0;
}

/* ---- The parent: each request in a child, judged ----------------------- */

static int has(const struct self_run *r, const char *s)
{
	return self_run_has(r, s, strlen(s));
}

/* Runs `self case TARGET` with its output into r, and shows it; 0, or -1 (printed). */
static int run_child(const char *self, const char *target, struct self_run *r)
{
	const char *const args[] = { "case", target, NULL };

	if (self_run(self, args, r))
		return -1;
	printf("-- %s: wait status 0x%x\n%.*s", target, r->status, (int)r->len, r->out);
	return 0;
}

/* The core refused the request: exit 13, its line, and the request never returned. */
static void refused(const char *self, const char *target, const char *line)
{
	static struct self_run r;

	if (run_child(self, target, &r)) {
		check(0, "%s: no child", target);
		return;
	}
	check(has(&r, "lane: asking for "), "%s: the child did not get as far as the request",
	      target);
	check(WIFEXITED(r.status) && WEXITSTATUS(r.status) == ARA_EXIT_SERVICE_FAULT,
	      "%s: wait status 0x%x, not exit %d (ARA_EXIT_SERVICE_FAULT)", target, r.status,
	      ARA_EXIT_SERVICE_FAULT);
	check(has(&r, line), "%s: no line of the core's says '%s'", target, line);
	check(has(&r, "(domain ") && has(&r, "; ending the process"),
	      "%s: the core's line names no domain", target);
	check(!has(&r, "lane: set: "), "%s: the request returned", target);
}

/* The request went through, and the second entry went where it says. */
static void through(const char *self, const char *target, const char *went)
{
	static struct self_run r;

	if (run_child(self, target, &r)) {
		check(0, "%s: no child", target);
		return;
	}
	check(has(&r, "lane: set: success"), "%s: the lane was not set", target);
	check(has(&r, went), "%s: no '%s'", target, went);
}

int main(int argc, char **argv)
{
	const char *self = argv[0];

	setvbuf(stdout, NULL, _IOLBF, 0); /* a refusal ends the process: nothing left in a buffer */
	if (argc == 3 && strcmp(argv[1], "case") == 0)
		return child(argv[2]);
	if (argc == 3 && strcmp(argv[1], "refused") == 0 && strcmp(argv[2], "rtm") == 0) {
		refused(self, "core", refused_heap);
		refused(self, "app", refused_heap);
		refused(self, "misaligned", refused_aligned);
		through(self, "fresh", "lane: the App's entry landed in the probe's segment");
	} else if (argc == 3 && strcmp(argv[1], "refused") == 0 && strcmp(argv[2], "extra") == 0) {
		refused(self, "fresh", refused_owner);
	} else if (argc == 3 && strcmp(argv[1], "through") == 0 && strcmp(argv[2], "segment") == 0) {
		through(self, "core", "BREACH: the App's entry changed the core's page");
		through(self, "app", "lane: the App's entry went to App memory, not the RTM's log");
	} else if (argc == 3 && strcmp(argv[1], "through") == 0 && strcmp(argv[2], "owner") == 0) {
		through(self, "fresh", "lane: the App's entry landed in the probe's segment");
	} else {
		fprintf(stderr, "usage: %s refused rtm|extra, or through segment|owner\n", self);
		return 2;
	}
	return check_report("append-lane");
}
