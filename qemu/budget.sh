#!/usr/bin/env bash
# The instruction budget: counts the guest instructions per operation of
# tests/bench/ara_bench in the POE guest, as qemu/bench.sh counts them
# (qemu/lib/count.sh), and fails if an operation exceeds its budgets in
# qemu/instruction-budget.tsv. qemu/ara.sh test runs it after
# the guest ctest. Builds nothing. docs/performance.md, "Instruction budget".
#
# Usage: budget.sh [--update] [--table FILE] [--pairs K] [--keep DIR] ARM64_BUILD_DIR
#        budget.sh [--update] [--table FILE] --measured FILE
#   --update        rewrite the table from these counts instead of checking
#                   them: each budget = measured x (100 + MARGIN) / 100,
#                   rounded up (the MARGIN variables below)
#   --table FILE    the budget table (default qemu/instruction-budget.tsv)
#   --pairs K       pairs of runs per operation (default 3; count.sh)
#   --keep DIR      keep the counting run's files in DIR; its insns.tsv can
#                   be checked again with --measured
#   --measured FILE take the counts from FILE (count.sh's insns.tsv) instead
#                   of booting the guest
#
# Three budgets per operation: one for all its instructions, the kernel's
# included; one for those at EL0 (ARA's gate and services, the App); and
# one for its own: all but those of the interrupts that land in it (the
# timer tick and what it leads to), i.e. EL0 and the kernel's work for the
# operation's own system calls, faults and signals. Neither of the last
# two moves with the host's load, so both are held tight. Prints one row
# per operation: each count (the median of the pairs) with its budget and
# the margin left, the spread of the pairs, and the verdict. Exit status:
# 0 if every operation is within its three budgets (or the table was
# rewritten), 1 if one is over one, has no budget, or the table budgets an
# operation that was not counted (or the counts or the table cannot be
# read); 2 on a usage error.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/count.sh"

# The margins over the measured counts, in percent (docs/performance.md,
# "Instruction budget", has the measurements behind them). All
# instructions: the timer ticks and other background work that land in a
# batch grow with its emulated time, which the host's load stretches; on a
# loaded host the counts grew by up to half, so this budget is a backstop
# and the other two hold the code. EL0: the same code does the same work
# each time; the margin covers only rounding and an amortised cost
# (rtm_log's segment export) falling differently into batches. Own: the
# same, the kernel's work for the operation's system calls included; the
# operations in OWN_SWITCHING hand the vCPU to another task every time,
# and the scheduler's path, which depends on the time a task ran, moved
# their own counts by up to 9 % on a loaded host.
MARGIN=75
MARGIN_EL0=2
MARGIN_OWN=3
MARGIN_OWN_SWITCHING=15
OWN_SWITCHING=(open pipe socket)

usage() {
	awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
	exit 2
}

update=no table=$ARA_QEMU_DIR/instruction-budget.tsv pairs=3 keep='' measured=''
while [ $# -gt 0 ]; do
	case $1 in
	--update) update=yes; shift ;;
	--table) table=${2:?}; shift 2 ;;
	--pairs) pairs=${2:?}; shift 2 ;;
	--keep) keep=${2:?}; shift 2 ;;
	--measured) measured=${2:?}; shift 2 ;;
	-*) usage ;;
	*) break ;;
	esac
done
[[ $pairs =~ ^[1-9][0-9]*$ ]] || die "--pairs takes a whole number >= 1"
if [ -n "$measured" ]; then
	[ $# -eq 0 ] || usage
	[ -f "$measured" ] || die "no counts file $measured"
else
	[ $# -eq 1 ] || usage
	build=$(cd "$1" 2>/dev/null && pwd -P) || die "no build directory $1"
fi
[ $update = yes ] || [ -f "$table" ] || die "no budget table $table"

work=$(mktemp -d "${TMPDIR:-/tmp}/ara-budget.XXXXXX")
work=$(cd "$work" && pwd -P)
finish() {
	if [ -n "$keep" ]; then
		mkdir -p "$keep" && cp -r "$work"/* "$keep"/ 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap finish EXIT

if [ -z "$measured" ]; then
	count_insns "$build" "$work" "$pairs"
	measured=$work/insns.tsv
fi

if [ $update = yes ]; then
	{
		echo "# The instruction budget that qemu/budget.sh checks (qemu/ara.sh test runs it):"
		echo "# guest instructions per operation of tests/bench/ara_bench (per whole run for"
		echo "# the lua_ rows), counted as qemu/bench.sh counts them (qemu/lib/count.sh), three"
		echo "# ways: all, the kernel's included (measured, budget); those at EL0 (EL0 measured,"
		echo "# EL0 budget); the operation's own, all but those of the interrupts that land in it"
		echo "# (own measured, own budget). budget = measured x $((100 + MARGIN)) / 100, EL0 budget ="
		echo "# EL0 measured x $((100 + MARGIN_EL0)) / 100, own budget = own measured x $((100 + MARGIN_OWN)) / 100"
		echo "# (x $((100 + MARGIN_OWN_SWITCHING)) / 100 for ${OWN_SWITCHING[*]}), rounded up (docs/performance.md,"
		echo "# \"Instruction budget\"). Rewrite it from a run on a quiet host with:"
		echo "# qemu/budget.sh --update ARM64_BUILD_DIR"
		printf '# operation\tmeasured\tbudget\tEL0 measured\tEL0 budget\town measured\town budget\n'
		awk -F '\t' -v margin="$MARGIN" -v margin_el0="$MARGIN_EL0" -v margin_own="$MARGIN_OWN" \
			-v margin_switching="$MARGIN_OWN_SWITCHING" -v switching="${OWN_SWITCHING[*]}" '
			function ceil(x) { return x == int(x) ? x : int(x) + 1 }
			BEGIN { n = split(switching, a, " "); for (i = 1; i <= n; i++) switches[a[i]] = 1 }
			NF != 12 { print "malformed counts line " NR ": " $0 > "/dev/stderr"; exit 1 }
			{
				printf "%s\t%.1f\t%d\t", $1, $3, ceil($3 * (100 + margin) / 100)
				printf "%.1f\t%d\t", $7, ceil($7 * (100 + margin_el0) / 100)
				m = $1 in switches ? margin_switching : margin_own
				printf "%.1f\t%d\n", $10, ceil($10 * (100 + m) / 100)
			}
		' "$measured"
	} >"$work/table.new" || die "cannot read the counts in $measured"
	mv "$work/table.new" "$table"
	step "budget table $table rewritten"
	cat "$table"
	exit 0
fi

step "guest instructions per operation against the budget in $table"
rc=0
awk -F '\t' -v table="$table" -v margin_all="$MARGIN" -v margin_el0="$MARGIN_EL0" -v margin_own="$MARGIN_OWN" \
	-v margin_switching="$MARGIN_OWN_SWITCHING" -v switching="${OWN_SWITCHING[*]}" '
	BEGIN { n = split(switching, a, " "); for (i = 1; i <= n; i++) switches[a[i]] = 1 }
	# The table: "operation measured budget el0-measured el0-budget
	# own-measured own-budget" rows, # comments.
	FNR == NR {
		if (/^#/ || /^[ \t]*$/) next
		if (NF != 7 || $3 !~ /^[0-9]+$/ || $3 == 0 || $5 !~ /^[0-9]+$/ || $5 == 0 ||
		    $7 !~ /^[0-9]+$/ || $7 == 0 || ($1 in budget)) {
			printf "%s:%d: malformed or repeated row: %s\n", table, FNR, $0 > "/dev/stderr"
			bad = 1; exit
		}
		budget[$1] = $3; budget_el0[$1] = $5; budget_own[$1] = $7; rows[++nrows] = $1
		next
	}
	NF != 12 { printf "malformed counts line %d: %s\n", FNR, $0 > "/dev/stderr"; bad = 1; exit }
	{ order[++nops] = $1; med[$1] = $3; lo[$1] = $4; hi[$1] = $5; el0[$1] = $7; own[$1] = $10 }
	# The margin left, in percent of the count.
	function margin(count, budget) { return (budget - count) / (count > 0 ? count : 1) * 100 }
	# Loose: the budget is more than a third above what --update would
	# write from the count; a regression of that size would pass.
	function loose(count, budget, m) { return budget > count * (100 + m) / 100 * 4 / 3 }
	# over(OVER, NAME): the list of budgets exceeded, NAME added.
	function over(list, name) { return list ? list " and " name : name }
	END {
		if (bad) exit 2
		printf "%-19s %12s %10s %7s %12s %10s %7s %12s %10s %7s %25s  %s\n", "operation", "all",
			"budget", "margin", "EL0", "budget", "margin", "own", "budget", "margin", "spread of all",
			"verdict"
		for (o = 1; o <= nops; o++) {
			op = order[o]
			printf "%-19s %12.1f ", op, med[op]
			if (!(op in budget)) {
				printf "%10s %7s %12.1f %10s %7s %12.1f %10s %7s %11.1f - %11.1f  %s\n", "-", "-",
					el0[op], "-", "-", own[op], "-", "-", lo[op], hi[op], "FAIL: no budget"
				fail = 1; continue
			}
			exceeded = ""
			if (med[op] > budget[op]) exceeded = over(exceeded, "all")
			if (el0[op] > budget_el0[op]) exceeded = over(exceeded, "EL0")
			if (own[op] > budget_own[op]) exceeded = over(exceeded, "own")
			if (exceeded) {
				verdict = "FAIL: over the " exceeded " budget" (exceeded ~ / and / ? "s" : "")
				fail = 1
			} else if (loose(med[op], budget[op], margin_all) ||
				   loose(el0[op], budget_el0[op], margin_el0) ||
				   loose(own[op], budget_own[op], op in switches ? margin_switching : margin_own))
				verdict = "ok (loose: --update tightens it)"
			else verdict = "ok"
			printf "%10d %6.1f%% %12.1f %10d %6.1f%% %12.1f %10d %6.1f%% %11.1f - %11.1f  %s\n",
				budget[op], margin(med[op], budget[op]), el0[op], budget_el0[op],
				margin(el0[op], budget_el0[op]), own[op], budget_own[op],
				margin(own[op], budget_own[op]), lo[op], hi[op], verdict
		}
		for (r = 1; r <= nrows; r++)
			if (!(rows[r] in med)) {
				printf "%-19s %12s %10d %7s %12s %10d %7s %12s %10d %7s %25s  %s\n", rows[r], "-",
					budget[rows[r]], "-", "-", budget_el0[rows[r]], "-", "-", budget_own[rows[r]],
					"-", "", "FAIL: not counted"
				fail = 1
			}
		exit fail
	}' "$table" "$measured" || rc=$?
case $rc in
0) info "every operation is within its budgets ($table)" ;;
1)
	printf '%s\n' "error: over the instruction budget in $table, or the table does not match the" \
		"counted operations (the FAIL rows above). If the change is intended, rewrite the" \
		"table from a run and commit it: qemu/budget.sh --update ARM64_BUILD_DIR" \
		"(docs/performance.md, \"Instruction budget\")." >&2
	exit 1 ;;
*) die "cannot compare the counts in $measured with $table" ;;
esac
