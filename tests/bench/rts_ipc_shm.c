/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rts_study's shm configuration: the decryptor in a worker process (one per
 * run, rts_worker.c) fed through a 4 MiB ring of shared memory, the paper's
 * size, mapped MAP_SHARED before any worker is forked and reused by every
 * run. The ring holds 63 slots of one unit's record each (a sealed chunk,
 * or a cenc sample with its IV and map): the App copies record after
 * record into free slots, the worker decrypts each where it lies (GCM and
 * CTR decrypt in place), and the App checks the clear unit there, which
 * frees the slot. Two counters in a shared control page say how far each
 * side is (chunks submitted, chunks done); a side with nothing to do sleeps
 * on the other's counter (FUTEX_WAIT), and the other wakes it (FUTEX_WAKE)
 * only if it said it would sleep, so no system call is made while both have
 * work. The App waits when the ring is full or when it needs a chunk back,
 * as a player would; nobody spins. Both sides run on the one CPU, so when
 * they switch is the scheduler's choice, as it would be for a real client.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rts_study.h"

#define RING_BYTES (4u << 20)
#define SLOT_BYTES ((RTS_SEALED_MAX + 63u) & ~63u)
#define SLOTS (RING_BYTES / SLOT_BYTES)

/* Written by one side before it advances its counter, read by the other after. */
struct slot_info {
	uint32_t len;	    /* the App's: the record's bytes */
	uint32_t final;	    /* the App's: it is the stream's last */
	int32_t status;	    /* the worker's: 0, the clear unit is in the slot; -1, it did not open */
	uint32_t clear_len; /* the worker's: the clear unit's bytes */
};

struct ring_ctl {
	_Atomic uint32_t submitted; /* chunks the App has put in the ring */
	_Atomic uint32_t done;	    /* chunks the worker has opened */
	_Atomic uint32_t worker_sleeps, app_sleeps;
	struct slot_info slot[SLOTS];
};

static struct ring_ctl *ctl;
static uint8_t *ring;
static struct rts_worker worker;

static uint8_t *slot_data(uint32_t i)
{
	return ring + (size_t)(i % SLOTS) * SLOT_BYTES;
}

/* Sets *word to v and wakes the other side if it sleeps on it. */
static void post(_Atomic uint32_t *word, uint32_t v, _Atomic uint32_t *sleeps)
{
	atomic_store(word, v);
	if (atomic_load(sleeps))
		syscall(SYS_futex, word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/*
 * Sleeps while *word == seen. sleeps is set before *word is read again, and
 * post() stores before it reads sleeps (sequentially consistent both): a
 * post either is seen here or wakes the sleep. The App looks every second
 * whether its worker died (w); a worker dies with the App (w NULL).
 * Returns 0, or -1 if the worker died.
 */
static int wait_past(_Atomic uint32_t *word, uint32_t seen, _Atomic uint32_t *sleeps,
		     const struct rts_worker *w)
{
	const struct timespec second = { .tv_sec = 1 };
	int rc = 0;

	atomic_store(sleeps, 1);
	while (atomic_load(word) == seen) {
		if (syscall(SYS_futex, word, FUTEX_WAIT, seen, w ? &second : NULL, NULL, 0) &&
		    errno == ETIMEDOUT && rts_worker_gone(w)) {
			rc = -1;
			break;
		}
	}
	atomic_store(sleeps, 0);
	return rc;
}

static int shm_serve(struct rts_decryptor *d, int ready, void *arg)
{
	(void)arg;
	/* A fork does not copy a shared mapping's page tables: map the ring's pages now, writable. */
	for (size_t at = 0; at < RING_BYTES; at += 4096) {
		volatile uint8_t *p = ring + at;

		*p = *p;
	}
	if (rts_worker_ready(ready))
		return 1;
	for (uint32_t i = 0;; i++) {
		struct slot_info *si = &ctl->slot[i % SLOTS];
		size_t clear_len;
		int st, final;

		wait_past(&ctl->submitted, i, &ctl->worker_sleeps, NULL);
		final = si->final != 0;
		st = rts_decryptor_open(d, "shm", i, final, slot_data(i), si->len, slot_data(i),
					&clear_len);
		si->status = st;
		si->clear_len = (uint32_t)clear_len;
		/* From here the App may check the chunk and put another in its slot. */
		post(&ctl->done, i + 1, &ctl->app_sleeps);
		if (st)
			return 1;
		if (final)
			return 0;
	}
}

static void shm_teardown(void)
{
	if (ring)
		munmap(ring, RING_BYTES);
	if (ctl)
		munmap(ctl, sizeof(*ctl));
	ring = NULL;
	ctl = NULL;
}

static int shm_setup(void)
{
	void *c = mmap(NULL, sizeof(*ctl), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	void *r = mmap(NULL, RING_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	ctl = c == MAP_FAILED ? NULL : c;
	ring = r == MAP_FAILED ? NULL : r;
	if (!ctl || !ring) {
		fprintf(stderr, "rts_study: shm: mmap of the ring: %s\n", strerror(errno));
		shm_teardown();
		return -1;
	}
	memset(ring, 0, RING_BYTES); /* the App's first touch of every page, before any run */
	return 0;
}

static int shm_start(const struct rts_stream *s)
{
	atomic_store(&ctl->submitted, 0);
	atomic_store(&ctl->done, 0);
	atomic_store(&ctl->worker_sleeps, 0);
	atomic_store(&ctl->app_sleeps, 0);
	if (rts_worker_start(&worker, "shm", s, shm_serve, NULL, -1))
		return -1;
	if (rts_worker_wait_ready(&worker)) {
		rts_worker_abort(&worker);
		return -1;
	}
	return 0;
}

static int shm_run(const struct rts_stream *s)
{
	uint32_t put = 0, got = 0;

	while (got < s->chunks) {
		for (; put < s->chunks && put - got < SLOTS; put++) {
			struct slot_info *si = &ctl->slot[put % SLOTS];
			size_t len;
			const uint8_t *rec = rts_unit(s, put, &len);

			memcpy(slot_data(put), rec, len);
			si->len = (uint32_t)len;
			si->final = (uint32_t)rts_chunk_final(s, put);
			post(&ctl->submitted, put + 1, &ctl->worker_sleeps);
		}
		if (atomic_load(&ctl->done) == got &&
		    wait_past(&ctl->done, got, &ctl->app_sleeps, &worker)) {
			fprintf(stderr, "rts_study: shm: the worker ended at chunk %u\n", got);
			return -1;
		}
		for (uint32_t done = atomic_load(&ctl->done); got < done; got++) {
			const struct slot_info *si = &ctl->slot[got % SLOTS];

			if (si->status ||
			    rts_chunk_check(s, "shm", got, slot_data(got), si->clear_len))
				return -1;
		}
	}
	return 0;
}

static int shm_stop(int ok, long *csw)
{
	if (ok)
		return rts_worker_stop(&worker, csw);
	rts_worker_abort(&worker);
	return 0;
}

const struct rts_config rts_config_shm = {
	.name = "shm",
	.setup = shm_setup,
	.start = shm_start,
	.run = shm_run,
	.stop = shm_stop,
	.teardown = shm_teardown,
};
