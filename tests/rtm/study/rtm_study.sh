#!/bin/sh
# The RTM case study's driver, in the POE guest (docs/rtm.md, "The case
# study"): runs each program registered by ara_rtm_study_program
# (BUILD/tests/rtm/study/programs.tsv) in three configurations, all under
# ara-loader:
#   plain  <prog>_plain, uninstrumented
#   ara    <prog>_rtm, every transfer logged by ARA; its evidence (report,
#          segments, ATTEST) must be accepted by ara-verify
#   ipc    <prog>_ipc, every transfer handed to a logger process over a
#          Unix socket, one acknowledged hand-off each
# R repeats, interleaved (repeat 1 of every program and configuration, then
# repeat 2, ...), each run timed by count_run (tests/bench/count_run.c:
# CLOCK_MONOTONIC, pinned to one CPU, between the counting plugin's marks).
# A program's standard output must equal its expected output, where it has
# one. Writes CSV:
#   program,config,repeat,seconds,entries,verified
# entries: transfers logged (ara: the report's count, ipc: the logger's),
# 0 for plain; verified: 1 if ara-verify accepted the ara run, 0 if not,
# "-" for plain and ipc. A run that fails (its exit status, its output)
# writes no row.
#
# Usage: rtm_study.sh [--build DIR] [--repeats R] [--quick] [--csv FILE]
#                     [--configs LIST] [--tamper] [PROGRAM...]
#   --build DIR   the arm64 build tree (default: $ARA_BUILD)
#   --repeats R   runs per program and configuration (default 5)
#   --quick       the programs' quick workloads (QUICK_RUN)
#   --csv FILE    the CSV (default: standard output; progress goes to stderr)
#   --configs LIST  comma-separated, of plain, ara, ipc (default: all three)
#   --tamper      flip one byte of each ara run's report before it is
#                 verified: every ara run must then be reported verified=0
#                 (the smoke test's twin, rtm_study_smoke_tampered)
#   PROGRAM...    only these programs (default: every registered one)
# Exit status: 0 every run succeeded and every ara run verified; 1 a run
# failed or did not verify; 2 usage or setup error.
set -u

# usage [0]: the usage text; on stdout with status 0 (--help), else on stderr with 2.
usage_text() { sed -n '/^# Usage:/,/setup error\.$/p' "$0" | sed 's/^# \{0,1\}//'; }
usage() {
	[ "${1:-2}" = 0 ] && { usage_text; exit 0; }
	usage_text >&2
	exit 2
}
die() {
	echo "rtm_study: $*" >&2
	exit 2
}

build=${ARA_BUILD:-} repeats=5 quick=0 csv= tamper=0 configs=plain,ara,ipc
while [ $# -gt 0 ]; do
	case $1 in
	--build) [ $# -ge 2 ] || usage; build=$2; shift 2 ;;
	--repeats) [ $# -ge 2 ] || usage; repeats=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--csv) [ $# -ge 2 ] || usage; csv=$2; shift 2 ;;
	--configs) [ $# -ge 2 ] || usage; configs=$2; shift 2 ;;
	--tamper) tamper=1; shift ;;
	--help | -h) usage 0 ;;
	--version) echo "rtm_study.sh (ARA) 1"; exit 0 ;;
	--*) echo "rtm_study: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
case $repeats in '' | *[!0-9]* | 0) die "--repeats takes a positive integer, not '$repeats'" ;; esac
configs=$(echo "$configs" | tr ',' ' ')
for c in $configs; do
	case $c in plain | ara | ipc) ;; *) die "--configs: unknown configuration '$c' (plain, ara, ipc)" ;; esac
done
[ -n "$configs" ] || die "--configs: no configuration"
[ -n "$build" ] || die "no build tree: give --build DIR or set ARA_BUILD"
tsv=$build/tests/rtm/study/programs.tsv
loader=$build/loader/ara-loader
verify=$build/services/ara-verify
count_run=$build/tests/bench/count_run
for f in "$tsv" "$loader" "$verify" "$count_run"; do
	[ -r "$f" ] || die "$f: $( [ -e "$f" ] && echo "not readable" || echo "No such file or directory")"
done
# shellcheck source=../rtm_evidence.sh
. "$(dirname "$0")/../rtm_evidence.sh"

# The programs: every registered one, or those named (each must be registered).
if [ $# -gt 0 ]; then
	for p in "$@"; do
		awk -F'\t' -v p="$p" '$1 == p { found = 1 } END { exit !found }' "$tsv" ||
			die "no program '$p' in $tsv (registered: $(cut -f1 "$tsv" | tr '\n' ' '))"
	done
	programs=$*
else
	programs=$(cut -f1 "$tsv")
fi
[ -n "$programs" ] || die "$tsv registers no program"

# One CPU for every run: count_run pins itself to the CPU it starts on;
# taskset, where busybox has it, makes that the same CPU for all runs.
pin=
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
	pin="taskset -c 0"
fi

work=${TMPDIR:-/tmp}/rtm_study.$$
rm -rf "$work"
mkdir -p "$work" || die "cannot make $work"
if [ -n "$csv" ]; then
	: >"$csv" || die "cannot write $csv"
	exec 3>"$csv"
else
	exec 3>&1
fi
echo "program,config,repeat,seconds,entries,verified" >&3

failed=0
# field PROGRAM N: column N of PROGRAM's line in programs.tsv.
field() { awk -F'\t' -v p="$1" -v n="$2" '$1 == p { print $n }' "$tsv"; }
# The report's entry count (rtm_format.h: 8 bytes at offset 120, little-endian as the guest).
report_entries() { od -An -tu8 -j120 -N8 "$1" | tr -d ' '; }

# run PROGRAM CONFIG REPEAT: one run, its CSV row unless it failed.
run() {
	prog=$1 config=$2 r=$3
	dir=$work/$prog.$config.$r
	mkdir -p "$dir" || die "cannot make $dir"
	case $config in plain) col=2 ;; ara) col=3 ;; ipc) col=4 ;; esac
	bin=$(field "$prog" $col)
	if [ "$quick" = 1 ]; then
		args=$(field "$prog" 8) expected=$(field "$prog" 9)
	else
		args=$(field "$prog" 5) expected=$(field "$prog" 7)
	fi
	input=$(field "$prog" 6)
	set --
	[ "$input" = - ] || set -- --input "$input"
	case $config in
	plain) env="ARA_EVIDENCE=dev-insecure" ;;
	ara) env=$(rtm_evidence_env "$dir") ;;
	ipc) env="ARA_EVIDENCE=dev-insecure ARA_RTM_IPC_SUMMARY=$dir/summary" ;;
	esac
	# shellcheck disable=SC2086 # env: assignments without spaces; args: words (programs.tsv)
	env $env $pin "$count_run" --output "$dir/out" --errors "$dir/err" "$@" -- \
		"$loader" "$bin" $args >"$dir/time" 2>"$dir/count_run.err"
	st=$?
	what="$prog $config repeat $r"
	if [ "$st" != 0 ]; then
		echo "rtm_study: $what FAILED: $(cat "$dir/count_run.err"); its stderr:" >&2
		tail -n 5 "$dir/err" | sed 's/^/  /' >&2
		failed=1
		return
	fi
	seconds=$(awk '$1 == "count_run:" && $2 == "run" { print $4 }' "$dir/time")
	if [ -z "$seconds" ]; then
		echo "rtm_study: $what FAILED: no time from count_run in $dir/time" >&2
		failed=1
		return
	fi
	if [ "$expected" != - ] && ! cmp -s "$dir/out" "$expected"; then
		echo "rtm_study: $what FAILED: its output ($dir/out) differs from $expected" >&2
		failed=1
		return
	fi
	verified=- entries=0
	case $config in
	ara)
		for f in report attest; do
			if [ ! -s "$dir/$f" ]; then
				echo "rtm_study: $what FAILED: the run left no $f" >&2
				failed=1
				return
			fi
		done
		# No sealed segment in a short run: all its entries are in the report.
		[ -e "$dir/segments" ] || : >"$dir/segments"
		if [ "$tamper" = 1 ]; then
			# One byte of the report's chain value (bytes 80..111), XOR 1: its signature fails.
			b=$(od -An -tu1 -j100 -N1 "$dir/report" | tr -d ' ')
			# shellcheck disable=SC2059 # the format is the byte's octal escape
			printf "\\$(printf %o $((b ^ 1)))" |
				dd of="$dir/report" bs=1 seek=100 conv=notrunc 2>/dev/null || die "dd"
		fi
		entries=$(report_entries "$dir/report")
		rtm_write_policy "$dir" "$bin"
		if rtm_check "$dir" "$bin" "$dir/segments" && rtm_accepted "$dir"; then
			verified=1
		else
			verified=0 failed=1
			echo "rtm_study: $what: ara-verify did not accept the run:" >&2
			sed 's/^/  /' "$dir/verdict" >&2
		fi
		;;
	ipc)
		entries=$(awk '$1 == "entries" { print $2 }' "$dir/summary" 2>/dev/null)
		if [ -z "$entries" ]; then
			echo "rtm_study: $what FAILED: the logger left no summary ($dir/summary)" >&2
			failed=1
			return
		fi
		;;
	esac
	echo "$prog,$config,$r,$seconds,$entries,$verified" >&3
	echo "rtm_study: $what: $seconds s, $entries entries, verified $verified" >&2
	# The evidence of a long run is tens of MiB of the guest's memory.
	[ "$failed" = 1 ] || rm -rf "$dir"
}

i=1
while [ "$i" -le "$repeats" ]; do
	for prog in $programs; do
		for config in $configs; do
			run "$prog" "$config" "$i"
		done
	done
	i=$((i + 1))
done
exec 3>&-
if [ "$failed" = 1 ]; then
	echo "rtm_study: FAILED: a run failed or did not verify (kept in $work)" >&2
	exit 1
fi
rm -rf "$work"
echo "rtm_study: every run succeeded and every ara run verified" >&2
