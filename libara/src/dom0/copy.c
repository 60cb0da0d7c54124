/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The only ways DOM0 reads or writes App memory.
 *
 * A range is refused unless it lies wholly outside DOM0 and DOM1 (a confused
 * deputy must not copy ARA's own memory in or out) and below the user address
 * limit (a tagged pointer would otherwise alias DOM0 once the kernel strips
 * the tag). The copy itself goes through process_vm_readv/writev on this
 * process, so an unmapped or read-only App range gives ARA_E_FAULT instead of
 * a fault inside DOM0. The pid is asked for each time, unless the caller
 * has it from the kernel for the call it serves (ara_copy_*_as): a cached
 * one would be the parent's after fork, or the parent's in a vfork child
 * (whose copies of its non-dumpable parent fail). The dispatcher's copies
 * of a service's argument, the system call service's and the RTS's samples
 * and chunks are plain loads and stores instead (ara_direct_*,
 * app_access.S): no system call, a fault resumed as ARA_E_FAULT.
 */
#include "app_access.h"
#include "dom0.h"
#include "domain.h"
#include "kernel.h"
#include "sys.h"

_Static_assert(ARA_APP_ACCESS_OK == ARA_OK && ARA_APP_ACCESS_FAULT == ARA_E_FAULT,
	       "app_access.S returns them");

#define ARA_STRING_PAGE 4096u

/* The App's side of a copy lies wholly in App memory (or len is 0), as set says. */
static int in_app(const struct ara_region_set *set, uint64_t app, size_t len)
{
#ifdef ARA_TEST_VARIANT_NO_COPY_RANGE_CHECK /* test-only (tests/variants): DOM0's own ranges copied */
	(void)set;
	(void)app;
	(void)len;
	return 1;
#else
	return len == 0 || ara_range_is_app(set, app, len);
#endif
}

/*
 * The same for whoever copies: the core checks against ara_protected; a
 * service domain, which cannot read the core's data, against the copy the
 * seal left it, and is refused everything before the seal (no service
 * copies App memory that early). The core's own copies (ara_copy_*_as,
 * ara_core_direct_*) skip the question.
 */
static int app_range(uint64_t app, size_t len)
{
	if (ara_running_core())
		return in_app(&ara_protected, app, len);
	return ara_protected_view.n > 0 && in_app(&ara_protected_view, app, len);
}

/* pid: the calling thread's process, or 0 to ask the kernel. */
/* core: the core's own copy (ara_copy_*_as), checked against ara_protected without asking. */
static enum ara_status vm_copy(int core, long nr, long pid, void *local, uint64_t app, size_t len)
{
	struct iovec l = { .iov_base = local, .iov_len = len };
	struct iovec r = { .iov_base = (void *)(uintptr_t)app, .iov_len = len };
	long done;

	if (len == 0)
		return ARA_OK;
	if (!(core ? in_app(&ara_protected, app, len) : app_range(app, len)))
		return ARA_E_FAULT;
	if (pid == 0)
		pid = ara_sys0(__NR_getpid);
	done = ara_sys6(nr, pid, (long)&l, 1, (long)&r, 1, 0);
	return done == (long)len ? ARA_OK : ARA_E_FAULT;
}

enum ara_status ara_copy_from_app(void *dst, uint64_t app_src, size_t len)
{
	return vm_copy(0, __NR_process_vm_readv, 0, dst, app_src, len);
}

enum ara_status ara_copy_to_app(uint64_t app_dst, const void *src, size_t len)
{
	return vm_copy(0, __NR_process_vm_writev, 0, (void *)src, app_dst, len);
}

enum ara_status ara_copy_from_app_as(int32_t pid, void *dst, uint64_t app_src, size_t len)
{
	return vm_copy(1, __NR_process_vm_readv, pid > 0 ? pid : 0, dst, app_src, len);
}

enum ara_status ara_copy_to_app_as(int32_t pid, uint64_t app_dst, const void *src, size_t len)
{
	return vm_copy(1, __NR_process_vm_writev, pid > 0 ? pid : 0, (void *)src, app_dst, len);
}

int ara_direct_range(uint64_t app, size_t len)
{
	return in_app(&ara_protected, app, len);
}

enum ara_status ara_core_direct_from_app(void *dst, uint64_t app_src, size_t len)
{
	if (!in_app(&ara_protected, app_src, len))
		return ARA_E_FAULT;
	return ara_app_access(dst, (const void *)(uintptr_t)app_src, len);
}

enum ara_status ara_core_direct_to_app(uint64_t app_dst, const void *src, size_t len)
{
	if (!in_app(&ara_protected, app_dst, len))
		return ARA_E_FAULT;
	return ara_app_access((void *)(uintptr_t)app_dst, src, len);
}

enum ara_status ara_direct_from_app(void *dst, uint64_t app_src, size_t len)
{
	if (!app_range(app_src, len))
		return ARA_E_FAULT;
	return ara_app_access(dst, (const void *)(uintptr_t)app_src, len);
}

enum ara_status ara_direct_to_app(uint64_t app_dst, const void *src, size_t len)
{
	if (!app_range(app_dst, len))
		return ARA_E_FAULT;
	return ara_app_access((void *)(uintptr_t)app_dst, src, len);
}

/*
 * The App's NUL-terminated string at src into dst (max bytes, NUL
 * included), page by page: a read must not cross into an unmapped page.
 * Returns its length, -EFAULT, or -ENAMETOOLONG.
 */
long ara_copy_string_from_app(char *dst, uint64_t src, size_t max)
{
	size_t got = 0;

	while (got < max) {
		size_t chunk = ARA_STRING_PAGE - (size_t)((src + got) % ARA_STRING_PAGE);

		if (chunk > max - got)
			chunk = max - got;
		if (ara_copy_from_app(dst + got, src + got, chunk) != ARA_OK)
			return -EFAULT;
		for (size_t i = 0; i < chunk; i++)
			if (dst[got + i] == '\0')
				return (long)(got + i);
		got += chunk;
	}
	return -ENAMETOOLONG;
}
