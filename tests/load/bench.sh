#!/usr/bin/env bash
# bench.sh BUILD [SECONDS]: the provisioning service's benchmark profile
# (docs/performance.md, "Provisioning service"): ara-loadgen against
# ara-provision on 127.0.0.1 at 256 concurrent devices, for SECONDS each
# (default 20): one instance; one instance with 8 stalled and 8 slow
# clients alongside; two instances. Prints the machine and a Markdown table:
# completed sessions per second of wall time and per second of the
# servers' CPU time (the generator's own CPU time is measured apart, by
# getrusage, and the servers' from /proc), latency percentiles, and the
# stalled clients' effect on the others' p99; the latencies are those of
# the sessions delivered, "failed" counts the others. BUILD should be built
# without sanitizers (-DARA_SANITIZE=OFF -DCMAKE_BUILD_TYPE=Release).
set -euo pipefail
prog=bench
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/load/lib.sh
. "$here/lib.sh"
build=$1 seconds=${2:-20}
load_setup "$build"

echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1) ($(uname -m)), Linux $(uname -r)"
echo "each run: $seconds s, 256 sessions in flight, dev-insecure evidence, TCP loopback"
echo
printf '| %-34s | %8s | %14s | %6s | %6s | %6s | %7s | %7s | %7s | %6s |\n' run "per s" "per srv-CPU s" p50 p90 p99 max "gen CPU" "srv CPU" failed
printf '|%s|\n' "------------------------------------|----------|----------------|--------|--------|--------|---------|---------|---------|--------"

# row NAME JSON: one line of the table.
row() {
	python3 - "$1" "$2" <<-'PY'
		import json, sys
		d = json.load(open(sys.argv[2]))
		l = d["latency_ms"]
		srv = d["per_server_cpu_s"]
		g = d["ends"]["genuine"]
		failed = sum(v for k, v in g.items() if k not in ("delivered", "refusals"))
		print("| %-34s | %8.0f | %14s | %6.1f | %6.1f | %6.1f | %7.1f | %7.1f | %7s | %6d |" % (
		    sys.argv[1], d["per_wall_s"], "%.0f" % srv if srv is not None else "-",
		    l["p50"], l["p90"], l["p99"], l["max"], d["generator_cpu_s"],
		    "%.1f" % d["server_cpu_s"] if d["server_cpu_s"] is not None else "-", failed))
	PY
}

# bench NAME INSTANCES ARGS...: a run against fresh instances.
bench() {
	local name=$1 n=$2 i targets=() pids=()
	shift 2
	for i in $(seq "$n"); do
		instance_start "s$i"
		local p=port_s$i v=pid_s$i
		targets+=(--connect "127.0.0.1:${!p}")
		pids+=(--server-pid "${!v}")
	done
	loadgen "${targets[@]}" "${pids[@]}" --duration "$seconds" --sessions 0 --concurrency 256 \
		--timeout 60 --json "$work/$name.json" "$@" >"$work/$name.txt" 2>&1 || true
	row "$name" "$work/$name.json"
	for i in $(seq "$n"); do instance_kill "s$i" TERM; done
}

bench "1 instance" 1
bench "1 instance, 8 stalled + 8 slow" 1 --stalled 8 --slow 8
bench "2 instances" 2
echo
python3 - "$work" <<-'PY'
	import json, sys
	w = sys.argv[1]
	one, stall, two = (json.load(open("%s/%s.json" % (w, n))) for n in
	                   ("1 instance", "1 instance, 8 stalled + 8 slow", "2 instances"))
	def verdict(ok): return "met" if ok else "MISSED"
	print("targets: >= 1000 sessions/s per instance: %.0f (%s); p99 <= 50 ms at 256: %.1f ms (%s);"
	      % (one["per_wall_s"], verdict(one["per_wall_s"] >= 1000), one["latency_ms"]["p99"],
	         verdict(one["latency_ms"]["p99"] <= 50)))
	d = stall["latency_ms"]["p99"] - one["latency_ms"]["p99"]
	print("  stalled and slow clients add %.1f ms to the others' p99 (%s)" % (d, verdict(d <= 10)))
	for name, r in (("1 instance", one), ("stalled", stall), ("2 instances", two)):
	    bad = {k: v for k, v in r["ends"]["genuine"].items() if k not in ("delivered", "refusals") and v}
	    if bad or r["breaches"]:
	        print("  %s: sessions not delivered: %s, breaches %d" % (name, bad, r["breaches"]))
	PY
