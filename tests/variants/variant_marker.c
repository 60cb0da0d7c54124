/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Marks a test-only variant of libara.so: ara-loader refuses a libara with
 * this section unless ARA_ALLOW_TEST_VARIANT=1 (tests/variants/).
 */
__attribute__((used, section(".ara_test_variant"))) static const char variant[] =
	ARA_TEST_VARIANT_NAME;
