/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The probe (probe_service.c) built for the RTS's domain, in the rts-probe
 * test variant (ARA_MODULE_DOMAIN, set per file by
 * tests/variants/CMakeLists.txt): a bug in the RTS's own code, which must
 * reach the RTS's memory and no other module's.
 */
#include "probe_service.c"
