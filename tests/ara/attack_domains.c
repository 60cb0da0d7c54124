/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A compromised App drives a service with an arbitrary read/write bug (the
 * probe of the domain-probe, rts-probe, provision-probe and one-domain
 * variants: tests/variants/probe_service.c) at the other modules' and the
 * core's memory. Each module runs in a protection domain of its own: the
 * probe, in the extra domain (domain-probe), the RTS's (rts-probe), the
 * RTM's (rtm-probe) or provisioning's (provision-probe), may reach its own
 * domain's memory and the App's; its READ or WRITE of any other domain's
 * (the RTS's content keys, the RTM's log, provisioning's instance key,
 * which signs the RTM's reports, the core's per-process page, the
 * counter's values) must fault,
 * and ARA then ends the process with ARA_EXIT_SERVICE_FAULT and a stderr
 * line naming the service.
 *
 * A fault ends the process, and a forked child has none of its parent's
 * DOM0 state (no instance, no keys, a log of its own). So each attempt is a
 * child that starts this program again with execve (ARA runs it under ARA,
 * with the same libara and an instance of its own: ARA_EVIDENCE), gives the
 * modules secrets it knows (a CENC key it provisions itself, an RTM entry,
 * a counter's value), asks LOCATE where the target lies, and READs or
 * WRITEs it, printing what it got; the parent reads the child's output and
 * status:
 *   contained extra|rts|provision|rtm (against domain-probe, rts-probe,
 *     provision-probe or rtm-probe, the probe's domain named): every attempt on a
 *     target in another domain ends with exit 13 and ARA's fault line
 *     naming the probe, before the child prints anything it read or
 *     wrote, and no form of a secret the parent knows (the CENC key, the
 *     RTM entry) is in its output; READ and WRITE of the probe's own state
 *     succeed, and so do those of the target in the probe's domain (the
 *     counter's in the extra domain, the RTS's keys in the RTS's, the
 *     instance key in provisioning's, the log in the RTM's), where domains
 *     separate nothing.
 *   disclosed (against one-domain, every module with the core's row): the
 *     same attempts succeed, READ returns the bytes LOCATE saw (the CENC key
 *     byte for byte, the RTM entry, a non-zero instance key) and WRITE
 *     changes them, as the core sees them.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "ara/ara.h"
#include "ara/boot.h"
#include "ara/counter.h"
#include "ara/hex.h"
#include "ara/rtm.h"
#include "check.h"
#include "probe.h"
#include "self_provision.h"
#include "self_run.h"

/* The secrets the child gives the modules, known to the parent too. */
static const uint8_t rts_key[16] = "domains-rts-key!";
static const uint8_t rts_key_id[16] = "domains-rts-kid";
static const uint64_t rtm_entry = ara_rtm_entry(ARA_RTM_ICALL, 0x7e57d0a1c0deu);
static const uint64_t counter_delta = 0x5ec0de;
static const uint64_t written = 0x21212165626f7270u; /* "probe!!!": what WRITE stores */

static const char *const names[PROBE_TARGETS] = {
	[PROBE_RTS] = "rts",
	[PROBE_RTM] = "rtm",
	[PROBE_PROVISION] = "provision",
	[PROBE_CORE] = "core",
	[PROBE_COUNTER] = "counter",
	[PROBE_OWN] = "own",
};

/* The domain each target lies in (each services/NAME/dom0.cmake); NULL: the probe's own. */
static const char *const lies_in[PROBE_TARGETS] = {
	[PROBE_RTS] = "rts",
	[PROBE_RTM] = "rtm",
	[PROBE_PROVISION] = "provision",
	[PROBE_CORE] = "core",
	[PROBE_COUNTER] = "extra",
	[PROBE_OWN] = NULL,
};

static const char *probe_domain = "extra"; /* contained's argument: where the variant builds the probe */

/* Another domain's memory than the probe's: the probe must fault on it. */
static int foreign(enum probe_target t)
{
	return lies_in[t] && strcmp(lies_in[t], probe_domain) != 0;
}

/* ---- The child: one attempt ------------------------------------------- */

/* The secrets, in the modules of this process. 0, or 1 (printed). */
static int give_secrets(void)
{
	uint64_t value = 0;
	uint32_t session;
	int st;

	if ((st = ara_test_cenc_session(rts_key_id, rts_key, &session)) != ARA_OK) {
		printf("FAIL: a CENC session: %s (%d)\n", ara_strerror(st), st);
		return 1;
	}
	if ((st = ara_rtm_append(rtm_entry)) != ARA_OK) {
		printf("FAIL: RTM_LOG: %s\n", ara_strerror(st));
		return 1;
	}
	st = ara_counter_increment(0, counter_delta, &value, NULL);
	if (st != ARA_OK || value != counter_delta) {
		printf("FAIL: COUNTER_INCREMENT: %s, value %llu\n", ara_strerror(st),
		       (unsigned long long)value);
		return 1;
	}
	return 0;
}

static int all_zero(const uint8_t *p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* READ of the whole region: the bytes LOCATE saw, and the secret among them. */
static void read_target(enum probe_target t, const struct probe_locate_arg *loc)
{
	struct probe_read_arg r = { .addr = loc->addr, .len = loc->len };
	char hex[2 * PROBE_READ_MAX + 1];
	const int st = secure_call(PROBE_FID_READ, &r);

	check(st == ARA_OK, "%s: READ: %s", names[t], ara_strerror(st));
	if (st != ARA_OK)
		return;
	ara_hex_encode(r.out, r.len, hex);
	printf("probe: read %s: %s\n", names[t], hex); /* the only line that shows what READ got */
	check(probe_digest(r.out, r.len) == loc->digest,
	      "%s: READ returned other bytes than the core sees there", names[t]);
	if (t == PROBE_RTS)
		check(memmem(r.out, r.len, rts_key, sizeof(rts_key)) != NULL,
		      "rts: the content key is not in its session's key schedule");
	else if (t == PROBE_RTM)
		check(memmem(r.out, r.len, &rtm_entry, sizeof(rtm_entry)) != NULL,
		      "rtm: the App's entry is not in the log");
	else if (t == PROBE_PROVISION)
		check(!all_zero(r.out, r.len), "provision: the instance key read as zeros");
	else if (t == PROBE_COUNTER)
		check(memcmp(r.out, &counter_delta, sizeof(counter_delta)) == 0,
		      "counter: counter 0 does not hold its value");
}

/* WRITE of one word: the core then sees other bytes, and READ the value written. */
static void write_target(enum probe_target t, const struct probe_locate_arg *loc)
{
	struct probe_write_arg w = { .addr = loc->write_at, .value = written };
	struct probe_locate_arg after = { .which = t };
	struct probe_read_arg back = { .addr = loc->write_at, .len = sizeof(written) };
	uint64_t value = 0;
	int st = secure_call(PROBE_FID_WRITE, &w);

	check(st == ARA_OK, "%s: WRITE: %s", names[t], ara_strerror(st));
	if (st != ARA_OK)
		return;
	printf("probe: wrote %s: 8 bytes at 0x%llx\n", names[t], (unsigned long long)w.addr);
	st = secure_call(PROBE_FID_LOCATE, &after);
	check(st == ARA_OK && after.digest != loc->digest,
	      "%s: LOCATE after the WRITE: %s, the bytes %s", names[t], ara_strerror(st),
	      after.digest != loc->digest ? "changed" : "unchanged");
	st = secure_call(PROBE_FID_READ, &back);
	check(st == ARA_OK && memcmp(back.out, &written, sizeof(written)) == 0,
	      "%s: READ after the WRITE: %s, not the value written", names[t], ara_strerror(st));
	if (t == PROBE_COUNTER) { /* its own service sees the write: a value it never issued */
		st = ara_counter_read(0, &value, NULL);
		check(st == ARA_OK && value == written, "counter: COUNTER_READ: %s, %llu",
		      ara_strerror(st), (unsigned long long)value);
	}
}

static int child(const char *target, const char *op)
{
	struct probe_locate_arg loc = { 0 };
	int st;

	for (loc.which = 0; loc.which < PROBE_TARGETS; loc.which++)
		if (strcmp(names[loc.which], target) == 0)
			break;
	if (loc.which == PROBE_TARGETS || (strcmp(op, "read") != 0 && strcmp(op, "write") != 0)) {
		printf("FAIL: no target %s or operation %s\n", target, op);
		return 2;
	}
	if (give_secrets())
		return 1;
	if ((st = secure_call(PROBE_FID_LOCATE, &loc)) != ARA_OK) {
		printf("FAIL: LOCATE %s: %s\n", target, ara_strerror(st));
		return 1;
	}
	printf("probe: %s located: %u bytes at 0x%llx\n", target, loc.len,
	       (unsigned long long)loc.addr);
	if (strcmp(op, "read") == 0)
		read_target(loc.which, &loc);
	else
		write_target(loc.which, &loc);
	return check_failures() ? 1 : 0;
}

/* ---- The parent: each attempt in a child, judged ----------------------- */

static int has_str(const struct self_run *r, const char *s)
{
	return self_run_has(r, s, strlen(s));
}

/*
 * ARA's line for a service's fault names the modules of the domain that
 * faulted ("ara: service counter, probe (domain extra) faulted: ..."):
 * probe must be one of them, as a whole name (not probe-locate, LOCATE's
 * module, in the core's domain).
 */
static int fault_names_probe(const struct self_run *r)
{
	static const char line[] = "ara: service ";
	const char *end = r->out + r->len;

	for (const char *at = memmem(r->out, r->len, line, sizeof(line) - 1); at;
	     at = memmem(at + 1, (size_t)(end - at - 1), line, sizeof(line) - 1)) {
		const char *eol = memchr(at, '\n', (size_t)(end - at));
		const char *p = at + sizeof(line) - 1;

		if (!eol)
			eol = end;
		for (; p + 5 <= eol; p++)
			if (memcmp(p, "probe", 5) == 0 && (p[-1] == ' ' || p[-1] == ',') &&
			    (p + 5 == eol || p[5] == ',' || p[5] == ' '))
				return 1;
	}
	return 0;
}

/* The bytes, as they are or in hex (the child prints what it read in hex). */
static int has_bytes(const struct self_run *r, const void *bytes, size_t n)
{
	char hex[2 * PROBE_READ_MAX + 1];

	ara_hex_encode(bytes, n, hex);
	return self_run_has(r, bytes, n) || has_str(r, hex);
}

/*
 * Something of the target's secret in the output: the CENC key or the RTM
 * entry the parent knows, or for the others, what READ returned at all.
 */
static int secret_shown(const struct self_run *r, enum probe_target t)
{
	if (t == PROBE_RTS)
		return has_bytes(r, rts_key, sizeof(rts_key));
	if (t == PROBE_RTM)
		return has_bytes(r, &rtm_entry, sizeof(rtm_entry));
	return has_str(r, "probe: read ");
}

/* Runs `self case TARGET OP` with its output into r; 0, or -1 (printed). */
static int run_child(const char *self, enum probe_target t, const char *op, struct self_run *r)
{
	const char *const args[] = { "case", names[t], op, NULL };

	return self_run(self, args, r);
}

static void show(const struct self_run *r, enum probe_target t, const char *op)
{
	const char *line = r->out, *end = r->out + r->len;

	printf("-- %s %s: wait status 0x%x\n", names[t], op, r->status);
	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);

		printf("   | %.*s\n", (int)n, line);
		line += n + 1;
	}
}

static void judge(int disclosed, enum probe_target t, const char *op, const struct self_run *r)
{
	const char *what = names[t];
	const int exited = WIFEXITED(r->status), code = WEXITSTATUS(r->status);
	const int done = has_str(r, strcmp(op, "read") == 0 ? "probe: read " : "probe: wrote ");

	check(has_str(r, "located: "), "%s %s: the child did not get as far as the probe", what, op);
	if (disclosed || !foreign(t)) {
		check(exited && code == 0,
		      "%s %s: wait status 0x%x, not exit 0: the probe did not reach it", what, op,
		      r->status);
		if (disclosed && foreign(t) && strcmp(op, "read") == 0)
			check(secret_shown(r, t), "%s read: the secret is not in the child's output",
			      what);
		if (exited && code == 0)
			printf("%s: %s %s: the probe reached it\n",
			       disclosed && foreign(t) ? "DISCLOSED" : "reached", what, op);
		return;
	}
	check(exited && code == ARA_EXIT_SERVICE_FAULT,
	      "%s %s: wait status 0x%x, not exit %d (ARA_EXIT_SERVICE_FAULT)", what, op, r->status,
	      ARA_EXIT_SERVICE_FAULT);
	check(fault_names_probe(r), "%s %s: no fault line of ARA's names the service probe", what,
	      op);
	check(!done, "%s %s: the probe's %s returned", what, op, op);
	check(!secret_shown(r, t), "%s %s: the secret is in the child's output", what, op);
	if (exited && code == ARA_EXIT_SERVICE_FAULT && !done && !secret_shown(r, t))
		printf("contained: %s %s: the probe faulted (exit %d); nothing of it in the output\n",
		       what, op, code);
}

static int parent(const char *self, int disclosed)
{
	static const char *const ops[] = { "read", "write" };
	static struct self_run r;

	for (enum probe_target t = 0; t < PROBE_TARGETS; t++)
		for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
			if (run_child(self, t, ops[i], &r) != 0)
				return 1;
			show(&r, t, ops[i]);
			judge(disclosed, t, ops[i], &r);
		}
	return check_report("attack-domains");
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0); /* a fault ends the process: nothing left in a buffer */
	if (argc == 4 && strcmp(argv[1], "case") == 0)
		return child(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "contained") == 0 &&
	    (strcmp(argv[2], "extra") == 0 || strcmp(argv[2], "rts") == 0 ||
	     strcmp(argv[2], "provision") == 0 || strcmp(argv[2], "rtm") == 0)) {
		probe_domain = argv[2];
		return parent(argv[0], 0);
	}
	if (argc == 2 && strcmp(argv[1], "disclosed") == 0)
		return parent(argv[0], 1);
	fprintf(stderr, "usage: %s contained extra|rts|provision|rtm, or disclosed\n", argv[0]);
	return 2;
}
