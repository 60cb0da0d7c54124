/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hmac_sha256 KEYHEX MSG: prints HMAC-SHA256(key, MSG) in hex. Test helper
 * (not an ARA App): what a service keyed with the provisioned secret must
 * compute, worked out independently of ARA.
 */
#include <stdio.h>
#include <string.h>

#include <mbedtls/md.h>

int main(int argc, char **argv)
{
	unsigned char key[1024], mac[32];
	size_t n;

	if (argc != 3 || strlen(argv[1]) % 2 || (n = strlen(argv[1]) / 2) > sizeof(key))
		return fprintf(stderr, "usage: hmac_sha256 KEYHEX MSG\n"), 2;
	for (size_t i = 0; i < n; i++)
		if (sscanf(argv[1] + 2 * i, "%2hhx", &key[i]) != 1)
			return fprintf(stderr, "hmac_sha256: bad hex\n"), 2;
	if (mbedtls_md_hmac(mbedtls_md_info_from_type(MBEDTLS_MD_SHA256), key, n,
			    (const unsigned char *)argv[2], strlen(argv[2]), mac))
		return fprintf(stderr, "hmac_sha256: mbedtls failed\n"), 1;
	for (size_t i = 0; i < sizeof(mac); i++)
		printf("%02x", mac[i]);
	printf("\n");
	return 0;
}
