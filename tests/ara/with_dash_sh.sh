#!/bin/sh
# Runs "$@" with /bin/sh being Debian's dash, as on a Debian system. The
# guest's /bin/sh is busybox, a static program, which ARA does not start;
# system() and popen() run /bin/sh. In a mount namespace of the command's
# own, dash is bound over it (over busybox itself: nothing in the namespace
# needs busybox after the mount).
dash=/usr/bin/dash
if [ ! -x "$dash" ]; then
	echo "FAIL: $dash is missing from the guest (qemu/guest/build-guest.sh installs it)"
	exit 1
fi
exec unshare -m /bin/sh -c 'mount --bind "$1" "$(readlink -f /bin/sh)" && shift && exec "$@"' \
	sh "$dash" "$@"
