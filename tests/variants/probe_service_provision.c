/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The probe (probe_service.c) built for provisioning's domain, in the
 * provision-probe test variant (ARA_MODULE_DOMAIN, set per file by
 * tests/variants/CMakeLists.txt): a bug in provisioning's own code, which
 * must reach provisioning's memory and not the content keys it handed to
 * the RTS.
 */
#include "probe_service.c"
