# Files out of the test guest. The guest's only way out is its console
# (qemu/guest/run-guest.sh streams it to stdout): a guest script prints a
# file between two marker lines,
#   ARA-FILE-BEGIN NAME
#   ...the file's lines...
#   ARA-FILE-END NAME LINES SHA256
# and the host cuts it out of the console log, checking the line count and
# the SHA-256 of what came back against what the guest sent. Binary files
# and whole directories travel as a base64 cpio archive (the guest's
# busybox tar cannot take a list of files). Source, do not run;
# NAME holds no white space.
# shellcheck shell=bash

# guest_send NAME FILE: shell lines for the guest's busybox sh that print
# the text file FILE (which must end with a newline) between the markers.
guest_send() {
	# shellcheck disable=SC2016 # $(...) is for the guest's shell
	printf 'echo "ARA-FILE-BEGIN %s"; cat %s; echo "ARA-FILE-END %s $(wc -l <%s) $(sha256sum <%s | cut -d" " -f1)"\n' \
		"$1" "$2" "$1" "$2" "$2"
}

# guest_send_dir NAME DIR [FIND_ARG...]: shell lines for the guest that
# print files of DIR as a base64 cpio archive between the markers: those
# that `find . FIND_ARG...` lists in DIR (default: -type f, every file).
# Nothing listed sends an empty file.
# Leaves DIR.ara-send.* behind in the guest (its RAM goes at power-off).
guest_send_dir() {
	local name=$1 dir=$2
	shift 2
	[ $# -gt 0 ] || set -- -type f
	local list="$dir.ara-send.list" cpio="$dir.ara-send.cpio" b64="$dir.ara-send.b64"
	printf 'cd %q && find . -mindepth 1' "$dir"
	printf ' %q' "$@"
	printf ' >%q && if [ -s %q ]; then cpio -o -H newc -F %q <%q && base64 %q >%q; else : >%q; fi && cd /\n' \
		"$list" "$list" "$cpio" "$list" "$cpio" "$b64" "$b64"
	guest_send "$name" "$b64"
}

# host_receive NAME LOG DEST: the file NAME the guest printed in LOG, to
# DEST; fails unless both markers came, and the line count and SHA-256
# agree with the guest's. The last copy counts if the guest sent several.
host_receive() {
	# Each BEGIN starts the file afresh: awk truncates a file when it
	# (re)opens it for ">".
	awk -v name="$1" -v out="$3" '
		$0 == "ARA-FILE-BEGIN " name { close(out); printf "" >out; on = 1; n = 0; next }
		on && $1 == "ARA-FILE-END" && $2 == name {
			want = $3; sha = $4; got = n; on = 0; done = 1; close(out); next
		}
		on { print >out; n++ }
		END {
			if (!done) { print "no complete " name " in the guest output" > "/dev/stderr"; exit 1 }
			if (got != want) { print name ": " got " lines came back, the guest sent " want > "/dev/stderr"; exit 1 }
			print sha
		}' "$2" >"$3.sha" || { rm -f "$3" "$3.sha"; return 1; }
	local want got
	want=$(cat "$3.sha")
	rm -f "$3.sha"
	got=$(sha256sum <"$3" | cut -d' ' -f1)
	[ "$got" = "$want" ] || {
		printf '%s: the SHA-256 of what came back (%s) is not the one the guest sent (%s)\n' "$1" "$got" "$want" >&2
		rm -f "$3"
		return 1
	}
}

# host_receive_dir NAME LOG DIR: the directory guest_send_dir printed as
# NAME in LOG, unpacked into DIR (created if need be).
host_receive_dir() {
	local b64
	b64=$(mktemp "${TMPDIR:-/tmp}/ara-receive.XXXXXX")
	host_receive "$1" "$2" "$b64" || { rm -f "$b64"; return 1; }
	local rc=0
	mkdir -p "$3" || rc=$?
	if [ $rc = 0 ] && [ -s "$b64" ]; then
		base64 -d "$b64" | (cd "$3" && cpio -i -d -m --quiet --no-absolute-filenames) || rc=$?
	fi
	rm -f "$b64"
	[ $rc = 0 ] || printf '%s: the archive from the guest did not unpack into %s\n' "$1" "$3" >&2
	return $rc
}
