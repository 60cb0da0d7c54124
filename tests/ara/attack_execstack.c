/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An App linked with an executable stack (-z execstack: PT_GNU_STACK with
 * PF_X, which ld.so honours by making the stack writable and executable)
 * writes a POR_EL0 gadget on its stack and runs it (IV1). ARA refuses to
 * start it: memory both writable and executable at initialisation is
 * fatal (libara/src/dom0/scan_apply.c). Against the variant that keeps such
 * memory (wx-kept), the gadget runs and DOM0's canary is printed.
 *
 * usage: attack_execstack exec_stack
 */
#include <stdint.h>

#include "attack.h"

static volatile uint32_t msr_rt_field = 0x280; /* op2 = 4, Rt = x0; built at run time */

static int exec_stack(void)
{
	uint32_t code[3];

	code[0] = 0xd51ba000u | msr_rt_field; /* msr S3_3_C10_C2_4 (POR_EL0), x0 */
	code[1] = 0xd5033fdf;		       /* isb */
	code[2] = 0xd65f03c0;		       /* ret */
	__builtin___clear_cache((char *)code, (char *)code + sizeof(code));
	attack_run_gadget_then_read((void (*)(uint64_t))(uintptr_t)code);
}

static const struct attack_entry attacks[] = {
	{ "exec_stack", exec_stack },
};

int main(int argc, char **argv)
{
	attack_install_handlers();
	return attack_main(argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
