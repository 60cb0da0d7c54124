/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An App with an IFUNC resolver: ld.so would run it while relocating, before
 * any constructor, so before ARA's initialisation. ara-loader must refuse it
 * before anything of it runs.
 */
#include <stdio.h>
#include <unistd.h>

static int impl(void)
{
	return 42;
}

/* Runs during relocation if the loader lets the App start. */
static int (*resolve(void))(void)
{
	static const char msg[] = "ifunc-app: resolver ran\n";

	(void)!write(1, msg, sizeof(msg) - 1);
	return impl;
}

int answer(void) __attribute__((ifunc("resolve")));

int main(void)
{
	printf("ifunc-app: main ran: %d\n", answer());
	return 0;
}
