/* SPDX-License-Identifier: Apache-2.0 */
/*
 * POR_EL0 values: one 4-bit permission field per protection key.
 *
 * The Permission Overlay Register holds, for each POIndex (the pkey that Linux
 * puts in PTE bits [62:60]), a nibble whose encoding is fixed by the Arm ARM
 * (D24.2.150, Table D8-74): bit 0 Read, bit 1 eXecute, bit 2 Write, and any
 * value with bit 3 set is reserved and grants nothing. Note the order R, X, W:
 * it is neither PROT_* nor the order of Linux's PKEY_DISABLE_* flags.
 *
 * Domain configurations are data (a permission per key); this file turns them
 * into register values and back, and validates them. It only computes: writing
 * POR_EL0 is the DOM1 trampoline's job alone.
 */
#ifndef ARA_POR_H
#define ARA_POR_H

#include <stdbool.h>
#include <stdint.h>

/* Keys 0..7 (CONFIG_ARCH_PKEY_BITS=3); Perm8..15 are RES0 without FEAT_D128. */
#define ARA_POR_KEYS 8u
#define ARA_POR_BITS_PER_KEY 4u

enum ara_por_perm {
	ARA_POR_NONE = 0x0,
	ARA_POR_R = 0x1,
	ARA_POR_X = 0x2,
	ARA_POR_W = 0x4,
	ARA_POR_RX = ARA_POR_R | ARA_POR_X,
	ARA_POR_RW = ARA_POR_R | ARA_POR_W,
	ARA_POR_WX = ARA_POR_W | ARA_POR_X,
	ARA_POR_RWX = ARA_POR_R | ARA_POR_W | ARA_POR_X,
};

/*
 * Encodes perm[k] (an enum ara_por_perm) for every key k into *por.
 * Returns 0, or -1 if a permission is not one of the eight valid ones (in
 * which case *por is left untouched): a reserved encoding would silently mean
 * "no access", and a caller that wrote one almost certainly meant otherwise.
 */
int ara_por_encode(const uint8_t perm[ARA_POR_KEYS], uint64_t *por);

/*
 * Sets pkey's permission in *por, leaving the other keys as they were.
 * Returns 0, or -1 (and *por untouched) for a key >= ARA_POR_KEYS or an
 * invalid permission.
 */
int ara_por_set_perm(uint64_t *por, unsigned int pkey, enum ara_por_perm perm);

/*
 * The permission the register value grants to pkey, as the CPU sees it:
 * reserved encodings (bit 3 set) and keys past ARA_POR_KEYS grant nothing.
 */
enum ara_por_perm ara_por_perm_of(uint64_t por, unsigned int pkey);

/* True if por is a value a careful writer would write: Perm8..15 zero and
 * no reserved encoding in Perm0..7. */
bool ara_por_is_canonical(uint64_t por);

#endif /* ARA_POR_H */
