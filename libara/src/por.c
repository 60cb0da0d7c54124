/* SPDX-License-Identifier: Apache-2.0 */
#include "ara/por.h"

#define PERM_MASK 0xfu
#define PERM_RESERVED 0x8u

int ara_por_encode(const uint8_t perm[ARA_POR_KEYS], uint64_t *por)
{
	uint64_t value = 0;

	for (unsigned int key = 0; key < ARA_POR_KEYS; key++) {
		if (perm[key] > ARA_POR_RWX)
			return -1;
		value |= (uint64_t)perm[key] << (key * ARA_POR_BITS_PER_KEY);
	}
	*por = value;
	return 0;
}

int ara_por_set_perm(uint64_t *por, unsigned int pkey, enum ara_por_perm perm)
{
	unsigned int shift;

	if (pkey >= ARA_POR_KEYS || (unsigned int)perm > ARA_POR_RWX)
		return -1;
	shift = pkey * ARA_POR_BITS_PER_KEY;
	*por = (*por & ~((uint64_t)PERM_MASK << shift)) | ((uint64_t)perm << shift);
	return 0;
}

enum ara_por_perm ara_por_perm_of(uint64_t por, unsigned int pkey)
{
	unsigned int field;

	if (pkey >= ARA_POR_KEYS)
		return ARA_POR_NONE;
	field = (unsigned int)(por >> (pkey * ARA_POR_BITS_PER_KEY)) & PERM_MASK;
	return (field & PERM_RESERVED) ? ARA_POR_NONE : (enum ara_por_perm)field;
}

bool ara_por_is_canonical(uint64_t por)
{
	if (por >> (ARA_POR_KEYS * ARA_POR_BITS_PER_KEY))
		return false;
	for (unsigned int key = 0; key < ARA_POR_KEYS; key++)
		if ((por >> (key * ARA_POR_BITS_PER_KEY)) & PERM_RESERVED)
			return false;
	return true;
}
