/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whole-buffer socket I/O for the libc sides of provisioning (the App's
 * carrier, the provisioner, the tests), never DOM0: a send that never
 * raises SIGPIPE and a receive of exactly n bytes, both retried on EINTR.
 */
#ifndef ARA_PROVISION_SOCKIO_H
#define ARA_PROVISION_SOCKIO_H

#include <stddef.h>

/* 0, or -1 if the peer left or the socket failed (errno says which). */
int ara_send_all(int fd, const void *buf, size_t n);

/* 0, or -1 on an error or if the peer closed first. */
int ara_recv_exact(int fd, void *buf, size_t n);

#endif
