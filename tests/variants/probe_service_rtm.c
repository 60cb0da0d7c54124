/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The probe (probe_service.c) built for the RTM's domain, in the rtm-probe
 * test variant (ARA_MODULE_DOMAIN, set per file by
 * tests/variants/CMakeLists.txt): a bug in the RTM's own code, which must
 * reach the RTM's log and no other module's memory, the RTS's content keys
 * least of all.
 */
#include "probe_service.c"
