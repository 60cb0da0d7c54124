#!/usr/bin/env bash
# pg-harness.sh: a throw-away PostgreSQL server for tests, from Debian's
# package (postgresql-15), in its own data directory under a temp dir,
# listening only on 127.0.0.1 on a free port, with no Unix socket.
#
#   pg-harness.sh run CMD [ARG...]   start a server, run CMD with
#                                     ARA_PG_CONNINFO and ARA_PG_URL set, stop the server
#                                     and remove its directory whatever CMD
#                                     did (a failure, a signal); exits with
#                                     CMD's status
#   pg-harness.sh start              start one and print, for eval, the
#                                     shell assignments ARA_PG_DIR=...,
#                                     ARA_PG_CONNINFO=... and ARA_PG_URL=...
#   pg-harness.sh restart DIR [fast|immediate]
#                                     stop the server of DIR (default fast;
#                                     immediate: as a crash would) and start
#                                     it again on the same port
#   pg-harness.sh stop DIR           stop it and remove DIR
#
# ARA_PG_CONNINFO is a libpq connection string (host, port, user, password,
# dbname=ara); ARA_PG_URL the same as a URI, postgresql://ara:PASSWORD@
# 127.0.0.1:PORT/ara, as ara-provision's --store takes it. The superuser "ara" has a random password (scram-sha-256),
# so other users of the machine cannot use the server while it runs.
#
# initdb and postgres refuse to run as root, and CI runs as root: then the
# server runs as the "postgres" system user, the unprivileged account the
# same Debian package creates, which owns only the temp dir (setpriv, not
# su: no login session). ARA_PG_BIN overrides the binaries' folder
# (default /usr/lib/postgresql/15/bin); TMPDIR the temp dir's parent.
#
# Exit status: CMD's for run; 0 done, 2 usage error, 3 the server cannot be
# set up or stopped (what failed and the server's log on stderr).
set -euo pipefail

bin=${ARA_PG_BIN:-/usr/lib/postgresql/15/bin}
prog=pg-harness.sh

die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 3; }
usage() {
	printf '%s: %s\nusage: %s run CMD [ARG...] | start | restart DIR [fast|immediate] | stop DIR\n' \
		"$prog" "$1" "$prog" >&2
	exit 2
}

# as_server CMD...: CMD as the server's user (postgres when we are root).
as_server() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"
	else
		"$@"
	fi
}

pg_ctl_() { as_server "$bin/pg_ctl" -D "$1/data" -l "$1/server.log" "${@:2}"; }

show_log() { [ ! -f "$1/server.log" ] || sed 's/^/  server.log: /' "$1/server.log" >&2; }

# stop_server DIR MODE: a clean stop; the postmaster killed if it will not.
stop_server() {
	local dir=$1 mode=$2 pid
	[ -f "$dir/data/postmaster.pid" ] || return 0
	pg_ctl_ "$dir" stop -m "$mode" -w -t 30 >/dev/null 2>&1 && return 0
	pid=$(head -n1 "$dir/data/postmaster.pid" 2>/dev/null) || return 0
	kill -KILL "$pid" 2>/dev/null || true
	echo "$prog: the server (pid $pid) did not stop: killed" >&2
	return 1
}

# start_server DIR: on a free port; a port another program took meanwhile
# is tried again with another (binding is the only sound test of a port).
start_server() {
	local dir=$1 port tries
	for tries in 1 2 3 4 5; do
		port=${2:-$((20000 + RANDOM % 40000))}
		printf "port = %d\n" "$port" >>"$dir/data/postgresql.conf"
		if pg_ctl_ "$dir" start -w -t 60 >/dev/null 2>&1; then
			echo "$port" >"$dir/port"
			return 0
		fi
		if [ -n "${2:-}" ] || ! grep -q 'could not bind' "$dir/server.log" 2>/dev/null; then
			show_log "$dir"
			die "the server of $dir does not start (its log above)"
		fi
	done
	show_log "$dir"
	die "no free port after $tries tries"
}

# start: the directory and the server; prints DIR. Removes DIR on failure.
start() {
	local dir pw
	[ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ] ||
		die "$bin/initdb: not found; install Debian's postgresql (qemu/host-deps.sh does)"
	if [ "$(id -u)" = 0 ]; then
		getent passwd postgres >/dev/null ||
			die "running as root needs the 'postgres' system user, which Debian's postgresql package creates"
	fi
	dir=$(mktemp -d "${TMPDIR:-/tmp}/ara-pg.XXXXXX") || die "cannot make a temp dir in ${TMPDIR:-/tmp}"
	# From here a failure takes the directory with it.
	trap 'rm -rf "$dir"' EXIT
	[ "$(id -u)" != 0 ] || chown postgres:postgres "$dir"
	as_server test -w "$dir" || die "$dir: the server's user cannot write it (is ${TMPDIR:-/tmp} searchable?)"
	pw=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
	as_server sh -c 'umask 077; cat >"$1/pw"' sh "$dir" <<<"$pw"
	as_server "$bin/initdb" -D "$dir/data" -U ara --pwfile="$dir/pw" -A scram-sha-256 \
		-E UTF8 --locale=C --no-sync --no-instructions >"$dir/initdb.log" 2>&1 || {
		sed 's/^/  initdb: /' "$dir/initdb.log" >&2
		die "initdb failed in $dir"
	}
	as_server rm "$dir/pw"
	as_server sh -c 'cat >>"$1/data/postgresql.conf"' sh "$dir" <<-EOF
		# pg-harness.sh: loopback TCP only; no Unix socket.
		listen_addresses = '127.0.0.1'
		unix_socket_directories = ''
	EOF
	start_server "$dir"
	umask 077
	printf 'host=127.0.0.1 port=%s user=ara password=%s dbname=ara\n' "$(cat "$dir/port")" \
		"$pw" >"$dir/conninfo"
	# The password is hex: nothing to escape in the URI.
	printf 'postgresql://ara:%s@127.0.0.1:%s/ara\n' "$pw" "$(cat "$dir/port")" >"$dir/url"
	PGPASSWORD=$pw as_server "$bin/createdb" -h 127.0.0.1 -p "$(cat "$dir/port")" -U ara ara \
		2>"$dir/createdb.log" || {
		sed 's/^/  createdb: /' "$dir/createdb.log" >&2
		stop_server "$dir" immediate || true
		die "cannot create the database 'ara'"
	}
	trap - EXIT
	echo "$dir"
}

# check_dir DIR: one of ours.
check_dir() {
	[ -f "$1/conninfo" ] && [ -d "$1/data" ] || usage "$1: not a directory made by '$prog start'"
}

[ $# -ge 1 ] || usage "a command is needed"
cmd=$1; shift
case $cmd in
start)
	[ $# = 0 ] || usage "start takes no argument"
	dir=$(start)
	printf "ARA_PG_DIR='%s'\nARA_PG_CONNINFO='%s'\nARA_PG_URL='%s'\n" "$dir" \
		"$(cat "$dir/conninfo")" "$(cat "$dir/url")"
	;;
stop)
	[ $# = 1 ] || usage "stop DIR"
	check_dir "$1"
	status=0
	stop_server "$1" immediate || status=3
	rm -rf "$1"
	exit $status
	;;
restart)
	[ $# -ge 1 ] && [ $# -le 2 ] || usage "restart DIR [fast|immediate]"
	mode=${2:-fast}
	case $mode in fast | immediate) ;; *) usage "restart: mode '$mode': fast or immediate" ;; esac
	check_dir "$1"
	stop_server "$1" "$mode" || die "the server of $1 does not stop"
	start_server "$1" "$(cat "$1/port")"
	;;
run)
	[ $# -ge 1 ] || usage "run CMD [ARG...]"
	dir=$(start)
	trap 'stop_server "$dir" immediate || true; rm -rf "$dir"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	status=0
	ARA_PG_CONNINFO=$(cat "$dir/conninfo") ARA_PG_URL=$(cat "$dir/url") "$@" || status=$?
	exit $status
	;;
*) usage "unknown command '$cmd'" ;;
esac
