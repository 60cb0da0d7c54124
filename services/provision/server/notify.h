/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Readiness for systemd (sd_notify(3)'s protocol, written by hand: one
 * datagram to $NOTIFY_SOCKET; no library). Without NOTIFY_SOCKET, nothing.
 * It never waits: the I/O thread sends these, and a manager that does not
 * drain its socket must not stall every session, so a full queue drops the
 * message (-1, EAGAIN).
 */
#ifndef ARA_PROVISION_NOTIFY_H
#define ARA_PROVISION_NOTIFY_H

/* Sends state ("READY=1", ...): 0, or -1 with errno (nothing to send to: 0). */
int ara_notify(const char *state);

#endif
