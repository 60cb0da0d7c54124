/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: the manifest parser (loader/manifest.c). Besides surviving
 * any input, it checks the parser's promise: a manifest has one spelling,
 * so whatever it accepts, the writer gives back byte for byte.
 */
#include <string.h>

#include "fuzz_check.h"
#include "manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ara_manifest m;
	static char text[ARA_MANIFEST_MAX];
	unsigned int line = 0;
	size_t len = 0;

	if (ara_manifest_parse((const char *)data, size, &m, &line) !=
	    ARA_MANIFEST_OK) {
		FUZZ_CHECK(line <= size + 1); /* a line of the input, or 0 */
		return 0;
	}
	FUZZ_CHECK(ara_manifest_format(&m, text, sizeof(text), &len) ==
		   ARA_MANIFEST_OK);
	FUZZ_CHECK(len == size && memcmp(text, data, size) == 0);
	return 0;
}
