/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The decision threads: the I/O thread hands a job over and learns, through
 * an eventfd it polls, that jobs are done. Jobs run in the order given; a
 * job is the caller's (embedded in its session), never copied.
 */
#ifndef ARA_PROVISION_WORKERS_H
#define ARA_PROVISION_WORKERS_H

struct ara_job {
	struct ara_job *next;
	void (*run)(struct ara_job *job); /* on a worker thread */
};

struct ara_workers;

/*
 * n threads; *done_fd becomes readable when jobs are done. NULL with errno.
 * Each thread runs warm(arg) first, and this returns once all have: what a
 * thread sets up for its jobs (its store connection) is then ready before
 * the first session, not paid by it.
 */
struct ara_workers *ara_workers_start(unsigned n, void (*warm)(void *arg), void *arg,
				      int *done_fd);

void ara_workers_submit(struct ara_workers *w, struct ara_job *job);

/* The jobs done since the last call (the eventfd drained), in no order. */
struct ara_job *ara_workers_done(struct ara_workers *w);

/* Runs what was submitted, joins the threads, frees w. */
void ara_workers_stop(struct ara_workers *w);

#endif
