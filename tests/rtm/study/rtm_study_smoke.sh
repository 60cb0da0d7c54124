#!/bin/sh
# The case study's smoke test, in the POE guest (docs/rtm.md, "The case
# study"): rtm_study.sh --quick, one repeat, never a time check.
#
# Usage: rtm_study_smoke.sh MODE BUILD_DIR
#   all       every registered program: the driver must succeed and its CSV
#             hold, per program, one row of each configuration with a
#             number of seconds, entries (0 for plain, more for ara and
#             ipc) and verified 1 for ara
#   tampered  Lua under ARA with its report tampered (--tamper): the
#             driver must fail and report the run verified=0
set -u
mode=$1 build=$2
study=$(dirname "$0")/rtm_study.sh
out=${TMPDIR:-/tmp}/rtm_study_smoke.$mode.$$
mkdir -p "$out" || exit 1

fail() {
	echo "rtm_study_smoke[$mode]: FAILED: $*"
	sed 's/^/  csv: /' "$out/csv" 2>/dev/null
	sed 's/^/  driver: /' "$out/err" 2>/dev/null
	exit 1
}

# row PROGRAM CONFIG: the CSV's rows of that run.
rows() { awk -F, -v p="$1" -v c="$2" '$1 == p && $2 == c' "$out/csv"; }

case $mode in
all)
	/bin/sh "$study" --build "$build" --quick --repeats 1 --csv "$out/csv" 2>"$out/err" ||
		fail "rtm_study.sh exited with $?"
	programs=$(cut -f1 "$build/tests/rtm/study/programs.tsv")
	[ -n "$programs" ] || fail "no program registered"
	for p in $programs; do
		for c in plain ara ipc; do
			[ "$(rows "$p" "$c" | wc -l)" = 1 ] || fail "not one row of $p $c"
			rows "$p" "$c" | awk -F, -v c="$c" '
				$4 !~ /^[0-9]+\.[0-9]+$/ || $4 + 0 <= 0 { exit 1 }
				c == "plain" && ($5 != 0 || $6 != "-") { exit 1 }
				c == "ara" && ($5 !~ /^[0-9]+$/ || $5 + 0 == 0 || $6 != 1) { exit 1 }
				c == "ipc" && ($5 !~ /^[0-9]+$/ || $5 + 0 == 0 || $6 != "-") { exit 1 }
			' || fail "the row of $p $c is not a run that produced numbers: $(rows "$p" "$c")"
		done
		echo "rtm_study_smoke: $p: $(rows "$p" ara | cut -d, -f5) entries under ARA (verified)," \
			"$(rows "$p" ipc | cut -d, -f5) through the IPC logger"
	done
	;;
tampered)
	/bin/sh "$study" --build "$build" --quick --repeats 1 --configs ara --tamper --csv "$out/csv" \
		lua 2>"$out/err"
	st=$?
	[ "$st" = 0 ] && { echo "BREACH: a tampered report was counted as verified"; fail "exit 0"; }
	[ "$st" = 1 ] || fail "rtm_study.sh made no decision (exit $st)"
	[ "$(rows lua ara | cut -d, -f6)" = 0 ] || fail "the tampered run is not reported verified=0"
	grep -q "ara-verify: REJECTED" "$out/err" || fail "ara-verify did not say why"
	;;
*)
	fail "unknown mode (all, tampered)"
	;;
esac
rm -rf "$out"
echo "rtm_study_smoke[$mode]: passed"
