/* SPDX-License-Identifier: Apache-2.0 */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>

static unsigned int checks, failures;

void check(int ok, const char *fmt, ...)
{
	va_list ap;

	checks++;
	if (ok)
		return;
	failures++;
	va_start(ap, fmt);
	printf("FAIL: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

unsigned int check_failures(void)
{
	return failures;
}

int check_report(const char *what)
{
	printf("ara-evidence: %s: %u checks, %u failed\n", what, checks, failures);
	return failures ? 1 : 0;
}
