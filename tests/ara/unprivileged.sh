#!/bin/sh
# Runs every attack of the suite once more as an unprivileged user: the
# guest runs the App as root everywhere else, and a defence must not hold
# only because of what root can or cannot do. LIST has one attack a line,
# as ara_attack_pair() records it (tests/ara/CMakeLists.txt):
# "APP ATTACK [LIBARA]". Each must exit 0 and print none of what the
# attack ctests fail on. Ends with the plain "N passed, N failed" line.
# Usage: unprivileged.sh AS_USER UID LOADER LIST
set -u
as_user=$1 uid=$2 loader=$3 list=$4
[ -r "$list" ] || { echo "unprivileged: cannot read $list"; exit 2; }
# Every directory above the build tree must let the user through. In the
# test guest (a throwaway initramfs, embedded at the host's paths) the
# parents keep the host's modes, which may be private (a clone under
# /root): there, and only there, they are opened for traversal.
first_app=$(sed -n '1s/ .*//p' "$list")
if ! "$as_user" "$uid" test -x "$first_app"; then
	if ! grep -q 'ara.poe=' /proc/cmdline 2>/dev/null; then
		echo "unprivileged: uid $uid cannot run $first_app (a parent directory is private?)"
		exit 2
	fi
	d=$(dirname "$first_app")
	while [ "$d" != / ]; do chmod a+x "$d"; d=$(dirname "$d"); done
	for f in "$loader" "$list"; do
		d=$(dirname "$f")
		while [ "$d" != / ]; do chmod a+x "$d"; d=$(dirname "$d"); done
	done
fi
passed=0 failed=0
# The attacks write their scratch files to the working directory or /tmp.
cd /tmp || exit 2
while read -r app attack lib; do
	[ -n "$app" ] || continue
	out=$(ARA_VERBOSE=1 "$as_user" "$uid" "$loader" "$app" "$attack" $lib 2>&1)
	status=$?
	if [ $status -eq 0 ] && ! printf '%s\n' "$out" |
		grep -Eq 'ARA-DOM0-CANARY|BREACH|LEAK|was not refused'; then
		passed=$((passed + 1))
		printf '%s\n' "$out" | grep '^ara-evidence' | sed "s/^/ara-evidence: [uid $uid] $attack: /; s/: ara-evidence:/:/" | head -n 3
	else
		failed=$((failed + 1))
		echo "FAILED as uid $uid: $attack (status $status)"
		printf '%s\n' "$out" | tail -n 20
	fi
done <"$list"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ] && [ $passed -gt 0 ]
