#!/usr/bin/env bash
# Measures a null secure_call and an RTM-logged transfer against a plain
# indirect call, a getpid system call and a round trip to another process (pipe, Unix socket), in the POE
# guest, with tests/bench/ara_bench run under ara-loader. Builds nothing:
# qemu/ara.sh bench builds the arm64 tree first.
#
# Usage: bench.sh [--iterations N] [--repeats R] [--pairs K] [--spawns S]
#                 [--keep DIR] ARM64_BUILD_DIR
#   --iterations N  wall clock: operations per repetition (default 5000)
#   --repeats R     wall clock: repetitions, median reported (default 5)
#   --pairs K       instruction counts: measurements per operation (default 3)
#   --spawns S      execve: starts per repetition (default 20)
#   --keep DIR      keep the guest logs, the plugin's trace and the per-batch
#                   counts in DIR
#
# Three guest boots (the third: what an execve from an ARA App costs):
#  1. wall clock: ara_bench's own table (median/min/max ns per operation and
#     ratios of the medians, all measured in that one run);
#  2. guest instructions per operation: QEMU's libinsn plugin, told to match
#     the hint ara_bench executes at the start and end of each timed batch
#     (tests/bench/measure.c), reports the instructions the benchmark's vCPU
#     ran in that batch, the kernel's included. Each run of ara_bench times 3
#     batches of N operations; I(N) is the median of the three (a batch now
#     and then also pays for something else: the host descheduled the other
#     vCPU while it held a lock we wait for, a deferred clean-up ran). For
#     each operation, K pairs of runs with N1 and N2 operations give
#     (I(N2) - I(N1)) / (N2 - N1) each, from which the fixed cost of a batch
#     (clock reads, loop entry) has cancelled out; the table gives the median
#     of the K, their spread, and as a check I(N2) / N2, which includes the
#     fixed cost and should agree.
#  3. execve: spawn_bench starts a program that does nothing (exit_zero)
#     --spawns times, natively and under ara-loader (each start then an
#     execve ARA mediates, the program running under ARA), in one boot; the
#     table gives both medians and their ratio.
# Why not whole-boot counts: docs/performance.md.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

usage() {
	awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
	exit 2
}

# The operations and their N1 N2 for the instruction counts: chosen so that
# each batch runs for a second or more of emulated time at most, and the
# counting boot stays within a few minutes (docs/performance.md).
OPS=(indirect secure_call rtm_log getpid sigprocmask open pipe socket)
declare -A N1=([indirect]=100000 [secure_call]=20000 [rtm_log]=20000 [getpid]=20000 [sigprocmask]=2000 [open]=1000 [pipe]=1000
	[socket]=1000)
declare -A N2=([indirect]=300000 [secure_call]=60000 [rtm_log]=60000 [getpid]=60000 [sigprocmask]=6000 [open]=3000 [pipe]=3000
	[socket]=3000)
# The hint of tests/bench/measure.c, as QEMU's disassembler prints it.
MARK='hint #0x7e'
# Batches per run of ara_bench in the counting boot; I(N) is their median.
BATCHES=3

iterations=5000 repeats=5 pairs=3 spawns=20 keep=
while [ $# -gt 0 ]; do
	case $1 in
	--iterations) iterations=${2:?}; shift 2 ;;
	--repeats) repeats=${2:?}; shift 2 ;;
	--pairs) pairs=${2:?}; shift 2 ;;
	--spawns) spawns=${2:?}; shift 2 ;;
	--keep) keep=${2:?}; shift 2 ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage
for v in "$iterations" "$repeats" "$pairs" "$spawns"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] ||
		die "--iterations, --repeats, --pairs and --spawns take whole numbers >= 1"
done
# run-guest.sh embeds directories at their real path.
build=$(cd "$1" 2>/dev/null && pwd -P) || die "no build directory $1"
loader=$build/loader/ara-loader
bench=$build/tests/bench/ara_bench
spawn=$build/tests/bench/spawn_bench
target=$build/tests/bench/exit_zero
for f in "$loader" "$bench" "$bench.ara-manifest" "$spawn" "$spawn.ara-manifest" "$target"; do
	[ -f "$f" ] || die "$f is missing: build the arm64 tree first (qemu/ara.sh bench does)"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/ara-bench.XXXXXX")
work=$(cd "$work" && pwd -P)
# On every exit: what --keep asked for, then nothing left behind.
finish() {
	if [ -n "$keep" ]; then
		mkdir -p "$keep" && cp -r "$work"/*.log "$work"/*.txt "$work/guest" "$keep"/ 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap finish EXIT

# --- 1. wall clock --------------------------------------------------------
step "wall clock: ara_bench --iterations $iterations --repeats $repeats in the POE guest"
"$ARA_QEMU_DIR/guest/run-guest.sh" --qemu patched --poe expect --timeout 1800 \
	--embed "$build" -- "$loader" "$bench" --iterations "$iterations" --repeats "$repeats" |
	tee "$work/wall.log" || die "the wall-clock run failed (status $?)"
# The table: from ara_bench's header line to the socket row (a title, a
# header and one row per operation).
sed -n '/^ara_bench: /,/^socket /p' "$work/wall.log" >"$work/wall.txt"
[ "$(wc -l <"$work/wall.txt")" -eq $((${#OPS[@]} + 2)) ] ||
	die "no complete table from ara_bench in the guest output"

# --- 2. instruction counts ------------------------------------------------
# The guest runs every (operation, pair, N) in this order; the i-th batch
# the plugin reports is the i-th line of runs.txt.
mkdir -p "$work/guest"
: >"$work/runs.txt"
{
	echo '#!/bin/sh'
	echo 'set -e'
	for op in "${OPS[@]}"; do
		for ((k = 1; k <= pairs; k++)); do
			for n in "${N1[$op]}" "${N2[$op]}"; do
				printf '%q %q --only %s --iterations %s --repeats %s\n' \
					"$loader" "$bench" "$op" "$n" "$BATCHES"
				for ((b = 1; b <= BATCHES; b++)); do echo "$op $k $n" >>"$work/runs.txt"; done
			done
		done
	done
} >"$work/guest/counts.sh"
chmod +x "$work/guest/counts.sh"

step "instruction counts: $(( $(wc -l <"$work/runs.txt") / BATCHES )) runs of ara_bench --only OP in one POE guest"
"$ARA_QEMU_DIR/guest/run-guest.sh" --qemu patched --poe expect --timeout 1800 \
	--embed "$build" --embed "$work/guest" --plugin-insn "$work/insn.log" \
	--plugin-args "match=$MARK,trace=on" -- "$work/guest/counts.sh" ||
	die "the counting run failed (status $?)"

# Plugin trace lines: "0x..., 'hint #0x7e', H hits , cpu C, M match hits,
# Δ+D since last match, ...". Marks come in pairs (start, end) on one vCPU
# (ara_bench pins itself); D at an end mark is the batch's count.
awk -v mark="'$MARK'" '
	index($0, mark) && /since last match/ {
		match($0, /cpu [0-9]+/); cpu = substr($0, RSTART + 4, RLENGTH - 4)
		match($0, /\+[0-9]+ since/); d = substr($0, RSTART + 1, RLENGTH - 7)
		if (++n % 2) { start_cpu = cpu; next }
		if (cpu != start_cpu) { print "marks of one batch on two vCPUs" > "/dev/stderr"; exit 1 }
		print d
	}
	END { if (n % 2) { print "an odd number of marks" > "/dev/stderr"; exit 1 } }
' "$work/insn.log" >"$work/batches.txt" || die "cannot read the plugin trace in $work/insn.log"
[ "$(wc -l <"$work/batches.txt")" -eq "$(wc -l <"$work/runs.txt")" ] ||
	die "$(wc -l <"$work/batches.txt") batches counted, $(wc -l <"$work/runs.txt") runs made"

# Per operation: I(N) = median of a run's batches; per pair
# (I(N2) - I(N1)) / (N2 - N1) and I(N2) / N2; then median, min and max over
# the pairs and the ratios of the medians.
paste -d' ' "$work/runs.txt" "$work/batches.txt" | awk -v batches="$BATCHES" '
	function median(a, n,    i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{
		op = $1; k = $2; n = $3
		b[++nb] = $4
		if (nb < batches) next
		insns = median(b, nb); nb = 0
		if (!(op in seen)) { seen[op] = 1; order[++nops] = op }
		if (!((op, k) in n1)) { n1[op, k] = n; i1[op, k] = insns; next }
		p = ++npairs[op]
		per[op, p] = (insns - i1[op, k]) / (n - n1[op, k])
		whole[op, p] = insns / n
		dn[op] = n - n1[op, k]
	}
	END {
		for (o = 1; o <= nops; o++) {
			op = order[o]; m = npairs[op]
			for (i = 1; i <= m; i++) { v[i] = per[op, i]; w[i] = whole[op, i] }
			med[op] = median(v, m); lo[op] = v[1]; hi[op] = v[m]; direct[op] = median(w, m)
		}
		printf "guest instructions per operation on the benchmark vCPU, kernel included:\n"
		printf "(I(N2) - I(N1)) / (N2 - N1), median of %d pairs, each I the median of %d batches\n", npairs[order[1]], batches
		printf "%-12s %10s %12s %12s %12s %12s %12s %12s\n", "operation", "N2 - N1", "median",
			"min", "max", "/ indirect", "/ getpid", "I(N2) / N2"
		for (o = 1; o <= nops; o++) {
			op = order[o]
			printf "%-12s %10d %12.1f %12.1f %12.1f %12.2f %12.3f %12.1f\n", op, dn[op], med[op],
				lo[op], hi[op], med[op] / med["indirect"], med[op] / med["getpid"], direct[op]
		}
		printf "secure_call / getpid = %.3f; pipe / secure_call = %.1f; socket / secure_call = %.1f\n",
			med["secure_call"] / med["getpid"], med["pipe"] / med["secure_call"],
			med["socket"] / med["secure_call"]
		printf "rtm_log / secure_call = %.2f; pipe / rtm_log = %.1f (a logger in another process)\n",
			med["rtm_log"] / med["secure_call"], med["pipe"] / med["rtm_log"]
	}' >"$work/insns.txt"

# --- 3. execve ------------------------------------------------------------
{
	echo '#!/bin/sh'
	echo 'set -e'
	printf 'printf "native: "; %q --iterations %s --repeats %s %q\n' \
		"$spawn" "$spawns" "$repeats" "$target"
	printf 'printf "ara: "; %q %q --iterations %s --repeats %s %q\n' \
		"$loader" "$spawn" "$spawns" "$repeats" "$target"
} >"$work/guest/spawn.sh"
chmod +x "$work/guest/spawn.sh"
step "execve: spawn_bench --iterations $spawns --repeats $repeats, natively and under ara-loader"
"$ARA_QEMU_DIR/guest/run-guest.sh" --qemu patched --poe expect --timeout 1800 \
	--embed "$build" --embed "$work/guest" -- "$work/guest/spawn.sh" | tee "$work/spawn.log" ||
	die "the execve run failed (status $?)"
awk '
	/^(native|ara): spawn_bench: / {
		match($0, /median [0-9]+/); med[$1] = substr($0, RSTART + 7, RLENGTH - 7)
	}
	END {
		if (!med["native:"] || !med["ara:"]) { print "no spawn_bench result" > "/dev/stderr"; exit 1 }
		printf "execve of a program that does nothing, started and waited for (wall clock):\n"
		printf "native %d ns, from an ARA App (under ARA) %d ns: ratio %.1f\n",
			med["native:"], med["ara:"], med["ara:"] / med["native:"]
	}' "$work/spawn.log" >"$work/spawn.txt" || die "cannot read spawn_bench's results"

step "results"
cat "$work/wall.txt"
echo
cat "$work/insns.txt"
echo
cat "$work/spawn.txt"
