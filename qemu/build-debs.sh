#!/usr/bin/env bash
# Builds ARA's Debian packages for arm64 from this tree (debian/; what they
# hold and why debhelper: docs/packaging.md) with dpkg-buildpackage -a arm64,
# into OUT_DIR, and checks them with lintian: an error or a warning that
# debian/*.lintian-overrides does not explain fails the build.
# Usage: build-debs.sh [OUT_DIR]   (default build/deb; emptied first)
# Exit status: 0 built and lintian-clean, 1 otherwise.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

need_cmd dpkg-buildpackage dpkg-dev
need_cmd dh debhelper
need_cmd lintian lintian
need_cmd aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu

out=${1:-$ARA_SRC_DIR/build/deb}
mbedtls_src=$("$ARA_QEMU_DIR/fetch-mbedtls.sh")
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
changes="$out/ara_$(cd "$ARA_SRC_DIR" && dpkg-parsechangelog -S Version)_arm64.changes"

t0=$(date +%s)
step "building the Debian packages (dpkg-buildpackage -a arm64)"
# -b: binary packages only; -us -uc: unsigned; --post-clean: no build
# directories left in the tree (the guest runs copy the tree). The .debs,
# .changes and .buildinfo go to OUT_DIR, not to the tree's parent (dpkg's
# default).
# parallel=2: CI's two cores (debhelper builds with one job otherwise).
(cd "$ARA_SRC_DIR" && ARA_MBEDTLS_SRC="$mbedtls_src" ARA_DEB_DIR="$out" \
	DEB_BUILD_OPTIONS="parallel=2${DEB_BUILD_OPTIONS:+ $DEB_BUILD_OPTIONS}" \
	dpkg-buildpackage -a arm64 -b -us -uc --post-clean \
		--changes-file="$changes" --buildinfo-file="${changes%.changes}.buildinfo" \
		--changes-option=-u"$out" --buildinfo-option=-u"$out") \
	>"$out/build.log" 2>&1 || {
	tail -n 40 "$out/build.log" >&2
	die "dpkg-buildpackage failed; the whole log is $out/build.log"
}
info "built in $(elapsed "$t0"): $(cd "$out" && echo *.deb)"

t0=$(date +%s)
step "lintian"
# --display-info shows the informational tags too; errors and warnings fail.
if ! lintian --display-info --fail-on error,warning "$changes" | tee "$out/lintian.log" >&2; then
	die "lintian found errors or warnings (above, and in $out/lintian.log)"
fi
info "lintian took $(elapsed "$t0"): $(grep -c . "$out/lintian.log" || true) tags (informational)"
