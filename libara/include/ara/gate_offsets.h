/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Generated from entry/gate.S's object by entry/gate-offsets.cmake: do not
 * edit. Offsets in their page (page 0, or page 1 for secure_call, the DOM1
 * windows and the RTM append's) of the labels entry/gate.S names with
 * for_c; what each is, is said there. Every arm64 build checks this file
 * against the object (ara/gate.h).
 */
#ifndef ARA_GATE_OFFSETS_H
#define ARA_GATE_OFFSETS_H

#define ARA_GATE_NULL 0x0
#define ARA_GATE_SECURE_CALL 0x8
#define ARA_GATE_WRONG_ROW 0x8
#define ARA_GATE_BUSY 0x18
#define ARA_GATE_DOM1_ENTERED 0x20
#define ARA_GATE_DOM1_ENTERED_END 0x28
#define ARA_GATE_TAKEN 0x2c
#define ARA_GATE_MISS 0x40
#define ARA_GATE_DEFERRED 0x4c
#define ARA_GATE_RTM_ENTERED 0x58
#define ARA_GATE_RTM_ENTERED_END 0x60
#define ARA_GATE_SIG_LANDING 0x68
#define ARA_GATE_RTM_LANDING 0x180
#define ARA_GATE_RTM_RESERVED 0x1b8
#define ARA_GATE_RTM_STORE 0x1c4
#define ARA_GATE_RTM_STORED 0x1c8
#define ARA_GATE_RTM_REGULAR 0x1d4
#define ARA_GATE_RTM_END 0x1ec
#define ARA_GATE_CLAIM_CHECK 0xf7c
#define ARA_GATE_CLAIMED 0xf80
#define ARA_GATE_ON_STACK 0xf94
#define ARA_GATE_EXIT 0xfb0
#define ARA_GATE_RELEASED 0xfec

#endif
