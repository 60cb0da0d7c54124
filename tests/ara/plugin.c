/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A library that tests/ara/exec_app.c loads with dlopen after ARA has
 * initialised: run-time code, which ARA must scan as it is mapped.
 */
int ara_plugin_answer(void);

int ara_plugin_answer(void)
{
	return 42;
}

/* Never called: a POR_EL0 write, which must be a NOP by the time dlopen returns. */
__asm__(".text\n"
	".globl ara_plugin_por_write\n"
	".type ara_plugin_por_write, %function\n"
	"ara_plugin_por_write:\n"
	"	msr S3_3_C10_C2_4, x0\n"
	"	ret\n"
	".size ara_plugin_por_write, . - ara_plugin_por_write\n");
