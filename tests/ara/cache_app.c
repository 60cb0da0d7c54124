/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An ARA App that only waits (for tests/ara/seccomp_cache.c, which reads
 * what the kernel cached of its filter): prints "ready <pid>" once ARA is
 * up, then reads its input until end-of-file and exits 0.
 */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char c;

	printf("ready %ld\n", (long)getpid());
	if (fflush(stdout) != 0)
		return 1;
	while (read(0, &c, 1) > 0)
		;
	return 0;
}
