/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DOM0 state that belongs to one process and must not outlive a fork.
 *
 * It sits on a page of DOM0's arena that, like the heap and the stacks, is
 * MADV_WIPEONFORK: a forked child finds it zeroed. There, the threads that
 * held DOM0 stacks or a DOM0 lock at the fork do not exist, and the heap's
 * contents (secrets included) are gone; the first use of the heap in the
 * child (alloc.c) rebuilds an empty heap (ara_live_ensure). libara's static data is
 * not wiped, so DOM0 keeps no secret there.
 */
#ifndef ARA_DOM0_LIVE_H
#define ARA_DOM0_LIVE_H

#include <stddef.h>
#include <stdint.h>

#include "ara/gate.h"
#include "ara/service.h"
#include "handover.h"
#include "heap.h"

enum ara_live_state {
	ARA_LIVE_UNSET = 0, /* a forked child's: rebuild before use */
	ARA_LIVE_BUILDING,
	ARA_LIVE_READY,
};

/* Service modules a libara.so holds at most (ara/service.h's ARA_MODULE). */
#define ARA_MODULES_MAX 16u

struct ara_live {
	uint64_t claimed_stacks; /* entry/gate.S, sigreturn.S: bit i set, handler stack i in use; first */
	uint32_t state;		 /* enum ara_live_state */
	int heap_lock;
	int stage_lock;	 /* code_map.c: one staging at a time */
	int signal_lock; /* app_signals.c: the App's handlers */
	int32_t threads_pid; /* thread.c: the process whose threads the slots hold */
	int sibling_execs;   /* clone.c: execveats of its threads in flight (vfork.h) */
	int modules_lock;    /* modules.c: a module's state is made once */
	int forked;	     /* live.c: this page was rebuilt, in a forked child */
	/* The gate reads append_lane at the offset it was assembled with (ara/gate.h). */
	uint8_t to_append_lane[ARA_GATE_LIVE_RTM_OPEN - 40];
	void *append_lane; /* modules.c: a segment the gate appends to without a lock; or NULL */
	void *module_state[ARA_MODULES_MAX]; /* modules.c: each module's state, by its index */
	struct ara_heap heap;
	struct ara_handover_box handover; /* handover.c: what the core's modules were handed */
};
_Static_assert(sizeof(struct ara_live) <= ARA_PAGE_SIZE, "the arena's state page");

/* entry/gate.S's RTM append loads the lane through the control block's live. */
_Static_assert(offsetof(struct ara_live, append_lane) == ARA_GATE_LIVE_RTM_OPEN, "ara/gate.h");

/* The core's name for the locks on this page (ara/service.h's, the one implementation). */
#define ara_live_lock ara_lock
#define ara_live_unlock ara_unlock

/* This process's state; the pointer itself (state.c) is set once at initialisation. */
extern struct ara_live *ara_live;

/* At initialisation: page is the arena's state page, the heap follows it. */
void ara_live_init(struct ara_live *page, void *heap_base, size_t heap_size);

/* Before any use of the heap after initialisation: rebuilds it in a child. */
void ara_live_ensure(void);

#endif
