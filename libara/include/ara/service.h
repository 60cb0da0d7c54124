/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The service interface: everything a service module in services/ may use
 * of ARA's DOM0 core, and all it may include of it (cmake/
 * check-service-includes.cmake refuses an include of libara/src/). OP-TEE's
 * libutee is the model: a service sees its API, never the core's internals.
 *
 * A module is a folder of services/ named in the build's one list
 * (ARA_DOM0_SERVICES, services/dom0.cmake). It describes itself with
 * ARA_MODULE() (its hooks and the size of its per-process state) and
 * defines its functions with ARA_SERVICE(), each naming its module. At
 * initialisation libara collects both sections, checks them (a function ID
 * is registered once, argument sizes are bounded) and builds a dispatch
 * table that the gate indexes by function ID. The dispatcher copies
 * arg_size bytes of the App's argument into DOM0 (ARA_SVC_IN), calls the
 * handler on that copy, and copies the copy back (ARA_SVC_OUT) if the
 * handler returned ARA_OK. A service with no argument, or a value argument
 * (ARA_SVC_VALUE), is called by the gate directly, with arg pointing to the
 * DOM0 copy of the App's 64-bit argument (ignored if arg_size is 0).
 * Handlers that need variable-length App buffers take (address, length)
 * pairs in their argument and use ara_copy_from_app / ara_copy_to_app
 * below, which refuse ranges that reach into DOM0/DOM1.
 *
 * Handlers run in DOM0, in their module's protection domain (the build's
 * choice: ara_dom0_service's DOMAIN; docs/architecture.md, "Service
 * domains") on a stack of that domain: no libc, no App pointers followed
 * directly, secrets wiped (ara_memzero) before returning. A module keeps
 * what must not outlive a fork in its state (ara_module_state), and reaches
 * another module only through the core (ara_service_call) or a secret
 * handed over (ara_handover), never through its memory.
 */
#ifndef ARA_SERVICE_H
#define ARA_SERVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ara/ara.h"
#include "ara/boot.h"
#include "ara/domains.h"
#include "ara/maps.h"
#include "ara/mem.h"
#include "ara/sys.h"

/* ---- Registration ------------------------------------------------------ */

struct ara_handover_rule;

/*
 * A module: name, per-process state and hooks, each optional.
 *   start(envp)    at initialisation, before the seccomp filter and before
 *                  any App code runs (files, devices, keys: ara_fatal on
 *                  failure, no App code has run);
 *   ready()        last in initialisation, after the filter, with every
 *                  domain tagged: what App code will find;
 *   forked(state)  in a forked child, at the first use of the module's
 *                  state there (its state is new and zeroed: the parent's
 *                  is gone with the rest of the per-process DOM0 state);
 *                  before any thread sees the state, with the modules'
 *                  lock held: it calls no ara_module_state().
 * Modules run their hooks in the order of their section.
 */
struct ara_module {
	const char *name;
	size_t state_size; /* bytes of ara_module_state(); 0: none */
	void (*start)(char **envp);
	void (*ready)(void);
	void (*forked)(void *state);
	/* The secrets it takes from other modules (ara_handover below), or NULL: none. */
	const struct ara_handover_rule *takes;
	/*
	 * The modules of other service domains that may call its internal
	 * functions (ara_service_call below), by name, NULL-terminated; NULL:
	 * none. The core's domain reaches them without being named.
	 */
	const char *const *callers;
	size_t boot_size; /* bytes of ara_module_boot(); 0: none */
	uint32_t domain; /* enum ara_domain_id (ara/domains.h): set by the build, not by the module */
};

/* libara/check-simd-services.cmake reads the forked hooks back from libara.so. */
_Static_assert(sizeof(struct ara_module) == 72 && offsetof(struct ara_module, forked) == 32,
	       "libara/check-simd-services.cmake");

/*
 * ARA_MODULE(my_module, .name = "mine", ...): defines my_module, which its
 * ARA_SERVICEs name. The domain it runs in is the build's choice
 * (ara_dom0_service's DOMAIN, which defines ARA_MODULE_DOMAIN for the
 * module's sources): a module cannot name it (a second .domain is an
 * error, -Woverride-init).
 */
#ifdef ARA_MODULE_DOMAIN
#define ARA_MODULE(ident, ...)                                               \
	const struct ara_module ident                                        \
		__attribute__((used, section("ara_modules"), aligned(8))) = { \
			.domain = ARA_MODULE_DOMAIN, __VA_ARGS__             \
		}
#else
#define ARA_MODULE(ident, ...)                                                         \
	_Static_assert(0, "ARA_MODULE_DOMAIN is not defined: the build names each module's " \
			  "domain (ara_dom0_service's DOMAIN)")
#endif

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
/*
 * Another module's function, never the App's: only ara_service_call()
 * reaches it; the gate answers an App's call to its ID as to an unknown one
 * (ARA_E_NOFUNC). arg is the caller's (DOM0) argument, of arg_size bytes;
 * no other flag (a caller that reaches SIMD through it carries
 * ARA_SVC_SIMD: check-simd-services.cmake follows the call).
 */
#define ARA_SVC_INTERNAL 0x10u
#define ARA_SVC_ARG_MAX 1024u /* bytes; the copy lives on the DOM0 stack */

struct ara_service {
	uint32_t fid;
	uint32_t flags;	   /* ARA_SVC_IN | ARA_SVC_OUT, or ARA_SVC_VALUE; | ARA_SVC_SIMD; or ARA_SVC_INTERNAL */
	uint32_t arg_size; /* 0: arg is ignored */
	const char *name;
	const struct ara_module *module; /* whose function it is */
	/* arg: DOM0 copy of the App's argument (arg_size bytes, zeroed if not IN) */
	enum ara_status (*handler)(void *arg);
};

/* libara/check-simd-services.cmake reads the descriptors back from libara.so. */
_Static_assert(sizeof(struct ara_service) == 40 && offsetof(struct ara_service, flags) == 4 &&
		       offsetof(struct ara_service, handler) == 32,
	       "libara/check-simd-services.cmake");

#define ARA_SERVICE(ident, ...)                                               \
	static const struct ara_service ident                                 \
		__attribute__((used, section("ara_services"), aligned(8))) = { \
			__VA_ARGS__                                           \
		}

/*
 * Calls the ARA_SVC_INTERNAL function fid of another module with arg (its
 * arg_size bytes, the caller's memory, in and out). Everything passes
 * through arg: nothing of the callee's state comes back but copies, and
 * the callee treats arg as the caller's words (it follows no pointer in
 * it). A module reaches those of its own domain directly. A module of the
 * core's domain (during an App's call) reaches those of a service domain,
 * which run there through its door on a copy of arg. A module of a service
 * domain reaches those of another service domain whose module names it in
 * .callers: the core relays the call (a copy of arg in, the result out)
 * while the caller waits in its own domain; a call the core relays, and a
 * module's start and ready hooks, cannot ask for a relay. The handler's
 * status; ARA_E_NOFUNC if no internal function has this ID, or none the
 * caller may reach.
 */
enum ara_status ara_service_call(uint32_t fid, void *arg) __attribute__((warn_unused_result));

/* ---- The module's own state ------------------------------------------- */

/*
 * The module's per-process state: state_size bytes on its domain's heap,
 * zeroed when made at its first use in the process (a forked child's first
 * use makes a new one, then runs forked). NULL if the heap cannot hold it,
 * or the module has no state. Made only by the module's own code in its own
 * domain: asked from another domain (the core's), NULL until then.
 */
void *ara_module_state(const struct ara_module *m);

/*
 * The module's boot state: boot_size zeroed bytes on its domain's key, made
 * at initialisation before the start hooks, which its start and ready hooks
 * fill (what the process was when ARA started: the RTM's code modules) and
 * a forked child keeps as they were. NULL if the module has none. Not for
 * secrets: the child keeps them too.
 */
void *ara_module_boot(const struct ara_module *m);

/*
 * Spin locks for a module's state: DOM0 has no futex of its own (and a
 * fork child finds them free, with its state new).
 */
static inline void ara_lock(int *l)
{
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(l, __ATOMIC_RELAXED))
			__asm__ volatile("yield");
}

static inline void ara_unlock(int *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

/*
 * The append lane: one segment that the gate's stackless append
 * (ara_rtm_append, entry/gate.S) fills without entering DOM0's C code, its
 * layout ara/gate.h's (a fill word, then ARA_GATE_RTM_ENTRIES slots). One
 * owner, the module serving ARA_GATE_FID_RTM_LOG (the append's regular
 * path), publishes it (release); NULL: none (the gate takes the regular
 * path). Per process: a forked child has none. From a service domain the
 * core sets it, during a call, for the owner's domain only, and a segment
 * on that domain's heap only; anything else ends the process.
 */
void ara_append_lane_set(void *segment);

/* ---- The DOM0 heap ----------------------------------------------------- */

/* Zeroed memory, or NULL; also mbedtls's calloc/free. */
void *ara_dom0_calloc(size_t n, size_t size);
void ara_dom0_free(void *p);

/* ---- App memory -------------------------------------------------------- */

/* The only way DOM0 reads or writes App memory, through the kernel. */
enum ara_status ara_copy_from_app(void *dst, uint64_t app_src, size_t len)
	__attribute__((warn_unused_result));
enum ara_status ara_copy_to_app(uint64_t app_dst, const void *src, size_t len)
	__attribute__((warn_unused_result));
/*
 * The same with plain loads and stores (app_access.S): no system call, a
 * fault resumed as ARA_E_FAULT, where the thread leaves SIGSEGV and SIGBUS
 * unblocked; where it blocks one, a fault ends the process (the kernel's
 * rule for a blocked fault). For the large or frequent copies of a call
 * (the dispatcher's argument copies, the RTS's samples and chunks); never
 * in ARA's signal handler, which runs with every signal blocked.
 */
enum ara_status ara_direct_from_app(void *dst, uint64_t app_src, size_t len)
	__attribute__((warn_unused_result));
enum ara_status ara_direct_to_app(uint64_t app_dst, const void *src, size_t len)
	__attribute__((warn_unused_result));

/* ---- Secrets and randomness ------------------------------------------- */

void ara_memzero(void *p, size_t n);
int ara_ct_eq(const void *a, const void *b, size_t n) __attribute__((warn_unused_result));
/* len bytes from the kernel's getrandom; 0, or -1. */
int ara_random_bytes(void *out, size_t len);

/* ---- Secrets for another module ---------------------------------------- */

/*
 * A secret one module receives for another (provisioning's content keys
 * for the RTS) moves through the core, never through shared memory: the
 * core copies it into the recipient's domain, and the sender keeps no copy.
 * Who may hand what to whom is the recipient's word: its descriptor's
 * .takes lists the rules, ended by one with from NULL,
 *   .takes = (const struct ara_handover_rule[]){ { "provision", "kid-" }, { 0 } }
 * (the secrets module "provision" holds under names that begin with
 * "kid-"). Initialisation refuses a rule that names no module, or one that
 * overlaps another recipient's rule; ara_handover refuses every secret no
 * rule names. A module finds what it was handed by name, in its own domain.
 * The secrets live in the recipient domain's per-process state: a forked
 * child has none.
 */
struct ara_handover_rule {
	const char *from;   /* the sending module's name */
	const char *prefix; /* the names it may hand: those that begin with it (1 byte or more) */
};

#define ARA_HANDOVER_NAME_MAX 64u
#define ARA_HANDOVER_SECRET_MAX 64u
#define ARA_HANDOVER_HELD 16u  /* secrets held a domain, for all its modules */
#define ARA_HANDOVER_QUEUED 2u /* secrets one call into a service domain hands another's */

/*
 * Hands secret (len bytes) under name to the module whose rule names it,
 * from module from, whose code calls it: the recipient's copy replaces one
 * it held under that name; len 0 withdraws (and wipes) the secret held
 * under that name, if any. From the core's domain or the recipient's it
 * is done on return; from another service domain, whose row cannot reach
 * the recipient's, the core does it when the call into the sender's domain
 * returns (a recipient with no room then ends the process: size the
 * recipient's ARA_HANDOVER_HELD for its senders). ARA_OK; ARA_E_NOENT (no
 * rule names it: the secret is the sender's to keep); ARA_E_INVAL (a name
 * or secret too long, or a sender that is not the calling domain's);
 * ARA_E_NOMEM (the recipient holds ARA_HANDOVER_HELD secrets, or this
 * call has queued ARA_HANDOVER_QUEUED for another service domain).
 */
enum ara_status ara_handover(const struct ara_module *from, const uint8_t *name, size_t name_len,
			     const void *secret, size_t len) __attribute__((warn_unused_result));

/*
 * A copy of the secret held for self under name, into out (*len bytes of
 * room; set to the secret's length), from self's own domain; the caller
 * wipes out when done. ARA_OK; ARA_E_NOENT (none held); ARA_E_INVAL (out
 * too small, or self not the calling domain's module).
 */
enum ara_status ara_handed(const struct ara_module *self, const uint8_t *name, size_t name_len,
			   void *out, size_t *len) __attribute__((warn_unused_result));

/* ---- Messages and ending ----------------------------------------------- */

/* Messages to the process's stderr, formatted in a DOM0 buffer. */
struct ara_msg {
	char buf[512];
	size_t len;
};
void ara_msg_str(struct ara_msg *m, const char *s);
void ara_msg_mem(struct ara_msg *m, const char *s, size_t n);
void ara_msg_hex(struct ara_msg *m, uint64_t v);
void ara_msg_dec(struct ara_msg *m, long v);
void ara_msg_emit(struct ara_msg *m);
/* During initialisation (start): "initialisation failed", exit ARA_EXIT_INIT_FAILED. */
__attribute__((noreturn)) void ara_fatal(const char *what, long value);
/* Later: ends the process with status (ara/boot.h's ARA_EXIT_*). */
__attribute__((noreturn)) void ara_stop(int status, const char *what, long value);

/* ---- The process ------------------------------------------------------- */

/* The boot block initialisation accepted: the measured digests of this run. */
const struct ara_boot *ara_measured(void);

/* The value of name in the environment (start's envp), or NULL. */
const char *ara_env_get(char **envp, const char *name);

/* Calls fn for every mapping of a snapshot of /proc/self/maps; fatal on error. */
typedef void (*ara_map_fn)(const struct ara_mapping *m, void *ctx);
void ara_maps_foreach(ara_map_fn fn, void *ctx);
/*
 * The same for a service, which must not end the process: 0, or -1 with
 * *why and *value saying what failed (fn may have seen some mappings).
 */
int ara_maps_try_foreach(ara_map_fn fn, void *ctx, const char **why, long *value);
/* True if the mapping's path is exactly path. */
bool ara_mapping_is(const struct ara_mapping *m, const char *path);

#endif
