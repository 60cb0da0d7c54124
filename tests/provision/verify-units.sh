#!/bin/sh
# The shipped systemd units of the provisioning service pass
# `systemd-analyze verify` without a warning (an unknown key is only a
# warning there: any output fails this test). They are verified as
# installed, in a root staged here: systemd's own units (the targets they
# name), /usr/bin/ara-provision (the built one) and kill(1) for ExecReload.
# Without systemd-analyze the test FAILS.
#
# Usage: verify-units.sh UNIT_DIR ARA_PROVISION
set -u
[ $# -eq 2 ] || { echo "usage: $0 UNIT_DIR ARA_PROVISION"; exit 2; }
units=$1 exe=$2
command -v systemd-analyze >/dev/null || { echo "FAIL: no systemd-analyze (Debian: systemd)"; exit 1; }
root=$(mktemp -d) || exit 1
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/usr/lib" "$root/usr/bin" "$root/etc/systemd/system" &&
	ln -s usr/bin "$root/bin" &&
	cp -a /usr/lib/systemd "$root/usr/lib/" &&
	cp /bin/kill "$root/usr/bin/kill" &&
	cp "$exe" "$root/usr/bin/ara-provision" &&
	cp "$units/ara-provision.service" "$units/ara-provision.socket" "$root/etc/systemd/system/" ||
	{ echo "FAIL: cannot stage the root"; exit 1; }
out=$(systemd-analyze verify --man=no --root="$root" /etc/systemd/system/ara-provision.service \
	/etc/systemd/system/ara-provision.socket 2>&1)
status=$?
[ -n "$out" ] && echo "$out"
[ "$status" = 0 ] || { echo "FAIL: systemd-analyze verify exited $status"; exit 1; }
[ -z "$out" ] || { echo "FAIL: systemd-analyze verify warned"; exit 1; }
echo "verify-units: PASS (ara-provision.service, ara-provision.socket)"
