/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ELF files the loader and the build tools read by descriptor, not mapped:
 * the loader's sealed memfds, which cannot change while they are read, and
 * the files ara-manifest and ara-policy check. DOM0 maps what it parses and
 * has no use for this.
 */
#ifndef ARA_LOADER_ELF_FD_H
#define ARA_LOADER_ELF_FD_H

#include <stdint.h>

#include "ara/elf.h"

/* The first size bytes of fd, read with pread(): a file shorter than size
 * is a read error (ARA_ELF_E_IO, errno EIO), never a parse of fewer bytes. */
struct ara_elf_src ara_elf_fd_src(int fd, uint64_t size);

#endif
