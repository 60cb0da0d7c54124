/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The core's process-wide state: every global variable of DOM0's core is
 * defined here, and nowhere else, so that no file of the core is the place
 * the others reach for their data (init.c used to be, and tied most of the
 * core into one cycle of references). A file's private state stays a static
 * in that file.
 *
 * All of it is libara's own data, which self.c tags DOM0: App code can
 * neither read nor write it. What initialisation alone writes is
 * ARA_RO_AFTER_INIT (dom0.h): read-only from the end of initialisation on,
 * and readable by the service domains, which must find the system-call
 * page and the measured identity. ara_protected is not: the attack tests'
 * signal_frame_dom0 (tests/ara/attack_kernel.c) needs it just above ctor.S's
 * ara_init_stack, which its twin overwrites; the service domains read
 * ara_protected_view, its copy as the seal found it (ARA_RO_AT_SEAL). None
 * of it is wiped in a forked child (the arena is; live.h), so none of it may
 * hold a secret. What each holds, who writes it, and when:
 *
 *   ara_svc_entry   where DOM0's system calls go (svc_page.h): libara's own
 *                   `svc #0; ret` (svc_page.S) until svc_page.c points it at
 *                   the system-call page, first thing in initialisation,
 *                   before any other thread exists. Read by sys.h and the
 *                   assembly that makes system calls.
 *   ara_boot_block  the boot block initialisation accepted (ara/boot.h):
 *                   written by boot.c at initialisation only; read for the
 *                   digests ARA_FID_INFO reports, by execve.c for the next
 *                   image, and by the services.
 *   ara_verbose     ARA_VERBOSE=1 in the environment: set by init.c at
 *                   initialisation only.
 *   ara_protected   the DOM0 and DOM1 ranges (arguments must not point into
 *                   them; the filter and mseal cover them): added to by
 *                   protect.c and self.c at initialisation only, before the
 *                   filter is installed; read from then on.
 *   ara_protected_view  ara_protected as it is at the seal, read-only from
 *                   then on: written by init.c only, read by the service
 *                   domains' copies (copy.c); empty before the seal, when
 *                   their copies of App memory are refused.
 *   ara_live        the per-process state page in DOM0's arena (live.h):
 *                   the pointer is set by live.c at initialisation only; the
 *                   page it points to is the state a fork must not keep.
 *   ara_stats       what initialisation did and counts since, for
 *                   ARA_FID_INFO (svc_core.c): scanned_words and
 *                   patched_writes stored by scan_apply.c at initialisation,
 *                   added to atomically by code_map.c at run time; the signal
 *                   counts added to atomically by interrupted.c, and
 *                   syscalls_served by svc_syscall.c.
 *   dom0_canary     no state: a marker in DOM0's read-only data. The attack
 *                   tests fail if it ever shows up in an App's output (a
 *                   DOM0 byte leaked); they find it by this name.
 */
#include "dom0.h"
#include "live.h"
#include "svc_page.h"

extern const char ara_svc_boot[];

ARA_RO_AFTER_INIT uint64_t ara_svc_entry = (uint64_t)(uintptr_t)ara_svc_boot;
ARA_RO_AFTER_INIT struct ara_boot ara_boot_block;
int ara_verbose;
struct ara_region_set ara_protected; /* not ARA_RO_AFTER_INIT: see above */
ARA_RO_AT_SEAL struct ara_region_set ara_protected_view;
ARA_RO_AFTER_INIT struct ara_live *ara_live;
struct ara_init_stats ara_stats;

__attribute__((used)) static const char dom0_canary[] = "ARA-DOM0-CANARY: if you can read this, DOM0 leaked";
