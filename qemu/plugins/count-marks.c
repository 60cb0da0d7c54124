/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A QEMU TCG plugin for qemu/lib/count.sh: counts the instructions each vCPU
 * executes, all of them and those at EL0, and at each execution of the mark
 * instruction prints both counts since that vCPU's previous mark:
 *   mark cpu C all A el0 U
 * EL0 is told by address: the guest kernel runs only from upper-half
 * (TTBR1) addresses and never executes user pages, user code only from
 * lower-half ones; so an instruction at an address with bit 63 clear ran
 * at EL0. The EL0 count leaves out what interrupts (the timer tick) add to
 * a batch, and the kernel's share of a system call.
 *
 * Option: mark=DISASSEMBLY, the instruction as QEMU's disassembler prints
 * it (a prefix match, as in QEMU's libinsn): "hint #0x7e".
 */
#include <stdio.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct counts {
	uint64_t all, el0;		/* since the vCPU started */
	uint64_t all_mark, el0_mark;	/* at its previous mark */
};

static struct qemu_plugin_scoreboard *board;
static qemu_plugin_u64 all, el0;
static char *mark;

static void on_mark(unsigned int vcpu, void *udata)
{
	struct counts *c = qemu_plugin_scoreboard_find(board, vcpu);
	char line[128];

	(void)udata;
	snprintf(line, sizeof(line), "mark cpu %u all %llu el0 %llu\n", vcpu,
		 (unsigned long long)(c->all - c->all_mark),
		 (unsigned long long)(c->el0 - c->el0_mark));
	c->all_mark = c->all;
	c->el0_mark = c->el0;
	qemu_plugin_outs(line);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		char *disas;

		qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
			insn, QEMU_PLUGIN_INLINE_ADD_U64, all, 1);
		if (!(qemu_plugin_insn_vaddr(insn) >> 63))
			qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
				insn, QEMU_PLUGIN_INLINE_ADD_U64, el0, 1);
		disas = qemu_plugin_insn_disas(insn);
		if (!strncmp(disas, mark, strlen(mark)))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
		g_free(disas);
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	qemu_plugin_scoreboard_free(board);
	g_free(mark);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	(void)info;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "mark=", 5) && argv[i][5] && !mark) {
			mark = g_strdup(argv[i] + 5);
		} else {
			fprintf(stderr, "count-marks: unknown or repeated option %s\n", argv[i]);
			return -1;
		}
	}
	if (!mark) {
		fprintf(stderr, "count-marks: mark=DISASSEMBLY is required\n");
		return -1;
	}
	board = qemu_plugin_scoreboard_new(sizeof(struct counts));
	all = qemu_plugin_scoreboard_u64_in_struct(board, struct counts, all);
	el0 = qemu_plugin_scoreboard_u64_in_struct(board, struct counts, el0);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
