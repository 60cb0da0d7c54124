/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A service with an arbitrary read/write bug, linked only into the
 * domain-probe and one-domain test variants (never into libara.so): READ
 * copies whatever lies at the App's address, WRITE stores the App's value
 * at the App's address, neither with a check. It stands for a service
 * module an App compromised (a parser's overflow, a double fetch). LANE
 * asks the core for the gate's append lane at the App's address, as such a
 * module could. Its
 * module is built in the extra domain (ARA_MODULE_DOMAIN, set per file by
 * tests/variants/CMakeLists.txt), so that with a protection domain per
 * module it reaches its own memory and the App's, and every other
 * module's and the core's memory faults (tests/ara/attack_domains.c); in
 * the one-domain variant every module runs with the core's row and the
 * same bug discloses all of it.
 */
#include "ara/gate.h"
#include "ara/service.h"
#include "probe.h"

/* Its own memory: what READ and WRITE must still reach in its own domain. */
struct probe_state {
	uint8_t bytes[PROBE_READ_MAX];
};

static void probe_start(char **envp);

ARA_MODULE(probe_module, .name = "probe", .state_size = sizeof(struct probe_state),
	   .start = probe_start);

/*
 * Makes the state at initialisation, in the module's own domain (a
 * module's state is made only by its own code there: ara/service.h), so
 * that LOCATE, in the core's, finds it.
 */
static void probe_start(char **envp)
{
	(void)envp;
	if (!ara_module_state(&probe_module))
		ara_fatal("probe: no memory for its state; bytes", sizeof(struct probe_state));
}

static enum ara_status probe_read(void *arg)
{
	struct probe_read_arg *a = arg;

	if (a->len > sizeof(a->out))
		return ARA_E_INVAL;
	memcpy(a->out, (const void *)(uintptr_t)a->addr, a->len); /* the bug: any address */
	return ARA_OK;
}

static enum ara_status probe_write(void *arg)
{
	const struct probe_write_arg *a = arg;

	*(volatile uint64_t *)(uintptr_t)a->addr = a->value; /* the bug: any address */
	return ARA_OK;
}

_Static_assert(PROBE_LANE_BYTES == ARA_GATE_RTM_SLOTS + ARA_GATE_RTM_ENTRIES * 8, "ara/gate.h");

static enum ara_status probe_lane(void *arg)
{
	struct probe_lane_arg *a = arg;

	if (a->fresh) {
		void *segment = ara_dom0_calloc(1, PROBE_LANE_BYTES);

		if (!segment)
			return ARA_E_NOMEM;
		a->addr = (uintptr_t)segment;
	}
	ara_append_lane_set((void *)(uintptr_t)a->addr); /* the core's check, or the end */
	return ARA_OK;
}

ARA_SERVICE(svc_probe_read, .fid = PROBE_FID_READ, .flags = ARA_SVC_IN | ARA_SVC_OUT,
	    .arg_size = sizeof(struct probe_read_arg), .name = "probe_read", .module = &probe_module,
	    .handler = probe_read);
ARA_SERVICE(svc_probe_write, .fid = PROBE_FID_WRITE, .flags = ARA_SVC_IN,
	    .arg_size = sizeof(struct probe_write_arg), .name = "probe_write", .module = &probe_module,
	    .handler = probe_write);
ARA_SERVICE(svc_probe_lane, .fid = PROBE_FID_LANE, .flags = ARA_SVC_IN | ARA_SVC_OUT,
	    .arg_size = sizeof(struct probe_lane_arg), .name = "probe_lane", .module = &probe_module,
	    .handler = probe_lane);
