/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ARA's application interface: what an App includes to call ARA.
 *
 * An App links against libara-entry.so (CMake: ara_add_app(), see
 * cmake/AraApp.cmake) and runs under ara-loader. secure_call() enters ARA
 * through the DOM1 trampoline; ARA copies *arg into its own memory, checks it,
 * runs the service and copies the result back. Nothing else of ARA is
 * reachable from the App.
 */
#ifndef ARA_ARA_H
#define ARA_ARA_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ARA_VERSION_MAJOR 0
#define ARA_VERSION_MINOR 1
#define ARA_VERSION_PATCH 0
#define ARA_VERSION ((ARA_VERSION_MAJOR << 16) | (ARA_VERSION_MINOR << 8) | ARA_VERSION_PATCH)

/*
 * Status codes. The values are ABI: append only, never renumber. secure_call
 * returns nothing else (the dispatcher maps any other value to
 * ARA_E_INTERNAL).
 */
enum ara_status {
	ARA_OK = 0,
	ARA_E_NOT_READY = 1, /* not running under ara-loader, or not in DOM2 */
	ARA_E_NOFUNC = 2,    /* no service has this function ID */
	ARA_E_INVAL = 3,     /* malformed request (e.g. NULL arg where one is needed) */
	ARA_E_FAULT = 4,     /* arg is not App memory that can be read/written */
	ARA_E_BUSY = 5,      /* every DOM0 stack is in use: retry */
	ARA_E_NOMEM = 6,     /* DOM0 heap exhausted */
	ARA_E_NOTSUP = 7,    /* known function, not supported in this build */
	ARA_E_SECURITY = 8,  /* request violates ARA's policy */
	ARA_E_INTERNAL = 9,  /* a service returned an undocumented value */
	ARA_E_NO_EVIDENCE = 10, /* no platform evidence in this process (ara/provision.h) */
	ARA_E_REFUSED = 11,     /* the provisioner refused: its REFUSE message says why */
	ARA_E_BADMSG = 12,      /* a provisioning message did not decode or verify */
	ARA_E_NOENT = 13,       /* no such session or secret handle */
	/* Not an error: an RTM log segment is sealed and waits for RTM_EXPORT (ara/rtm.h). */
	ARA_RTM_SEGMENT_READY = 14,
	/* Not taken: the RTM log is full until the App exports its sealed segment (ara/rtm.h). */
	ARA_RTM_LOG_FULL = 15,
	/* The provisioner did not prove the key the App's manifest pins (ara/provision.h). */
	ARA_E_PROVISIONER = 16,
	ARA_STATUS_COUNT
};

/*
 * Function IDs: the high 16 bits name the service module, the low 16 bits
 * the function. 0 is never valid.
 */
#define ARA_FID(module, function) ((uint32_t)(((module) << 16) | (function)))
#define ARA_MODULE_CORE 0x0000u
#define ARA_MODULE_RTS 0x0001u
#define ARA_MODULE_RTM 0x0002u
/* Reserved for test-only services (tests/variants): never in libara.so. */
#define ARA_MODULE_TEST 0xffffu

/* Core services (libara/src/dom0/svc_core.c). */
#define ARA_FID_NULL ARA_FID(ARA_MODULE_CORE, 1)    /* arg ignored; returns ARA_OK */
#define ARA_FID_ECHO ARA_FID(ARA_MODULE_CORE, 2)    /* struct ara_echo_arg */
#define ARA_FID_INFO ARA_FID(ARA_MODULE_CORE, 3)    /* struct ara_info_arg */
#define ARA_FID_VALUE ARA_FID(ARA_MODULE_CORE, 4)   /* uint64_t, by value: ARA_OK iff it is ARA_VALUE_PROBE */
#define ARA_FID_SYSCALL ARA_FID(ARA_MODULE_CORE, 5) /* struct ara_syscall_arg *, by value */

/* ARA_FID_VALUE's argument: a value argument reached DOM0 whole (every other bit set). */
#define ARA_VALUE_PROBE UINT64_C(0x5555555555555555)

struct ara_echo_arg {
	uint64_t in;  /* copied into DOM0 */
	uint64_t out; /* set to ara_echo_expect(in) and copied back */
};
#define ara_echo_expect(in) (~(uint64_t)(in) ^ 0x4152412d4543484full) /* "ARA-ECHO" */

/*
 * ARA_FID_SYSCALL's argument: a system call ARA mediates, made through
 * secure_call instead of the filter's trap (docs/syscalls.md), with the
 * same checks. nr and args as the kernel takes them; on ARA_OK, result is
 * the call's (-errno on failure). A number the service does not take
 * (only rt_sigprocmask, rt_sigaction, openat, openat2) gets ARA_E_NOTSUP
 * and nothing is done.
 */
struct ara_syscall_arg {
	uint64_t nr;
	uint64_t args[6];
	int64_t result;
};

struct ara_info_arg { /* all out */
	uint32_t version;        /* ARA_VERSION of the running libara */
	uint32_t boot_version;   /* boot block version it accepted */
	uint64_t scanned_words;  /* DOM2 instruction words scanned at load */
	uint64_t patched_writes; /* POR_EL0 writes neutralised at load */
	uint32_t dom0_stacks;    /* calls that can run at once */
	uint32_t reserved;
	/* SHA-256 digests ara-loader verified (the measured identity) */
	uint8_t manifest_sha256[32];
	uint8_t app_sha256[32];
	uint8_t libara_sha256[32];
	uint8_t entry_sha256[32];
	/* Signals that arrived while a thread ran a secure_call, since start: */
	uint64_t signals_waited;       /* held until the call's way out */
	uint64_t calls_rolled_back;    /* caught on the way in: the call is made again */
	uint64_t calls_rolled_forward; /* caught on the way out (waited ones included) */
	/*
	 * A program an ARA App started with execve runs under ARA without a
	 * manifest (manifest_sha256 is zero); this is the App that started it
	 * (zero when ara-loader did).
	 */
	uint8_t exec_parent_sha256[32];
	uint64_t syscalls_served; /* mediated calls made through ARA_FID_SYSCALL, since start */
};

/*
 * Calls service fid with arg. Returns an enum ara_status. Safe from any
 * thread; up to ARA_DOM0_STACKS calls run at once (beyond that: ARA_E_BUSY).
 * With GCC the call goes through the GOT, not a PLT stub: a loop of calls
 * loads the address once (clang has no such attribute: -fno-plt does it).
 */
#if defined(__GNUC__) && !defined(__clang__)
#define ARA_NOPLT __attribute__((noplt))
#else
#define ARA_NOPLT
#endif
ARA_NOPLT int secure_call(uint32_t fid, void *arg);

/* A constant, non-NULL description of status; "unknown status" otherwise. */
const char *ara_strerror(int status);

#ifdef __cplusplus
}
#endif

#endif
