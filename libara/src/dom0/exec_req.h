/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One execve's state in DOM0 (execve.c), and what its two helpers do:
 * exec_args.c (the strings: the App's arguments and environment, scripts,
 * the dynamic linker's argv) and exec_files.c (the files the new image
 * gets, each a descriptor whose file is checked again just before the
 * kernel executes the image).
 */
#ifndef ARA_DOM0_EXEC_REQ_H
#define ARA_DOM0_EXEC_REQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ara/boot.h"
#include "ara/gate.h"
#include "ara/elf.h"

#define ARA_EXEC_PATH_BYTES 4096u
#define ARA_EXEC_STRINGS_MAX (256u << 10) /* path, arguments, environment, NULs included */
#define ARA_EXEC_VECTOR_MAX 16384u	   /* entries of argv, and of envp */
#define ARA_EXEC_FD_PATH_BYTES 48u	   /* "/proc/thread-self/fd/" and a descriptor */
#define ARA_EXEC_IS_PROGRAM 0
#define ARA_EXEC_IS_SCRIPT 1

/* A file for the new image: its descriptor, and the file it must still name. */
struct ara_exec_file {
	long fd; /* -1: none */
	uint64_t dev, ino;
};

struct ara_exec_req {
	char path[ARA_EXEC_PATH_BYTES]; /* the program (a script's interpreter, in turn) */
	char interp[ARA_ELF_INTERP_MAX]; /* its dynamic linker (PT_INTERP) */
	const char *script_interp, *script_arg; /* a script's #! line, in strings */
	char *strings; /* ARA_EXEC_STRINGS_MAX bytes */
	size_t used;
	uint64_t *args, *env; /* pointers into strings */
	size_t argc, envc;
	uint64_t *vec; /* the dynamic linker's argv, then its envp */
	char preload[2 * ARA_EXEC_FD_PATH_BYTES], app_link[ARA_EXEC_FD_PATH_BYTES];
	char boot_env[ARA_EXEC_FD_PATH_BYTES];
	struct ara_boot boot;
	uint8_t wrapper_head[ARA_PAGE_SIZE];
	struct ara_exec_file program, ldso, libara, entry, boot_file, wrapper;
};

/* exec_args.c */
/* "ara: execve refused: why: what" on stderr. */
void ara_exec_refuse(const char *why, const char *what);
/* The App's path, argv and envp into r (EFAULT, ENAMETOOLONG, E2BIG, ENOMEM). */
long ara_exec_copy_strings(struct ara_exec_req *r, uint64_t app_path, uint64_t app_argv,
			   uint64_t app_envp);
/* A script's #! line (buf holds its first bytes): ARA_EXEC_IS_SCRIPT or -ENOEXEC. */
long ara_exec_parse_script(struct ara_exec_req *r, const uint8_t *buf, uint64_t size);
/* The interpreter's argv for the script r->path; the interpreter becomes r->path. */
long ara_exec_script_args(struct ara_exec_req *r, long dirfd, uint64_t flags);
/* The dynamic linker's argv and envp, as ara-loader gives them (EPERM, E2BIG, ENOMEM). */
long ara_exec_loader_vectors(struct ara_exec_req *r);

/* exec_files.c */
/* The program r->path as execveat finds it, checked as the kernel checks it: a readable fd. */
long ara_exec_open_program(struct ara_exec_req *r, long dirfd, uint64_t flags, uint64_t *size);
/* A sealed memfd holding the size bytes of fd: its descriptor, or -errno. */
long ara_exec_copy_program(long fd, uint64_t size);
/* *f gets the identity of fd (fd -1): in ARA's task, of what it made (the ldso-from-file variant: a reopen). */
long ara_exec_identity(struct ara_exec_file *f, long fd);
/*
 * *out: fd, a descriptor ARA's task handed back (private_files.h), with
 * the identity the task took of what it made (made). The number is App
 * reachable: App code could have put a descriptor of its own in front of
 * the task's, or swapped it since; execve.c's commit checks the identity
 * again once the table is the exec's own.
 */
long ara_exec_received(struct ara_exec_file *out, long fd, const struct ara_exec_file *made);
/*
 * r->ldso: a sealed copy of the dynamic linker this process runs, which
 * r->interp must name (-ENOEXEC otherwise); r->boot gets its file's identity.
 */
long ara_exec_open_ldso(struct ara_exec_req *r);
/* r->libara, r->entry: sealed copies of the objects this process runs. */
long ara_exec_kept_objects(struct ara_exec_req *r);
/* *out: a sealed memfd holding a then b, read back after sealing (in a private descriptor table). */
long ara_exec_sealed(struct ara_exec_file *out, const char *name, bool executable, const void *a,
		     uint64_t alen, const void *b, uint64_t blen);
/* Still the file it was (after unshare: no other thread can change the table). */
bool ara_exec_file_still(const struct ara_exec_file *f);
void ara_exec_file_close(struct ara_exec_file *f);

#endif
