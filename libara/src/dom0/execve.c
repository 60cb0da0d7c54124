/* SPDX-License-Identifier: Apache-2.0 */
/*
 * execve and execveat for App code: the new program runs under ARA too.
 *
 * A seccomp filter survives exec, and ARA's refuses or traps, from any
 * address but ARA's system-call page, what a program needs to start (opens,
 * executable mappings, signal calls). So the new image must again have that
 * page, at the same address, and a libara that handles what the filter
 * traps: ARA starts the program as ara-loader would, in the same process.
 * The kernel's execve still replaces the image (the process keeps its ID,
 * parent, credentials, descriptors and every other exec rule); what ARA
 * changes is which file it executes:
 *   1. the program is opened and checked as the kernel checks it, copied
 *      into a sealed memfd, hashed (all in a private descriptor table:
 *      private_files.h), and refused if ARA cannot run it (not
 *      an arm64 PIE with this process's dynamic linker, code of its own
 *      that would run before ARA's initialisation, or libraries from
 *      elsewhere than the system's places); a script's interpreter is the
 *      program, as the kernel would run it (exec_args.c);
 *   2. a new boot block names that copy, sealed copies of the libara and
 *      entry objects this process runs, the system-call page, the ranges
 *      the inherited filters guard, and the App's signal mask;
 *   3. a small ELF image is written to a sealed memfd: one segment, the
 *      system-call page's blob at the page's address, entered at its boot
 *      code (libara/src/region/boot.c), which maps the dynamic linker and
 *      runs it with the arguments ara-loader would give it;
 *   4. the calling thread gets a descriptor table of its own (no other App
 *      thread can then swap a descriptor), every file is checked to be the
 *      one ARA opened or wrote (exec_files.c), and the image is executed.
 * Any failure returns -errno to the App, as execve would; one after step 4
 * (the kernel refusing the image) leaves the thread its own descriptor
 * table.
 */
#include <elf.h>

#include <mbedtls/sha256.h>

#include "dom0.h"
#include "exec_req.h"
#include "kernel.h"
#include "live.h"
#include "mem.h"
#include "private_files.h"
#include "svc_page.h"
#include "sys.h"
#include "thread.h"
#include "vfork.h"

#define SCRIPT_DEPTH 4 /* interpreters of scripts: the kernel's BINPRM_MAX_RECURSION */

/*
 * Hashes the sealed copy and finds its dynamic linker (ARA_EXEC_IS_PROGRAM),
 * or reads a script's #! line (ARA_EXEC_IS_SCRIPT); refuses what ARA cannot
 * run (the message waits until the staging window is free again).
 */
static long check_program(struct ara_exec_req *r, long fd, uint64_t size)
{
	struct ara_elf_src src;
	enum ara_elf_err err = ARA_ELF_OK;
	uint64_t at;
	long ret = 0;

	if (size < SELFMAG) {
		ara_exec_refuse("not an ELF file or a script", r->path);
		return -ENOEXEC;
	}
	at = ara_code_stage_view(fd, size);
	if (!at)
		return -ENOMEM;
	src = (struct ara_elf_src){ .mem = (const uint8_t *)(uintptr_t)at, .size = size };
	if (src.mem[0] == '#' && src.mem[1] == '!') {
		ret = ara_exec_parse_script(r, src.mem, size);
	} else {
		err = ara_elf_app_interp(&src, r->interp);
		if (err == ARA_ELF_OK)
			err = ara_elf_app_runs_after_ara(&src);
		if (err == ARA_ELF_OK)
			err = ara_elf_libraries_from_system(&src);
		if (err != ARA_ELF_OK)
			ret = -ENOEXEC;
		else if (mbedtls_sha256(src.mem, size, r->boot.app_sha256, 0))
			ret = -ENOMEM;
	}
	ara_code_stage_unview(size);
	if (err != ARA_ELF_OK)
		ara_exec_refuse(ara_elf_strerror(err), r->path);
	return ret;
}

struct program_job {
	struct ara_exec_req *r;
	long dirfd;
	uint64_t flags;
	long checked; /* check_program's verdict */
	struct ara_exec_file made; /* the sealed copy's identity, taken in the task */
};

/* In ARA's task (private_files.h): step 1 up to the sealed copy, checked, or -errno. */
static long program_job_run(void *arg)
{
	struct program_job *j = arg;
	uint64_t size;
	long fd = ara_exec_open_program(j->r, j->dirfd, j->flags, &size), copy;

	if (fd < 0)
		return fd;
	copy = ara_exec_copy_program(fd, size);
	ara_sys1(__NR_close, fd);
	if (copy < 0)
		return copy;
	j->checked = check_program(j->r, copy, size);
	if (j->checked >= 0 && ara_exec_identity(&j->made, copy) != 0)
		j->checked = -EBADF;
	if (j->checked < 0) {
		ara_sys1(__NR_close, copy);
		return j->checked;
	}
	return copy;
}

/*
 * Step 1: r->program, the sealed copy, and check_program's verdict. The
 * program is opened, checked, copied, hashed and parsed in a private
 * descriptor table: in the App's, another thread could put another file
 * behind a descriptor between the check and the copy, or have ARA hash
 * one sealed copy and execute another.
 */
static long take_program(struct ara_exec_req *r, long dirfd, uint64_t flags)
{
	struct program_job j = { .r = r, .dirfd = dirfd, .flags = flags, .checked = -ENOEXEC };
	long copy = ara_private_files_open(program_job_run, &j, dirfd, 1), ret;

	if (copy < 0)
		return copy;
	ret = ara_exec_received(&r->program, copy, &j.made);
	return ret != 0 ? ret : j.checked;
}

/* r added to the sorted, disjoint set b->reserved, merged with what it touches. */
static long add_reserved(struct ara_boot *b, struct ara_boot_range r)
{
	uint32_t i = 0, j, n = b->reserved_count;

	while (i < n && b->reserved[i].end < r.start)
		i++;
	for (j = i; j < n && b->reserved[j].start <= r.end; j++) {
		if (b->reserved[j].start < r.start)
			r.start = b->reserved[j].start;
		if (b->reserved[j].end > r.end)
			r.end = b->reserved[j].end;
	}
	if (j == i && n == ARA_BOOT_RESERVED_MAX)
		return -E2BIG;
	/* [i, j) merge into one entry at i. */
	memmove(&b->reserved[i + 1], &b->reserved[j], (n - j) * sizeof(r));
	b->reserved[i] = r;
	b->reserved_count = n - (j - i) + 1;
	return 0;
}

/*
 * The ranges the new image must keep unmapped: the inherited ones and this
 * process's own, merged where they touch (ARA's ranges are mostly
 * neighbours), so that generations of execve do not run out of entries.
 */
static long fill_reserved(struct ara_boot *b)
{
	long ret = 0;

	b->reserved_count = 0;
	for (uint32_t i = 0; ret == 0 && i < ara_boot_block.reserved_count; i++)
		ret = add_reserved(b, ara_boot_block.reserved[i]);
	for (size_t i = 0; ret == 0 && i < ara_protected.n; i++)
		ret = add_reserved(b, (struct ara_boot_range){ ara_protected.r[i].start,
							       ara_protected.r[i].end });
	if (ret != 0)
		ara_exec_refuse("too many generations of execve: the inherited ranges do not fit",
				NULL);
	return ret;
}

/* The image the kernel executes: the system-call page's blob at its address. */
static long write_wrapper(struct ara_exec_req *r)
{
	extern const char ara_svc_image[], ara_svc_image_end[];
	const uint64_t blob = (uint64_t)(ara_svc_image_end - ara_svc_image);
	const uint64_t page = ara_svc_page();
	Elf64_Ehdr *eh = (Elf64_Ehdr *)r->wrapper_head;
	Elf64_Phdr *ph = (Elf64_Phdr *)(r->wrapper_head + sizeof(*eh));

	memset(r->wrapper_head, 0, sizeof(r->wrapper_head));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_AARCH64;
	eh->e_version = EV_CURRENT;
	eh->e_entry = page + ARA_SVC_BOOT;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 2;
	/* The blob follows the header page in the file: offset and address agree modulo a page. */
	ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X,
			      .p_offset = sizeof(r->wrapper_head), .p_vaddr = page, .p_paddr = page,
			      .p_filesz = blob, .p_memsz = blob, .p_align = ARA_PAGE_SIZE };
	ph[1] = (Elf64_Phdr){ .p_type = PT_GNU_STACK, .p_flags = PF_R | PF_W, .p_align = 16 };
	return ara_exec_sealed(&r->wrapper, "ara-exec", true, r->wrapper_head,
			       sizeof(r->wrapper_head), ara_svc_image, blob);
}

/*
 * The kernel's exec stores 0 at the thread's clear_child_tid when another
 * task shares the memory (exec_mm_release: a vfork parent), with the row of
 * the caller, DOM0's here (docs/kernel-access.md). So the address is
 * forgotten for the execveat, and given back if the kernel refuses the
 * image. (The filter already refuses App code a registration in ARA's
 * ranges; this is the second wall.)
 */
static long execveat_without_tid(long fd, const uint64_t *argv, const uint64_t *envp)
{
#ifdef ARA_TEST_VARIANT_NO_TID_GUARD
	return ara_sys5(__NR_execveat, fd, "", argv, envp, AT_EMPTY_PATH);
#else
	uint64_t tid_address = 0;
	/*
	 * PR_GET_TID_ADDRESS needs CONFIG_CHECKPOINT_RESTORE (EINVAL without
	 * it): then the address is forgotten all the same, and not given back
	 * if the image is refused (that thread's exit then wakes no joiner).
	 */
	long ret = ara_sys2(__NR_prctl, PR_GET_TID_ADDRESS, &tid_address);

	if (ret != 0 && ret != -EINVAL)
		return ret;
	ara_sys1(__NR_set_tid_address, 0);
	ret = ara_sys5(__NR_execveat, fd, "", argv, envp, AT_EMPTY_PATH);
	if (tid_address)
		ara_sys1(__NR_set_tid_address, tid_address);
	return ret;
#endif
}

/* Step 4: past every check. Returns only if something refused the image. */
static long commit(struct ara_exec_req *r)
{
	struct ara_exec_file *pass[] = { &r->program, &r->ldso, &r->libara, &r->entry,
					 &r->boot_file };
	const size_t npass = sizeof(pass) / sizeof(pass[0]);
	long ret = ara_sys1(__NR_unshare, CLONE_FILES);
	size_t argv_len = 0;

	for (size_t i = 0; ret == 0 && i < npass; i++)
		if (!ara_exec_file_still(pass[i]))
			ret = -EPERM;
	if (ret == 0 && !ara_exec_file_still(&r->wrapper))
		ret = -EPERM;
	if (ret == -EPERM)
		ara_exec_refuse("a descriptor ARA opened was replaced", NULL);
	for (size_t i = 0; ret == 0 && i < npass; i++)
		ret = ara_sys3(__NR_fcntl, pass[i]->fd, F_SETFD, 0); /* kept across exec */
	while (r->vec[argv_len])
		argv_len++;
	if (ret == 0) {
		ara_thread_exec_window(true); /* nothing else held from here: clone.c */
		ara_vfork_exec_begin(); /* a vfork child's parent-death signal: the App's (vfork.h) */
		ret = execveat_without_tid(r->wrapper.fd, r->vec, r->vec + argv_len + 1);
		ara_vfork_exec_end();
		ara_thread_exec_window(false);
	}
	return ret;
}

static long exec_request(struct ara_exec_req *r, uint64_t dirfd, uint64_t app_path,
			 uint64_t app_argv, uint64_t app_envp, uint64_t flags, uint64_t sigmask)
{
	long ret;

	if (flags & ~(uint64_t)(AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return -EINVAL;
	ret = ara_exec_copy_strings(r, app_path, app_argv, app_envp);
	if (ret != 0)
		return ret;
	r->boot = ara_boot_block;
	if (r->path[0] == '\0') { /* the kernel names it by the descriptor */
		char fd_name[ARA_EXEC_FD_PATH_BYTES];

		ara_put_fd(fd_name, "", (long)(int)dirfd);
		ara_boot_comm(r->boot.comm, fd_name);
	} else {
		ara_boot_comm(r->boot.comm, r->path);
	}
	memset(r->boot.manifest_sha256, 0, sizeof(r->boot.manifest_sha256));
	memcpy(r->boot.parent_app_sha256, ara_boot_block.app_sha256, ARA_SHA256_BYTES);
	memcpy(r->boot.loader_sha256, ara_boot_block.loader_sha256, ARA_SHA256_BYTES);
	/* A script: its interpreter is the program (the script is its argument). */
	for (unsigned int depth = 0;; depth++) {
		ret = take_program(r, (long)(int)dirfd, flags);
		if (ret != ARA_EXEC_IS_SCRIPT)
			break;
		ara_exec_file_close(&r->program);
		if (depth == SCRIPT_DEPTH)
			return -ELOOP;
		ret = ara_exec_script_args(r, (long)(int)dirfd, flags);
		if (ret != 0)
			return ret;
		dirfd = (uint64_t)(int64_t)AT_FDCWD;
		flags = 0;
	}
	if (ret == 0)
		ret = ara_exec_open_ldso(r);
	if (ret == 0)
		ret = fill_reserved(&r->boot);
	if (ret == 0)
		ret = ara_exec_kept_objects(r);
	if (ret == 0) {
		r->boot.app_fd = (int32_t)r->program.fd;
		r->boot.libara_fd = (int32_t)r->libara.fd;
		r->boot.entry_fd = (int32_t)r->entry.fd;
		r->boot.svc_page = ara_svc_page();
		r->boot.interp_fd = (int32_t)r->ldso.fd;
		r->boot.sigmask = sigmask;
		ret = ara_exec_sealed(&r->boot_file, ARA_MEMFD_BOOT, false, &r->boot,
				      sizeof(r->boot), NULL, 0);
	}
	if (ret == 0)
		ret = write_wrapper(r);
	if (ret == 0)
		ret = ara_exec_loader_vectors(r);
	if (ret == 0)
		ret = commit(r);
	return ret;
}

/* Its memory only: in a vfork parent, its descriptors were the child's. */
static void free_request(struct ara_exec_req *r)
{
	ara_dom0_free(r->vec);
	ara_dom0_free(r->env);
	ara_dom0_free(r->args);
	ara_dom0_free(r->strings);
	ara_dom0_free(r);
}

long ara_app_execveat(struct ara_thread *t, uint64_t stack_index, uint64_t dirfd,
		      uint64_t app_path, uint64_t app_argv, uint64_t app_envp, uint64_t flags,
		      uint64_t app_sigmask)
{
	struct ara_exec_req *r = ara_dom0_calloc(1, sizeof(*r));
	long ret;

	if (!r)
		return -ENOMEM;
	r->program.fd = r->ldso.fd = r->libara.fd = r->entry.fd = -1;
	r->boot_file.fd = r->wrapper.fd = -1;
	/* A vfork child's parent frees r and the stack if the image replaces this one (clone.c). */
	t->exec_stack = stack_index;
	__atomic_store_n(&t->exec_request, r, __ATOMIC_RELEASE);
	ret = exec_request(r, dirfd, app_path, app_argv, app_envp, flags, app_sigmask);
	/* Here only if it failed: the new image never ran. */
	ara_exec_file_close(&r->program);
	ara_exec_file_close(&r->ldso);
	ara_exec_file_close(&r->libara);
	ara_exec_file_close(&r->entry);
	ara_exec_file_close(&r->boot_file);
	ara_exec_file_close(&r->wrapper);
	__atomic_store_n(&t->exec_request, NULL, __ATOMIC_RELAXED);
	free_request(r);
	return ret;
}

void ara_execve_release(struct ara_thread *t)
{
	struct ara_exec_req *r = __atomic_exchange_n(&t->exec_request, NULL, __ATOMIC_ACQUIRE);

	if (!r)
		return;
	free_request(r);
	__atomic_and_fetch(&ara_live->claimed_stacks, ~(UINT64_C(1) << t->exec_stack),
			   __ATOMIC_RELEASE);
}
