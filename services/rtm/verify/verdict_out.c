/* SPDX-License-Identifier: Apache-2.0 */
/* ara-verify's verdict on stdout (verdict_out.h). */
#include "verdict_out.h"

#include <inttypes.h>
#include <string.h>

#include "ara_cli.h"

#define REJECTED_PREFIX "REJECTED: "

static void print_json(FILE *f, int ok, const char *msg, const struct ara_rtm_verify_figures *fig)
{
	fprintf(f, "{\"verdict\":\"%s\",\"reason\":", ok ? "ok" : "rejected");
	if (ok) {
		fprintf(f,
			"null,\"entries\":%" PRIu64 ",\"segments\":%" PRIu64
			",\"pending\":%" PRIu32 ",\"checkpoints\":%zu,\"final\":%s}\n",
			fig->entries, fig->segments, fig->pending, fig->checkpoints,
			fig->final ? "true" : "false");
		return;
	}
	if (strncmp(msg, REJECTED_PREFIX, strlen(REJECTED_PREFIX)) == 0)
		msg += strlen(REJECTED_PREFIX);
	ara_json_string(f, msg);
	fputs(",\"entries\":null,\"segments\":null,\"pending\":null,\"checkpoints\":null,"
	      "\"final\":null}\n",
	      f);
}

int ara_verdict_print(FILE *f, int json, int ok, const char *msg,
		      const struct ara_rtm_verify_figures *fig)
{
	if (json)
		print_json(f, ok, msg, fig);
	else
		fprintf(f, "ara-verify: %s\n", msg);
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
