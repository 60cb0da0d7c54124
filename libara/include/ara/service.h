/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The service registration interface: how a module in services/ plugs into
 * libara without touching the core.
 *
 * A module defines its services with ARA_SERVICE() in a source file linked
 * into libara.so. At initialisation libara collects them, checks them (a
 * function ID is registered once, argument sizes are bounded) and builds a
 * dispatch table that the gate indexes by function ID. The dispatcher copies
 * arg_size bytes of the App's argument into DOM0 (ARA_SVC_IN), calls the
 * handler on that copy, and copies the copy back (ARA_SVC_OUT) if the
 * handler returned ARA_OK. A service with no argument, or a value argument
 * (ARA_SVC_VALUE), is called by the gate directly, with arg pointing to the
 * DOM0 copy of the App's 64-bit argument (ignored if arg_size is 0).
 * Handlers that need variable-length App buffers take (address, length)
 * pairs in their argument and use ara_copy_from_app / ara_copy_to_app
 * (libara/src/dom0/dom0.h), which refuse ranges that reach into DOM0/DOM1.
 *
 * Handlers run in DOM0 on a DOM0 stack: no libc, no App pointers followed
 * directly, secrets wiped (ara_memzero) before returning.
 */
#ifndef ARA_SERVICE_H
#define ARA_SERVICE_H

#include <stdint.h>

#include "ara/ara.h"

#define ARA_SVC_IN 0x1u
#define ARA_SVC_OUT 0x2u
/*
 * The App's argument is a 64-bit value, not a pointer (arg_size 8, alone):
 * the handler gets it in arg, nothing is copied from or to App memory. For
 * calls on a hot path whose whole argument fits (RTM_LOG). arg is then the
 * call header's arg slot (ara/gate.h), so a core service that needs its
 * call's header finds it around arg (ARA_FID_SYSCALL, whose value is the
 * address of a request it copies itself).
 */
#define ARA_SVC_VALUE 0x4u
/*
 * The handler can leave DOM0 values in the SIMD&FP registers (it reaches
 * the AES code, the only DOM0 code built with them): the vector registers
 * are cleared after it. Other services pay nothing for it.
 * libara/check-simd-services.cmake fails the build if a handler that can
 * reach a SIMD function lacks the flag.
 */
#define ARA_SVC_SIMD 0x8u
#define ARA_SVC_ARG_MAX 1024u /* bytes; the copy lives on the DOM0 stack */

struct ara_service {
	uint32_t fid;
	uint32_t flags;    /* ARA_SVC_IN | ARA_SVC_OUT, or ARA_SVC_VALUE; | ARA_SVC_SIMD */
	uint32_t arg_size; /* 0: arg is ignored */
	const char *name;
	/* arg: DOM0 copy of the App's argument (arg_size bytes, zeroed if not IN) */
	enum ara_status (*handler)(void *arg);
};

#define ARA_SERVICE(ident, ...)                                               \
	static const struct ara_service ident                                 \
		__attribute__((used, section("ara_services"), aligned(8))) = { \
			__VA_ARGS__                                           \
		}

#endif
