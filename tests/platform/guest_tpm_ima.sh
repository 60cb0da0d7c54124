#!/bin/sh
# In the TPM guest (qemu/guest/run-guest.sh --tpm, ctest label "tpm"): the
# chain that the tpm evidence backend relies on is there and works. A TPM
# behind the kernel's resource manager; securityfs with IMA's logs; IMA
# attached to the TPM (a non-zero boot_aggregate); and the policy the
# guest's init loaded measures what runs: executing a freshly written
# script adds an ima-ng entry in PCR 10 that names it with the SHA-256 of
# its content, grows the binary log, and changes PCR 10 in the TPM.
# Replaying the log against a quote is the tpm backend's own tests' job.
# POSIX sh (the guest's busybox). Prints "guest_tpm_ima: PASS" last, or
# "guest_tpm_ima: FAIL: <why>" and exits 1.
set -u

fail() {
	echo "guest_tpm_ima: FAIL: $*"
	exit 1
}

sec=/sys/kernel/security
ima=$sec/ima
ascii=$ima/ascii_runtime_measurements
binary=$ima/binary_runtime_measurements
pcr10=/sys/class/tpm/tpm0/pcr-sha256/10

[ -c /dev/tpmrm0 ] || fail "no /dev/tpmrm0: the guest has no TPM (not the TPM guest, or no driver)"
awk -v m="$sec" '$2 == m && $3 == "securityfs" { found = 1 } END { exit !found }' /proc/mounts ||
	fail "securityfs is not mounted on $sec"
[ -r "$ascii" ] || fail "$ascii is missing or unreadable: no IMA"
# securityfs files report a size of 0: count what a read returns.
bin_before=$(wc -c <"$binary") || fail "$binary is unreadable"
[ "$bin_before" -gt 0 ] || fail "$binary is empty"

# "10 <template sha1> ima-ng sha256:<hex> boot_aggregate": all zeros means
# IMA found no TPM when it started (TPM-bypass mode).
read -r pcr _ template agg name <"$ascii"
[ "$pcr $template $name" = "10 ima-ng boot_aggregate" ] ||
	fail "the first IMA entry is '$pcr $template $agg $name', not PCR 10's ima-ng boot_aggregate"
case $agg in
sha256:*[!0]*) ;;
sha256:*) fail "boot_aggregate is zero ($agg): IMA runs in TPM-bypass mode" ;;
*) fail "boot_aggregate is not a SHA-256 digest: $agg" ;;
esac
echo "ara-evidence: IMA attached to the TPM: boot_aggregate $agg"

[ -r "$pcr10" ] || fail "$pcr10 is missing: the TPM has no SHA-256 bank"
pcr_before=$(cat "$pcr10")

# A script no one has run before: its name and content (a nonce) are new,
# so its measurement cannot be one IMA had cached.
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
nonce=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
probe=$tmp/ima-probe-$nonce
printf '#!/bin/sh\necho "ima probe %s"\n' "$nonce" >"$probe"
chmod 755 "$probe"
want=$(sha256sum "$probe" | cut -d' ' -f1)
out=$("$probe") || fail "running $probe failed"
[ "$out" = "ima probe $nonce" ] || fail "$probe printed '$out'"

# Exactly one entry names the probe: PCR 10, ima-ng, sha256 of its content.
entries=$(awk -v f="$probe" '$5 == f' "$ascii")
[ -n "$entries" ] || fail "no IMA entry names $probe after it ran (is the init's IMA policy loaded?)"
[ "$(printf '%s\n' "$entries" | wc -l)" -eq 1 ] || fail "more than one IMA entry names $probe: $entries"
# shellcheck disable=SC2086 # split into the entry's fields
set -- $entries
[ "$1" = 10 ] || fail "the probe's entry is in PCR $1, not 10: $entries"
[ "$3" = ima-ng ] || fail "the probe's entry has template $3, not ima-ng: $entries"
[ "$4" = "sha256:$want" ] ||
	fail "the probe's entry has digest $4, but sha256sum of the file is $want: $entries"
echo "ara-evidence: IMA measured an executed script: $1 $3 $4 $5"

bin_after=$(wc -c <"$binary")
[ "$bin_after" -gt "$bin_before" ] ||
	fail "$binary did not grow ($bin_before bytes before the probe, $bin_after after)"
pcr_after=$(cat "$pcr10")
[ "$pcr_after" != "$pcr_before" ] || fail "PCR 10 did not change when IMA measured the probe: $pcr_after"
echo "ara-evidence: PCR 10 (sha256) moved from $pcr_before to $pcr_after; the binary log grew by $((bin_after - bin_before)) bytes"
echo "guest_tpm_ima: PASS"
