#!/bin/sh
# One case of the ara-loader tests, run by ctest inside the POE guest (POSIX
# sh: busybox). It prints every check it makes, then "loader-case CASE: PASS"
# and exits 0 if all held; otherwise one "FAIL:" line per failed check and
# exit 1. A missing artefact is a failure, never a skip.
#
# Usage: loader-case.sh CASE LOADER APP BAD_INTERP_APP
#   APP is hello_app, whose manifest APP.ara-manifest (from ara_add_app)
#   names libara.so and libara-entry.so; BAD_INTERP_APP is hello_app linked
#   with a PT_INTERP that does not exist.
#
# Cases (ara-loader's exit statuses are in loader/README.md; --help,
# --version and usage errors are rows of tests/tools):
#   good               --manifest M APP: status 0 (APP's), APP ran (its line,
#                      its marker file), argv[0] is APP's path, and APP, libara
#                      and the entry object are mapped from sealed memfds
#   default-manifest   the same without --manifest: APP.ara-manifest is used
#   app-tampered       APP with one byte changed: status 4; stderr names app
#                      and the copy's path and shows the expected and found
#                      digests; APP did not run
#   libara-tampered    the same for a changed libara.so
#   entry-tampered     the same for a changed libara-entry.so
#   missing-file       a missing APP, libara.so or manifest: status 3, named
#   malformed-manifest a bad digest on line 3, a missing app line: status 5,
#                      the manifest's path and line number named
#   unsupported        APP not an ELF file, and an entry object without the
#                      gate sections: status 6, the reason named
#   exec-fails         APP's dynamic linker does not exist: status 7
#   injection-env      LD_PRELOAD or LD_AUDIT set: status 2, named
set -u

[ $# -eq 4 ] || { echo "usage: $0 CASE LOADER APP BAD_INTERP_APP"; exit 2; }
case_name=$1 loader=$2 app=$3 bad_interp_app=$4
manifest=$app.ara-manifest
failed=0

for f in "$loader" "$app" "$bad_interp_app" "$manifest"; do
	[ -f "$f" ] || { echo "FAIL: missing artefact $f"; exit 1; }
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL: $*"
	failed=1
}

# A role's digest or path, as the manifest has them.
digest_of() { sed -n "s/^$1 \([0-9a-f]*\) .*/\1/p" "$manifest"; }
path_of() { sed -n "s/^$1 [0-9a-f]* //p" "$manifest"; }
# Relative paths in the manifest are relative to its directory.
resolve() {
	case $1 in
	/*) echo "$1" ;;
	*) echo "$(dirname "$manifest")/$1" ;;
	esac
}
libara=$(resolve "$(path_of libara)")
entry=$(resolve "$(path_of entry)")
[ -f "$libara" ] && [ -f "$entry" ] ||
	{ echo "FAIL: the manifest names no existing libara/entry: $libara $entry"; exit 1; }
sha() { sha256sum "$1" | cut -d ' ' -f 1; }

# write_manifest OUT LIBARA_PATH ENTRY_PATH APP_PATH [LIBARA_SHA ENTRY_SHA APP_SHA]
# Digests default to those of the real manifest.
write_manifest() {
	printf 'ara-manifest 1\nlibara %s %s\nentry %s %s\napp %s %s\n' \
		"${5:-$(digest_of libara)}" "$2" "${6:-$(digest_of entry)}" "$3" \
		"${7:-$(digest_of app)}" "$4" >"$1"
}

# run ARG...: runs ara-loader; sets $status, keeps stdout and stderr.
run() {
	echo "run: ara-loader $*"
	"$loader" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	sed 's/^/  stdout: /' "$tmp/out"
	sed 's/^/  stderr: /' "$tmp/err"
}

expect_status() {
	echo "check: exit status $1"
	[ "$status" -eq "$1" ] || fail "exit status $status, expected $1"
}

# expect_line FILE LINE: FILE (out or err) has exactly this line.
expect_line() {
	echo "check: std$1 has the line '$2'"
	grep -Fqx -- "$2" "$tmp/$1" || fail "no line '$2' on std$1"
}

expect_empty() {
	echo "check: std$1 is empty"
	[ ! -s "$tmp/$1" ] || fail "std$1 is not empty"
}

expect_app_did_not_run() {
	echo "check: the App did not run"
	! grep -q 'hello-app' "$tmp/out" || fail "the App printed something"
	[ ! -e "$tmp/marker" ] || fail "the App wrote its marker file"
}

expect_app_ran() {
	expect_status 0
	expect_line out "hello-app: started"
	echo "check: the marker file exists"
	[ -f "$tmp/marker" ] || fail "no marker file: the App did not run"
}

# flip_byte FILE: changes the byte in the middle of FILE.
flip_byte() {
	cp "$1" "$tmp/original"
	off=$(($(wc -c <"$1") / 2))
	for c in X Y; do
		printf '%s' "$c" | dd of="$1" bs=1 seek="$off" conv=notrunc 2>/dev/null
		cmp -s "$1" "$tmp/original" || return 0
	done
	fail "could not change a byte of $1"
}

# expect_mismatch ROLE PATH EXPECTED_SHA: the digest refusal, exactly.
expect_mismatch() {
	expect_status 4
	expect_line err "ara-loader: $1 $2: digest mismatch"
	expect_line err "  expected sha256 $3"
	expect_line err "  found    sha256 $(sha "$2")"
	expect_app_did_not_run
}

case $case_name in
good)
	run --manifest "$manifest" "$app" "$tmp/marker"
	expect_app_ran
	expect_line out "hello-app: argv[0]=$app"
	expect_line out "hello-app: mapped /memfd:ara-app"
	expect_line out "hello-app: mapped /memfd:ara-libara"
	expect_line out "hello-app: mapped /memfd:ara-entry"
	;;
default-manifest)
	run "$app" "$tmp/marker"
	expect_app_ran
	;;
app-tampered)
	cp "$app" "$tmp/app"
	flip_byte "$tmp/app"
	run --manifest "$manifest" "$tmp/app" "$tmp/marker"
	expect_mismatch app "$tmp/app" "$(digest_of app)"
	;;
libara-tampered)
	cp "$libara" "$tmp/libara.so"
	flip_byte "$tmp/libara.so"
	write_manifest "$tmp/manifest" "$tmp/libara.so" "$entry" "$app"
	run --manifest "$tmp/manifest" "$app" "$tmp/marker"
	expect_mismatch libara "$tmp/libara.so" "$(digest_of libara)"
	;;
entry-tampered)
	cp "$entry" "$tmp/libara-entry.so"
	flip_byte "$tmp/libara-entry.so"
	write_manifest "$tmp/manifest" "$libara" "$tmp/libara-entry.so" "$app"
	run --manifest "$tmp/manifest" "$app" "$tmp/marker"
	expect_mismatch entry "$tmp/libara-entry.so" "$(digest_of entry)"
	;;
missing-file)
	run --manifest "$manifest" "$tmp/no-app" "$tmp/marker"
	expect_status 3
	expect_line err "ara-loader: app $tmp/no-app: cannot open: No such file or directory"
	expect_app_did_not_run
	write_manifest "$tmp/manifest" "$tmp/no-libara.so" "$entry" "$app"
	run --manifest "$tmp/manifest" "$app" "$tmp/marker"
	expect_status 3
	expect_line err "ara-loader: libara $tmp/no-libara.so: cannot open: No such file or directory"
	expect_app_did_not_run
	run --manifest "$tmp/no-manifest" "$app" "$tmp/marker"
	expect_status 3
	expect_line err "ara-loader: manifest $tmp/no-manifest: cannot open: No such file or directory"
	expect_app_did_not_run
	;;
malformed-manifest)
	sed '3s/^entry [0-9a-f]*/entry 0123/' "$manifest" >"$tmp/manifest"
	run --manifest "$tmp/manifest" "$app" "$tmp/marker"
	expect_status 5
	expect_line err "ara-loader: manifest $tmp/manifest:3: the digest must be 64 lowercase hex digits"
	expect_app_did_not_run
	head -n 3 "$manifest" >"$tmp/manifest"
	run --manifest "$tmp/manifest" "$app" "$tmp/marker"
	expect_status 5
	expect_line err "ara-loader: manifest $tmp/manifest:4: the manifest ends before its libara, entry and app lines are all present"
	expect_app_did_not_run
	;;
unsupported)
	cp "$0" "$tmp/script"
	write_manifest "$tmp/manifest" "$libara" "$entry" "$tmp/script" "" "" "$(sha "$tmp/script")"
	run --manifest "$tmp/manifest" "$tmp/script" "$tmp/marker"
	expect_status 6
	expect_line err "ara-loader: app $tmp/script: not an ELF file"
	expect_app_did_not_run
	write_manifest "$tmp/manifest" "$libara" "$libara" "$app" "" "$(sha "$libara")"
	run --manifest "$tmp/manifest" "$app" "$tmp/marker"
	expect_status 6
	expect_line err "ara-loader: entry $libara: section .ara_gate: missing"
	expect_app_did_not_run
	;;
exec-fails)
	write_manifest "$tmp/manifest" "$libara" "$entry" "$bad_interp_app" "" "" "$(sha "$bad_interp_app")"
	run --manifest "$tmp/manifest" "$bad_interp_app" "$tmp/marker"
	expect_status 7
	expect_line err "ara-loader: cannot execute the dynamic linker /nonexistent/ld-linux-aarch64.so.1: No such file or directory"
	expect_app_did_not_run
	;;
injection-env)
	for var in LD_PRELOAD LD_AUDIT; do
		echo "with $var=/nonexistent.so"
		export "$var=/nonexistent.so"
		run --manifest "$manifest" "$app" "$tmp/marker"
		unset "$var"
		expect_status 2
		expect_line err "ara-loader: $var is set: it would load code that no manifest names into the App; unset it"
		expect_app_did_not_run
	done
	;;
*)
	fail "unknown case $case_name"
	;;
esac

[ $failed -eq 0 ] || exit 1
echo "loader-case $case_name: PASS"
