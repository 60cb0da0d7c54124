/* SPDX-License-Identifier: Apache-2.0 */
/* The provisioning client from libara-client.a alone. */
#include <stdio.h>

#include <ara/provision_client.h>

int main(void)
{
	struct ara_provision_refusal refusal = {0};
	uint32_t handle = 0;
	int st = ara_provision_fetch(-1, "secret", &handle, &refusal);

	printf("fetch: %s (refusal %u)\n", ara_strerror(st), (unsigned)refusal.code);
	return 0;
}
