#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# The tpm evidence backend end to end, against swtpm on the host:
#   enrol (twice: the second finds the AK and must export the same key),
#   a synthetic IMA log extended into PCR 10, a quote over a random binding,
#   ara-tpm-quote's refusals, then the verifier's cases (tpm_verify_cases).
# A missing swtpm is a failure, never a skip.
#
# Usage: tpm-e2e.sh SWTPM ARA_TPM_QUOTE TPM_SYNTH_LOG TPM_VERIFY_CASES
# ARA_TPM_E2E_CAPTURE=DIR copies the genuine blob, AK, binding and log to
# DIR (to refresh tests/evidence/corpus/ and fuzz_tpm_evidence.c's policy).
set -eu

swtpm=$1 quote=$2 synth=$3 cases=$4

fail() {
	echo "tpm-e2e: FAIL: $*" >&2
	exit 1
}

[ -x "$swtpm" ] || fail "swtpm not found ('$swtpm'): install swtpm (qemu/host-deps.sh does)"

# A Unix socket: no port to pick or to collide on. AF_UNIX paths are short,
# so the directory is under /tmp whatever TMPDIR says.
work=$(mktemp -d /tmp/ara-tpm-e2e.XXXXXX)
pid=
cleanup() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

mkdir "$work/state"
sock=$work/tpm.sock
"$swtpm" socket --tpm2 --server type=unixio,path="$sock" \
	--ctrl type=unixio,path="$sock.ctrl" --tpmstate dir="$work/state" \
	--flags not-need-init,startup-clear >"$work/swtpm.log" 2>&1 &
pid=$!
i=0
while [ ! -S "$sock" ]; do
	kill -0 "$pid" 2>/dev/null || fail "swtpm exited: $(cat "$work/swtpm.log")"
	i=$((i + 1))
	[ $i -le 100 ] || fail "swtpm did not open $sock within 10 s"
	sleep 0.1
done
tcti="swtpm:path=$sock"
echo "tpm-e2e: swtpm $($swtpm --version 2>&1 | head -n1) on $sock"

# Enrolment, twice.
"$quote" --tcti "$tcti" enrol "$work/ak.pem" || fail "enrol"
"$quote" --tcti "$tcti" enrol "$work/ak2.pem" || fail "second enrol (AK already persistent)"
cmp -s "$work/ak.pem" "$work/ak2.pem" || fail "the second enrol exported another key"
grep -q "BEGIN PUBLIC KEY" "$work/ak.pem" || fail "ak.pem is not a PEM public key"

# The log, as IMA would have written it, and PCR 10 extended to match.
loader_name=/usr/lib/ara/ara-loader
extends=$("$synth" --tcti "$tcti" "$work/log.bin" "$quote" "$loader_name") ||
	fail "tpm_synth_log"

head -c 32 /dev/urandom >"$work/binding"
"$quote" --tcti "$tcti" --ima-log "$work/log.bin" quote <"$work/binding" >"$work/blob" ||
	fail "quote"
echo "tpm-e2e: quote of $(wc -c <"$work/blob") bytes over a $(wc -c <"$work/log.bin")-byte log"

# refuses NAME STATUS COMMAND...: ara-tpm-quote refuses with STATUS (its
# man page's) and one line on stderr.
refuses() {
	name=$1 want=$2
	shift 2
	status=0
	"$@" >"$work/out" 2>"$work/err" || status=$? # set -e: a refusal is expected
	[ "$status" = "$want" ] || fail "ara-tpm-quote, $name: status $status, not $want"
	[ "$(wc -l <"$work/err")" -eq 1 ] || fail "$name: not one line on stderr: $(cat "$work/err")"
	[ ! -s "$work/out" ] || fail "$name: wrote to stdout"
	echo "PASS ara-tpm-quote refuses $name: $(cat "$work/err")"
}
head -c 31 /dev/urandom >"$work/b31"
head -c 33 /dev/urandom >"$work/b33"
refuses "a 31-byte binding" 2 sh -c '"$1" --tcti "$2" --ima-log "$3" quote <"$4"' _ \
	"$quote" "$tcti" "$work/log.bin" "$work/b31"
refuses "a 33-byte binding" 2 sh -c '"$1" --tcti "$2" --ima-log "$3" quote <"$4"' _ \
	"$quote" "$tcti" "$work/log.bin" "$work/b33"
refuses "a missing IMA log" 3 sh -c '"$1" --tcti "$2" --ima-log "$3" quote <"$4"' _ \
	"$quote" "$tcti" "$work/no-such-log" "$work/binding"
refuses "an unreachable TPM" 1 sh -c '"$1" --tcti "$2" --ima-log "$3" quote <"$4"' _ \
	"$quote" "swtpm:path=$work/no-such.sock" "$work/log.bin" "$work/binding"
if "$quote" --tcti "$tcti" >/dev/null 2>&1; then
	fail "ara-tpm-quote without a command exited 0"
fi

if [ -n "${ARA_TPM_E2E_CAPTURE:-}" ]; then
	mkdir -p "$ARA_TPM_E2E_CAPTURE"
	cp "$work/blob" "$work/ak.pem" "$work/binding" "$work/log.bin" "$ARA_TPM_E2E_CAPTURE/"
	sha256sum "$quote" | cut -d' ' -f1 >"$ARA_TPM_E2E_CAPTURE/loader.sha256"
fi

"$cases" "$work/ak.pem" "$work/binding" "$work/blob" "$quote" "$loader_name" "$extends" ||
	fail "verifier cases"
echo "tpm-e2e: PASS"
