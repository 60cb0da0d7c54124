/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rts_study's two in-process configurations:
 *   none  the App decrypts each unit itself (rts_decryptor: no isolation,
 *         the baseline);
 *   ara   ARA's RTS does, in DOM0, with a key the App never holds.
 *         gcm: RTS_STREAM_OPEN with the stream's header, RTS_STREAM_CHUNK
 *         for each chunk (copied into DOM0, opened, copied out),
 *         RTS_STREAM_CLOSE, which must say the stream ended with its last
 *         chunk. cenc: RTS_CENC_OPEN with the key ID, RTS_CENC_DECRYPT for
 *         each sample with its IV and subsample map (both copied into DOM0
 *         with it), RTS_CENC_CLOSE.
 * ara's keys are provisioned once, by the App to its own ARA instance
 * (tests/rts/self_provision.h): run the study with ARA_EVIDENCE=dev-insecure.
 * Both decrypt into one 64 KiB buffer, reused unit after unit.
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
	return rts_decryptor_init(&none_d, "none", s);
}

static int none_run(const struct rts_stream *s)
{
	for (uint32_t i = 0; i < s->chunks; i++) {
		size_t in_len, len;
		const uint8_t *in = rts_unit(s, i, &in_len);

		if (rts_decryptor_open(&none_d, "none", i, rts_chunk_final(s, i), in, in_len, clear,
				       &len) ||
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

static uint32_t ara_stream; /* gcm's stream, or cenc's session */
static enum rts_workload ara_workload;

static int ara_failed(const char *what, int st)
{
	fprintf(stderr, "rts_study: ara: %s: %s (%d)%s\n", what, ara_strerror(st), st,
		st == ARA_E_NO_EVIDENCE ? ": run with ARA_EVIDENCE=dev-insecure" : "");
	return -1;
}

/* gcm's key under its "kid-" name, cenc's under its "cenc-" name (cenc_sample.h says why two). */
static int ara_setup(void)
{
	char name[ARA_RTS_KEY_NAME_BYTES + 1] = { 0 }, cenc[ARA_CENC_KEY_NAME_BYTES + 1] = { 0 };
	int st;

	ara_rts_key_name(rts_key_id, name);
	ara_cenc_key_name(rts_cenc_key_id, cenc);
	st = ara_test_self_provision(name, rts_key, sizeof(rts_key));
	if (st == ARA_OK)
		st = ara_test_self_provision(cenc, rts_cenc_key_held("ara"), sizeof(rts_cenc_key));
	return st == ARA_OK ? 0 : ara_failed("provisioning the keys", st);
}

static int ara_start(const struct rts_stream *s)
{
	struct ara_rts_open_arg o = { .header = (uintptr_t)s->header, .header_len = sizeof(s->header) };
	struct ara_rts_cenc_open_arg co = { .session = 0 };
	int st;

	ara_workload = s->workload;
	if (s->workload == RTS_CENC) {
		memcpy(co.key_id, rts_cenc_key_id, sizeof(co.key_id));
		st = secure_call(ARA_FID_RTS_CENC_OPEN, &co);
		ara_stream = co.session;
		return st == ARA_OK ? 0 : ara_failed("RTS_CENC_OPEN", st);
	}
	st = secure_call(ARA_FID_RTS_STREAM_OPEN, &o);
	ara_stream = o.stream;
	return st == ARA_OK ? 0 : ara_failed("RTS_STREAM_OPEN", st);
}

static int ara_run_cenc(const struct rts_stream *s)
{
	for (uint32_t i = 0; i < s->chunks; i++) {
		size_t in_len;
		const uint8_t *in = rts_unit(s, i, &in_len);
		struct rts_cenc_record r;
		struct ara_rts_cenc_decrypt_arg d = { .out = (uintptr_t)clear, .out_cap = sizeof(clear),
						      .session = ara_stream };
		int st;

		if (rts_cenc_record(in, in_len, &r)) {
			fprintf(stderr, "rts_study: ara: sample %u has no record\n", i);
			return -1;
		}
		d.in = (uintptr_t)r.sample;
		d.in_len = r.len;
		d.subsamples = (uintptr_t)r.map;
		d.subsample_count = r.count;
		d.iv_len = r.iv_len;
		memcpy(d.iv, r.iv, sizeof(d.iv));
		st = secure_call(ARA_FID_RTS_CENC_DECRYPT, &d);
		if (st != ARA_OK)
			return ara_failed("RTS_CENC_DECRYPT", st);
		if (rts_chunk_check(s, "ara", i, clear, d.out_len))
			return -1;
	}
	return 0;
}

static int ara_run(const struct rts_stream *s)
{
	if (s->workload == RTS_CENC)
		return ara_run_cenc(s);
	for (uint32_t i = 0; i < s->chunks; i++) {
		size_t in_len;
		const uint8_t *in = rts_unit(s, i, &in_len);
		struct ara_rts_chunk_arg c = {
			.in = (uintptr_t)in,
			.out = (uintptr_t)clear,
			.in_len = (uint32_t)in_len,
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
	struct ara_rts_cenc_close_arg cc = { .session = ara_stream };
	int st = ara_workload == RTS_CENC ? secure_call(ARA_FID_RTS_CENC_CLOSE, &cc)
					  : secure_call(ARA_FID_RTS_STREAM_CLOSE, &c);

	(void)csw;
	return !ok || st == ARA_OK ? 0 : ara_failed(ara_workload == RTS_CENC ? "RTS_CENC_CLOSE" : "RTS_STREAM_CLOSE", st);
}

const struct rts_config rts_config_ara = {
	.name = "ara",
	.setup = ara_setup,
	.start = ara_start,
	.run = ara_run,
	.stop = ara_stop,
};
