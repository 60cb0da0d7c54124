#!/bin/sh
# The private dynamic linker that attack_ldso names (tests/ara/code_copies.cmake):
# a copy of the guest's, made before the command runs and removed after it,
# so that the attack rewrites its own copy, never the one every other test
# runs.
# usage: ldso_fixture.sh COPY COMMAND [ARG...]
set -u
copy=$1
shift
mkdir -p "$(dirname "$copy")" && cp /lib/ld-linux-aarch64.so.1 "$copy" && chmod 0755 "$copy" ||
	exit 1
"$@"
status=$?
rm -f "$copy"
exit $status
