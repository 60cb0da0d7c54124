/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The decision threads (workers.h): a queue under a mutex and a condition,
 * and a list of done jobs the I/O thread collects when the eventfd says so.
 * The I/O thread never waits for a decision, so a costly ATTEST (a TPM
 * quote's verification) delays no other session's I/O.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "workers.h"

struct ara_workers {
	pthread_mutex_t lock;
	pthread_cond_t more;
	pthread_cond_t warmed;
	void (*warm)(void *arg);
	void *warm_arg;
	unsigned n_warm; /* threads that have run warm() */
	struct ara_job *head, *tail; /* to run */
	struct ara_job *done;
	int stopping;
	int done_fd;
	unsigned n;
	pthread_t threads[];
};

static void *worker(void *arg)
{
	struct ara_workers *w = arg;
	struct ara_job *job;
	uint64_t one = 1;

	w->warm(w->warm_arg);
	pthread_mutex_lock(&w->lock);
	w->n_warm++;
	pthread_cond_signal(&w->warmed);
	for (;;) {
		while (!w->head && !w->stopping)
			pthread_cond_wait(&w->more, &w->lock);
		job = w->head;
		if (!job)
			break;
		w->head = job->next;
		if (!w->head)
			w->tail = NULL;
		pthread_mutex_unlock(&w->lock);
		job->run(job);
		pthread_mutex_lock(&w->lock);
		job->next = w->done;
		w->done = job;
		/* Cannot fail short of a counter at its maximum: the I/O thread reads it. */
		(void)!write(w->done_fd, &one, sizeof(one));
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct ara_workers *ara_workers_start(unsigned n, void (*warm)(void *arg), void *arg,
				      int *done_fd)
{
	struct ara_workers *w = calloc(1, sizeof(*w) + n * sizeof(pthread_t));
	int err;

	if (!w)
		return NULL;
	w->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (w->done_fd < 0) {
		free(w);
		return NULL;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->more, NULL);
	pthread_cond_init(&w->warmed, NULL);
	w->warm = warm;
	w->warm_arg = arg;
	for (; w->n < n; w->n++) {
		err = pthread_create(&w->threads[w->n], NULL, worker, w);
		if (err) {
			ara_workers_stop(w);
			errno = err;
			return NULL;
		}
	}
	pthread_mutex_lock(&w->lock);
	while (w->n_warm < w->n)
		pthread_cond_wait(&w->warmed, &w->lock);
	pthread_mutex_unlock(&w->lock);
	*done_fd = w->done_fd;
	return w;
}

void ara_workers_submit(struct ara_workers *w, struct ara_job *job)
{
	job->next = NULL;
	pthread_mutex_lock(&w->lock);
	if (w->tail)
		w->tail->next = job;
	else
		w->head = job;
	w->tail = job;
	pthread_cond_signal(&w->more);
	pthread_mutex_unlock(&w->lock);
}

struct ara_job *ara_workers_done(struct ara_workers *w)
{
	struct ara_job *done;
	uint64_t count;

	(void)!read(w->done_fd, &count, sizeof(count)); /* EAGAIN: nothing new */
	pthread_mutex_lock(&w->lock);
	done = w->done;
	w->done = NULL;
	pthread_mutex_unlock(&w->lock);
	return done;
}

void ara_workers_stop(struct ara_workers *w)
{
	pthread_mutex_lock(&w->lock);
	w->stopping = 1;
	pthread_cond_broadcast(&w->more);
	pthread_mutex_unlock(&w->lock);
	for (unsigned i = 0; i < w->n; i++)
		pthread_join(w->threads[i], NULL);
	close(w->done_fd);
	pthread_cond_destroy(&w->more);
	pthread_cond_destroy(&w->warmed);
	pthread_mutex_destroy(&w->lock);
	free(w);
}
