/* SPDX-License-Identifier: Apache-2.0 */
/* secure_call from an App built against the installed SDK. */
#include <stdio.h>

#include <ara/ara.h>

int main(void)
{
	int st = secure_call(ARA_FID_NULL, NULL);

	printf("hello: %s\n", ara_strerror(st));
	return st != ARA_OK;
}
