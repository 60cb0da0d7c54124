/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Readiness for systemd (sd_notify(3)'s protocol, written by hand: one
 * datagram to $NOTIFY_SOCKET; no library). Without NOTIFY_SOCKET, nothing.
 */
#ifndef ARA_PROVISION_NOTIFY_H
#define ARA_PROVISION_NOTIFY_H

/* Sends state ("READY=1", ...): 0, or -1 with errno (nothing to send to: 0). */
int ara_notify(const char *state);

#endif
