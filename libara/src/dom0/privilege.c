/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Drops the capabilities that let a process act beyond its own address
 * space (docs/security.md, "The kernel interface", class 5): the App often runs as root,
 * and root's capabilities reach the kernel (modules, kexec, BPF, raw I/O,
 * perf), other processes (ptrace, signals, resource limits, namespaces)
 * and every file (DAC overrides), each a way around what ARA isolates.
 *
 * Every capability goes, from the bounding, inheritable, permitted and
 * effective sets, and the ambient set is cleared, except two that reach
 * nothing but the process's own resources:
 *   CAP_NET_BIND_SERVICE      ports below 1024;
 *   CAP_IPC_LOCK              mlock beyond RLIMIT_MEMLOCK, of its own pages.
 * CAP_SETUID and CAP_SETGID go too, although a server uses them to give up
 * root: with them the App could become any other user, and so reach every
 * file and process of that user's, which is what dropping CAP_DAC_OVERRIDE
 * and CAP_KILL refuses. An App that must not run as root is started as its
 * own user instead.
 * A capability number this file does not know (a newer kernel's) is dropped
 * too: the loop runs until the kernel says the number is invalid.
 *
 * The bounding set can be changed only with CAP_SETPCAP. A process without
 * it (an unprivileged user) holds nothing to drop there that execve could
 * give back: no_new_privs, set with the filter before any App code runs,
 * keeps execve from granting more than the process's permitted set, which
 * is emptied here. With CAP_SETPCAP every drop must succeed. Fail closed:
 * any other failure, or a capability outside the kept ones left afterwards,
 * fails initialisation.
 */
#include "dom0.h"
#include "init.h"
#include "kernel.h"
#include "sys.h"

#define BIT(cap) (UINT64_C(1) << (cap))
#define KEPT (BIT(CAP_NET_BIND_SERVICE) | BIT(CAP_IPC_LOCK))

#ifdef ARA_TEST_VARIANT_NO_PRIVILEGE_DROP
void ara_drop_privilege(void)
{
	/* The variant keeps every capability (and has no filter). */
}
#else
struct caps {
	uint64_t effective, permitted, inheritable;
};

static struct caps caps_get(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	long r = ara_sys2(__NR_capget, &h, d);

	if (r != 0)
		ara_fatal("capget failed", r);
	return (struct caps){
		.effective = d[0].effective | (uint64_t)d[1].effective << 32,
		.permitted = d[0].permitted | (uint64_t)d[1].permitted << 32,
		.inheritable = d[0].inheritable | (uint64_t)d[1].inheritable << 32,
	};
}

static void caps_set(struct caps c)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3] = {
		{ (uint32_t)c.effective, (uint32_t)c.permitted, (uint32_t)c.inheritable },
		{ (uint32_t)(c.effective >> 32), (uint32_t)(c.permitted >> 32),
		  (uint32_t)(c.inheritable >> 32) },
	};
	long r = ara_sys2(__NR_capset, &h, d);

	if (r != 0)
		ara_fatal("capset failed", r);
}

/* Drops every capability but the kept ones from the bounding set. */
static void drop_bounding(int may_drop)
{
	for (unsigned long cap = 0; cap < 64; cap++) {
		long in = ara_sys5(__NR_prctl, PR_CAPBSET_READ, cap, 0, 0, 0);
		long r;

		if (in == -EINVAL)
			return; /* past the kernel's last capability */
		if (in < 0)
			ara_fatal("prctl(PR_CAPBSET_READ) failed", in);
		if (in == 0 || (KEPT & BIT(cap)) || !may_drop)
			continue;
		r = ara_sys5(__NR_prctl, PR_CAPBSET_DROP, cap, 0, 0, 0);
		if (r != 0)
			ara_fatal("prctl(PR_CAPBSET_DROP) failed for capability", (long)cap);
	}
	ara_fatal("the kernel knows more than 64 capabilities", 64);
}

void ara_drop_privilege(void)
{
	struct caps c = caps_get();
	long r;

	drop_bounding((c.effective & BIT(CAP_SETPCAP)) != 0);
	r = ara_sys5(__NR_prctl, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (r != 0)
		ara_fatal("prctl(PR_CAP_AMBIENT_CLEAR_ALL) failed", r);
	c.effective &= KEPT;
	c.permitted &= KEPT;
	c.inheritable &= KEPT;
	caps_set(c);
	c = caps_get();
	if ((c.effective | c.permitted | c.inheritable) & ~KEPT)
		ara_fatal("capabilities remain after the drop", (long)(c.permitted & ~KEPT));
}
#endif
