/* SPDX-License-Identifier: Apache-2.0 */
/*
 * TEST DOUBLE of secure_call, of the gate's RTM append and of the
 * runtime's segment export, for the unit test of the RTM hooks
 * (services/rtm/runtime/hooks.S, hooks.c): secure_call answers RTM_LOG with the
 * statuses a test scripted, in order, and records what it was asked
 * (ara_rtm_append is RTM_LOG there); ara_rtm_flush_segments only counts its calls.
 * Single-threaded tests only.
 */
#ifndef SECURE_CALL_DOUBLE_H
#define SECURE_CALL_DOUBLE_H

#include <stddef.h>
#include <stdint.h>

#define DOUBLE_SCRIPT_MAX 8u

/* The statuses the next calls return (n at most DOUBLE_SCRIPT_MAX); past them, ARA_OK. */
void double_script(const int *statuses, size_t n);

/* Calls since the last double_script, and the last call's function ID and argument. */
size_t double_calls(void);
uint32_t double_last_fid(void);
uint64_t double_last_arg(void);

/* ara_rtm_flush_segments calls since the last double_script. */
size_t double_flushes(void);

#endif
