#!/usr/bin/env bash
# Boots the test guest once under QEMU, runs COMMAND in it and exits with
# COMMAND's exit status. The guest console streams to stdout as it runs.
#
# Usage: run-guest.sh [options] -- COMMAND [ARG...]
#   --qemu patched|unpatched|PATH  QEMU to run (default patched: qemu-path.sh)
#   --machine virt|virt-el2|virt-secure-el2
#                       virt: kernel at EL1 (default); virt-el2: with EL2
#                       (virtualization=on, the kernel runs at EL2 with VHE);
#                       virt-secure-el2: with EL2 and EL3 (secure=on)
#   --poe expect|absent  what the guest must find before it runs COMMAND
#                       (default expect; absent is the control run on an
#                       unpatched QEMU)
#   --tpm               boot with a TPM 2.0: QEMU's tpm-tis-device backed by a
#                       fresh swtpm, and the project's kernel
#                       (build-tpm-kernel.sh) instead of Debian's, which has no
#                       driver for it; the guest must find the TPM and IMA
#                       measuring into it before it runs COMMAND (ara.tpm=expect)
#   --timeout SECONDS   kill the guest after this long (default 600)
#   --embed DIR         copy DIR (without .git) into the guest at the same
#                       absolute path; repeatable. Symlinks are copied as
#                       symlinks, so neither DIR nor its parents may be one.
#   --embed-tree DIR    copy what DIR holds into the guest's / (DIR/a/b
#                       lands at /a/b); repeatable (qemu/run-app.sh stages
#                       single files at their host paths this way)
#   --cwd DIR           run COMMAND in DIR (default /)
#   --plugin-insn FILE  count the guest's instructions with QEMU's libinsn
#                       plugin; FILE receives its report, one "cpu N insns: X"
#                       line per vCPU and "total insns: X", counting from reset
#                       to power-off (boot included)
#   --plugin-args ARGS  more comma-separated options for that plugin, e.g.
#                       "match=hint #0x7e,trace=on"
#   --plugin-lib SO     with --plugin-insn: load the TCG plugin SO instead of
#                       libinsn, with only the --plugin-args options
#                       (qemu/lib/count.sh's count-marks)
#   --kernel-args ARGS  more words for the guest kernel's command line
#                       (qemu/lib/count.sh's nohz_full=1)
#
# Exit status: COMMAND's, or 124 if the guest timed out, 125 if the guest
# refused to run COMMAND (POE or TPM state not as expected) or ended without
# reporting a status (kernel panic, QEMU failure), 2 on a usage error.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

# usage: the header comment above, to stderr.
usage() {
	awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
	exit 2
}

qemu=patched machine=virt poe=expect tpm=no timeout=600 cwd=/ insn_log='' plugin_args='' plugin_lib=
kernel_args=
embeds=() trees=()
while [ $# -gt 0 ]; do
	case $1 in
	--qemu) qemu=${2:?}; shift 2 ;;
	--machine) machine=${2:?}; shift 2 ;;
	--poe) poe=${2:?}; shift 2 ;;
	--tpm) tpm=yes; shift ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--embed)
		[ -d "${2:?}" ] || die "--embed $2: not a directory"
		real=$(cd "$2" && pwd -P)
		[ "$real" = "$(cd "$2" && pwd -L)" ] ||
			die "--embed $2: the path goes through a symlink; give the real path $real"
		embeds+=("$real"); shift 2 ;;
	--embed-tree)
		[ -d "${2:?}" ] || die "--embed-tree $2: not a directory"
		trees+=("$(cd "$2" && pwd -P)"); shift 2 ;;
	--cwd) cwd=${2:?}; shift 2 ;;
	--plugin-insn) insn_log=${2:?}; shift 2 ;;
	--plugin-args) plugin_args=,${2:?}; shift 2 ;;
	--plugin-lib) plugin_lib=${2:?}; shift 2 ;;
	--kernel-args) kernel_args=${2:?}; shift 2 ;;
	--) shift; break ;;
	*) usage ;;
	esac
done
[ $# -gt 0 ] || usage
case $machine in
virt) machine_opt=virt ;;
virt-el2) machine_opt=virt,virtualization=on ;;
virt-secure-el2) machine_opt=virt,secure=on,virtualization=on ;;
*) usage ;;
esac
case $poe in expect|absent) ;; *) usage ;; esac
[[ $timeout =~ ^[1-9][0-9]*$ ]] || usage

case $qemu in
patched|unpatched)
	qemu_bin=$("$ARA_QEMU_DIR/qemu-path.sh" "$qemu")
	plugin=$("$ARA_QEMU_DIR/qemu-path.sh" "$qemu" --plugin)
	;;
*)
	# A QEMU build tree: the plugin is built next to the binary.
	qemu_bin=$(readlink -f "$qemu")
	plugin=$(dirname "$qemu_bin")/tests/tcg/plugins/libinsn.so
	;;
esac
[ -x "$qemu_bin" ] || die "not an executable QEMU: $qemu_bin"

guest=$("$ARA_QEMU_DIR/guest/build-guest.sh")
kernel=$guest/vmlinuz
if [ $tpm = yes ]; then
	need_cmd swtpm swtpm
	kernel=$("$ARA_QEMU_DIR/guest/build-tpm-kernel.sh")/Image
fi

run=$(mktemp -d "${TMPDIR:-/tmp}/ara-guest.XXXXXX")
swtpm_pid=
# swtpm normally ends with QEMU (--terminate); this covers a QEMU that never
# connected, and Ctrl-C.
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	if [ -n "$swtpm_pid" ]; then
		kill "$swtpm_pid" 2>/dev/null || true
		wait "$swtpm_pid" 2>/dev/null || true
	fi
	rm -rf "$run"
}
trap cleanup EXIT

# The per-run overlay: /ara/run.sh plus the embedded directories. Linux
# unpacks the cpio archives concatenated to the base initramfs over it.
mkdir -p "$run/overlay/ara"
{
	printf 'cd %q || exit 125\n' "$cwd"
	printf 'exec'
	printf ' %q' "$@"
	printf '\n'
} >"$run/overlay/ara/run.sh"
(cd "$run/overlay" && find ara | cpio -o -H newc -R 0:0 --quiet) >"$run/overlay.cpio"
if [ ${#embeds[@]} -gt 0 ]; then
	# Each embedded directory with its parents (cpio does not create
	# them), sorted so that a directory precedes what it holds.
	(
		cd /
		for d in "${embeds[@]}"; do
			p=$d
			while p=$(dirname "$p") && [ "$p" != / ]; do echo "${p#/}"; done
			find "${d#/}" -name .git -prune -o -print
		done | LC_ALL=C sort -u | cpio -o -H newc -R 0:0 --quiet
	) >>"$run/overlay.cpio"
fi
for t in ${trees[@]+"${trees[@]}"}; do
	(cd "$t" && find . -mindepth 1 | sed "s|^\./||" | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >>"$run/overlay.cpio"
done
cat "$guest/base.cpio" "$run/overlay.cpio" >"$run/initrd"
info "initramfs: $(du -h "$guest/base.cpio" | cut -f1) base + $(du -h "$run/overlay.cpio" | cut -f1) overlay"

append="console=ttyAMA0 quiet panic=-1 ara.poe=$poe"
qemu_args=(-M "$machine_opt" -cpu max -smp 2 -m 2G
	-nographic -no-reboot -nic none
	-kernel "$kernel" -initrd "$run/initrd")
if [ $tpm = yes ]; then
	# A fresh TPM for every boot: its state (owner keys, persistent
	# handles, NV) lives in $run and goes with it. Started in the
	# background rather than with --daemon, so that it stays in this
	# script's process group (a harness that kills the group stops it
	# too); --terminate ends it when QEMU closes the control channel.
	# No firmware sends TPM2_Startup (QEMU boots the kernel directly, and
	# resets the TPM as it starts, so swtpm's --flags startup-clear would
	# not last): the kernel does, after its first command fails, which it
	# reports on the console as "A TPM error (256) occurred attempting the
	# self test" (256: TPM_RC_INITIALIZE), followed by "starting up the
	# TPM manually". Expected, not a fault.
	sock="$run/swtpm.sock"
	[ ${#sock} -lt 108 ] || die "the swtpm socket path is too long for a Unix socket: $sock (set TMPDIR shorter)"
	mkdir "$run/tpm"
	swtpm socket --tpm2 --tpmstate dir="$run/tpm" --ctrl type=unixio,path="$sock" \
		--terminate </dev/null >"$run/swtpm.log" 2>&1 &
	swtpm_pid=$!
	# QEMU fails at once if the socket is not there yet.
	for _ in $(seq 50); do
		[ -S "$sock" ] && break
		kill -0 "$swtpm_pid" 2>/dev/null || break
		sleep 0.1
	done
	if [ ! -S "$sock" ]; then
		cat "$run/swtpm.log" >&2
		die "swtpm did not start (its log is above)"
	fi
	info "swtpm $(swtpm --version 2>&1 | sed -n "s/^TPM emulator version \([^,]*\).*/\1/p"), pid $swtpm_pid"
	qemu_args+=(-chardev "socket,id=chrtpm,path=$sock"
		-tpmdev "emulator,id=tpm0,chardev=chrtpm"
		-device "tpm-tis-device,tpmdev=tpm0")
	append+=" ara.tpm=expect"
fi
qemu_args+=(-append "$append${kernel_args:+ $kernel_args}")
if [ -n "$insn_log" ]; then
	if [ -n "$plugin_lib" ]; then
		[ -f "$plugin_lib" ] || die "--plugin-lib $plugin_lib: no such file"
		qemu_args+=(-plugin "$plugin_lib$plugin_args" -d plugin -D "$insn_log")
	else
		[ -f "$plugin" ] || die "no instruction-counting plugin at $plugin"
		# inline=on counts with inline TCG ops instead of a callback per
		# block: a boot took 21 s instead of 60 s.
		qemu_args+=(-plugin "$plugin,inline=on$plugin_args" -d plugin -D "$insn_log")
	fi
fi

step "booting the guest: $qemu_bin -M $machine_opt$([ $tpm = no ] || echo ' with a TPM') (timeout ${timeout}s)"
t0=$(date +%s)
set +e
# stdin is not the terminal: QEMU would otherwise switch it to raw mode.
# --foreground keeps QEMU in this script's process group, so that Ctrl-C, or
# a test harness killing the group, stops the guest too.
# The serial console ends lines with CR LF; callers get plain lines.
timeout --foreground --kill-after=10 "$timeout" "$qemu_bin" "${qemu_args[@]}" </dev/null 2>&1 |
	sed -u 's/\r$//' | tee "$run/console.log"
qemu_status=${PIPESTATUS[0]}
set -e

ran=$(( $(date +%s) - t0 ))
info "guest ran for ${ran}s"
# swtpm logs only errors: anything in its log is worth seeing.
if [ $tpm = yes ] && [ -s "$run/swtpm.log" ]; then
	printf 'run-guest: swtpm logged:\n' >&2
	sed 's/^/    /' "$run/swtpm.log" >&2
fi
# timeout(1) exits 124 after SIGTERM, 137 if it had to SIGKILL QEMU later
# (which an OOM kill also gives, but sooner).
if [ "$qemu_status" = 124 ] || { [ "$qemu_status" = 137 ] && [ "$ran" -ge "$timeout" ]; }; then
	printf 'run-guest: guest timed out after %s s\n' "$timeout" >&2
	exit 124
fi
# init prints the marker last; take the last one in case COMMAND printed
# such a line itself.
status=$(sed -n 's/^ARA-GUEST-EXIT: //p' "$run/console.log" | tail -n1)
case $status in
'')
	printf 'run-guest: the guest ended without reporting a status (QEMU exit %s): kernel panic, crash or QEMU failure; see the console above\n' "$qemu_status" >&2
	exit 125 ;;
*[!0-9]*)
	printf 'run-guest: the guest refused to run the command (%s); see the ARA-GUEST line above\n' "$status" >&2
	exit 125 ;;
esac
exit "$status"
