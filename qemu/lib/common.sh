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

# stamp_of FILE...: a digest of the named inputs, used as a cache key.
stamp_of() { cat "$@" | sha256sum | cut -c1-16; }

# elapsed SECONDS_START: prints "Ns" since the start.
elapsed() { echo "$(( $(date +%s) - $1 ))s"; }
