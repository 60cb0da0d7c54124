#!/usr/bin/env bash
# The ARA paper's evaluation (section 7) in the POE guest: the RTS case
# study (tests/bench/rts_study under ara-loader) and the RTM case study
# (tests/rtm/study/rtm_study.sh), their CSVs brought back over the guest's
# console (qemu/lib/guest-files.sh), the RTS runs' guest instructions
# counted, then the summary and the plots (qemu/eval-report.py). Builds nothing: qemu/ara.sh eval builds
# the arm64 tree first. docs/evaluation.md explains the method.
#
# Usage: eval.sh [--quick] [--only rts|rtm] [--out DIR] ARM64_BUILD_DIR
#   --quick      small stream sizes and 3 repeats (RTS), rtm_study.sh's
#                --quick workloads and 3 repeats (RTM), one counted run per
#                RTS configuration and size: minutes, for a check that it
#                all works, not for figures
#   --only S     one case study alone (rts or rtm); the summary says so
#   --out DIR    where the results go (default results/eval-<UTC time>
#                in the source tree): rts.csv, rtm.csv, instructions.csv,
#                summary.md, summary.json, the plots (PNG and SVG), the
#                guest logs (logs/)
#
# Two guest boots: the studies, timed; then the RTS study again under the
# counting plugin (qemu/lib/count.sh), which counts the guest instructions
# of each run's timed part between rts_study's marks (instructions.csv:
# workload,config,size_bytes,repeat,instructions,el0,own; lib/count.sh
# explains the three counts).
# Exit status: 0 all done and every configuration present; 1 a study
# failed or its results did not come back whole; 2 usage; 3 done, but a
# configuration has no (counted) runs, which summary.md names at its top.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/count.sh"
. "$(dirname "$0")/lib/guest-files.sh"

usage() {
	awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
	exit 2
}

# The scale (docs/evaluation.md, "Scale"): full is three sizes doubling
# and 20 repeats (the issue's floor) for the RTS, 3 repeats for the RTM,
# whose IPC runs take minutes each: sized so that the whole fits an hour
# on the 2-core machine.
RTS_SIZES=2M,4M,8M RTS_REPEATS=20 RTM_REPEATS=3 COUNT_REPEATS=3
QUICK_RTS_SIZES=256K,512K,1M QUICK_REPEATS=3 QUICK_COUNT_REPEATS=1

quick='' only='' out='' count_time=''
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=yes; shift ;;
	--only) only=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage
case $only in '' | rts | rtm) ;; *) usage ;; esac
if [ -n "$quick" ]; then
	RTS_SIZES=$QUICK_RTS_SIZES RTS_REPEATS=$QUICK_REPEATS RTM_REPEATS=$QUICK_REPEATS
	COUNT_REPEATS=$QUICK_COUNT_REPEATS
fi
run_rts() { [ "$only" != rtm ]; }
run_rtm() { [ "$only" != rts ]; }

# run-guest.sh embeds directories at their real path.
build=$(cd "$1" 2>/dev/null && pwd -P) || die "no build directory $1"
loader=$build/loader/ara-loader
rts_study=$build/tests/bench/rts_study
rtm_driver=$ARA_SRC_DIR/tests/rtm/study/rtm_study.sh
rtm_programs=$build/tests/rtm/study/programs.tsv
if run_rts; then
	for f in "$loader" "$rts_study" "$rts_study.ara-manifest"; do
		[ -f "$f" ] || die "$f is missing: build the arm64 tree first (qemu/ara.sh eval does)"
	done
fi
if run_rtm; then
	[ -f "$rtm_driver" ] ||
		die "the RTM study's driver tests/rtm/study/rtm_study.sh is missing from this tree: no RTM case study, so no evaluation (--only rts runs the RTS study alone)"
	[ -f "$rtm_programs" ] ||
		die "$rtm_programs is missing: no RTM study program is built (tests/rtm/study)"
fi
[ -x "$ARA_PYTHON" ] || die "no $ARA_PYTHON (qemu/host-deps.sh installs python3-matplotlib and python3-scipy)"

out=${out:-$ARA_SRC_DIR/results/eval-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out/logs" || die "cannot create $out"
out=$(cd "$out" && pwd -P)
work=$(mktemp -d "${TMPDIR:-/tmp}/ara-eval.XXXXXX")
work=$(cd "$work" && pwd -P)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/guest"

# fetch_csv NAME LOG DEST: the CSV NAME the guest printed in LOG
# (guest_send, qemu/lib/guest-files.sh), to DEST.
fetch_csv() {
	host_receive "$1" "$2" "$3" || die "cannot read $1 from the guest's console ($2)"
}

rts_cmd() { # rts_cmd REPEATS CSV
	printf 'ARA_EVIDENCE=dev-insecure %q %q --sizes %s --repeats %s --csv %s\n' \
		"$loader" "$rts_study" "$RTS_SIZES" "$1" "$2"
}

# --- 1. the studies, timed ------------------------------------------------
{
	echo '#!/bin/sh'
	echo 'set -e'
	if run_rts; then
		rts_cmd "$RTS_REPEATS" /tmp/rts.csv
		guest_send rts.csv /tmp/rts.csv
	fi
	if run_rtm; then
		printf 'ARA_EVIDENCE=dev-insecure /bin/sh %q --build %q --repeats %s %s--csv /tmp/rtm.csv\n' \
			"$rtm_driver" "$build" "$RTM_REPEATS" "${quick:+--quick }"
		guest_send rtm.csv /tmp/rtm.csv
	fi
} >"$work/guest/studies.sh"
chmod +x "$work/guest/studies.sh"
step "the case studies${only:+ ($only only)} in the POE guest${quick:+ (--quick)}"
t0=$(date +%s)
embed=(--embed "$build" --embed "$work/guest")
run_rtm && embed+=(--embed "$ARA_SRC_DIR") # rtm_study.sh, from the source tree
"$ARA_QEMU_DIR/guest/run-guest.sh" --qemu patched --poe expect --timeout 3600 "${embed[@]}" \
	-- "$work/guest/studies.sh" |
	tee "$out/logs/studies.log" || die "the case studies failed in the guest (status $?; $out/logs/studies.log)"
studies_time=$(elapsed "$t0")
run_rts && fetch_csv rts.csv "$out/logs/studies.log" "$out/rts.csv"
run_rtm && fetch_csv rtm.csv "$out/logs/studies.log" "$out/rtm.csv"

# --- 2. guest instructions per RTS run --------------------------------------
if run_rts; then
	{
		echo '#!/bin/sh'
		echo 'set -e'
		rts_cmd "$COUNT_REPEATS" /tmp/count.csv
		guest_send count.csv /tmp/count.csv
	} >"$work/guest/count.sh"
	chmod +x "$work/guest/count.sh"
	step "guest instructions: rts_study --repeats $COUNT_REPEATS under the counting plugin"
	t0=$(date +%s)
	"$ARA_QEMU_DIR/guest/run-guest.sh" --qemu patched --poe expect --timeout 3000 \
		--embed "$build" --embed "$work/guest" --plugin-lib "$(count_plugin)" \
		--plugin-insn "$work/insn.log" --plugin-args "mark=$MARK" -- "$work/guest/count.sh" \
		>"$out/logs/count.log" || die "the counting run failed (status $?; $out/logs/count.log)"
	count_time=$(elapsed "$t0")
	fetch_csv count.csv "$out/logs/count.log" "$work/count.csv"
	count_batches "$work/insn.log" >"$work/batches.txt"
	# The i-th marked stretch is the timed part of the CSV's i-th run.
	[ "$(wc -l <"$work/batches.txt")" -eq "$(($(wc -l <"$work/count.csv") - 1))" ] ||
		die "$(wc -l <"$work/batches.txt") runs counted, $(($(wc -l <"$work/count.csv") - 1)) made"
	awk -F, 'NR == FNR { all[FNR] = $1; el0[FNR] = $2; own[FNR] = $3; next }
		FNR == 1 { print "workload,config,size_bytes,repeat,instructions,el0,own"; next }
		{
			printf "%s,%s,%s,%s,%s,%s,%s\n", $1, $2, $3, $4,
				all[FNR - 1], el0[FNR - 1], own[FNR - 1]
		}
	' FS=' ' "$work/batches.txt" FS=, "$work/count.csv" >"$out/instructions.csv"
fi

# --- 3. summary and plots -------------------------------------------------
step "summary and plots"
args=(--out "$out" --note "mode: $([ -n "$quick" ] && echo --quick || echo full)${only:+, --only $only}"
	--note "tree: $(git -C "$ARA_SRC_DIR" describe --always --dirty 2>/dev/null || echo unknown)"
	--note "host: $(nproc) CPUs, $(uname -m); guest: QEMU (patched, POE), -M virt -cpu max"
	--note "studies boot: ${studies_time}${count_time:+, counting boot: $count_time}")
if run_rts; then
	args+=(--rts "$out/rts.csv" --instructions "$out/instructions.csv"
		--note "RTS: sizes $RTS_SIZES, $RTS_REPEATS repeats; counted: $COUNT_REPEATS repeat(s)")
fi
run_rtm && args+=(--rtm "$out/rtm.csv" --note "RTM: $RTM_REPEATS repeats${quick:+, --quick workloads}")
rc=0
"$ARA_PYTHON" "$ARA_QEMU_DIR/eval-report.py" "${args[@]}" || rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || die "eval-report.py failed (status $rc)"
info "results in $out"
exit $rc
