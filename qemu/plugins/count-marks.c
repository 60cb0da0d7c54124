/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A QEMU TCG plugin for qemu/lib/count.sh: counts the instructions each vCPU
 * executes, all of them, those at EL0, and its own (all but those run on
 * behalf of asynchronous interrupts), and at each execution of the mark
 * instruction prints the three counts since that vCPU's previous mark:
 *   mark cpu C all A el0 U own O
 * EL0 is told by address: the guest kernel runs only from upper-half
 * (TTBR1) addresses and never executes user pages, user code only from
 * lower-half ones; so an instruction at an address with bit 63 clear ran
 * at EL0. The EL0 count leaves out what interrupts (the timer tick) add to
 * a batch, and the kernel's share of a system call.
 *
 * The own count leaves out only the interrupts: an interrupt (IRQ, FIQ,
 * SError; QEMU's discontinuity callback) taken while the vCPU is in none
 * lasts, with everything it leads to (softirqs, other tasks scheduled, more
 * interrupts), until
 *  - taken at EL0: the vCPU's next instruction at EL0, at any address
 *    (back where it was, or in a signal handler, or in another task);
 *  - taken at EL1: the vCPU's next translation block that starts at the
 *    interrupted instruction with the interrupted stack pointer (after the
 *    handler's eret QEMU starts a block there; the stack pointer tells the
 *    return from a call of the same code inside the handler).
 * The callbacks that end it are conditional on a scoreboard entry, so
 * outside interrupts they cost a compare per block. They run before the
 * block's first instruction is counted: an interrupt's count ends with its
 * eret. docs/performance.md, "Own instructions", says what that leaves
 * in and out.
 *
 * Option: mark=DISASSEMBLY, the instruction as QEMU's disassembler prints
 * it (a prefix match, as in QEMU's libinsn): "hint #0x7e".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct counts {
	uint64_t all, el0;		/* since the vCPU started */
	uint64_t irq;			/* of those, in interrupts that ended */
	/* In an interrupt: taken at EL1, its return address, else 0; */
	uint64_t irq_pc;
	uint64_t irq_sp;		/* and the stack pointer there */
	uint64_t irq_el0;		/* taken at EL0: 1, else 0 */
	uint64_t irq_all;		/* all at its entry */
	uint64_t all_mark, el0_mark, own_mark;	/* at the previous mark */
	struct qemu_plugin_register *sp;
};

static struct qemu_plugin_scoreboard *board;
static qemu_plugin_u64 all, el0, irq_pc, irq_el0;
static char *mark;

static int in_irq(const struct counts *c)
{
	return c->irq_pc || c->irq_el0;
}

/* Up to an interrupt's entry while in it: its count is not known yet. */
static uint64_t own(const struct counts *c)
{
	return (in_irq(c) ? c->irq_all : c->all) - c->irq;
}

/* The current stack pointer; only where registers may be read. */
static uint64_t read_sp(const struct counts *c)
{
	GByteArray *buf = g_byte_array_new();
	uint64_t sp = 0;
	int n = qemu_plugin_read_register(c->sp, buf);

	if (n != 8) {
		fprintf(stderr, "count-marks: cannot read sp (%d)\n", n);
		abort();
	}
	for (int i = 7; i >= 0; i--)	/* target (little-endian) order */
		sp = sp << 8 | buf->data[i];
	g_byte_array_free(buf, TRUE);
	return sp;
}

static void on_mark(unsigned int vcpu, void *udata)
{
	struct counts *c = qemu_plugin_scoreboard_find(board, vcpu);
	char line[160];

	(void)udata;
	snprintf(line, sizeof(line), "mark cpu %u all %llu el0 %llu own %llu\n", vcpu,
		 (unsigned long long)(c->all - c->all_mark),
		 (unsigned long long)(c->el0 - c->el0_mark),
		 (unsigned long long)(own(c) - c->own_mark));
	c->all_mark = c->all;
	c->el0_mark = c->el0;
	c->own_mark = own(c);
	qemu_plugin_outs(line);
}

static void on_interrupt(qemu_plugin_id_t id, unsigned int vcpu,
			 enum qemu_plugin_discon_type type, uint64_t from_pc,
			 uint64_t to_pc)
{
	struct counts *c = qemu_plugin_scoreboard_find(board, vcpu);

	(void)id;
	(void)type;
	(void)to_pc;
	if (in_irq(c))		/* part of the one being handled */
		return;
	c->irq_all = c->all;
	if (from_pc >> 63) {
		/* EL1 to EL1 keeps SP_EL1: sp is still the interrupted one. */
		c->irq_sp = read_sp(c);
		c->irq_pc = from_pc;
	} else {
		c->irq_el0 = 1;
	}
}

static void irq_end(struct counts *c)
{
	c->irq += c->all - c->irq_all;
	c->irq_pc = 0;
	c->irq_el0 = 0;
}

/* A block at EL0 after an interrupt taken at EL0. */
static void on_el0_block(unsigned int vcpu, void *udata)
{
	(void)udata;
	irq_end(qemu_plugin_scoreboard_find(board, vcpu));
}

/* A block at an interrupt's return address: the return, or the handler. */
static void on_return_block(unsigned int vcpu, void *udata)
{
	struct counts *c = qemu_plugin_scoreboard_find(board, vcpu);

	(void)udata;
	if (read_sp(c) == c->irq_sp)
		irq_end(c);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t pc = qemu_plugin_tb_vaddr(tb);
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	if (pc >> 63)
		qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, on_return_block,
							  QEMU_PLUGIN_CB_R_REGS,
							  QEMU_PLUGIN_COND_EQ,
							  irq_pc, pc, NULL);
	else
		qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, on_el0_block,
							  QEMU_PLUGIN_CB_NO_REGS,
							  QEMU_PLUGIN_COND_NE,
							  irq_el0, 0, NULL);
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

static void on_vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
	struct counts *c = qemu_plugin_scoreboard_find(board, vcpu);
	GArray *regs = qemu_plugin_get_registers();

	(void)id;
	for (guint i = 0; i < regs->len && !c->sp; i++) {
		qemu_plugin_reg_descriptor *r =
			&g_array_index(regs, qemu_plugin_reg_descriptor, i);

		if (!strcmp(r->name, "sp"))
			c->sp = r->handle;
	}
	g_array_free(regs, TRUE);
	if (!c->sp) {
		fprintf(stderr, "count-marks: vCPU %u has no register sp\n", vcpu);
		abort();
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
	irq_pc = qemu_plugin_scoreboard_u64_in_struct(board, struct counts, irq_pc);
	irq_el0 = qemu_plugin_scoreboard_u64_in_struct(board, struct counts, irq_el0);
	qemu_plugin_register_vcpu_init_cb(id, on_vcpu_init);
	qemu_plugin_register_vcpu_discon_cb(id, QEMU_PLUGIN_DISCON_INTERRUPT, on_interrupt);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
