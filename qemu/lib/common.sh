# Shared helpers for the platform scripts in qemu/. Source, do not run.
# shellcheck shell=bash

ARA_QEMU_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ARA_SRC_DIR=$(cd "$ARA_QEMU_DIR/.." && pwd)
# Everything downloaded or built for the platform lives outside the clone, so
# that a fresh clone reuses it and `git clean` never throws it away.
# (A CI runner may start us without HOME.)
ARA_CACHE=${ARA_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/ara}
# shellcheck source=../versions.env
. "$ARA_QEMU_DIR/versions.env"

# The system python: the machine's default python3 may be a pyenv build
# without Debian's modules (meson, venv).
ARA_PYTHON=/usr/bin/python3

step() { printf '\n==> %s\n' "$*" >&2; }
info() { printf '    %s\n' "$*" >&2; }
die()  { printf 'error: %s\n' "$*" >&2; exit 1; }

# need_cmd CMD PACKAGE: fail naming the package that provides CMD.
need_cmd() {
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' not found; install the Debian package '$2' (qemu/host-deps.sh does this)"
}

# fetch_dsc PKG VERSION SHA256 DIR: the pinned Debian source package in DIR,
# downloaded once with apt-get source (the deb-src entries qemu/host-deps.sh
# configures), and its .dsc checked against SHA256, which stands in for the
# .dsc's OpenPGP signature (no Debian keyring here); the .dsc in turn pins
# the tarballs, which dpkg-source checks when it unpacks. Prints the .dsc.
fetch_dsc() {
	local pkg=$1 version=$2 sha=$3 dir=$4
	local dsc="$dir/${pkg}_${version#*:}.dsc" # the file name has no epoch

	mkdir -p "$dir"
	if [ ! -f "$dsc" ]; then
		step "downloading Debian source $pkg=$version"
		(cd "$dir" && apt-get source --download-only -q "$pkg=$version" >/dev/null 2>&1) ||
			die "apt-get source $pkg=$version failed: is deb-src configured (qemu/host-deps.sh) and does the mirror still serve this version?"
	fi
	echo "$sha  $dsc" | sha256sum -c --quiet - ||
		die "$dsc does not match the SHA-256 pinned in qemu/versions.env (delete it to download it again)"
	echo "$dsc"
}

# stamp_of FILE...: a digest of the named inputs, used as a cache key.
stamp_of() { cat "$@" | sha256sum | cut -c1-16; }

# elapsed SECONDS_START: prints "Ns" since the start.
elapsed() { echo "$(( $(date +%s) - $1 ))s"; }
