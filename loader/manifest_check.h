/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-manifest --check: does each file a manifest names still have its
 * digest, and is it the kind of ELF object its role needs (elf_role.h)?
 * On any machine, without running anything.
 */
#ifndef ARA_LOADER_MANIFEST_CHECK_H
#define ARA_LOADER_MANIFEST_CHECK_H

#include <stdbool.h>

/*
 * Checks the manifest at path and prints the result on stdout: one line an
 * object, or with json one JSON object (docs/man/ara-manifest.1). Returns
 * the exit status: 0 every object matches, 1 one differs or is unfit for its
 * role, 3 one cannot be read. A manifest that cannot be read (3) or parsed
 * (2) ends the program with a message.
 */
int ara_manifest_check(const char *path, bool json);

#endif
