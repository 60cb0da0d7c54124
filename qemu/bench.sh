#!/usr/bin/env bash
# Measures a null secure_call and an RTM-logged transfer against a plain
# indirect call, a getpid system call and a round trip to another process (pipe, Unix socket), in the POE
# guest, with tests/bench/ara_bench run under ara-loader. Builds nothing:
# qemu/ara.sh bench builds the arm64 tree first.
#
# Usage: bench.sh [--iterations N] [--repeats R] [--pairs K] [--spawns S]
#                 [--nohz] [--keep DIR] ARM64_BUILD_DIR
#   --iterations N  wall clock: operations per repetition (default 5000)
#   --repeats R     wall clock: repetitions, median reported (default 5)
#   --pairs K       instruction counts: measurements per operation (default 3)
#   --spawns S      execve: starts per repetition (default 20)
#   --nohz          instruction counts: boot with nohz_full=1 and count on
#                   CPU 1, where the timer tick stops (docs/performance.md)
#   --keep DIR      keep the guest logs, the plugin's trace and the per-batch
#                   counts in DIR
#
# Three guest boots (the third: what an execve from an ARA App costs):
#  1. wall clock: ara_bench's own table (median/min/max ns per operation and
#     ratios of the medians, all measured in that one run);
#  2. guest instructions per operation: a QEMU plugin counts the
#     instructions of each timed batch (qemu/lib/count.sh explains how; the
#     operations and their N1 N2 are there too); the table gives, per
#     operation, the median of the K pairs' (I(N2) - I(N1)) / (N2 - N1),
#     their spread, the ratios to indirect and getpid, as a check
#     I(N2) / N2, which includes a batch's fixed cost and should agree, and
#     the same median for the instructions at EL0 alone and for the
#     operation's own (all but the interrupts that land in it);
#  3. execve: spawn_bench starts a program that does nothing (exit_zero)
#     --spawns times, natively and under ara-loader (each start then an
#     execve ARA mediates, the program running under ARA), in one boot; the
#     table gives both medians and their ratio.
# Why not whole-boot counts: docs/performance.md.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/count.sh"
# The RTS per byte (tests/bench/ops_rts.c): counted here, not budgeted
# (budget.sh counts count.sh's OPS). rts_cenc provisions its key to
# ara_bench's own ARA instance, which needs an evidence backend.
OPS+=(rts_cenc cenc_table cenc_aesce)
N1+=([rts_cenc]=200 [cenc_table]=100 [cenc_aesce]=200)
N2+=([rts_cenc]=600 [cenc_table]=300 [cenc_aesce]=600)
OP_ENV+=([rts_cenc]=ARA_EVIDENCE=dev-insecure)
# The Lua runs' start-up and exit alone (an empty chunk), to take off the
# whole runs. Not budgeted: their kernel share moves by a quarter between
# runs (their EL0 counts do not).
RUN_OPS+=(lua_plain_start lua_rtm_start)

usage() {
	awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
	exit 2
}

iterations=5000 repeats=5 pairs=3 spawns=20 keep=
while [ $# -gt 0 ]; do
	case $1 in
	--iterations) iterations=${2:?}; shift 2 ;;
	--repeats) repeats=${2:?}; shift 2 ;;
	--pairs) pairs=${2:?}; shift 2 ;;
	--spawns) spawns=${2:?}; shift 2 ;;
	--nohz) COUNT_NOHZ=yes; shift ;;
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
		mkdir -p "$keep" && cp -r "$work"/*.log "$work"/*.txt "$work"/*.tsv "$work/guest" "$keep"/ 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap finish EXIT

# --- 1. wall clock --------------------------------------------------------
step "wall clock: ara_bench --iterations $iterations --repeats $repeats in the POE guest"
"$ARA_QEMU_DIR/guest/run-guest.sh" --qemu patched --poe expect --timeout 1800 \
	--embed "$build" -- env "${OP_ENV[rts_cenc]}" "$loader" "$bench" --iterations "$iterations" \
	--repeats "$repeats" |
	tee "$work/wall.log" || die "the wall-clock run failed (status $?)"
# The table: from ara_bench's header line to the socket row (a title, a
# header and one row per operation).
sed -n '/^ara_bench: /,/^socket /p' "$work/wall.log" >"$work/wall.txt"
[ "$(wc -l <"$work/wall.txt")" -eq $((${#OPS[@]} + 2)) ] ||
	die "no complete table from ara_bench in the guest output"

# --- 2. instruction counts ------------------------------------------------
count_insns "$build" "$work" "$pairs"
awk -F '\t' -v pairs="$pairs" -v batches="$BATCHES" '
	{
		op = $1; order[++nops] = op
		dn[op] = $2; med[op] = $3; lo[op] = $4; hi[op] = $5; direct[op] = $6; el0[op] = $7; own[op] = $10
	}
	END {
		printf "guest instructions per operation on the benchmark vCPU, kernel included:\n"
		printf "(I(N2) - I(N1)) / (N2 - N1), median of %d pairs, each I the median of %d batches\n", pairs, batches
		printf "%-12s %10s %12s %12s %12s %12s %12s %12s %12s %12s\n", "operation", "N2 - N1", "median",
			"min", "max", "/ indirect", "/ getpid", "I(N2) / N2", "EL0 median", "own median"
		for (o = 1; o <= nops; o++) {
			op = order[o]
			printf "%-12s %10d %12.1f %12.1f %12.1f %12.2f %12.3f %12.1f %12.1f %12.1f\n", op, dn[op],
				med[op], lo[op], hi[op], med[op] / med["indirect"], med[op] / med["getpid"], direct[op],
				el0[op], own[op]
		}
		printf "EL0 median: the same median, of the instructions at EL0 alone (no kernel, no timer tick)\n"
		printf "own median: the same median, of all but those of the interrupts that land in a batch " \
			"(EL0 and the kernel work for the system calls, faults and signals of the operation)\n"
		printf "secure_call / getpid = %.3f (own %.3f); pipe / secure_call = %.1f (own %.1f); " \
			"socket / secure_call = %.1f (own %.1f)\n",
			med["secure_call"] / med["getpid"], own["secure_call"] / own["getpid"],
			med["pipe"] / med["secure_call"], own["pipe"] / own["secure_call"],
			med["socket"] / med["secure_call"], own["socket"] / own["secure_call"]
		printf "rtm_log / secure_call = %.2f (own %.2f); pipe / rtm_log = %.1f (own %.1f; a logger in another process)\n",
			med["rtm_log"] / med["secure_call"], own["rtm_log"] / own["secure_call"],
			med["pipe"] / med["rtm_log"], own["pipe"] / own["rtm_log"]
		printf "getpid / getpid_native = %.2f (own %.2f; a system call under ARA, against one without its filter)\n",
			med["getpid"] / med["getpid_native"], own["getpid"] / own["getpid_native"]
		printf "getpid_allowall / getpid_native = %.2f (own %.2f; under a one-instruction filter: the floor of any " \
			"filter); getpid / getpid_allowall = %.2f (own %.2f; what ARA adds to that floor)\n",
			med["getpid_allowall"] / med["getpid_native"], own["getpid_allowall"] / own["getpid_native"],
			med["getpid"] / med["getpid_allowall"], own["getpid"] / own["getpid_allowall"]
		printf "Lua 5.4 under the RTM (tests/rtm/lua/workload.lua under ara-loader), lua_rtm / lua_plain: " \
			"whole runs %.2f (EL0 %.2f, own %.2f); the workload alone, each run less the run of an empty " \
			"chunk, %.2f (EL0 %.2f, own %.2f; %.0f against %.0f instructions at EL0, %.0f against %.0f own)\n",
			med["lua_rtm"] / med["lua_plain"], el0["lua_rtm"] / el0["lua_plain"],
			own["lua_rtm"] / own["lua_plain"],
			(med["lua_rtm"] - med["lua_rtm_start"]) / (med["lua_plain"] - med["lua_plain_start"]),
			(el0["lua_rtm"] - el0["lua_rtm_start"]) / (el0["lua_plain"] - el0["lua_plain_start"]),
			(own["lua_rtm"] - own["lua_rtm_start"]) / (own["lua_plain"] - own["lua_plain_start"]),
			el0["lua_rtm"] - el0["lua_rtm_start"], el0["lua_plain"] - el0["lua_plain_start"],
			own["lua_rtm"] - own["lua_rtm_start"], own["lua_plain"] - own["lua_plain_start"]
		printf "a 4 KiB CENC sample, instructions per byte: rts_cenc %.2f (ARA, AES instructions), " \
			"cenc_table %.2f (App, mbedtls portable AES), cenc_aesce %.2f (App, AES instructions)\n",
			med["rts_cenc"] / 4096, med["cenc_table"] / 4096, med["cenc_aesce"] / 4096
	}' "$work/insns.tsv" >"$work/insns.txt"

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
