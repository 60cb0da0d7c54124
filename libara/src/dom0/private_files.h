/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Work on descriptors that App code cannot swap meanwhile.
 *
 * A descriptor number in the process's table names whatever was last put
 * there, and any App thread can replace it (dup3) between two of ARA's
 * system calls on that number: a check on one object and a use of
 * another. Work that must see one object across several calls (open.c:
 * probe, check, reopen; exec.c: check, then read) runs in a task of ARA's
 * own with a private copy of the table (private_files.S), which no App
 * thread shares, and hands back only its result.
 */
#ifndef ARA_DOM0_PRIVATE_FILES_H
#define ARA_DOM0_PRIVATE_FILES_H

/*
 * Runs work(arg) with a private copy of the descriptor table. work returns
 * one of that table's descriptors, or -errno; the descriptor is passed
 * back with SCM_RIGHTS and lands in the process's table as a new open's
 * does (the lowest free number, close-on-exec if cloexec). Returns it, or
 * -errno. The task runs with every signal blocked.
 */
long ara_private_files_open(long (*work)(void *arg), void *arg, int cloexec);

/* Runs work(arg) with a private copy of the descriptor table; returns what work did, or -errno. */
long ara_private_files_call(long (*work)(void *arg), void *arg);

#endif
