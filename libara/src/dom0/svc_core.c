/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The core services: a null call (which the gate answers itself), an echo
 * that checks copy-in/out, information, and a value check (the gate's
 * direct path for a value argument).
 */
#define ARA_MODULE_DOMAIN ARA_DOM0 /* the core's own services */
#include "ara/boot.h"
#include "ara/gate.h"
#include "dom0.h"
#include "mem.h"
#include "ara/service.h"

static enum ara_status null_call(void *arg)
{
	(void)arg;
	return ARA_OK;
}

static enum ara_status echo(void *arg)
{
	struct ara_echo_arg *a = arg;

	a->out = ara_echo_expect(a->in);
	return ARA_OK;
}

static enum ara_status value(void *arg)
{
	uint64_t v;

	memcpy(&v, arg, sizeof(v));
	return v == ARA_VALUE_PROBE ? ARA_OK : ARA_E_INVAL;
}

static enum ara_status info(void *arg)
{
	struct ara_info_arg *a = arg;

	a->version = ARA_VERSION;
	a->boot_version = ARA_BOOT_VERSION;
	a->scanned_words = ara_stats.scanned_words;
	a->patched_writes = ara_stats.patched_writes;
	a->dom0_stacks = ARA_DOM0_STACKS;
	a->signals_waited = __atomic_load_n(&ara_stats.signals_waited, __ATOMIC_RELAXED);
	a->calls_rolled_back = __atomic_load_n(&ara_stats.calls_rolled_back, __ATOMIC_RELAXED);
	a->calls_rolled_forward = __atomic_load_n(&ara_stats.calls_rolled_forward, __ATOMIC_RELAXED);
	memcpy(a->manifest_sha256, ara_boot_block.manifest_sha256, sizeof(a->manifest_sha256));
	memcpy(a->app_sha256, ara_boot_block.app_sha256, sizeof(a->app_sha256));
	memcpy(a->libara_sha256, ara_boot_block.libara_sha256, sizeof(a->libara_sha256));
	memcpy(a->entry_sha256, ara_boot_block.entry_sha256, sizeof(a->entry_sha256));
	memcpy(a->exec_parent_sha256, ara_boot_block.parent_app_sha256,
	       sizeof(a->exec_parent_sha256));
	a->syscalls_served = __atomic_load_n(&ara_stats.syscalls_served, __ATOMIC_RELAXED);
	return ARA_OK;
}

/* The core's own services' module: no state, no hooks. */
ARA_MODULE(ara_core_module, .name = "core");

ARA_SERVICE(svc_null, .fid = ARA_FID_NULL, .name = "null", .module = &ara_core_module,
	    .handler = null_call);
ARA_SERVICE(svc_echo, .fid = ARA_FID_ECHO, .flags = ARA_SVC_IN | ARA_SVC_OUT,
	    .arg_size = sizeof(struct ara_echo_arg), .name = "echo", .module = &ara_core_module,
	    .handler = echo);
ARA_SERVICE(svc_info, .fid = ARA_FID_INFO, .flags = ARA_SVC_OUT,
	    .arg_size = sizeof(struct ara_info_arg), .name = "info", .module = &ara_core_module,
	    .handler = info);
ARA_SERVICE(svc_value, .fid = ARA_FID_VALUE, .flags = ARA_SVC_VALUE, .arg_size = 8, .name = "value",
	    .module = &ara_core_module, .handler = value);
