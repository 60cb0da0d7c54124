/* SPDX-License-Identifier: Apache-2.0 */
/* What the runtime's hooks (hooks.c) and its export (export.c) share. */
#ifndef ARA_RTM_RUNTIME_INTERNAL_H
#define ARA_RTM_RUNTIME_INTERNAL_H

/*
 * Writes "ara-rtm: <what>: <why>" to stderr, with write(2) only: the hooks
 * may run in a signal handler.
 */
void ara_rtm_warn(const char *what, const char *why);

#endif
