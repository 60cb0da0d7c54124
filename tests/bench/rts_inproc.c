/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rts_study's two in-process configurations:
 *   none  the App decrypts each chunk itself (rts_decryptor: no isolation,
 *         the baseline);
 *   ara   ARA's RTS does, in DOM0, with a key the App never holds:
 *         RTS_STREAM_OPEN with the stream's header, RTS_STREAM_CHUNK for
 *         each chunk (copied into DOM0, opened, copied out), RTS_STREAM_CLOSE,
 *         which must say the stream ended with its last chunk.
 * ara's key is provisioned once, by the App to its own ARA instance
 * (tests/rts/self_provision.h): run the study with ARA_EVIDENCE=dev-insecure.
 * Both decrypt into one 64 KiB buffer, reused chunk after chunk.
 */
#include <string.h>

#include "ara/ara.h"
#include "ara/rts.h"
#include "rts_study.h"
#include "self_provision.h"

static uint8_t clear[RTS_CHUNK];

static struct rts_decryptor none_d;

static int none_start(const struct rts_stream *s)
{
	return rts_decryptor_init(&none_d, "none", s->header);
}

static int none_run(const struct rts_stream *s)
{
	for (uint32_t i = 0; i < s->chunks; i++) {
		size_t len = rts_chunk_len(s, i);

		if (rts_decryptor_open(&none_d, "none", i, rts_chunk_final(s, i), rts_chunk_sealed(s, i),
				       len + ARA_RTS_TAG_BYTES, clear) ||
		    rts_chunk_check(s, "none", i, clear, len))
			return -1;
	}
	return 0;
}

static int none_stop(int ok, long *csw)
{
	(void)ok;
	(void)csw;
	rts_decryptor_free(&none_d);
	return 0;
}

const struct rts_config rts_config_none = {
	.name = "none",
	.start = none_start,
	.run = none_run,
	.stop = none_stop,
};

static uint32_t ara_stream;

static int ara_failed(const char *what, int st)
{
	fprintf(stderr, "rts_study: ara: %s: %s (%d)%s\n", what, ara_strerror(st), st,
		st == ARA_E_NO_EVIDENCE ? ": run with ARA_EVIDENCE=dev-insecure" : "");
	return -1;
}

static int ara_setup(void)
{
	char name[ARA_RTS_KEY_NAME_BYTES + 1] = { 0 };
	int st;

	ara_rts_key_name(rts_key_id, name);
	st = ara_test_self_provision(name, rts_key, sizeof(rts_key));
	return st == ARA_OK ? 0 : ara_failed("provisioning the key", st);
}

static int ara_start(const struct rts_stream *s)
{
	struct ara_rts_open_arg o = { .header = (uintptr_t)s->header, .header_len = sizeof(s->header) };
	int st = secure_call(ARA_FID_RTS_STREAM_OPEN, &o);

	ara_stream = o.stream;
	return st == ARA_OK ? 0 : ara_failed("RTS_STREAM_OPEN", st);
}

static int ara_run(const struct rts_stream *s)
{
	for (uint32_t i = 0; i < s->chunks; i++) {
		size_t len = rts_chunk_len(s, i);
		struct ara_rts_chunk_arg c = {
			.in = (uintptr_t)rts_chunk_sealed(s, i),
			.out = (uintptr_t)clear,
			.in_len = (uint32_t)(len + ARA_RTS_TAG_BYTES),
			.out_cap = sizeof(clear),
			.stream = ara_stream,
			.final = (uint32_t)rts_chunk_final(s, i),
		};
		int st = secure_call(ARA_FID_RTS_STREAM_CHUNK, &c);

		if (st != ARA_OK)
			return ara_failed("RTS_STREAM_CHUNK", st);
		if (rts_chunk_check(s, "ara", i, clear, c.out_len))
			return -1;
	}
	return 0;
}

/* CLOSE frees the stream whatever it says; only a run that succeeded must hear ARA_OK. */
static int ara_stop(int ok, long *csw)
{
	struct ara_rts_close_arg c = { .stream = ara_stream };
	int st = secure_call(ARA_FID_RTS_STREAM_CLOSE, &c);

	(void)csw;
	return !ok || st == ARA_OK ? 0 : ara_failed("RTS_STREAM_CLOSE", st);
}

const struct rts_config rts_config_ara = {
	.name = "ara",
	.setup = ara_setup,
	.start = ara_start,
	.run = ara_run,
	.stop = ara_stop,
};
