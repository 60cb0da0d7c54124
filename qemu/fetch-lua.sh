#!/usr/bin/env bash
# The pinned Debian Lua 5.4 source, unpacked (qemu/fetch-src.sh lua).
# Usage: fetch-lua.sh   prints the source directory on stdout.
exec "$(dirname "$0")/fetch-src.sh" lua
