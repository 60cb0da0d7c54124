/* SPDX-License-Identifier: Apache-2.0 */
/* Whole files into memory, for ara-verify's inputs and the modules it parses. */
#ifndef ARA_RTM_FILE_IO_H
#define ARA_RTM_FILE_IO_H

#include <stddef.h>
#include <stdint.h>

/* 0 and a malloc'd *buf of *len bytes (never NULL), or -1 with errno set. */
int ara_rtm_read_file(const char *path, uint8_t **buf, size_t *len);

#endif
