#!/bin/sh
# Makes the CENC interoperability clip on the build machine, with Debian's
# ffmpeg (no one here wrote it): 12 s of H.264 video (320x240, 25 fps) and
# AAC audio, CENC-encrypted (cenc-aes-ctr) under a content key and key ID
# drawn at random for this build, then FFmpeg's own decryption of it.
#
# Usage: make_clip.sh FFMPEG OUT_DIR
# Writes in OUT_DIR:
#   clip.mp4              the encrypted clip, for the App
#   ref.video, ref.audio  FFmpeg's decryption (-decryption_key): each
#                         stream's samples back to back (-c copy -f data)
#   content-key           "cenc-<key ID> <key>": the provisioner's secrets
#                         line (a 'cenc' key's name, never a chunk stream's
#                         "kid-", docs/rts.md); the App gets the key only by
#                         provisioning
set -eu
ffmpeg=$1 out=$2
mkdir -p "$out"
tmp=$(mktemp -d "$out/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
hex16() { od -An -N16 -tx1 /dev/urandom | tr -d ' \n'; }
key=$(hex16) kid=$(hex16)
# x264 puts each NAL unit's header in the clear (a subsample map per video
# sample); AAC samples are encrypted whole.
"$ffmpeg" -nostdin -hide_banner -loglevel error -y \
	-f lavfi -i testsrc=size=320x240:rate=25:duration=12 \
	-f lavfi -i sine=frequency=440:sample_rate=44100:duration=12 \
	-c:v libx264 -preset veryfast -g 50 -pix_fmt yuv420p -c:a aac -b:a 64k \
	-encryption_scheme cenc-aes-ctr -encryption_key "$key" -encryption_kid "$kid" \
	"$tmp/clip.mp4"
"$ffmpeg" -nostdin -hide_banner -loglevel error -y -decryption_key "$key" -i "$tmp/clip.mp4" \
	-map 0:v:0 -c copy -f data "$tmp/ref.video" \
	-map 0:a:0 -c copy -f data "$tmp/ref.audio"
echo "cenc-$kid $key" >"$tmp/content-key"
mv "$tmp/content-key" "$tmp/ref.video" "$tmp/ref.audio" "$tmp/clip.mp4" "$out/"
