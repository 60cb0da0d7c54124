/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The C half of the verifier's target fixture (fixture_sites.S): compiled
 * code as a compiler lays it out, with an indirect call. Built for
 * AArch64 as a PIE, a non-PIE executable and a PIE with packed relative
 * relocations; never run.
 */
#include <stdio.h>

void fx_caller(void);
int fx_twice(int x);
int fx_apply(int (*fn)(int), int x);

int fx_twice(int x)
{
	return 2 * x;
}

int fx_apply(int (*fn)(int), int x)
{
	return fn(x) + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	fx_caller();
	printf("%d\n", fx_apply(fx_twice, argc));
	return 0;
}
