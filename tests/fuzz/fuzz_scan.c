/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for the POR_EL0-write scanner. Properties, for any bytes:
 *   - the scan reports exactly the words ara_insn_writes_por() flags, in
 *     order, and counts them all even past the offset array;
 *   - patching a copy turns exactly those words into NOP, changes no other
 *     byte, and leaves nothing for a second scan;
 *   - a misaligned start is refused.
 */
#include <string.h>

#include "ara/scan.h"
#include "fuzz_check.h"

static uint32_t word_at(const uint8_t *p)
{
	uint32_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

static void check_scan(const uint8_t *code, size_t len)
{
	size_t words = len / ARA_INSN_BYTES, found = 0, next = 0;
	size_t *offsets = malloc((words ? words : 1) * sizeof(*offsets));
	size_t half = words / 2, counted = 0;

	FUZZ_CHECK(offsets);
	FUZZ_CHECK(ara_scan_por_writes(code, len, offsets, words, &found) ==
		   ARA_SCAN_OK);
	for (size_t i = 0; i < words; i++) {
		if (!ara_insn_writes_por(word_at(code + i * ARA_INSN_BYTES)))
			continue;
		FUZZ_CHECK(next < found && offsets[next] == i * ARA_INSN_BYTES);
		next++;
	}
	FUZZ_CHECK(next == found);
	FUZZ_CHECK(ara_scan_por_writes(code, len, offsets, half, &counted) ==
		   ARA_SCAN_OK && counted == found);
	free(offsets);
}

static void check_patch(const uint8_t *code, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);
	size_t patched = 0, again = 0;

	FUZZ_CHECK(copy);
	memcpy(copy, code, len);
	FUZZ_CHECK(ara_patch_por_writes(copy, len, &patched) == ARA_SCAN_OK);
	for (size_t off = 0; off < len; off += ARA_INSN_BYTES) {
		uint32_t before = word_at(code + off);

		if (ara_insn_writes_por(before)) {
			FUZZ_CHECK(word_at(copy + off) == ARA_INSN_NOP);
			patched--;
		} else {
			FUZZ_CHECK(word_at(copy + off) == before);
		}
	}
	FUZZ_CHECK(patched == 0);
	FUZZ_CHECK(ara_scan_por_writes(copy, len, NULL, 0, &again) ==
		   ARA_SCAN_OK && again == 0);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len = size & ~(size_t)(ARA_INSN_BYTES - 1);
	uint8_t *code = malloc(len + ARA_INSN_BYTES); /* malloc: 4-aligned */
	size_t found = 0;

	FUZZ_CHECK(code);
	memcpy(code, data, len);
	check_scan(code, len);
	check_patch(code, len);
	FUZZ_CHECK(ara_scan_por_writes(code + 1, len, NULL, 0, &found) ==
		   ARA_SCAN_E_ALIGN);
	free(code);
	return 0;
}
