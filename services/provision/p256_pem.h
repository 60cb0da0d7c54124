/* SPDX-License-Identifier: Apache-2.0 */
/*
 * P-256 keys in PEM files, as OpenSSL writes them, for the programs with
 * libc (DOM0 takes raw keys only: p256.h): every key file ARA reads (the
 * provisioner's, the EAR signer's, a TPM's AK). A public key is a
 * SubjectPublicKeyInfo ("BEGIN PUBLIC KEY"); a private key SEC1 ("BEGIN EC
 * PRIVATE KEY") or PKCS#8 ("BEGIN PRIVATE KEY"), unencrypted. PEM only,
 * no DER: one self-describing format whose BEGIN line names what a wrong
 * file is, and the one openssl writes unless told otherwise. Each
 * returns 0, or a line in why naming the file and the cause with
 * ARA_P256_PEM_E_IO (the file cannot be opened or read) or
 * ARA_P256_PEM_E_KEY (it is not such a key, or not safe to use).
 */
#ifndef ARA_PROVISION_P256_PEM_H
#define ARA_PROVISION_P256_PEM_H

#include <stddef.h>
#include <stdint.h>

#include "p256.h"

#define ARA_P256_PEM_MAX 4096u /* the largest key file read */
#define ARA_P256_PEM_E_IO (-1)
#define ARA_P256_PEM_E_KEY (-2)

/* The point of a public key's PEM; pem need not be NUL-terminated. 0, or -1 with why. */
int ara_p256_public_from_pem(const char *pem, size_t pem_len, uint8_t pk[ARA_P256_PK], char *why,
			     size_t why_cap);

/* The public key in the file at path. */
int ara_p256_read_public(const char *path, uint8_t pk[ARA_P256_PK], char *why, size_t why_cap);

/*
 * The private key in the file at path, and its public key. The file is
 * refused if its group or others may read or write it (as ssh refuses a
 * private key): whoever can read it can sign as the provisioner.
 */
int ara_p256_read_secret(const char *path, uint8_t sk[ARA_P256_SK], uint8_t pk[ARA_P256_PK],
			 char *why, size_t why_cap);

#endif
