/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-thread DOM0 memory for the signal path, found by the kernel's thread
 * ID (gettid), which App code cannot forge.
 *
 * It holds the frame ARA hands to rt_sigreturn. That frame must stay ARA's
 * until the kernel has read it, after ARA's code has run for the last
 * time: a DOM0 stack is given back before that, so it cannot hold it; the
 * calling thread's own slot, reused only by the same thread, can.
 */
#ifndef ARA_DOM0_THREAD_H
#define ARA_DOM0_THREAD_H

#include <stddef.h>
#include <stdint.h>

#include "sigframe.h"

#define ARA_THREAD_SLOTS 1024u

struct ara_thread {
	int32_t tid; /* 0: free */
	struct ara_rt_sigframe exit_frame __attribute__((aligned(16)));
};

/* At initialisation: slots is DOM0 memory for ARA_THREAD_SLOTS of them. */
void ara_threads_init(struct ara_thread *slots);

/*
 * The calling thread's slot: the one with its ID, else a free one, else one
 * whose thread has exited. Fatal if every slot belongs to a live thread.
 */
struct ara_thread *ara_thread_self(void);

#endif
