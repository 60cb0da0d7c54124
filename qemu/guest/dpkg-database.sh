#!/usr/bin/env bash
# Writes dpkg's database into an unpacked root file system, as dpkg itself
# would have left it had it installed the given packages: one status entry
# per package ("Status: install ok installed", the control fields of its
# .deb, the digests of its conffiles), its maintainer scripts and md5sums
# under info/, its file list (less the paths build-guest.sh removes) and its
# trigger interests. `dpkg -i` in
# the guest then resolves dependencies against what is really there.
# Usage: dpkg-database.sh ROOTFS PRUNED_PATH_REGEX DEB...
#   PRUNED_PATH_REGEX  extended regex of the absolute paths removed after
#                      unpacking (kept out of the file lists)
# The maintainer scripts are recorded, not run (build-guest.sh unpacks with
# dpkg-deb, not dpkg): the guest runs none of them at boot either.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

[ $# -ge 3 ] || die "usage: $0 ROOTFS PRUNED_PATH_REGEX DEB..."
rootfs=$1 pruned=$2
shift 2
need_cmd dpkg-deb dpkg

db="$rootfs/var/lib/dpkg"
mkdir -p "$db"/{info,updates,triggers,alternatives,parts} "$rootfs/var/log"
: >"$db/available"
# Format 1: the info files of Multi-Arch: same packages carry ":ARCH" (an
# absent format file would mean the legacy format 0, without it).
echo 1 >"$db/info/format"
: >"$db/status"
ctrl=$(mktemp -d)
trap 'rm -rf "$ctrl"' EXIT

for deb in "$@"; do
	name=$(dpkg-deb -f "$deb" Package)
	# dpkg names the info files of a Multi-Arch: same package NAME:ARCH.
	if [ "$(dpkg-deb -f "$deb" Multi-Arch)" = same ]; then
		name="$name:$(dpkg-deb -f "$deb" Architecture)"
	fi
	rm -rf "${ctrl:?}"/*
	dpkg-deb --ctrl-tarfile "$deb" | tar -x -C "$ctrl"
	{
		dpkg-deb -f "$deb" | awk '{ print } /^Package:/ { print "Status: install ok installed" }'
		# The conffiles with the digests of the unpacked files, which dpkg
		# compares on an upgrade ("[FLAG] PATH" per line in conffiles).
		if [ -s "$ctrl/conffiles" ]; then
			echo "Conffiles:"
			awk '{ print $NF }' "$ctrl/conffiles" | while read -r conffile; do
				sum=$(md5sum <"$rootfs$conffile") || die "$deb: conffile $conffile is not in $rootfs"
				echo " $conffile ${sum%% *}"
			done
		fi
		echo
	} >>"$db/status"
	for f in "$ctrl"/*; do
		[ "${f##*/}" = control ] || cp -p "$f" "$db/info/$name.${f##*/}"
	done
	# "./", "./usr/", "./usr/bin/x" -> "/.", "/usr", "/usr/bin/x"
	dpkg-deb --fsys-tarfile "$deb" | tar -t |
		sed -e 's|^\./$|/.|' -e 's|^\.||' -e 's|/$||' |
		{ grep -Ev "$pruned" || [ $? = 1 ]; } >"$db/info/$name.list"
	# "interest[-await|-noawait] TRIGGER": a named trigger's file lists its
	# interested packages; file triggers (absolute paths) go to File.
	if [ -f "$ctrl/triggers" ]; then
		awk -v p="$name" -v dir="$db/triggers" '
			$1 ~ /^interest/ {
				who = p ($1 == "interest-noawait" ? "/noawait" : "")
				if (substr($2, 1, 1) == "/") print $2, who >> (dir "/File")
				else print who >> (dir "/" $2)
			}' "$ctrl/triggers"
	fi
done
: >"$db/triggers/Unincorp"
info "dpkg database: $# packages installed"
