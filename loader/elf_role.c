/* SPDX-License-Identifier: Apache-2.0 */
#include "elf_role.h"

/* libara.so: a shared object; a program in its place has a PT_INTERP. */
static enum ara_elf_err shared_object(const struct ara_elf_src *src)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	enum ara_elf_err err = ara_elf_header(src, &eh);

	for (unsigned int i = 0; err == ARA_ELF_OK && i < eh.e_phnum; i++) {
		err = ara_elf_phdr(src, &eh, i, &ph);
		if (err == ARA_ELF_OK && ph.p_type == PT_INTERP)
			return ARA_ELF_E_PROGRAM;
	}
	return err;
}

enum ara_elf_err ara_elf_role_check(const struct ara_elf_src *src,
				    enum ara_role role, const char **section)
{
	char interp[ARA_ELF_INTERP_MAX];
	struct ara_elf_gate gate;
	enum ara_elf_err err;

	*section = NULL;
	switch (role) {
	case ARA_ROLE_LIBARA:
		return shared_object(src);
	case ARA_ROLE_ENTRY:
		err = shared_object(src);
		return err != ARA_ELF_OK ? err : ara_elf_gate(src, &gate, section);
	case ARA_ROLE_APP:
		return ara_elf_app_interp(src, interp);
	}
	return ARA_ELF_E_TYPE;
}
