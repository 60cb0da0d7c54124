# Guest instructions per operation of tests/bench/ara_bench, counted in one
# boot of the POE guest: shared by qemu/bench.sh (the figures) and
# qemu/budget.sh (the instruction budget that qemu/ara.sh test checks).
# Source after lib/common.sh, do not run.
#
# A QEMU plugin of ours (qemu/plugins/count-marks.c), told to match the hint
# ara_bench executes at the start and end of each timed batch
# (tests/bench/measure.c), reports the instructions the benchmark's vCPU ran
# in that batch: all of them, the kernel's included, those at EL0 (user
# code: ara_bench, ARA, the libraries), and its own: all but those run on
# behalf of asynchronous interrupts (the timer tick and what it leads to),
# i.e. EL0 and the kernel's work for the batch's own system calls, faults
# and signals. Each run of ara_bench times BATCHES
# batches of N operations; I(N) is their median (a batch now and then also
# pays for something else: the host descheduled the other vCPU while it
# held a lock we wait for, a deferred clean-up ran). For each operation, K
# pairs of runs with N1 and N2 operations give (I(N2) - I(N1)) / (N2 - N1)
# each, from which the fixed cost of a batch (clock reads, loop entry) has
# cancelled out; the result is the median of the K, their spread, and as a
# check I(N2) / N2, which includes the fixed cost and should agree; the
# same for the EL0 counts, which leave out the timer ticks and the rest of
# the kernel's work, and for the own counts, which leave out the ticks
# alone. Why not whole-boot counts: docs/performance.md.
# shellcheck shell=bash

# The operations (ara_bench's, in its table order) and their N1 N2: chosen
# so that each batch runs for a second or more of emulated time at most, and
# the counting boot stays within a few minutes (docs/performance.md).
# rtm_log's are whole segments of the RTM log (131072 entries): any batch
# then holds the same number of seals and exports, whatever its phase.
# qemu/instruction-budget.tsv must have a row for each (and for each
# OP_native and OP_allowall, and each of RUN_OPS, below).
OPS=(indirect secure_call secure_value counter_read rtm_log getpid sigprocmask sigprocmask_service open pipe socket)
declare -A N1=([indirect]=100000 [secure_call]=20000 [secure_value]=20000 [counter_read]=20000 [rtm_log]=131072 [getpid]=20000 [sigprocmask]=2000 [sigprocmask_service]=2000 [open]=1000 [pipe]=1000
	[socket]=1000)
declare -A N2=([indirect]=300000 [secure_call]=60000 [secure_value]=60000 [counter_read]=60000 [rtm_log]=393216 [getpid]=60000 [sigprocmask]=6000 [sigprocmask_service]=6000 [open]=3000 [pipe]=3000
	[socket]=3000)
# Operations counted a second time without ARA, as OP_native: ara_bench run
# natively (no ara-loader: no filter, no gate), with OP's N1 N2, in the same
# boot. getpid_native is the system call without ARA's seccomp filter.
NATIVE_OPS=(getpid)
# Operations counted a third time, as OP_allowall: natively under a seccomp
# filter of one instruction that allows everything (ara_bench
# --allow-all-filter), in the same boot. getpid_allowall is the kernel's
# floor for a system call under any filter: its entry and exit work for a
# task with TIF_SECCOMP, and the action cache's lookup.
ALLOWALL_OPS=(getpid)
# An operation's environment for ara_bench, where it needs one.
declare -A OP_ENV=()
# Whole programs, counted run by run (tests/bench/count_run), BATCHES runs
# each, I the median (no pairs: a run is the unit; its row in insns.tsv has
# N2 - N1 = 1): the Lua workload of the RTM's third-party test
# (tests/rtm/lua) under ara-loader, on the interpreter built with the RTM's
# instrumentation (lua_rtm, its evidence written as lua_rtm.sh writes it)
# and on the same sources built plain (lua_plain). An OP_start (bench.sh)
# runs an empty chunk instead of the script: the start-up and exit alone.
RUN_OPS=(lua_plain lua_rtm)
# Non-empty (qemu/bench.sh --nohz): the guest boots with nohz_full=1 and
# everything counted runs on CPU 1, where the timer tick stops while one
# task runs. A call that stays at EL0 then counts no tick; one that enters
# the kernel pays for the context tracking nohz_full turns on.
COUNT_NOHZ=
# The hint of tests/bench/measure.c, as QEMU's disassembler prints it.
MARK='hint #0x7e'
# Batches per run of ara_bench; I(N) is their median.
BATCHES=3

# count_plugin: prints the path of the count-marks plugin, built once per
# source into $ARA_CACHE/qemu, against qemu-plugin.h of the pinned QEMU
# source (the tarball qemu/build-qemu.sh downloaded and built QEMU from).
count_plugin() {
	local c=$ARA_QEMU_DIR/plugins/count-marks.c version=${QEMU_SRC_VERSION#*:} key so tmp include
	local tarball=$ARA_CACHE/dl/qemu/qemu_${version%-*}.orig.tar.xz
	key=$(stamp_of "$c" <(echo "$QEMU_SRC_VERSION $QEMU_DSC_SHA256"))
	so=$ARA_CACHE/qemu/count-marks-$key.so
	if [ ! -f "$so" ]; then
		[ -f "$tarball" ] ||
			die "no QEMU source at $tarball to build the count-marks plugin against (qemu/build-qemu.sh downloads it)"
		need_cmd pkg-config pkg-config
		tmp=$(mktemp -d "${TMPDIR:-/tmp}/count-marks.XXXXXX")
		tar -xJf "$tarball" -C "$tmp" --wildcards --no-anchored 'include/qemu/qemu-plugin.h' ||
			die "no qemu-plugin.h in $tarball"
		include=$(dirname "$(find "$tmp" -name qemu-plugin.h)")
		# shellcheck disable=SC2046 # pkg-config's flags are words
		gcc -shared -fPIC -O2 -Wall -Wextra -Werror $(pkg-config --cflags glib-2.0) \
			-I"$include" -o "$tmp/count-marks.so" "$c" ||
			die "cannot build the count-marks plugin ($c; the headers in $tmp)"
		mv "$tmp/count-marks.so" "$so"
		rm -rf "$tmp"
	fi
	echo "$so"
}

# count_batches TRACE: prints the counts of each marked stretch in the
# count-marks plugin's TRACE, one line each, in order: all, EL0, own.
# Plugin lines: "mark cpu C all A el0 U own O", the counts since the vCPU's
# previous mark. Marks come in pairs (start, end) on one vCPU (the
# programs that mark pin themselves); A, U and O at an end mark are the
# stretch's.
count_batches() {
	awk '
		$1 == "mark" && $2 == "cpu" && $4 == "all" && $6 == "el0" && $8 == "own" && NF == 9 {
			if (++n % 2) { start_cpu = $3; next }
			if ($3 != start_cpu) { print "marks of one batch on two vCPUs" > "/dev/stderr"; exit 1 }
			print $5, $7, $9
		}
		END { if (n % 2) { print "an odd number of marks" > "/dev/stderr"; exit 1 } }
	' "$1" || die "cannot read the plugin trace in $1"
}

# count_insns BUILD WORK PAIRS: counts every operation in OPS in one POE
# guest boot of the arm64 tree BUILD (its ara-loader and ara_bench) and
# writes WORK/insns.tsv, one tab-separated line per operation: name,
# N2 - N1, median, min and max of the PAIRS pairs, I(N2) / N2, then the
# median, min and max of the EL0 counts, then those of the own counts.
# WORK (a real path) keeps the guest script (guest/counts.sh), the
# plugin's trace (insn.log), the runs (runs.txt) and the per-batch counts
# (batches.txt: all, EL0, own).
count_insns() {
	local build=$1 work=$2 pairs=$3 op k n b plugin
	local loader=$build/loader/ara-loader bench=$build/tests/bench/ara_bench
	local count_run=$build/tests/bench/count_run lua=$build/tests/rtm/lua
	local script=$ARA_QEMU_DIR/../tests/rtm/lua/workload.lua
	for f in "$loader" "$bench" "$bench.ara-manifest" "$count_run" "$lua/lua_rtm" "$lua/lua_plain" \
		"$script"; do
		[ -f "$f" ] || die "$f is missing: build the arm64 tree first (with the Lua source: tests/rtm/lua)"
	done
	plugin=$(count_plugin)

	# The guest runs every (operation, pair, N) in this order; the i-th
	# batch the plugin reports is the i-th line of runs.txt.
	mkdir -p "$work/guest"
	cp "$script" "$work/guest/workload.lua"
	: >"$work/runs.txt"
	{
		echo '#!/bin/sh'
		echo 'set -e'
		echo 'mkdir -p /tmp/count-lua'
		[ -z "$COUNT_NOHZ" ] || echo '/usr/bin/busybox taskset -p -c 1 $$ >/dev/null'
		for op in "${OPS[@]}"; do
			for ((k = 1; k <= pairs; k++)); do
				for n in "${N1[$op]}" "${N2[$op]}"; do
					printf '%s%q %q --only %s --iterations %s --repeats %s\n' \
						"${OP_ENV[$op]:+${OP_ENV[$op]} }" "$loader" "$bench" "$op" "$n" "$BATCHES"
					for ((b = 1; b <= BATCHES; b++)); do echo "$op $k $n" >>"$work/runs.txt"; done
				done
			done
		done
		for op in "${NATIVE_OPS[@]}"; do
			for ((k = 1; k <= pairs; k++)); do
				for n in "${N1[$op]}" "${N2[$op]}"; do
					printf '%q --only %s --iterations %s --repeats %s\n' "$bench" "$op" "$n" "$BATCHES"
					for ((b = 1; b <= BATCHES; b++)); do echo "${op}_native $k $n" >>"$work/runs.txt"; done
				done
			done
		done
		for op in "${ALLOWALL_OPS[@]}"; do
			for ((k = 1; k <= pairs; k++)); do
				for n in "${N1[$op]}" "${N2[$op]}"; do
					printf '%q --allow-all-filter --only %s --iterations %s --repeats %s\n' \
						"$bench" "$op" "$n" "$BATCHES"
					for ((b = 1; b <= BATCHES; b++)); do echo "${op}_allowall $k $n" >>"$work/runs.txt"; done
				done
			done
		done
		for op in "${RUN_OPS[@]}"; do
			local prog=${op%_start} env=ARA_EVIDENCE=dev-insecure args=("$work/guest/workload.lua")
			[ "$prog" = "$op" ] || args=(-e '')
			# lua_rtm.sh's evidence: the segments appended to one file, the report and its ATTEST.
			[ "$prog" = lua_plain ] || env+=" ARA_RTM_SEGMENTS=/tmp/count-lua/segments ARA_RTM_NONCE=$(printf '5a%.0s' {1..32})"
			[ "$prog" = lua_plain ] || env+=" ARA_RTM_REPORT=/tmp/count-lua/report ARA_RTM_ATTEST=/tmp/count-lua/attest"
			printf '%s %q --repeats %s --output /tmp/count-lua/%s.out -- %q %q' "$env" "$count_run" \
				"$BATCHES" "$op" "$loader" "$lua/$prog"
			printf ' %q' "${args[@]}"
			printf '\n'
			for ((b = 1; b <= BATCHES; b++)); do echo "$op run 1" >>"$work/runs.txt"; done
		done
	} >"$work/guest/counts.sh"
	chmod +x "$work/guest/counts.sh"

	step "instruction counts: $(( $(wc -l <"$work/runs.txt") / BATCHES )) runs of ara_bench --only OP in one POE guest"
	"$ARA_QEMU_DIR/guest/run-guest.sh" --qemu patched --poe expect --timeout 1800 \
		${COUNT_NOHZ:+--kernel-args "nohz_full=1 rcu_nocbs=1"} \
		--embed "$build" --embed "$work/guest" --plugin-lib "$plugin" \
		--plugin-insn "$work/insn.log" --plugin-args "mark=$MARK" -- "$work/guest/counts.sh" ||
		die "the counting run failed (status $?)"

	count_batches "$work/insn.log" >"$work/batches.txt"
	[ "$(wc -l <"$work/batches.txt")" -eq "$(wc -l <"$work/runs.txt")" ] ||
		die "$(wc -l <"$work/batches.txt") batches counted, $(wc -l <"$work/runs.txt") runs made"

	# Per operation: I(N) = median of a run's batches; per pair
	# (I(N2) - I(N1)) / (N2 - N1) and I(N2) / N2; then median, min and max
	# over the pairs. The same for the EL0 and the own counts.
	paste -d' ' "$work/runs.txt" "$work/batches.txt" | awk -v batches="$BATCHES" '
		function median(a, n,    i, j, t) {
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		{
			op = $1; k = $2; n = $3
			b[++nb] = $4; u[nb] = $5; s[nb] = $6
			if (nb < batches) next
			insns = median(b, nb); el0 = median(u, nb); own = median(s, nb); nb = 0
			if (!(op in seen)) { seen[op] = 1; order[++nops] = op }
			if (k == "run") { # a whole run: the median and spread of the runs (sorted by median())
				run[op] = sprintf("%s\t1\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f",
					op, insns, b[1], b[batches], insns, el0, u[1], u[batches], own, s[1], s[batches])
				next
			}
			if (!((op, k) in n1)) { n1[op, k] = n; i1[op, k] = insns; u1[op, k] = el0; s1[op, k] = own; next }
			p = ++npairs[op]
			per[op, p] = (insns - i1[op, k]) / (n - n1[op, k])
			per_el0[op, p] = (el0 - u1[op, k]) / (n - n1[op, k])
			per_own[op, p] = (own - s1[op, k]) / (n - n1[op, k])
			whole[op, p] = insns / n
			dn[op] = n - n1[op, k]
		}
		END {
			for (o = 1; o <= nops; o++) {
				op = order[o]; m = npairs[op]
				if (op in run) { print run[op]; continue }
				for (i = 1; i <= m; i++) {
					v[i] = per[op, i]; w[i] = whole[op, i]; x[i] = per_el0[op, i]; y[i] = per_own[op, i]
				}
				# median() sorts its array: min and max after it.
				printf "%s\t%d\t%.2f\t", op, dn[op], median(v, m)
				printf "%.2f\t%.2f\t%.2f\t", v[1], v[m], median(w, m)
				printf "%.2f\t", median(x, m)
				printf "%.2f\t%.2f\t", x[1], x[m]
				printf "%.2f\t", median(y, m)
				printf "%.2f\t%.2f\n", y[1], y[m]
			}
		}' >"$work/insns.tsv"
}
