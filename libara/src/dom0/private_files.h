/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Work on descriptors that App code cannot swap meanwhile.
 *
 * A descriptor number in the process's table names whatever was last put
 * there, and any App thread can replace it (dup3) between two of ARA's
 * system calls on that number: a check on one object and a use of
 * another. Work that must see one object across several calls (open.c:
 * probe, check, reopen; code_map.c: check, then read) runs in a task of ARA's
 * own with a private copy of the table (private_files.S), which no App
 * thread shares, and hands back only its result.
 */
#ifndef ARA_DOM0_PRIVATE_FILES_H
#define ARA_DOM0_PRIVATE_FILES_H

/*
 * Runs work(arg) with a private copy of the descriptor table, of which it
 * keeps only keep (the one descriptor of the App's the work uses; -1:
 * none). work returns one of that table's descriptors, or -errno; the
 * descriptor is passed back with SCM_RIGHTS and lands in the process's
 * table at its lowest free number, close-on-exec if cloexec. Returns it,
 * or -errno. App code can put a descriptor of its own in its place: a
 * caller to whom the object matters records what the task made. The task
 * runs with every signal blocked.
 */
long ara_private_files_open(long (*work)(void *arg), void *arg, long keep, int cloexec);

/* Runs work(arg) as above, keeping only keep; returns what work did, or -errno. */
long ara_private_files_call(long (*work)(void *arg), void *arg, long keep);

#endif
