/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The App of the Debian package test (qemu/test-debs.sh), built against the
 * files of the libara-dev package only. It calls the null and echo services
 * and prints the SHA-256 digests of libara.so, the entry object and itself
 * as DOM0 reports them (ARA_FID_INFO): deb_install.sh compares them with
 * the installed files, so the run shows which files ARA verified.
 * Exit status: 0, or 1 if a secure_call failed.
 */
#include <ara/ara.h>
#include <stdio.h>

static void print_digest(const char *what, const uint8_t digest[32])
{
	printf("%s ", what);
	for (int i = 0; i < 32; i++)
		printf("%02x", digest[i]);
	printf("\n");
}

static int check(const char *what, int status)
{
	if (status != ARA_OK)
		fprintf(stderr, "installed_app: %s: %s\n", what, ara_strerror(status));
	return status == ARA_OK;
}

int main(void)
{
	struct ara_echo_arg echo = { .in = 0x6465622d74657374ull }; /* "deb-test" */
	struct ara_info_arg info;

	if (!check("null service", secure_call(ARA_FID_NULL, NULL)) ||
	    !check("echo service", secure_call(ARA_FID_ECHO, &echo)) ||
	    !check("info service", secure_call(ARA_FID_INFO, &info)))
		return 1;
	if (echo.out != ara_echo_expect(echo.in)) {
		fprintf(stderr, "installed_app: echo service: wrong answer %#llx\n",
			(unsigned long long)echo.out);
		return 1;
	}
	printf("echo ok\n");
	print_digest("libara", info.libara_sha256);
	print_digest("entry", info.entry_sha256);
	print_digest("app", info.app_sha256);
	return 0;
}
