/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The counter module (ara/counter.h): a process's counters and its epoch
 * in the module's state, which only ARA can reach; the rules on them are
 * counter_ops.c's.
 */
#include "ara/service.h"
#include "counter_ops.h"

static void start(char **envp);
static void forked(void *state);

ARA_MODULE(counter_module, .name = "counter", .state_size = sizeof(struct counter_state),
	   .start = start, .forked = forked);

/* Draws the epoch; the counters are ready only if it was drawn. */
static void draw_epoch(struct counter_state *s)
{
	if (ara_random_bytes(s->epoch, sizeof(s->epoch)) == 0)
		s->ready = 1;
}

/* The process's counters, made before any App code runs. */
static void start(char **envp)
{
	struct counter_state *s = ara_module_state(&counter_module);

	(void)envp;
	if (!s)
		ara_fatal("counter: no DOM0 memory for the counters; bytes", sizeof(*s));
	draw_epoch(s);
	if (!s->ready)
		ara_fatal("counter: no random bytes for the epoch", 0);
}

/*
 * In a forked child, its first call makes its state anew: counters at 0,
 * and an epoch of its own, so that nothing it issues equals a value of
 * its parent's. If no epoch can be drawn its counters stay refused
 * (ARA_E_NOMEM): counters in its parent's epoch would repeat its values.
 */
static void forked(void *state)
{
	draw_epoch(state);
}

static enum ara_status increment(void *arg)
{
	return counter_increment(ara_module_state(&counter_module), arg);
}

static enum ara_status read_value(void *arg)
{
	return counter_read(ara_module_state(&counter_module), arg);
}

ARA_SERVICE(svc_counter_increment, .fid = ARA_FID_COUNTER_INCREMENT,
	    .flags = ARA_SVC_IN | ARA_SVC_OUT, .arg_size = sizeof(struct ara_counter_arg),
	    .name = "counter_increment", .module = &counter_module, .handler = increment);
ARA_SERVICE(svc_counter_read, .fid = ARA_FID_COUNTER_READ, .flags = ARA_SVC_IN | ARA_SVC_OUT,
	    .arg_size = sizeof(struct ara_counter_arg), .name = "counter_read",
	    .module = &counter_module, .handler = read_value);
