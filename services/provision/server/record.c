/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JSON lines of the log (record.h). Every string is escaped whole
 * (ara_json_escape): the reasons quote what a peer sent (file names from an
 * IMA log), and a line stays one valid object whatever that was.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ara/hex.h"
#include "ara_cli.h"
#include "check.h"
#include "record.h"

struct out {
	char *p;
	size_t cap, len; /* len may pass cap: the line is cut then, never overrun */
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->p + (o->len < o->cap ? o->len : o->cap),
		      o->len < o->cap ? o->cap - o->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

/* ,"name":"s", s escaped as ara_json_escape() escapes it */
static void put_string(struct out *o, const char *name, const char *s)
{
	put(o, ",\"%s\":", name);
	o->len += ara_json_escape(o->p + (o->len < o->cap ? o->len : o->cap),
				  o->len < o->cap ? o->cap - o->len : 0, s);
}

static void put_hex(struct out *o, const char *name, const uint8_t *b, size_t n)
{
	char s[3];

	put(o, ",\"%s\":\"", name);
	for (size_t i = 0; i < n; i++) {
		ara_hex_encode(b + i, 1, s);
		put(o, "%s", s);
	}
	put(o, "\"");
}

/* {"time":"2026-12-03T13:05:01.123Z","event":"EVENT" */
static void put_start(struct out *o, uint64_t time_ms, const char *event)
{
	time_t t = (time_t)(time_ms / 1000);
	struct tm tm;
	char when[32];

	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	put(o, "{\"time\":\"%s.%03uZ\",\"event\":\"%s\"", when, (unsigned)(time_ms % 1000), event);
}

/*
 * A record cut at the buffer's end still ends its line, so a reader that
 * takes the log line by line loses that record's tail, never the next one.
 */
static void put_end(struct out *o)
{
	put(o, "}\n");
	if (o->len >= o->cap && o->cap >= 2)
		memcpy(o->p + o->cap - 2, "\n", 2);
}

static const char *decision_name(enum ara_decision_kind d)
{
	switch (d) {
	case ARA_DECISION_DELIVERED: return "delivered";
	case ARA_DECISION_UNSENT: return "unsent";
	case ARA_DECISION_VERIFIED: return "rtm-verified";
	case ARA_DECISION_REJECTED: return "rtm-rejected";
	default: return "refused";
	}
}

void ara_record_json(const struct ara_log_record *r, char *buf, size_t cap)
{
	struct out o = { buf, cap, 0 };

	put_start(&o, r->time_ms, "session");
	put(&o, ",\"session\":%lu", r->session);
	put_string(&o, "peer", r->peer);
	put(&o, ",\"decision\":\"%s\"", decision_name(r->decision));
	if (r->decision == ARA_DECISION_REFUSED) {
		put(&o, ",\"reason\":\"%s\"", ara_refusal_name(r->code));
		put_string(&o, "detail", r->reason);
	}
	if (r->decision == ARA_DECISION_VERIFIED || r->decision == ARA_DECISION_REJECTED) {
		/* An RTM report's verdict: its line, what it covers, its digest. */
		put_string(&o, "detail", r->reason);
		put(&o, ",\"entries\":%llu,\"final\":%s", (unsigned long long)r->rtm_entries,
		    r->rtm_final ? "true" : "false");
		put_hex(&o, "report", r->report_sha256, sizeof(r->report_sha256));
		if (r->revoke)
			put(&o, ",\"revoked\":true");
	} else {
		if (r->secret[0])
			put_string(&o, "secret", r->secret);
		if (r->decision != ARA_DECISION_REFUSED)
			put(&o, ",\"bytes\":%zu", r->secret_len);
	}
	if (r->attested) {
		put_hex(&o, "instance", r->instance, sizeof(r->instance));
		put_hex(&o, "app", r->app, sizeof(r->app));
	}
	put_end(&o);
}

void ara_event_json(uint64_t time_ms, const char *event, const char *peer, const char *detail,
		    char *buf, size_t cap)
{
	struct out o = { buf, cap, 0 };

	put_start(&o, time_ms, event);
	if (peer)
		put_string(&o, "peer", peer);
	put_string(&o, "detail", detail);
	put_end(&o);
}
