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
#include "heap.h"

enum ara_live_state {
	ARA_LIVE_UNSET = 0, /* a forked child's: rebuild before use */
	ARA_LIVE_BUILDING,
	ARA_LIVE_READY,
};

struct ara_live {
	uint64_t claimed_stacks; /* entry/gate.S, sigreturn.S: bit i set, handler stack i in use; first */
	uint32_t state;		 /* enum ara_live_state */
	int heap_lock;
	int stage_lock;	 /* code_map.c: one staging at a time */
	int signal_lock; /* app_signals.c: the App's handlers */
	int32_t threads_pid; /* thread.c: the process whose threads the slots hold */
	int sibling_execs;   /* clone.c: execveats of its threads in flight (vfork.h) */
	int provision_lock;  /* services/provision: sessions and secrets */
	void *provision;     /* services/provision/instance.c: this process's instance, on the heap */
	void *rts;	     /* services/rts/streams.c: the stream table, on the heap */
	void *cenc;	     /* services/rts/cenc.c: the CENC session table, on the heap */
	int rtm_lock;	     /* services/rtm: the log */
	void *rtm;	     /* services/rtm/log.c: the log and its chain, on the heap */
	void *rtm_open;	     /* services/rtm/log.c: its open segment (appenders, the gate's too, take no lock); or NULL */
	struct ara_heap heap;
};

/* entry/gate.S's RTM append loads rtm_open through the control block's live. */
_Static_assert(offsetof(struct ara_live, rtm_open) == ARA_GATE_LIVE_RTM_OPEN, "ara/gate.h");

/*
 * The locks on this page: spin locks, for DOM0 has no futex of its own
 * (and a fork child finds them free, with the page wiped).
 */
static inline void ara_live_lock(int *l)
{
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(l, __ATOMIC_RELAXED))
			__asm__ volatile("yield");
}

static inline void ara_live_unlock(int *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

/* This process's state; the pointer itself (state.c) is set once at initialisation. */
extern struct ara_live *ara_live;

/* At initialisation: page is the arena's state page, the heap follows it. */
void ara_live_init(struct ara_live *page, void *heap_base, size_t heap_size);

/* Before any use of the heap after initialisation: rebuilds it in a child. */
void ara_live_ensure(void);

#endif
