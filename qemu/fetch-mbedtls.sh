#!/usr/bin/env bash
# The pinned Debian mbedtls source, unpacked (qemu/fetch-src.sh mbedtls).
# Usage: fetch-mbedtls.sh   prints the source directory on stdout.
exec "$(dirname "$0")/fetch-src.sh" mbedtls
