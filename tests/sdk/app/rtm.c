/* SPDX-License-Identifier: Apache-2.0 */
/* An instrumented App: an indirect call, then its segments exported. */
#include <stdio.h>

#include <ara/rtm_runtime.h>

static int twice(int x)
{
	return 2 * x;
}

int main(void)
{
	int (*volatile fn)(int) = twice;

	printf("rtm: %d %s\n", fn(21), ara_strerror(ara_rtm_flush_segments()));
	return 0;
}
