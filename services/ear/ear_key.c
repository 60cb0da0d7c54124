/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The EAR signing key (ear.h): a P-256 private key file as every key file
 * ARA reads (p256_pem.h: PEM, readable by its owner only).
 */
#include <mbedtls/platform_util.h>

#include "ear.h"
#include "p256_pem.h"

_Static_assert(sizeof(((struct ara_ear_key *)0)->sk) == ARA_P256_SK, "a P-256 scalar");
_Static_assert(sizeof(((struct ara_ear_key *)0)->pub) == ARA_P256_PK, "a P-256 point");

int ara_ear_key_load(const char *path, struct ara_ear_key *k, char *why, size_t cap)
{
	if (ara_p256_read_secret(path, k->sk, k->pub, why, cap) == 0)
		return 0;
	ara_ear_key_wipe(k);
	return -1;
}

void ara_ear_key_wipe(struct ara_ear_key *k)
{
	mbedtls_platform_zeroize(k, sizeof(*k));
}
