#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# Boots the conformance image under one QEMU and checks both its exit status
# and one line of its output, so that neither a crash with the right status
# nor the right text with the wrong status passes.
#
# usage: run-image.sh VARIABLE=QEMU MACHINE IMAGE STATUS LINE
#   VARIABLE=QEMU  the CMake cache variable naming qemu-system-aarch64 and its
#                  value, joined so that an empty value still arrives
#   MACHINE        the -M argument (virt starts the image at EL1,
#                  virt,virtualization=on at EL2)
#   STATUS         the exit status the run must end with
#   LINE           an extended regular expression one whole line must match
set -eu

if [ $# -ne 5 ]; then
	echo "usage: $0 VARIABLE=QEMU MACHINE IMAGE STATUS LINE" >&2
	exit 2
fi
var=${1%%=*}
qemu=${1#*=}
machine=$2
image=$3
want_status=$4
want_line=$5

if [ -z "$qemu" ]; then
	echo "error: $var is empty; set it to a qemu-system-aarch64" \
		"(qemu/qemu-path.sh prints the cached builds)" >&2
	exit 1
fi
if [ ! -x "$qemu" ]; then
	echo "error: $var=$qemu is not an executable file" >&2
	exit 1
fi

out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
"$qemu" -M "$machine" -cpu max -nographic -no-reboot -nic none -semihosting \
	-kernel "$image" </dev/null >"$out" 2>&1 || status=$?
cat "$out"

ok=true
if [ "$status" -ne "$want_status" ]; then
	echo "error: exit status $status, expected $want_status" >&2
	ok=false
fi
if ! grep -Eqx -- "$want_line" "$out"; then
	echo "error: no output line is exactly '$want_line'" >&2
	ok=false
fi
$ok
