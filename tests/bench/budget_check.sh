#!/usr/bin/env bash
# The instruction budget's checker (qemu/budget.sh) on made-up counts,
# without booting the guest: it must pass counts within their budgets and
# fail one over any of its three budgets, an operation without a budget and a budget for
# an operation not counted; --update must write budgets it then accepts;
# and the checked-in table must budget exactly the operations that
# qemu/lib/count.sh counts.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
budget=$src/qemu/budget.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/budget-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect STATUS PATTERN NAME BUDGET-ARGS...: budget.sh exits STATUS and its
# output matches the extended regular expression PATTERN.
expect() {
	local want=$1 pattern=$2 name=$3 rc=0
	shift 3
	"$budget" "$@" >"$work/out" 2>&1 || rc=$?
	if [ "$rc" != "$want" ]; then
		fail "$name: exit status $rc, expected $want"
	elif ! grep -Eq -- "$pattern" "$work/out"; then
		fail "$name: no line matching '$pattern'"
	else
		echo "ok: $name"
		return 0
	fi
	sed 's/^/    /' "$work/out"
}

# Counts as count.sh writes them: name, N2 - N1, median, min, max,
# I(N2) / N2, EL0 median, min, max, own median, min, max.
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
	indirect 200000 15.06 15.05 15.10 15.21 15.00 15.00 15.00 15.00 15.00 15.00 \
	secure_call 40000 100.00 98.50 101.20 101.90 50.00 50.00 50.00 100.00 99.90 100.10 \
	pipe 2000 13723.40 13600.00 13900.10 13810.00 310.20 310.20 310.30 13010.50 13002.10 13020.00 \
	>"$work/counts.tsv"

expect 0 'rewritten' "--update writes a table" \
	--update --table "$work/table.tsv" --measured "$work/counts.tsv"
# All: 15.06 x 1.75 = 26.355 -> 27; 100 x 1.75 = 175 exactly; 13723.4 x
# 1.75 = 24015.95 -> 24016. EL0: 15 x 1.02 = 15.3 -> 16; 50 x 1.02 = 51
# exactly; 310.2 x 1.02 = 316.4 -> 317. Own: 15 x 1.03 = 15.45 -> 16; 100 x
# 1.03 = 103 exactly; pipe, which switches tasks: 13010.5 x 1.15 =
# 14962.075 -> 14963.
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' indirect 15.1 27 15.0 16 15.0 16 \
	secure_call 100.0 175 50.0 51 100.0 103 pipe 13723.4 24016 310.2 317 13010.5 14963 >"$work/expected"
if grep -v '^#' "$work/table.tsv" | cmp -s - "$work/expected"; then
	echo "ok: --update budgets are measured x 1.75, EL0 x 1.02 and own x 1.03 (1.15 for pipe), rounded up"
else
	fail "--update wrote other budgets:"; cat "$work/table.tsv"
fi
expect 0 '^secure_call +100\.0 +175 +75\.0% +50\.0 +51 +2\.0% +100\.0 +103 +3\.0% .*  ok$' \
	"counts within the budgets it wrote pass" \
	--table "$work/table.tsv" --measured "$work/counts.tsv"

# edit ROW-PATTERN REPLACEMENT OUT: the table with one row replaced.
edit() { sed "s/^$1\$/$2/" "$work/table.tsv" >"$3"; }
row='secure_call\t100.0\t175\t50.0\t51\t100.0\t103'

# One budget too small: secure_call measured 100.0 against 99.
edit "$row" 'secure_call\t100.0\t99\t50.0\t51\t100.0\t103' "$work/small.tsv"
expect 1 '^secure_call +100\.0 +99 +-1\.0% .*FAIL: over the all budget$' "a count over its budget fails" \
	--table "$work/small.tsv" --measured "$work/counts.tsv"
grep -q "budget in $work/small.tsv" "$work/out" ||
	fail "the failure message does not name the table"
# The EL0 count over its budget: 50.0 against 49.
edit "$row" 'secure_call\t100.0\t175\t50.0\t49\t100.0\t103' "$work/small-el0.tsv"
expect 1 '^secure_call .* 49 +-2\.0% .*FAIL: over the EL0 budget$' "an EL0 count over its budget fails" \
	--table "$work/small-el0.tsv" --measured "$work/counts.tsv"
# The own count over its budget: 100.0 against 98.
edit "$row" 'secure_call\t100.0\t175\t50.0\t51\t100.0\t98' "$work/small-own.tsv"
expect 1 '^secure_call .* 98 +-2\.0% .*FAIL: over the own budget$' "an own count over its budget fails" \
	--table "$work/small-own.tsv" --measured "$work/counts.tsv"
# Two at once are both named.
edit "$row" 'secure_call\t100.0\t175\t50.0\t49\t100.0\t98' "$work/small-two.tsv"
expect 1 '^secure_call .*FAIL: over the EL0 and own budgets$' "two counts over their budgets fail" \
	--table "$work/small-two.tsv" --measured "$work/counts.tsv"
# Exactly at the budgets passes (a budget is inclusive).
edit "$row" 'secure_call\t100.0\t100\t50.0\t50\t100.0\t100' "$work/exact.tsv"
expect 0 '^secure_call +100\.0 +100 +0\.0% +50\.0 +50 +0\.0% +100\.0 +100 +0\.0% .*  ok$' \
	"counts equal to their budgets pass" --table "$work/exact.tsv" --measured "$work/counts.tsv"
# Far under a budget passes, noted as loose: more than a third above what
# --update writes (own: 103 x 4 / 3 = 137.3).
edit "$row" 'secure_call\t100.0\t175\t50.0\t51\t100.0\t138' "$work/loose.tsv"
expect 0 '^secure_call .*  ok \(loose' "a loose budget passes with a note" \
	--table "$work/loose.tsv" --measured "$work/counts.tsv"
edit "$row" 'secure_call\t100.0\t175\t50.0\t51\t100.0\t137' "$work/not-loose.tsv"
expect 0 '^secure_call .*  ok$' "a budget a third above what --update writes is not loose" \
	--table "$work/not-loose.tsv" --measured "$work/counts.tsv"

grep -v '^pipe' "$work/table.tsv" >"$work/missing.tsv"
expect 1 '^pipe .*FAIL: no budget$' "a counted operation without a budget fails" \
	--table "$work/missing.tsv" --measured "$work/counts.tsv"
{ cat "$work/table.tsv"; printf 'getpid\t856.2\t942\t10.0\t11\t800.0\t824\n'; } >"$work/extra.tsv"
expect 1 '^getpid .*FAIL: not counted$' "a budget for an operation not counted fails" \
	--table "$work/extra.tsv" --measured "$work/counts.tsv"
{ cat "$work/table.tsv"; printf 'getpid\t856.2\t942\t10.0\t11\n'; } >"$work/malformed.tsv"
expect 1 'malformed or repeated row' "a malformed table is refused" \
	--table "$work/malformed.tsv" --measured "$work/counts.tsv"
{ cat "$work/table.tsv"; printf 'pipe\t13723.4\t99999\t310.2\t317\t13010.5\t14963\n'; } >"$work/repeated.tsv"
expect 1 'malformed or repeated row' "a repeated operation is refused" \
	--table "$work/repeated.tsv" --measured "$work/counts.tsv"

# The checked-in table budgets exactly the operations count.sh counts.
counted=$(bash -c '. "$1/qemu/lib/common.sh"; . "$1/qemu/lib/count.sh"
	printf "%s\n" "${OPS[@]}" "${NATIVE_OPS[@]/%/_native}" "${ALLOWALL_OPS[@]/%/_allowall}" "${RUN_OPS[@]}"' _ "$src" | sort)
budgeted=$(grep -v '^#' "$src/qemu/instruction-budget.tsv" | cut -f1 | sort)
if [ "$counted" = "$budgeted" ]; then
	echo "ok: qemu/instruction-budget.tsv budgets every operation of qemu/lib/count.sh"
else
	fail "qemu/instruction-budget.tsv and OPS in qemu/lib/count.sh differ:"
	diff <(echo "$counted") <(echo "$budgeted") || true
fi

[ $failures = 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all checks passed"
