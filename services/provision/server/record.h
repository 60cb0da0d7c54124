/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The service's log: one JSON object a line (docs/provisioning.md, "The
 * log"). A session's record (decide.h) and the service's own events
 * (listening, reload, a limit, stopping) share the fields time and event.
 */
#ifndef ARA_PROVISION_RECORD_H
#define ARA_PROVISION_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "decide.h"

/* Room for a record with every field at its largest, escaped (a byte: 6). */
#define ARA_RECORD_LINE_MAX 4096

/* The session's record as a JSON line, newline included, NUL-terminated. */
void ara_record_json(const struct ara_log_record *r, char *out, size_t cap);

/*
 * A service event as a JSON line: {"time","event"[,"peer"],"detail"}; peer
 * may be NULL.
 */
void ara_event_json(uint64_t time_ms, const char *event, const char *peer, const char *detail,
		    char *out, size_t cap);

#endif
