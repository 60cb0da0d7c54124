#!/usr/bin/env bash
# Runs one ARA App in the POE guest, as a developer without POE hardware
# tries an App: boots the guest (qemu/guest/run-guest.sh) with the App, its
# manifest, the libara.so and entry object the manifest names, an installed
# ARA (the SDK prefix: its ara-loader runs the App) and the App's input
# files; runs `ara-loader --manifest MANIFEST APP ARG...` in a fresh working
# directory; brings the files the App wrote there back to the host; and
# exits with the App's status. qemu/ara.sh run installs the SDK from the
# tree and calls this script (qemu/README.md, "Running your own App").
#
# Usage: run-app.sh --sdk PREFIX [options] [--] APP [ARG...]
#   --sdk PREFIX      the installed ARA (arm64): PREFIX/bin/ara-loader runs
#                     the App; PREFIX goes into the guest at its host path
#   --manifest FILE   the App's manifest (default APP.ara-manifest)
#   --file FILE       copy FILE into the App's working directory, under its
#                     own name; repeatable
#   --dir DIR         copy DIR and what it holds into the working directory,
#                     under its own name; repeatable
#   --env NAME=VALUE  set NAME in the App's environment; repeatable (e.g.
#                     ARA_EVIDENCE=dev-insecure)
#   --out DIR         bring back into DIR (created if need be) every file
#                     in the working directory that the App created or
#                     changed, at its path there; without --out nothing
#                     comes back
#   --timeout SECONDS kill the guest after this long (default 600)
#   --tpm             boot the TPM guest (run-guest.sh --tpm)
#   -h, --help        print this text and exit 0
# The App, the manifest and the two objects it names are copied into the
# guest at their host paths (the manifest's relative paths still hold), so
# APP's ARGs can name them as on the host; the working directory is
# /tmp/ara-app, and files given with --file and --dir are there. The App's
# stdin is /dev/null; its stdout and stderr come with the guest's console
# on stdout (without the transfer of the files).
#
# Exit status: the App's (ara-loader's own refusals are 1-7, its
# loader/README.md); 124 the guest timed out; 125 the guest did not run
# the App (POE absent, kernel panic, QEMU failure) or, with --out, the
# App's files did not come back whole; 2 usage or a missing input file.
# The App's own 124 or 125 cannot be told from these.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/guest-files.sh"

# help: the header comment above.
help() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
usage() {
	help >&2
	exit 2
}
# bad WHAT: a usage error that names its cause.
bad() {
	printf 'run-app: %s\n' "$*" >&2
	exit 2
}

WORK=/tmp/ara-app
sdk='' manifest='' out='' timeout=600 guest_opts=()
files=() dirs=() envs=()
while [ $# -gt 0 ]; do
	case $1 in
	--sdk) sdk=${2:?}; shift 2 ;;
	--manifest) manifest=${2:?}; shift 2 ;;
	--file) files+=("${2:?}"); shift 2 ;;
	--dir) dirs+=("${2:?}"); shift 2 ;;
	--env)
		[[ ${2:?} =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || bad "--env $2: not NAME=VALUE"
		envs+=("$2"); shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--tpm) guest_opts+=(--tpm); shift ;;
	-h|--help) help; exit 0 ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || usage
[ -n "$sdk" ] || bad "--sdk PREFIX is required (qemu/ara.sh run installs one and passes it)"
[[ $timeout =~ ^[1-9][0-9]*$ ]] || bad "--timeout $timeout: not a positive number of seconds"

# real FILE: FILE's absolute path with every symlink resolved, or a usage
# error naming it.
real() {
	[ -e "$1" ] || bad "$1: No such file or directory"
	readlink -f -- "$1"
}
sdk=$(real "$sdk")
loader=$sdk/bin/ara-loader
[ -x "$loader" ] || bad "$loader: no ara-loader in the SDK prefix $sdk"
app=$(real "$1")
shift
[ -f "$app" ] || bad "$app: not a regular file"
manifest=$(real "${manifest:-$app.ara-manifest}")
[ -f "$manifest" ] || bad "$manifest: not a regular file"

run=$(mktemp -d "${TMPDIR:-/tmp}/ara-run-app.XXXXXX")
trap 'rm -rf "$run"' EXIT
tree=$run/tree

# stage FILE GUEST_PATH: FILE at GUEST_PATH in the guest (through the
# tree run-guest.sh --embed-tree copies to the guest's /).
stage() {
	mkdir -p "$tree$(dirname "$2")"
	cp -L --preserve=mode "$1" "$tree$2"
}

stage "$app" "$app"
stage "$manifest" "$manifest"
# The manifest's libara.so and entry object, where the loader will open
# them: a relative path is relative to the manifest's directory. Those in
# the SDK prefix come with it.
for role in libara entry; do
	path=$(awk -v r=$role '$1 == r { sub(/^[^ ]+ [^ ]+ /, ""); print; exit }' "$manifest")
	[ -n "$path" ] || bad "$manifest: no $role line (not an ARA manifest?)"
	case $path in /*) guest_path=$path ;; *) guest_path=$(dirname "$manifest")/$path ;; esac
	guest_path=$(realpath -m -s -- "$guest_path")
	host_path=$(real "$guest_path")
	case $host_path/ in "$sdk"/*) ;; *) stage "$host_path" "$guest_path" ;; esac
done

# The inputs, and their digests: what the App leaves unchanged stays in
# the guest.
mkdir -p "$tree$WORK"
for f in ${files[@]+"${files[@]}"}; do
	[ -f "$f" ] || bad "--file $f: not a regular file"
	cp -L --preserve=mode "$f" "$tree$WORK/"
done
for d in ${dirs[@]+"${dirs[@]}"}; do
	[ -d "$d" ] || bad "--dir $d: not a directory"
	cp -rL --preserve=mode "$d" "$tree$WORK/"
done
(cd "$tree$WORK" && find . -type f -exec sha256sum {} +) >"$tree$WORK.inputs"
# The staged parents of the paths get the host directories' modes (a
# directory in the overlay replaces the mode of the guest's own, /tmp's
# included).
(cd "$tree" && find . -mindepth 1 -type d) | while read -r d; do
	[ ! -d "/${d#./}" ] || chmod "$(stat -c %a "/${d#./}")" "$tree/${d#./}"
done
chmod 755 "$tree$WORK"

{
	echo '#!/bin/sh'
	printf 'cd %q || exit 125\n' "$WORK"
	printf 'env'
	printf ' %q' ${envs[@]+"${envs[@]}"} "$loader" --manifest "$manifest" -- "$app" "$@"
	printf '\nstatus=$?\n'
	if [ -n "$out" ]; then
		# shellcheck disable=SC2016 # for the guest's shell
		printf 'while read -r sum path; do [ "$(sha256sum <"$path" | cut -d" " -f1)" != "$sum" ] || rm -f "$path"; done <%q\n' \
			"$WORK.inputs"
		guest_send_dir app-files "$WORK"
	fi
	# shellcheck disable=SC2016 # for the guest's shell
	echo 'exit $status'
} >"$tree$WORK.sh"
chmod 755 "$tree$WORK.sh"

# The console, without the files' transfer.
set +e
"$ARA_QEMU_DIR/guest/run-guest.sh" --qemu patched --poe expect --timeout "$timeout" \
	${guest_opts[@]+"${guest_opts[@]}"} --embed "$sdk" --embed-tree "$tree" -- "$WORK.sh" |
	tee "$run/console.log" |
	awk '/^ARA-FILE-BEGIN / { on = 1; print "(the App'\''s files come back here)"; next }
		/^ARA-FILE-END / { on = 0; next }
		!on'
status=${PIPESTATUS[0]}
set -e

if [ -n "$out" ] && [ "$status" != 124 ]; then
	if grep -q '^ARA-GUEST-EXIT: [0-9]' "$run/console.log"; then
		host_receive_dir app-files "$run/console.log" "$out" ||
			{ printf 'run-app: the App ran (status %s), but its files did not come back\n' "$status" >&2; exit 125; }
		info "the App's files are in $out: $(find "$out" -type f | wc -l) file(s)"
	fi
fi
exit "$status"
