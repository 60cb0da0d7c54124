/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The first code of an image that an ARA App's execve started
 * (libara/src/dom0/execve.c), run from ARA's system-call page, which the
 * kernel mapped at the address the inherited filter allows.
 *
 * The filter outlives the exec: from any other address, the calls it traps
 * (opens, executable mappings, signal calls) raise SIGSYS, and the new
 * libara cannot handle them before its constructor runs. Until then only
 * trusted code runs (this page, the dynamic linker, libc's start-up and
 * libara's initialisation; execve.c refused Apps whose own code could run
 * earlier), so this page performs those calls for it, then hands over:
 *   1. read the boot block execve.c sealed (ARA_BOOT_ENV);
 *   2. keep the ancestors' ARA ranges unmapped: the inherited filters still
 *      refuse mapping calls there, so nothing of this image may land there;
 *   3. install a SIGSYS handler that makes the trapped call from this page;
 *   4. map the dynamic linker (the sealed copy of it that the calling
 *      image kept, never its file: exec_files.c) as the kernel maps a
 *      program, point the auxiliary vector at it, and jump to its entry
 *      with the kernel's stack, where execve.c put the arguments
 *      ara-loader would have.
 * libara's initialisation then takes this page over as its own (DOM0's
 * key, its SIGSYS handler). Freestanding: no data, no relocations
 * (region.ld), stack only.
 */
#include <elf.h>
#include <stddef.h>
#include <stdint.h>

#include "ara/boot.h"
#include "ara/gate.h"
#include "kernel.h"
#include "sigframe.h"

#define PAGE ARA_PAGE_SIZE
#define MAX_PHDRS 16u

extern const char ara_region_head[];
void ara_region_sigreturn(void);
long ara_region_svc(long nr, const long a[6]);
__attribute__((noreturn)) void ara_region_enter(uint64_t entry, uint64_t sp);
__attribute__((noreturn)) void ara_region_boot(uint64_t *sp);

static long sys(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	long a[6];

	a[0] = a0, a[1] = a1, a[2] = a2, a[3] = a3, a[4] = a4, a[5] = a5;
	return ara_region_svc(nr, a);
}

static int failed(long r)
{
	return r < 0 && r > -4096;
}

static uint64_t page_down(uint64_t a)
{
	return a & ~(uint64_t)(PAGE - 1);
}

static uint64_t page_up(uint64_t a)
{
	return page_down(a + PAGE - 1);
}

static void say(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	sys(__NR_write, 2, (long)s, (long)n, 0, 0, 0);
}

__attribute__((noreturn)) static void fail(const char *what)
{
	say("ara: starting the program failed: ");
	say(what);
	say("\n");
	for (;;)
		sys(__NR_exit_group, ARA_EXIT_INIT_FAILED, 0, 0, 0, 0, 0);
}

static long boot_fd(char **envp)
{
	static const char name[] = ARA_BOOT_ENV "=";

	for (; *envp; envp++) {
		const char *e = *envp;
		size_t i = 0;
		long v = 0;

		while (name[i] && e[i] == name[i])
			i++;
		if (name[i])
			continue;
		for (e += i; *e >= '0' && *e <= '9' && v < 1000000; e++)
			v = v * 10 + (*e - '0');
		return *e == '\0' ? v : -1;
	}
	return -1;
}

static void read_exact(long fd, void *buf, uint64_t len, uint64_t off, const char *what)
{
	if (sys(__NR_pread64, fd, (long)buf, (long)len, (long)off, 0, 0) != (long)len)
		fail(what);
}

/*
 * [start, end) kept unmapped: reserved with PROT_NONE where nothing is
 * mapped yet. What the kernel already put there (the stack, the vDSO) is
 * left alone, halving around it.
 */
static void reserve(uint64_t start, uint64_t end)
{
	long r;

	if (start >= end)
		return;
	r = sys(__NR_mmap, (long)start, (long)(end - start), PROT_NONE,
		MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
	if (r == (long)start)
		return;
	if (r != -EEXIST)
		fail("cannot keep an inherited ARA range unmapped");
	if (end - start > PAGE) {
		uint64_t mid = page_down(start + (end - start) / 2);

		reserve(start, mid);
		reserve(mid, end);
	}
}

/*
 * rt_sigprocmask for the interrupted code: on the mask rt_sigreturn
 * restores (the handler's own would be undone), SIGSYS never blocked.
 */
static long sigprocmask_for(struct ara_ucontext *uc, long how, uint64_t set_at, uint64_t old_at,
			    uint64_t size)
{
	const uint64_t sigsys = UINT64_C(1) << (SIGSYS - 1);
	uint64_t set;

	if (size != sizeof(uint64_t))
		return -EINVAL;
	if (old_at)
		*(uint64_t *)(uintptr_t)old_at = uc->uc_sigmask;
	if (!set_at)
		return 0;
	set = *(const uint64_t *)(uintptr_t)set_at;
	if (how == SIG_BLOCK)
		uc->uc_sigmask |= set;
	else if (how == SIG_UNBLOCK)
		uc->uc_sigmask &= ~set;
	else if (how == SIG_SETMASK)
		uc->uc_sigmask = set;
	else
		return -EINVAL;
	uc->uc_sigmask &= ~sigsys;
	return 0;
}

/*
 * The boot handler: the trapped call, made from this page. Only trusted
 * code runs here before libara's initialisation (the dynamic linker,
 * libc's start-up), which makes no thread and installs no handler.
 */
static void boot_sigsys(int sig, void *info, void *ucontext)
{
	const uint8_t *si = info;
	struct ara_ucontext *uc = ucontext;
	uint64_t *x = uc->uc_mcontext.regs;
	int32_t code, nr;

	(void)sig;
	__builtin_memcpy(&code, si + ARA_SI_CODE, sizeof(code));
	__builtin_memcpy(&nr, si + ARA_SI_SYSCALL, sizeof(nr));
	if (code != SYS_SECCOMP)
		return;
	if (nr == __NR_rt_sigprocmask)
		x[0] = (uint64_t)sigprocmask_for(uc, (long)x[0], x[1], x[2], x[3]);
	else
		x[0] = (uint64_t)sys(nr, (long)x[0], (long)x[1], (long)x[2], (long)x[3],
				     (long)x[4], (long)x[5]);
}

static void install_boot_handler(void)
{
	struct {
		uint64_t handler, flags, restorer, mask;
	} act;

	act.handler = (uint64_t)(uintptr_t)boot_sigsys;
	act.flags = SA_SIGINFO | SA_RESTORER;
	act.restorer = (uint64_t)(uintptr_t)ara_region_sigreturn;
	act.mask = 0;
	if (sys(__NR_rt_sigaction, SIGSYS, (long)&act, 0, sizeof(act.mask), 0, 0) != 0)
		fail("cannot install the boot SIGSYS handler");
	act.mask = UINT64_C(1) << (SIGSYS - 1); /* and SIGSYS must not stay blocked */
	if (sys(__NR_rt_sigprocmask, SIG_UNBLOCK, (long)&act.mask, 0, 8, 0, 0) != 0)
		fail("cannot unblock SIGSYS");
}

static int prot_of(uint32_t flags)
{
	return ((flags & PF_R) ? PROT_READ : 0) | ((flags & PF_W) ? PROT_WRITE : 0) |
	       ((flags & PF_X) ? PROT_EXEC : 0);
}

/* Maps the ELF file fd as the kernel maps a program; returns its load bias. */
static uint64_t map_interp(long fd, Elf64_Ehdr *eh)
{
	Elf64_Phdr ph[MAX_PHDRS];
	uint64_t lo = UINT64_MAX, hi = 0, bias;
	long base;

	read_exact(fd, eh, sizeof(*eh), 0, "cannot read the dynamic linker's header");
	if (eh->e_ident[EI_MAG0] != ELFMAG0 || eh->e_ident[EI_MAG1] != ELFMAG1 ||
	    eh->e_ident[EI_MAG2] != ELFMAG2 || eh->e_ident[EI_MAG3] != ELFMAG3 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_type != ET_DYN ||
	    eh->e_machine != EM_AARCH64 || eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    eh->e_phnum == 0 || eh->e_phnum > MAX_PHDRS)
		fail("the dynamic linker is not an arm64 ELF shared object");
	read_exact(fd, ph, eh->e_phnum * sizeof(Elf64_Phdr), eh->e_phoff,
		   "cannot read the dynamic linker's program headers");
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (ph[i].p_filesz > ph[i].p_memsz || (ph[i].p_vaddr - ph[i].p_offset) % PAGE ||
		    ph[i].p_vaddr + ph[i].p_memsz < ph[i].p_vaddr)
			fail("the dynamic linker has a malformed segment");
		if (page_down(ph[i].p_vaddr) < lo)
			lo = page_down(ph[i].p_vaddr);
		if (page_up(ph[i].p_vaddr + ph[i].p_memsz) > hi)
			hi = page_up(ph[i].p_vaddr + ph[i].p_memsz);
	}
	if (lo != 0 || hi == 0)
		fail("the dynamic linker's first segment is not at address 0");
	base = sys(__NR_mmap, 0, (long)hi, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (failed(base))
		fail("cannot reserve the dynamic linker's address range");
	bias = (uint64_t)base;
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *p = &ph[i];
		const uint64_t start = page_down(p->p_vaddr), file_end = p->p_vaddr + p->p_filesz;
		const int prot = prot_of(p->p_flags);
		long r;

		if (p->p_type != PT_LOAD)
			continue;
		if (p->p_filesz) {
			r = sys(__NR_mmap, (long)(bias + start), (long)(file_end - start), prot,
				MAP_PRIVATE | MAP_FIXED, fd, (long)page_down(p->p_offset));
			if (failed(r))
				fail("cannot map the dynamic linker");
		}
		if (p->p_memsz > p->p_filesz) {
			/* bss: the file page's tail is zeroed, whole pages are anonymous. */
			if (p->p_filesz && page_up(file_end) > file_end) {
				if (!(prot & PROT_WRITE))
					fail("the dynamic linker has bss in a read-only segment");
				for (uint64_t a = bias + file_end; a < bias + page_up(file_end); a++)
					*(volatile uint8_t *)(uintptr_t)a = 0;
			}
			/* Without file bytes, the bss starts on its own first page. */
			const uint64_t anon = p->p_filesz ? page_up(file_end) : start;

			if (page_up(p->p_vaddr + p->p_memsz) > anon) {
				r = sys(__NR_mmap, (long)(bias + anon),
					(long)(page_up(p->p_vaddr + p->p_memsz) - anon),
					prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
				if (failed(r))
					fail("cannot map the dynamic linker's bss");
			}
		}
	}
	return bias;
}

/* What the kernel would have said had it started the dynamic linker itself. */
static void point_auxv_at(uint64_t *auxv, uint64_t bias, const Elf64_Ehdr *eh)
{
	for (uint64_t *av = auxv; av[0] != AT_NULL; av += 2) {
		switch (av[0]) {
		case AT_PHDR: av[1] = bias + eh->e_phoff; break;
		case AT_PHENT: av[1] = sizeof(Elf64_Phdr); break;
		case AT_PHNUM: av[1] = eh->e_phnum; break;
		case AT_ENTRY: av[1] = bias + eh->e_entry; break;
		case AT_BASE: av[1] = 0; break;
		default: break;
		}
	}
}

void ara_region_boot(uint64_t *sp)
{
	const uint64_t argc = sp[0];
	char **envp = (char **)(sp + 1 + argc + 1);
	uint64_t *auxv;
	struct ara_boot b;
	Elf64_Ehdr eh;
	uint64_t bias;
	long fd = boot_fd(envp);

	if (fd < 0)
		fail("no boot block (" ARA_BOOT_ENV ")");
	read_exact(fd, &b, sizeof(b), 0, "cannot read the boot block");
	if (b.magic != ARA_BOOT_MAGIC || b.version != ARA_BOOT_VERSION || b.size != sizeof(b) ||
	    b.svc_page != (uint64_t)(uintptr_t)ara_region_head || b.interp_fd < 0 ||
	    b.reserved_count > ARA_BOOT_RESERVED_MAX)
		fail("the boot block does not describe this image");
	for (uint32_t i = 0; i < b.reserved_count; i++)
		reserve(page_down(b.reserved[i].start), page_up(b.reserved[i].end));
	install_boot_handler();
	/* Left open: libara keeps its bytes for the next execve, then closes it. */
	bias = map_interp(b.interp_fd, &eh);
	for (auxv = (uint64_t *)envp; *auxv; auxv++)
		;
	point_auxv_at(auxv + 1, bias, &eh);
	ara_region_enter(bias + eh.e_entry, (uint64_t)(uintptr_t)sp);
}
