/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A small dynamically linked arm64 program for scan_vs_capstone: compiled
 * and laid out by the toolchain like any App, with one POR_EL0 write in a
 * function only an absurd argc reaches. Scanned, never run.
 */
#include <stdint.h>
#include <stdio.h>

static void __attribute__((noinline)) set_por(uint64_t value)
{
	__asm__ volatile("msr S3_3_C10_C2_4, %0\n\tisb" : : "r"(value) : "memory");
}

int main(int argc, char **argv)
{
	if (argc > 1000)
		set_por(0x7);
	printf("%s: scanned, not meant to run\n", argv[0]);
	return 0;
}
