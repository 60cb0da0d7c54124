#!/usr/bin/env bash
# Prints the path of the cached qemu-system-aarch64 (VARIANT: patched or
# unpatched), or of its instruction-counting plugin with --plugin; fails if
# qemu/build-qemu.sh has not built it.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
variant=${1:-patched}
want=build/qemu-system-aarch64
[ "${2:-}" = --plugin ] && want=build/tests/tcg/plugins/libinsn.so
f="$ARA_CACHE/qemu/$variant/$want"
[ -e "$f" ] || die "no $variant QEMU at $f; run qemu/build-qemu.sh $variant"
readlink -f "$f"
