#!/bin/sh
# Makes rts_study's cenc media on the build machine with Debian's ffmpeg (as
# tests/cenc/make_clip.sh makes the CENC test clip): a clear fragmented MP4
# with 1-second fragments, as DASH serves them, of 10 s of H.264 video
# (640x360, 25 fps, a key frame each second, 1.5 Mbit/s with a 400 kbit VBV
# buffer, so that no frame is over 64 KiB) and AAC audio (48 kHz, 128
# kbit/s). One encoder thread: the same bytes on every machine. rts_study
# encrypts its samples at start (rts_cenc.c says why there and not here).
#
# Usage: make_rts_media.sh FFMPEG OUT_FILE
set -eu
ffmpeg=$1 out=$2
tmp="$out.tmp.mp4"
trap 'rm -f "$tmp"' EXIT
"$ffmpeg" -nostdin -hide_banner -loglevel error -y \
	-f lavfi -i testsrc2=size=640x360:rate=25:duration=10 \
	-f lavfi -i sine=frequency=440:sample_rate=48000:duration=10 \
	-c:v libx264 -threads 1 -preset veryfast -g 25 -keyint_min 25 -sc_threshold 0 \
	-b:v 1500k -maxrate 1500k -bufsize 400k -pix_fmt yuv420p -c:a aac -b:a 128k \
	-movflags +frag_keyframe+empty_moov+default_base_moof "$tmp"
mv "$tmp" "$out"
