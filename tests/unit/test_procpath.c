/* SPDX-License-Identifier: Apache-2.0 */
/* ara_proc_name_class, ara_sys_name_class: the kernel's names of procfs and sysfs objects. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "procpath.h"

static enum ara_proc_name proc(const char *p)
{
	return ara_proc_name_class(p, strlen(p));
}

static enum ara_sys_name sys(const char *p)
{
	return ara_sys_name_class(p, strlen(p));
}

static void memory_files(void **state)
{
	(void)state;
	assert_int_equal(proc("/proc/1234/mem"), ARA_PROC_MEMORY);
	assert_int_equal(proc("/proc/1234/task/1235/mem"), ARA_PROC_MEMORY);
	assert_int_equal(proc("/tmp/otherproc/1/mem"), ARA_PROC_MEMORY); /* procfs mounted elsewhere */
	assert_int_equal(proc("/proc/1234/map_files/7f0000000000-7f0000001000"), ARA_PROC_MEMORY);
	assert_int_equal(proc("/proc/1234/map_files"), ARA_PROC_MEMORY);
	assert_int_equal(proc("/proc/1234/map_files/"), ARA_PROC_MEMORY);
	assert_int_equal(proc("/proc/1234/map_files//7f0000000000-7f0000001000"), ARA_PROC_MEMORY);
	assert_int_equal(proc("mem"), ARA_PROC_MEMORY);
	assert_int_equal(proc("/mem"), ARA_PROC_MEMORY); /* a root set inside the task's directory */
}

/* Refused wherever they appear: a refusal needs only the last components. */
static void dom0_state_and_the_machine(void **state)
{
	(void)state;
	assert_int_equal(proc("/proc/1234/task/1235/syscall"), ARA_PROC_REGISTERS);
	assert_int_equal(proc("/proc/1234/syscall"), ARA_PROC_REGISTERS);
	assert_int_equal(proc("/syscall"), ARA_PROC_REGISTERS);
	assert_int_equal(proc("/proc/1234/stack"), ARA_PROC_KERNEL_STACK);
	assert_int_equal(proc("/proc/1234/task/1/wchan"), ARA_PROC_KERNEL_STACK);
	assert_int_equal(proc("/proc/1234/latency"), ARA_PROC_KERNEL_STACK);
	assert_int_equal(proc("/proc/1234/pagemap"), ARA_PROC_PAGE_STATE);
	assert_int_equal(proc("/proc/kpagecount"), ARA_PROC_PAGE_STATE);
	assert_int_equal(proc("/proc/kpageflags"), ARA_PROC_PAGE_STATE);
	assert_int_equal(proc("/proc/kpagecgroup"), ARA_PROC_PAGE_STATE);
	assert_int_equal(proc("/proc/kcore"), ARA_PROC_PHYSICAL);
	assert_int_equal(proc("/proc/vmcore"), ARA_PROC_PHYSICAL);
	assert_int_equal(proc("/proc/bus/pci/00/01.0"), ARA_PROC_PHYSICAL);
	assert_int_equal(proc("/proc/sysrq-trigger"), ARA_PROC_SYSRQ);
	assert_int_equal(proc("/proc/kmsg"), ARA_PROC_KERNEL_LOG);
}

static void writable_per_task_files(void **state)
{
	(void)state;
	assert_int_equal(proc("/proc/1234/comm"), ARA_PROC_TASK_WRITABLE);
	assert_int_equal(proc("/proc/1234/task/1235/comm"), ARA_PROC_TASK_WRITABLE);
	assert_int_equal(proc("/proc/1234/oom_score_adj"), ARA_PROC_TASK_WRITABLE);
	assert_int_equal(proc("/proc/1234/oom_adj"), ARA_PROC_TASK_WRITABLE);
	assert_int_equal(proc("/proc/1234/coredump_filter"), ARA_PROC_TASK_WRITABLE);
	assert_int_equal(proc("/elsewhere/7/comm"), ARA_PROC_TASK_WRITABLE);
	/* An allowance needs the whole shape: a pid, or task/<tid> under one. */
	assert_int_equal(proc("/comm"), ARA_PROC_OTHER);
	assert_int_equal(proc("comm"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/self/comm"), ARA_PROC_OTHER); /* the kernel never names it so */
	assert_int_equal(proc("/proc/x/task/1235/comm"), ARA_PROC_OTHER);
	assert_int_equal(proc("task/1235/comm"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/1234/attr/current"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/sys/kernel/modprobe"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/1234/commx"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/12a4/comm"), ARA_PROC_OTHER);
}

static void other_files(void **state)
{
	(void)state;
	assert_int_equal(proc("/proc/1234/maps"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/1234/smaps"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/1234/environ"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/1234/auxv"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/1234/stat"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/1234/memfoo"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/1234/xmem"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/meminfo"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/1234/status"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/1234/mem/x"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/1234/map_filesx/1"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/bus/pci/devices"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/bus/pci/00"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc/sys/kernel/core_pattern"), ARA_PROC_OTHER);
	assert_int_equal(proc("/proc"), ARA_PROC_OTHER);
	assert_int_equal(proc("/"), ARA_PROC_OTHER);
	assert_int_equal(proc(""), ARA_PROC_OTHER);
	/* len bounds the name: "mem" after it is not part of it. */
	assert_int_equal(ara_proc_name_class("/proc/1/maps/mem", 12), ARA_PROC_OTHER);
}

static void gone_objects(void **state)
{
	(void)state;
	assert_int_equal(proc("/proc/1234/maps (deleted)"), ARA_PROC_UNNAMED);
	assert_int_equal(proc(" (deleted)"), ARA_PROC_UNNAMED);
	assert_int_equal(proc("/proc/1234/maps (deleted"), ARA_PROC_OTHER);
	assert_int_equal(sys("/sys/devices/x (deleted)"), ARA_SYS_UNNAMED);
}

static void sysfs_names(void **state)
{
	(void)state;
	assert_int_equal(sys("/sys/devices/pci0000:00/0000:00:01.0/resource0"), ARA_SYS_PHYSICAL);
	assert_int_equal(sys("/sys/devices/pci0000:00/0000:00:01.0/resource12"), ARA_SYS_PHYSICAL);
	assert_int_equal(sys("/sys/devices/pci0000:00/0000:00:01.0/resource2_wc"), ARA_SYS_PHYSICAL);
	assert_int_equal(sys("/sys/devices/pci0000:00/pci_bus/0000:00/legacy_mem"), ARA_SYS_PHYSICAL);
	assert_int_equal(sys("/sys/devices/pci0000:00/pci_bus/0000:00/legacy_io"), ARA_SYS_PHYSICAL);
	assert_int_equal(sys("/sys/kernel/mm/page_idle/bitmap"), ARA_SYS_PAGE_STATE);
	assert_int_equal(sys("/sys/devices/pci0000:00/0000:00:01.0/resource"), ARA_SYS_OTHER);
	assert_int_equal(sys("/sys/devices/pci0000:00/0000:00:01.0/resource0_wcx"), ARA_SYS_OTHER);
	assert_int_equal(sys("/sys/devices/pci0000:00/0000:00:01.0/resource_wc"), ARA_SYS_OTHER);
	assert_int_equal(sys("/sys/devices/pci0000:00/0000:00:01.0/config"), ARA_SYS_OTHER);
	assert_int_equal(sys("/sys/kernel/uevent_helper"), ARA_SYS_OTHER);
	assert_int_equal(sys("/sys/devices/x/bitmap"), ARA_SYS_OTHER);
	assert_int_equal(sys(""), ARA_SYS_OTHER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(memory_files),
		cmocka_unit_test(dom0_state_and_the_machine),
		cmocka_unit_test(writable_per_task_files),
		cmocka_unit_test(other_files),
		cmocka_unit_test(gone_objects),
		cmocka_unit_test(sysfs_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
