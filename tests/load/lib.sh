# shellcheck shell=bash disable=SC2154 # prog: the sourcing script's
# lib.sh: what fault.sh and bench.sh share, sourced: a work directory with
# a dev-insecure policy and its secrets, ara-provision instances on
# 127.0.0.1 (each its log, its port), and ara-loadgen with that policy.
#
#   load_setup BUILD      $work, $policy, $provision, $loadgen; cleanup at exit
#   instance_start N [P]  instance N on port P (default: the kernel's); sets
#                         port_N and pid_N
#   instance_kill N SIG   signals instance N and reaps it
#   loadgen ARGS...       ara-loadgen --policy ... ARGS (its status returned)

hex_of() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'; }

load_cleanup() {
	local v
	for v in ${!pid_*}; do kill -KILL "${!v}" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}

load_setup() {
	provision=$1/services/ara-provision
	loadgen=$1/tests/load/ara-loadgen
	[ -x "$provision" ] || { echo "$prog: FAILED: $provision: not built" >&2; exit 1; }
	[ -x "$loadgen" ] || { echo "$prog: FAILED: $loadgen: not built" >&2; exit 1; }
	work=$(mktemp -d "${TMPDIR:-/tmp}/ara-load.XXXXXX")
	trap load_cleanup EXIT
	secret=$(hex_of 32)
	(umask 077; echo "media-key $secret" >"$work/secrets")
	policy=$work/policy
	cat >"$policy" <<-EOF
		backend dev-insecure
		max-age 600
		loader $(hex_of 32)
		libara $(hex_of 32)
		entry $(hex_of 32)
		app $(hex_of 32)
		secrets secrets
	EOF
}

# The port instance N listens on, from its log's first line.
instance_port() {
	{ sed -n 's/^ara-provision: listening on tcp 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$work/$1.log" 2>/dev/null || true; } | tail -n1
}

instance_start() {
	local n=$1 port=${2:-0} tries=0 p
	# A restarted instance's earlier log is kept beside, for the records.
	[ ! -s "$work/$n.log" ] || mv "$work/$n.log" "$work/$n.log.$(date +%s%N)"
	"$provision" --policy "$policy" --tcp "127.0.0.1:$port" --log "$work/$n.log" 2>>"$work/$n.err" &
	printf -v "pid_$n" %s $!
	while p=$(instance_port "$n") && [ -z "$p" ]; do
		tries=$((tries + 1))
		if [ $tries -gt 200 ] || ! kill -0 "$(eval echo "\$pid_$n")" 2>/dev/null; then
			echo "$prog: FAILED: instance $n does not start" >&2
			cat "$work/$n.err" >&2
			exit 1
		fi
		sleep 0.05
	done
	printf -v "port_$n" %s "$p"
}

instance_kill() {
	local v=pid_$1
	kill -"$2" "${!v}" 2>/dev/null || true
	wait "${!v}" 2>/dev/null || true
}

loadgen() { "$loadgen" --policy "$policy" --name media-key "$@"; }

# json FILE KEY.KEY...: a value of ara-loadgen's JSON.
json() {
	python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[k]
print(v)' "$1" "$2"
}
