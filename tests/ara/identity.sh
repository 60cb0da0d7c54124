#!/bin/sh
# The digests libara reports (ARA_FID_INFO) are those of the files that run:
# runs the sample App under ara-loader and compares its "ara-identity:" lines
# with sha256sum of the App and of libara.so.
# Usage: identity.sh ARA_LOADER SAMPLE_APP LIBARA_SO
set -u
out=$("$1" "$2" /proc/self/status 1 1000) || { echo "identity: the App failed"; exit 1; }
app=$(echo "$out" | sed -n 's/^ara-identity: app //p')
lib=$(echo "$out" | sed -n 's/^ara-identity: libara //p')
want_app=$(sha256sum "$2" | cut -d' ' -f1)
want_lib=$(sha256sum "$3" | cut -d' ' -f1)
if [ -n "$app" ] && [ "$app" = "$want_app" ] && [ -n "$lib" ] && [ "$lib" = "$want_lib" ]; then
	echo "ara-evidence: identity: libara reports the App's and libara.so's SHA-256 as sha256sum computes them ($app, $lib)"
	exit 0
fi
echo "identity: reported app '$app' libara '$lib'; files app $want_app libara $want_lib"
exit 1
