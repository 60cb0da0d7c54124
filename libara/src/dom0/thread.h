/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-thread DOM0 memory for the signal path: a slot, found by the kernel's
 * thread ID (gettid), which App code cannot forge, and the thread's signal
 * stack.
 *
 * The signal stack. The kernel writes a signal frame with every key
 * enabled, at the interrupted sp unless the action is SA_ONSTACK and the
 * thread has a signal stack; App code can point sp anywhere, DOM0's pages
 * included. So every action ARA installs is SA_ONSTACK, and every thread
 * has a DOM0 signal stack from before its first App instruction
 * (ara_thread_arm: at initialisation for the first thread, in clone.c for
 * the others; a forked child's thread keeps its parent thread's, at the
 * same address in its own memory). It is SS_AUTODISARM, so the kernel
 * always starts at its top (it never finds itself "already on it" at an sp
 * App code chose), and the rt_sigreturn that ends each of ARA's handlers
 * arms it again from the frame (ara_thread_sigstack). Its size holds the
 * largest frame arm64 writes (SME's ZA storage at the architectural maximum
 * vector length is 64 KiB; with the streaming SVE registers and the rest,
 * about 80 KiB), so no frame reaches below it. The App's own sigaltstack is
 * kept with the slot's owner (app_stack): ARA builds the frames of the
 * App's handlers there, in App memory, through the argument checks.
 *
 * The slot holds the frame ARA hands to rt_sigreturn. That frame must stay
 * ARA's until the kernel has read it, after ARA's code has run for the last
 * time: a DOM0 stack is given back before that, so it cannot hold it; the
 * calling thread's own slot, reused only by the same thread, can. It can
 * hold DOM0's registers (ARA resuming itself, interrupted.c), so the slots
 * are zeroed in a forked child; their owners, with the App's sigaltstack a
 * child keeps, are not. Each frame fills only the slot's first bytes, its
 * fields and records (trap.c, read_frame): beyond its terminator the slot
 * keeps an earlier, longer frame's bytes, which never leave DOM0.
 */
#ifndef ARA_DOM0_THREAD_H
#define ARA_DOM0_THREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sigframe.h"

#ifndef ARA_THREAD_SLOTS
#define ARA_THREAD_SLOTS 1024u
#endif
#define ARA_SIGSTACK_SIZE (128u * 1024u)
#define ARA_FRAME_RECORD_SIZE 16u /* the kernel's, above each frame: x29, x30 */

#define ARA_TID_RESERVED (-1)

/*
 * Whose slot i is, in an array of its own (32 KiB): a lookup reads it, not
 * the slots (1,024 pages), and a forked child rewrites it without copying
 * every slot's page.
 */
struct ara_thread_id {
	int32_t tid; /* 0: free; ARA_TID_RESERVED: for a thread being made */
	int32_t pid; /* its thread group (a CLONE_VM child without CLONE_THREAD has its own) */
	struct ara_sigstack app_stack; /* the App's sigaltstack, as the App set it */
};

struct ara_thread {
	struct ara_rt_sigframe exit_frame __attribute__((aligned(16)));
	/*
	 * An execve's DOM0 memory while the kernel executes the new image
	 * (execve.c). A vfork child shares this memory and never returns to
	 * free it, nor give back the DOM0 handler stack it runs on
	 * (exec_stack): its parent does (clone.c).
	 */
	void *exec_request;
	uint64_t exec_stack;
	/*
	 * Set while the thread is in the execveat that replaces its image
	 * (ara_thread_exec_window), holding nothing of DOM0's but the two
	 * above: a vfork parent that finds it set knows its child left this
	 * memory without dying elsewhere inside ARA (clone.c).
	 */
	uint32_t exec_window;
	/*
	 * The parent-death signal App code asked for in a vfork child, where
	 * ARA keeps SIGKILL until its execveat and gives it this one then
	 * (vfork.h).
	 */
	uint32_t app_pdeath_signal;
};

/*
 * The DOM0 memory the slots and their owners take (page-aligned): the
 * slots first, then the owners, the last ara_threads_kept_size() bytes,
 * which a forked child keeps.
 */
uint64_t ara_threads_size(void);
uint64_t ara_threads_kept_size(void);

/*
 * At initialisation: base is DOM0 memory of ara_threads_size(), sigstacks
 * for ARA_THREAD_SLOTS signal stacks of ARA_SIGSTACK_SIZE.
 */
void ara_threads_init(uint64_t base, uint64_t sigstacks);

/* t's thread: its ID and its thread group's. */
void ara_thread_id(const struct ara_thread *t, int32_t *tid, int32_t *pid);

/* t's App sigaltstack. */
struct ara_sigstack *ara_thread_app_stack(const struct ara_thread *t);

/*
 * The calling thread's slot, inside ARA's signal handler whose kernel frame
 * is at frame_at: the slot with its ID; else, for the one thread of a
 * forked child (the slots still hold its parent's threads), the slot whose
 * signal stack holds the frame, the others cleared. NULL: a thread ARA did
 * not start.
 */
struct ara_thread *ara_thread_self(uint64_t frame_at);

/*
 * A slot for a thread about to be made (clone.c): a free one, or one whose
 * thread has exited, marked reserved. NULL if every slot belongs to a live
 * thread.
 */
struct ara_thread *ara_thread_reserve(void);

/* Gives back a reserved slot whose thread was not made. */
void ara_thread_unreserve(struct ara_thread *t);

/* In the new thread: makes the reserved slot t the calling thread's. */
void ara_thread_bind(struct ara_thread *t);

/* t's signal stack, as the kernel is to have it (armed, SS_AUTODISARM). */
struct ara_sigstack ara_thread_sigstack(const struct ara_thread *t);

/*
 * True if frame_at is where the kernel writes every frame of ARA's on t's
 * signal stack (get_sigframe: its top, less the 16-byte frame record, less
 * the frame; SS_AUTODISARM, so never lower): the only place a frame is the
 * kernel's. ARA keeps the rest of that area zero between frames (trap.c,
 * read_frame; clone.c, ara_thread_start), so App code that jumps into the
 * signal entry with sp anywhere else on the stack finds nothing to forge
 * with, and is refused (its sp is not App memory).
 */
bool ara_thread_frame_on_sigstack(const struct ara_thread *t, uint64_t frame_at);

/* The calling thread's slot (found by its IDs), or NULL. */
struct ara_thread *ara_thread_calling(void);

/*
 * Marks the calling thread as in (open) or out of the execveat system call
 * that replaces its image (execve.c; exec_window above).
 */
void ara_thread_exec_window(bool open);

/* Makes t's signal stack the calling thread's. Fatal if the kernel refuses. */
void ara_thread_arm(const struct ara_thread *t);

#endif
