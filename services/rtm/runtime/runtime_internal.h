/* SPDX-License-Identifier: Apache-2.0 */
/* What the runtime's hooks (hooks.S, hooks.c) and its export (export.c) share. */
#ifndef ARA_RTM_RUNTIME_INTERNAL_H
#define ARA_RTM_RUNTIME_INTERNAL_H

/* ara/rtm.h's entry layout, for hooks.S (hooks.c checks that they agree). */
#define ARA_RTM_HOOK_KIND_SHIFT 56
#define ARA_RTM_HOOK_ICALL 1
#define ARA_RTM_HOOK_RET 2
#define ARA_RTM_HOOK_IJMP 3

#ifndef __ASSEMBLER__
#include <stdint.h>

/*
 * Writes "ara-rtm: <what>: <why>" to stderr, with write(2) only: the hooks
 * may run in a signal handler.
 */
void ara_rtm_warn(const char *what, const char *why);

/*
 * The hooks' slow path: any status of the gate's append but ARA_OK, for
 * entry. Returns once the entry is logged or refused; ends the process
 * when it is lost. The argument order is that of the hooks' registers.
 */
__attribute__((visibility("hidden"))) void ara_rtm_log_slow(int status, uint64_t entry);
#endif

#endif
