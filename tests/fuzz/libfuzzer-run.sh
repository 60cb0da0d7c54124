#!/bin/sh
# libfuzzer-run.sh BINARY RUNS SEED...: runs the libFuzzer binary BINARY for
# RUNS inputs (seed 1: the same inputs each time) over a fresh folder that
# starts with copies of the SEED files (a file given to libFuzzer directly
# is only replayed, never mutated), and prints "libfuzzer-run: PASS" if it
# ends without a crash, a leak or a violated property.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 BINARY RUNS SEED..." >&2; exit 2; }
bin=$1 runs=$2
shift 2
dir=$(mktemp -d "${TMPDIR:-/tmp}/libfuzzer-run.XXXXXX")
trap 'rm -rf "$dir"' EXIT
i=0
for seed; do
	i=$((i + 1))
	cp "$seed" "$dir/seed-$i" || { echo "libfuzzer-run: FAIL: seed $seed cannot be copied"; exit 1; }
done
# Inputs may grow to twice the largest seed (at least 4096 bytes).
max=$(wc -c "$@" | awk '$2 != "total" && $1 > m { m = $1 } END { m *= 2; print (m < 4096 ? 4096 : m) }')
if "$bin" -runs="$runs" -seed=1 -max_len="$max" -print_final_stats=1 "$dir"; then
	echo "libfuzzer-run: PASS: $(basename "$bin"), $runs inputs from $i seeds"
else
	echo "libfuzzer-run: FAIL: $(basename "$bin") (status $?)"
	exit 1
fi
