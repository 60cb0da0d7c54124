/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CENC interoperability App (docs/rts.md, "Common Encryption"): under
 * ara-loader, it demuxes a CENC-encrypted MP4 with FFmpeg's libavformat,
 * which, given no decryption key, leaves every sample encrypted and
 * attaches its IV and subsample map (AVEncryptionInfo). It fetches the
 * content key by attested provisioning under the name its key ID gives
 * ("cenc-<hex>"), and hands each sample to ARA (RTS_CENC_DECRYPT). The App
 * never holds the key.
 *
 *   cenc_app SOCK IN OUT [MODE]
 *
 * Writes each stream's samples back to back, in demuxing order: the clear
 * ones ARA returned to OUT.video and OUT.audio, the encrypted ones it handed
 * over to OUT.video.enc and OUT.audio.enc (the layout of `ffmpeg -c copy
 * -f data`). MODE:
 *   tamper-map  the first subsampled sample goes with a map one byte too
 *               long: ARA must refuse it and write nothing
 *   wrong-kid   the session is asked for a key ID one bit off: ARA must
 *               find no key
 *   stream-key  the key is fetched as a chunk stream's ("kid-<hex>"): ARA
 *               must find no 'cenc' key, for DECRYPT would be an encryption
 *               oracle under a chunk stream's key
 * Prints "cenc-app: ..." lines and "BREACH ..." if ARA returned what it
 * must not; exit 0 unless something failed to run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <libavformat/avformat.h>
#include <libavutil/encryption_info.h>

#include "ara/provision.h"
#include "ara/rts.h"
#include "ara/provision_client.h"

#define CENC_SCHEME 0x63656e63u /* 'cenc' */
#define MARK 0xa5

enum mode { NORMAL, TAMPER_MAP, WRONG_KID, STREAM_KEY };

__attribute__((noreturn)) static void die(const char *what)
{
	fprintf(stderr, "cenc-app: %s: %s\n", what, strerror(errno));
	exit(1);
}

/*
 * The secret named prefix and key_id in hex ("cenc-": a 'cenc' key), by
 * attested provisioning over the Unix socket sock.
 */
static int fetch_key(const char *sock, const char *prefix, const uint8_t key_id[16])
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct ara_provision_refusal why;
	char name[8 + 32 + 1];
	size_t n = strlen(prefix);
	uint32_t handle;
	int fd = -1, st;

	if (n > 8)
		return ARA_E_INVAL;
	memcpy(name, prefix, n);
	for (int i = 0; i < 16; i++)
		snprintf(name + n + 2 * i, 3, "%02x", key_id[i]);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	/* The provisioner may still be starting: retry for 20 s. */
	for (int tries = 0; tries < 200; tries++, usleep(100000)) {
		if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
			die("socket");
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			break;
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		die("connect");
	st = ara_provision_fetch(fd, name, &handle, &why);
	close(fd);
	if (st == ARA_E_REFUSED)
		printf("cenc-app: provisioning refused %u (%s)\n", why.code, why.text);
	else
		printf("cenc-app: provisioning '%s': %s\n", name, ara_strerror(st));
	return st;
}

struct outputs {
	FILE *clear[2], *enc[2]; /* [0] video, [1] audio */
};

static FILE *open_out(const char *prefix, const char *suffix)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s.%s", prefix, suffix);
	if (!(f = fopen(path, "wb")))
		die(path);
	return f;
}

static void put(FILE *f, const uint8_t *p, size_t n)
{
	if (n && fwrite(p, 1, n, f) != n)
		die("write");
}

/*
 * The tamper case: the first protected range one byte longer, so the map
 * no longer adds up to the sample. ARA must refuse with nothing written.
 * 0 if it did; 1 (and BREACH) if not.
 */
static int tamper(struct ara_rts_cenc_decrypt_arg *a, struct ara_cenc_subsample *map,
		  uint8_t *out)
{
	int st;

	map[0].protected_bytes++;
	memset(out, MARK, a->out_cap);
	a->out_len = 0;
	st = secure_call(ARA_FID_RTS_CENC_DECRYPT, a);
	printf("cenc-app: a subsample map one byte too long: %s\n", ara_strerror(st));
	for (uint32_t i = 0; i < a->out_cap; i++)
		if (out[i] != MARK) {
			printf("BREACH: ARA wrote into the output for a refused sample\n");
			return 1;
		}
	if (st == ARA_OK || a->out_len != 0) {
		printf("BREACH: ARA decrypted a sample whose map does not match it\n");
		return 1;
	}
	printf("cenc-app: refused, nothing written\n");
	return 0;
}

int main(int argc, char **argv)
{
	enum mode mode = NORMAL;
	AVFormatContext *fmt = NULL;
	AVPacket *pkt = av_packet_alloc();
	struct ara_rts_cenc_open_arg open_arg = { 0 };
	struct ara_rts_cenc_close_arg close_arg = { 0 };
	struct ara_cenc_subsample map[ARA_RTS_CENC_SUBSAMPLES_MAX];
	static uint8_t out[ARA_RTS_CENC_SAMPLE_MAX];
	unsigned long samples[2] = { 0 }, subsampled = 0, whole = 0;
	struct outputs o;
	int st, opened = 0;

	if (argc == 5 && strcmp(argv[4], "tamper-map") == 0)
		mode = TAMPER_MAP;
	else if (argc == 5 && strcmp(argv[4], "wrong-kid") == 0)
		mode = WRONG_KID;
	else if (argc == 5 && strcmp(argv[4], "stream-key") == 0)
		mode = STREAM_KEY;
	else if (argc != 4)
		return fprintf(stderr, "usage: cenc_app SOCK IN OUT [tamper-map|wrong-kid|stream-key]\n"), 2;
	if (!pkt || avformat_open_input(&fmt, argv[2], NULL, NULL) < 0)
		return fprintf(stderr, "cenc-app: libavformat cannot open %s\n", argv[2]), 1;
	printf("cenc-app: %s: %u streams, %.3f s\n", argv[2], fmt->nb_streams,
	       (double)fmt->duration / AV_TIME_BASE);
	o.clear[0] = open_out(argv[3], "video");
	o.clear[1] = open_out(argv[3], "audio");
	o.enc[0] = open_out(argv[3], "video.enc");
	o.enc[1] = open_out(argv[3], "audio.enc");

	while (av_read_frame(fmt, pkt) >= 0) {
		enum AVMediaType type = fmt->streams[pkt->stream_index]->codecpar->codec_type;
		int k = type == AVMEDIA_TYPE_VIDEO ? 0 : type == AVMEDIA_TYPE_AUDIO ? 1 : -1;
		size_t sd_size;
		const uint8_t *sd = av_packet_get_side_data(pkt, AV_PKT_DATA_ENCRYPTION_INFO, &sd_size);
		AVEncryptionInfo *info = sd ? av_encryption_info_get_side_data(sd, sd_size) : NULL;
		struct ara_rts_cenc_decrypt_arg a = { 0 };

		if (k < 0) {
			av_packet_unref(pkt);
			continue;
		}
		/* Every sample of this clip is encrypted: a clear one is a demuxing failure. */
		if (!info || info->scheme != CENC_SCHEME || info->crypt_byte_block ||
		    info->skip_byte_block || info->key_id_size != 16 || info->iv_size > 16 ||
		    info->subsample_count > ARA_RTS_CENC_SUBSAMPLES_MAX)
			return fprintf(stderr, "cenc-app: sample %lu of stream %d is not a 'cenc' sample\n",
				       samples[k], pkt->stream_index), 1;
		if (!opened) {
			memcpy(open_arg.key_id, info->key_id, 16);
			if (fetch_key(argv[1], mode == STREAM_KEY ? "kid-" : "cenc-",
				      open_arg.key_id) != ARA_OK)
				return 0;
			if (mode == WRONG_KID)
				open_arg.key_id[15] ^= 1;
			st = secure_call(ARA_FID_RTS_CENC_OPEN, &open_arg);
			printf("cenc-app: cenc open: %s\n", ara_strerror(st));
			if (st != ARA_OK)
				return 0;
			if (mode == WRONG_KID)
				return printf("BREACH: a session opened for a key ID with no key\n"), 1;
			if (mode == STREAM_KEY)
				return printf("BREACH: a chunk stream's key opened a 'cenc' session\n"), 1;
			opened = 1;
		}
		if (memcmp(info->key_id, open_arg.key_id, 16) != 0)
			return fprintf(stderr, "cenc-app: a second key ID in one clip\n"), 1;
		for (uint32_t i = 0; i < info->subsample_count; i++)
			map[i] = (struct ara_cenc_subsample){ info->subsamples[i].bytes_of_clear_data,
							      info->subsamples[i].bytes_of_protected_data };
		a = (struct ara_rts_cenc_decrypt_arg){
			.in = (uintptr_t)pkt->data, .out = (uintptr_t)out, .subsamples = (uintptr_t)map,
			.in_len = (uint32_t)pkt->size, .out_cap = sizeof(out),
			.subsample_count = info->subsample_count, .iv_len = info->iv_size,
			.session = open_arg.session,
		};
		memcpy(a.iv, info->iv, info->iv_size);
		if (mode == TAMPER_MAP && info->subsample_count)
			return tamper(&a, map, out);
		st = secure_call(ARA_FID_RTS_CENC_DECRYPT, &a);
		if (st != ARA_OK)
			return printf("cenc-app: sample %lu of the %s refused: %s\n", samples[k],
				      k ? "audio" : "video", ara_strerror(st)),
			       0;
		put(o.enc[k], pkt->data, (size_t)pkt->size);
		put(o.clear[k], out, a.out_len);
		samples[k]++;
		info->subsample_count ? subsampled++ : whole++;
		av_encryption_info_free(info);
		av_packet_unref(pkt);
	}
	close_arg.session = open_arg.session;
	st = opened ? secure_call(ARA_FID_RTS_CENC_CLOSE, &close_arg) : ARA_E_NOENT;
	printf("cenc-app: decrypted %lu video and %lu audio samples (%lu with a subsample map, %lu whole); close: %s\n",
	       samples[0], samples[1], subsampled, whole, ara_strerror(st));
	for (int k = 0; k < 2; k++)
		if (fclose(o.clear[k]) || fclose(o.enc[k]))
			die("close");
	av_packet_free(&pkt);
	avformat_close_input(&fmt);
	return 0;
}
