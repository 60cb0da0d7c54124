/* SPDX-License-Identifier: Apache-2.0 */
/*
 * No code: compiled with -g -fno-eliminate-unused-debug-types, its debug
 * information describes every type of the App's headers, so that abidiff
 * (abi/, docs/abi.md) checks their layout and values too. The service
 * arguments reach libara-entry.so only as secure_call's void *arg, where
 * abidiff would not otherwise see them.
 */
#include "ara/ara.h"
#include "ara/provision.h"
#include "ara/rtm.h"
#include "ara/rts.h"
