#!/bin/sh
# The sample App with one byte changed is refused before any of it runs:
# a copy of APP with the byte in the middle of the file incremented, run
# under ara-loader with APP's own manifest, must end with status 4, name the
# digest mismatch, and never print the App's first line.
# Usage: tampered_app.sh LOADER APP
set -u
loader=$1 app=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cp "$app" "$tmp/app" || exit 1
off=$(($(wc -c <"$tmp/app") / 2))
old=$(dd if="$tmp/app" bs=1 skip="$off" count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
new=$(((old + 1) % 256))
printf "\\$(printf %o "$new")" | dd of="$tmp/app" bs=1 seek="$off" count=1 conv=notrunc 2>/dev/null
cmp -s "$app" "$tmp/app" && { echo "tampered_app: the copy did not change"; exit 1; }
sh "$(dirname "$0")/refused.sh" 4 "app .*: digest mismatch" "sample-app: started" -- \
	"$loader" --manifest "$app.ara-manifest" "$tmp/app" /etc/passwd
