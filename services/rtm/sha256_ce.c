/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM's chain step, H <- SHA-256(H || segment) over a 1 MiB segment
 * (rtm_state.h, docs/rtm.md), with the ARMv8 SHA-256 instructions
 * (FEAT_SHA256): about 100 instructions per 64-byte block, against some
 * 1,500 for mbedtls's portable code. A CPU without them gets mbedtls.
 *
 * The one DOM0 object of the RTM that uses vector registers (libara is
 * otherwise -mgeneral-regs-only): the state, the schedule and the data
 * pass through v0-v31. None of it is secret (the chain is in every
 * document, the segment is exported), but no DOM0 value may leave in a
 * register: RTM_LOG, the only service that seals, is flagged as using
 * SIMD, and the gate scrubs the vector registers after it.
 */
#include <arm_neon.h>
#include <asm/hwcap.h>
#include <linux/auxvec.h>
#include <mbedtls/sha256.h>

#include "ara/bytes.h"
#include "rtm_state.h"

unsigned long getauxval(unsigned long type); /* DOM0's own (libara/src/dom0/hwcap.c) */

static const uint32_t k256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

/* Four rounds: abcd and efgh advance by the words wk (schedule + constants). */
#define ROUNDS4(wk)                                       \
	do {                                              \
		uint32x4_t abcd0 = abcd;                  \
		abcd = vsha256hq_u32(abcd, efgh, (wk));   \
		efgh = vsha256h2q_u32(efgh, abcd0, (wk)); \
	} while (0)
/* The next four words of the schedule, into a. */
#define SCHEDULE(a, b, c, d) (a = vsha256su1q_u32(vsha256su0q_u32(a, b), c, d))

/*
 * Compresses n 64-byte blocks at p into state[8]; unrolled, the constants
 * in registers: about 100 instructions a block.
 */
static void blocks(uint32_t state[8], const uint8_t *p, size_t n)
{
	uint32x4_t abcd = vld1q_u32(state), efgh = vld1q_u32(state + 4);
	uint32x4_t k[16];

	for (int i = 0; i < 16; i++)
		k[i] = vld1q_u32(k256 + 4 * i);
	for (; n > 0; n--, p += 64) {
		uint32x4_t m0 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p)));
		uint32x4_t m1 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 16)));
		uint32x4_t m2 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 32)));
		uint32x4_t m3 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 48)));
		uint32x4_t abcd_in = abcd, efgh_in = efgh;

		ROUNDS4(vaddq_u32(m0, k[0]));
		ROUNDS4(vaddq_u32(m1, k[1]));
		ROUNDS4(vaddq_u32(m2, k[2]));
		ROUNDS4(vaddq_u32(m3, k[3]));
		SCHEDULE(m0, m1, m2, m3);
		SCHEDULE(m1, m2, m3, m0);
		SCHEDULE(m2, m3, m0, m1);
		SCHEDULE(m3, m0, m1, m2);
		ROUNDS4(vaddq_u32(m0, k[4]));
		ROUNDS4(vaddq_u32(m1, k[5]));
		ROUNDS4(vaddq_u32(m2, k[6]));
		ROUNDS4(vaddq_u32(m3, k[7]));
		SCHEDULE(m0, m1, m2, m3);
		SCHEDULE(m1, m2, m3, m0);
		SCHEDULE(m2, m3, m0, m1);
		SCHEDULE(m3, m0, m1, m2);
		ROUNDS4(vaddq_u32(m0, k[8]));
		ROUNDS4(vaddq_u32(m1, k[9]));
		ROUNDS4(vaddq_u32(m2, k[10]));
		ROUNDS4(vaddq_u32(m3, k[11]));
		SCHEDULE(m0, m1, m2, m3);
		SCHEDULE(m1, m2, m3, m0);
		SCHEDULE(m2, m3, m0, m1);
		SCHEDULE(m3, m0, m1, m2);
		ROUNDS4(vaddq_u32(m0, k[12]));
		ROUNDS4(vaddq_u32(m1, k[13]));
		ROUNDS4(vaddq_u32(m2, k[14]));
		ROUNDS4(vaddq_u32(m3, k[15]));
		abcd = vaddq_u32(abcd, abcd_in);
		efgh = vaddq_u32(efgh, efgh_in);
	}
	vst1q_u32(state, abcd);
	vst1q_u32(state + 4, efgh);
}

/*
 * The message is H (32 bytes) then the segment (2^20): one block of H and
 * the segment's first 32 bytes, 16383 blocks of segment, and a last block
 * of its final 32 bytes and the padding.
 */
static void chain_ce(uint8_t chain[ARA_RTM_HASH_BYTES], const uint8_t *seg)
{
	enum { HALF = 32, LEN = ARA_RTM_HASH_BYTES + ARA_RTM_SEGMENT_BYTES };
	uint32_t state[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	uint8_t block[64];
	uint64_t bits = (uint64_t)LEN * 8;

	__builtin_memcpy(block, chain, HALF);
	__builtin_memcpy(block + HALF, seg, HALF);
	blocks(state, block, 1);
	blocks(state, seg + HALF, (ARA_RTM_SEGMENT_BYTES - HALF) / 64);
	__builtin_memcpy(block, seg + ARA_RTM_SEGMENT_BYTES - HALF, HALF);
	block[HALF] = 0x80;
	for (int i = HALF + 1; i < 56; i++)
		block[i] = 0;
	ara_put_be64(block + 56, bits);
	blocks(state, block, 1);
	for (int i = 0; i < 8; i++)
		ara_put_be32(chain + 4 * i, state[i]);
}

static int chain_mbedtls(uint8_t chain[ARA_RTM_HASH_BYTES], const uint8_t *seg)
{
	mbedtls_sha256_context c;
	uint8_t next[ARA_RTM_HASH_BYTES];
	int failed;

	mbedtls_sha256_init(&c);
	failed = mbedtls_sha256_starts(&c, 0) || mbedtls_sha256_update(&c, chain, ARA_RTM_HASH_BYTES) ||
		 mbedtls_sha256_update(&c, seg, ARA_RTM_SEGMENT_BYTES) ||
		 mbedtls_sha256_finish(&c, next);
	mbedtls_sha256_free(&c);
	if (failed)
		return -1;
	__builtin_memcpy(chain, next, sizeof(next));
	return 0;
}

int ara_rtm_chain_segment(uint8_t chain[ARA_RTM_HASH_BYTES], const uint64_t *segment)
{
	if (getauxval(AT_HWCAP) & HWCAP_SHA2) {
		chain_ce(chain, (const uint8_t *)segment);
		return 0;
	}
	return chain_mbedtls(chain, (const uint8_t *)segment);
}
