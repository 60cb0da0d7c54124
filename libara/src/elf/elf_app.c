/* SPDX-License-Identifier: Apache-2.0 */
/* The App's dynamic linker: its one PT_INTERP. */
#include "ara/elf.h"

#include <string.h>

enum ara_elf_err ara_elf_app_interp(const struct ara_elf_src *src,
				    char interp[ARA_ELF_INTERP_MAX])
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph, found = { 0 };
	unsigned int count = 0;
	enum ara_elf_err err = ara_elf_header(src, &eh);

	for (unsigned int i = 0; err == ARA_ELF_OK && i < eh.e_phnum; i++) {
		err = ara_elf_phdr(src, &eh, i, &ph);
		if (err == ARA_ELF_OK && ph.p_type == PT_INTERP) {
			found = ph;
			count++;
		}
	}
	if (err != ARA_ELF_OK)
		return err;
	if (count == 0)
		return ARA_ELF_E_NO_INTERP;
	/* Two would leave the choice to whoever reads the file next. */
	if (count > 1 || found.p_filesz < 2 ||
	    found.p_filesz > ARA_ELF_INTERP_MAX)
		return ARA_ELF_E_INTERP;
	err = ara_elf_read(src, found.p_offset, interp, (size_t)found.p_filesz);
	if (err != ARA_ELF_OK)
		return err;
	/* Exactly one NUL, the last byte: what the loader execs is what the
	 * whole field says. */
	if (interp[found.p_filesz - 1] != '\0' ||
	    strlen(interp) != found.p_filesz - 1 || interp[0] != '/')
		return ARA_ELF_E_INTERP;
	return ARA_ELF_OK;
}
