/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An instrumented App that makes one indirect call and says so. Linked as
 * ara_rtm_app() links (full RELRO) it runs; linked by hand with the
 * runtime but -z lazy (rtm_relro_lazy) the runtime must stop it before
 * main (full_relro.c): rtm_relro.sh checks both.
 */
#include <stdio.h>

static int answer(int x)
{
	return x + 1;
}

int main(void)
{
	int (*volatile fn)(int) = answer;

	printf("rtm_relro_app: ran (%d)\n", fn(41));
	return 0;
}
