/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DOM0's internal interfaces. Everything here runs in DOM0 with DOM0's own
 * text, data, heap and stacks: no libc, no errno, no TLS, no App memory
 * except through ara_copy_from_app / ara_copy_to_app.
 */
#ifndef ARA_DOM0_H
#define ARA_DOM0_H

#include <stddef.h>
#include <stdint.h>

#include "ara/ara.h"
#include "ara/boot.h"
#include "ara/service.h" /* what the services use of the core is declared there */
#include "regions.h"

/*
 * Data the core writes only during initialisation, which then makes it
 * read-only on DOM1's key (init.c, ara_seal_ro_after_init): the service
 * domains read it (where the system-call page is, the protected ranges,
 * the domains' map), and nothing writes it any more. dom0-layout.ld gives
 * it pages of its own.
 */
#define ARA_RO_AFTER_INIT __attribute__((section(".data.ara_ro_after_init")))

/*
 * Data the core writes until the seal, the last change initialisation makes
 * to ARA's ranges, and then makes read-only on DOM1's key (init.c,
 * publish_protected): what the service domains read of the protected
 * ranges. dom0-layout.ld gives it pages of its own.
 */
#define ARA_RO_AT_SEAL __attribute__((section(".data.ara_ro_at_seal")))

/* string.c */
/*
 * out = prefix, then fd in decimal (a descriptor path such as
 * "/proc/thread-self/fd/3"); out must hold the prefix and 21 more bytes.
 * Returns the length.
 */
size_t ara_put_fd(char *out, const char *prefix, long fd);

/*
 * state.c: the core's process-wide state (who writes each, and when).
 * Set from ARA_VERBOSE=1 at initialisation: report what ARA did on stderr.
 */
extern int ara_verbose;

/* What initialisation did, and counts since, for ARA_FID_INFO. */
struct ara_init_stats {
	uint64_t scanned_words, patched_writes;
	/* Signals that interrupted a secure_call (interrupted.c), updated atomically. */
	uint64_t signals_waited, calls_rolled_back, calls_rolled_forward;
	uint64_t syscalls_served; /* svc_syscall.c, updated atomically */
};
extern struct ara_init_stats ara_stats;

/* The boot block initialisation accepted (its digests answer ARA_FID_INFO). */
extern struct ara_boot ara_boot_block;

/* The DOM0 and DOM1 ranges: arguments must not point into them. */
extern struct ara_region_set ara_protected;
/* ara_protected as the seal found it, for the service domains (ARA_RO_AT_SEAL). */
extern struct ara_region_set ara_protected_view;

/*
 * copy.c: ara_copy_from_app / ara_copy_to_app (ara/service.h) for the
 * core's code that has the process's ID from the kernel for the call it
 * serves (the trap path: ara_thread_self asked for it): one system call
 * fewer.
 */
enum ara_status ara_copy_from_app_as(int32_t pid, void *dst, uint64_t app_src, size_t len)
	__attribute__((warn_unused_result));
enum ara_status ara_copy_to_app_as(int32_t pid, uint64_t app_dst, const void *src, size_t len)
	__attribute__((warn_unused_result));
/*
 * For the core's own code only (the dispatcher, the system call service),
 * which runs with the core's row: ara_direct_from_app / _to_app
 * (ara/service.h) without asking POR_EL0 whose row it is, and their range
 * check alone: [app, app + len) is App memory (or len is 0).
 */
enum ara_status ara_core_direct_from_app(void *dst, uint64_t app_src, size_t len)
	__attribute__((warn_unused_result));
enum ara_status ara_core_direct_to_app(uint64_t app_dst, const void *src, size_t len)
	__attribute__((warn_unused_result));
int ara_direct_range(uint64_t app, size_t len) __attribute__((warn_unused_result));
/* A NUL-terminated string of at most max bytes: its length, -EFAULT or -ENAMETOOLONG. */
long ara_copy_string_from_app(char *dst, uint64_t src, size_t max);

/* icache.c: data and instruction caches agree on [p, p + len). */
void ara_sync_icache(uint64_t p, uint64_t len);

/* dispatch.c: the gate's service table (before the control block is written). */
struct ara_gate_cb;
void ara_services_init(struct ara_gate_cb *cb);
enum ara_status ara_gate_wrapped(uint64_t *arg);
/*
 * modules.c: the service modules (ara/service.h). At initialisation, after
 * ara_services_init: checks them and runs each start hook (before the
 * filter); last, each ready hook.
 */
void ara_modules_start(char **envp);
void ara_modules_ready(void);
/* svc_core.c: the module of the core's own services. */
extern const struct ara_module ara_core_module;
/* The module's index in its section; fatal if m is not in it. */
uint32_t ara_module_index(const struct ara_module *m);
/* dispatch.c: the module whose service has function ID fid, or NULL. */
const struct ara_module *ara_service_module(uint32_t fid);
/* The module of that name (names are unique: ara_modules_start), or NULL. */
const struct ara_module *ara_module_named(const char *name);
/* simd_scrub.S: zeroes what DOM0's AES code may leave in the vector registers. */
void ara_simd_scrub(void);
/* hwcap.c: refuses a CPU without the AES and PMULL instructions DOM0's crypto runs on;
 * copies AT_HWCAP for getauxval(). */
void ara_hwcap_init(char **envp);

/* open.c: openat and openat2 performed for App code, or -errno. */
void ara_open_init(void); /* before the filter: which devices are TPMs */
long ara_app_openat(uint64_t dirfd, uint64_t app_path, uint64_t flags, uint64_t mode);
long ara_app_openat2(uint64_t dirfd, uint64_t app_path, uint64_t app_how, uint64_t size);

/* code_map.c: mmap and mprotect with PROT_EXEC for App code (IV1 at run time). */
#define ARA_CODE_STAGE_SIZE (UINT64_C(256) << 20) /* the largest such mapping */
void ara_code_map_init(void);
/* The staging window's start: the one ARA range DOM0 remaps at run time (seal.c). */
uint64_t ara_code_stage_start(void);
long ara_app_mmap(uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags, uint64_t fd,
		  uint64_t off);
long ara_app_mprotect(uint64_t addr, uint64_t len, uint64_t prot);
/*
 * The first len bytes of file fd, read-only, in the staging window (so App
 * code cannot unmap them while DOM0 reads): their address, or 0 if len is
 * 0 or larger than the window, or the mapping failed. Holds the window
 * until ara_code_stage_unview(len).
 */
uint64_t ara_code_stage_view(long fd, uint64_t len);
void ara_code_stage_unview(uint64_t len);

struct ara_thread;
/* execve.c: execve and execveat for thread t of App code; returns only on failure (-errno). */
long ara_app_execveat(struct ara_thread *t, uint64_t stack_index, uint64_t dirfd,
		      uint64_t app_path, uint64_t app_argv, uint64_t app_envp, uint64_t flags,
		      uint64_t app_sigmask);
/*
 * A vfork child's execve replaced its image: its parent frees what it left
 * in DOM0 (the request, the handler stack it ran on).
 */
void ara_execve_release(struct ara_thread *t);

struct ara_rt_sigframe;

/*
 * trap.c: ARA's signal actions, and the first thread's signal stack (at
 * initialisation, before the filter).
 */
void ara_signals_init(uint64_t gate);
/* trap.c: the gate's signal landing calls it on a claimed DOM0 stack. */
__attribute__((noreturn)) void ara_signal(uint64_t frame_at, uint64_t stack_index);
/* deliver.c: makes f fit for rt_sigreturn by thread t (DOM2's row, t's signal stack). */
void ara_signal_seal(const struct ara_thread *t, struct ara_rt_sigframe *f);

/*
 * sigreturn.S: gives back DOM0 stack stack_index (none if ARA_NO_STACK) and
 * makes rt_sigreturn on frame.
 */
#define ARA_NO_STACK UINT64_MAX
__attribute__((noreturn)) void ara_sigreturn_to(struct ara_rt_sigframe *frame, uint64_t stack_index);

/* unblock.S: the gate's way out after signals waited (interrupted.c), and its last instruction. */
void ara_unblock_deferred(void);
extern const uint32_t ara_unblock_deferred_ret[];

/* clone.c: clone with CLONE_VM for App code, or -errno; trap is the SIGSYS frame. */
long ara_app_clone(const struct ara_thread *parent, const struct ara_rt_sigframe *trap);

#endif
