# shellcheck shell=bash disable=SC2154,SC2034 # prog: the sourcing script's; what it sets: its
# lib.sh: what fault.sh and bench.sh share, sourced: a work directory with
# a dev-insecure policy and its secrets, ara-provision instances on
# 127.0.0.1 (each its log, its port), and ara-loadgen with that policy.
#
#   load_setup BUILD BACKEND
#                         $work, $policy, $provision, $loadgen; the store
#                         (sqlite: a file in $work; postgresql: a server
#                         of tests/pg/pg-harness.sh) and its KEK; cleanup
#                         at exit; store_args (serve's: a configuration
#                         file naming the store) and admin_args (the
#                         operator commands')
#   instance_start N [P]  instance N on port P (default: the kernel's); sets
#                         port_N and pid_N
#   instance_kill N SIG   signals instance N and reaps it
#   loadgen ARGS...       ara-loadgen --policy ... ARGS (its status returned)

hex_of() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'; }

load_cleanup() {
	local v
	for v in ${!pid_*}; do kill -KILL "${!v}" 2>/dev/null || true; done
	wait 2>/dev/null || true
	[ -z "${pg_dir:-}" ] || "$pg_harness" stop "$pg_dir" || true
	rm -rf "$work"
}

load_setup() {
	pg_harness=$(dirname "${BASH_SOURCE[0]}")/../pg/pg-harness.sh
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
	(umask 077; head -c 32 /dev/urandom >"$work/kek")
	case $2 in
	sqlite) store=sqlite:$work/store.db ;;
	postgresql)
		eval "$("$pg_harness" start)" || { echo "$prog: FAILED: no PostgreSQL server" >&2; exit 1; }
		pg_dir=$ARA_PG_DIR store=$ARA_PG_URL
		;;
	*) echo "$prog: FAILED: backend '$2': sqlite or postgresql" >&2; exit 2 ;;
	esac
	# The instances read their store from a configuration file, as an
	# operator's would (ara-provision(1), FILES); the policy stays on the
	# command line.
	(umask 077; printf 'store %s\nkek %s\n' "$store" "$work/kek" >"$work/service.conf")
	store_args=(--config "$work/service.conf")
	# The operator commands take the store on their command line.
	admin_args=(--store "$store" --kek "$work/kek")
}

# The port instance N listens on, from its log's "listening" record.
instance_port() {
	{ sed -n 's/^{.*"event":"listening","detail":"tcp 127\.0\.0\.1:\([0-9]*\)"}$/\1/p' "$work/$1.log" 2>/dev/null || true; } | tail -n1
}

instance_start() {
	local n=$1 port=${2:-0} tries=0 p
	# A restarted instance's earlier log is kept beside, for the records.
	[ ! -s "$work/$n.log" ] || mv "$work/$n.log" "$work/$n.log.$(date +%s%N)"
	"$provision" serve --policy "$policy" "${store_args[@]}" --tcp "127.0.0.1:$port" \
		--log "$work/$n.log" 2>>"$work/$n.err" &
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

# tpm_setup BUILD: swtpm on a Unix socket in $work, its AK enrolled, an IMA
# log with PCR 10 extended to match (tests/evidence/tpm-e2e.sh does the
# same), and the policy accepting tpm evidence too, its loader the log's.
# Sets $tpm_args, ara-loadgen's options for tpm devices.
tpm_setup() {
	local quote=$1/services/evidence/ara-tpm-quote synth=$1/tests/evidence/tpm_synth_log i=0
	local sock=$work/tpm.sock
	command -v swtpm >/dev/null || { echo "$prog: FAILED: swtpm not found (qemu/host-deps.sh installs it)" >&2; exit 1; }
	mkdir "$work/tpm"
	swtpm socket --tpm2 --server type=unixio,path="$sock" --ctrl type=unixio,path="$sock.ctrl" \
		--tpmstate dir="$work/tpm" --flags not-need-init,startup-clear >"$work/swtpm.err" 2>&1 &
	pid_swtpm=$!
	while [ ! -S "$sock" ]; do
		i=$((i + 1))
		if [ $i -gt 100 ] || ! kill -0 "$pid_swtpm" 2>/dev/null; then
			echo "$prog: FAILED: swtpm does not start: $(cat "$work/swtpm.err")" >&2
			exit 1
		fi
		sleep 0.1
	done
	"$quote" --tcti "swtpm:path=$sock" enrol "$work/ak.pem" >/dev/null
	"$synth" --tcti "swtpm:path=$sock" "$work/ima.bin" "$quote" /usr/lib/ara/ara-loader >/dev/null
	sed -i "s/^loader .*/loader $(sha256sum "$quote" | cut -d' ' -f1)/" "$policy"
	printf 'backend tpm\ntpm-ak ak.pem\n' >>"$policy"
	tpm_args=(--tpm-quote "$quote" --tcti "swtpm:path=$sock" --ima-log "$work/ima.bin")
}
