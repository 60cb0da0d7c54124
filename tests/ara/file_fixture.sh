#!/bin/sh
# The objects the file-class attacks (tests/ara/attack_files.c) need and an
# App under ARA cannot make itself (ARA drops CAP_MKNOD, the filter denies
# mounts): made here before the command runs, named by ARA_FILES_FIXTURE,
# and removed after it.
#   mem      a node with /dev/mem's numbers (1:1), outside /dev
#   disk     a node with the numbers of a loop device over a file in /tmp
#            (the guest's RAM, no disk) whose first sector holds a marker,
#            or, without loop devices, of mmcblk0 (179:0)
#   tracing, debug, cgroup   tracefs, debugfs and cgroup2, mounted here
#   noexec   a tmpfs mounted noexec, holding "code" (a page of text)
# usage: file_fixture.sh COMMAND [ARG...]
set -u
dir=$(mktemp -d /tmp/ara-file-classes.XXXXXX) || exit 1
loop=
cleanup() {
	for fs in tracing debug cgroup noexec; do
		umount "$dir/$fs" 2>/dev/null
		rmdir "$dir/$fs" 2>/dev/null
	done
	[ -z "$loop" ] || losetup -d "$loop"
	rm -f "$dir/mem" "$dir/disk" "$dir/disk.img"
	rmdir "$dir"
}
trap cleanup EXIT

mknod "$dir/mem" c 1 1 || echo "file_fixture: no mem node" >&2

{ printf 'ARA-FILES-RAW-SECTOR'; dd if=/dev/zero bs=4076 count=1 2>/dev/null; } >"$dir/disk.img"
if loop=$(losetup -f 2>/dev/null) && losetup "$loop" "$dir/disk.img" 2>/dev/null; then
	numbers=$(stat -L -c '%t %T' "$loop")
	mknod "$dir/disk" b $((0x${numbers% *})) $((0x${numbers#* }))
else
	# No loop device (the test guest's kernel has its block drivers as
	# modules, which the guest lacks): 179:0, mmcblk0, a disk that is not there.
	loop=
	mknod "$dir/disk" b 179 0
fi

for fs in tracing:tracefs debug:debugfs cgroup:cgroup2; do
	mkdir "$dir/${fs%:*}" && mount -t "${fs#*:}" nodev "$dir/${fs%:*}" ||
		echo "file_fixture: no ${fs#*:}" >&2
done

mkdir "$dir/noexec" && mount -t tmpfs -o noexec,size=64k nodev "$dir/noexec" &&
	{ printf 'ARA-NOEXEC-PAGE'; dd if=/dev/zero bs=4081 count=1 2>/dev/null; } >"$dir/noexec/code" ||
	echo "file_fixture: no noexec tmpfs" >&2

ARA_FILES_FIXTURE=$dir "$@"
status=$?
trap - EXIT
cleanup
exit $status
