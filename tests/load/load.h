/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-loadgen's run: what it is asked to do (struct load_plan), what it
 * saw (struct load_result), and the event loop that plays the devices
 * (load_run, loop.c). Every connection is one device's session over TCP
 * loopback, or one of the faults a plan mixes in.
 */
#ifndef ARA_LOAD_LOAD_H
#define ARA_LOAD_LOAD_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#include "device.h"

#define LOAD_TARGETS_MAX 4

/* What a connection does after the CHALLENGE. */
enum load_kind {
	LOAD_GENUINE,	/* a device's ATTEST; a DELIVER of the expected secret is expected */
	LOAD_MALFORMED, /* a genuine ATTEST with a byte of its signature flipped */
	LOAD_OVERSIZED, /* the largest body the wire allows, of zeros; or a header over it */
	LOAD_REPLAY,	/* a recorded ATTEST, answering another session's CHALLENGE */
	LOAD_STALL,	/* nothing: holds the connection until the server drops it */
	LOAD_SLOW,	/* a genuine ATTEST, one byte per slow interval */
	LOAD_KINDS
};

/* How a connection ended. */
enum load_end {
	END_DELIVERED,	 /* a DELIVER that opened to the expected secret */
	END_WRONG_SECRET, /* a DELIVER that did not open, or to another secret */
	END_REFUSED,	 /* a REFUSE (its code counted apart) */
	END_CLOSED,	 /* the server closed or reset the connection without a reply */
	END_CONNECT,	 /* the connection was not made */
	END_TIMEOUT,	 /* no reply before the generator's deadline */
	END_PROTOCOL,	 /* something else than the protocol's next message */
	END_KINDS
};

struct load_plan {
	struct sockaddr_in targets[LOAD_TARGETS_MAX]; /* sessions go round-robin */
	size_t n_targets;
	uint64_t sessions;   /* stop starting sessions after this many (0: no limit) */
	double duration;     /* ... or after this many seconds (0: no limit) */
	double timeout;	     /* seconds a session has, connect to reply */
	unsigned concurrency; /* sessions in flight, at most */
	double rate;	      /* sessions started per second (0: each as one ends) */
	unsigned pct[LOAD_KINDS]; /* percent of sessions of each faulty kind (STALL, SLOW: unused) */
	unsigned stalled, slow;	  /* background connections of those kinds, held all run */
	double slow_interval;	  /* seconds between a slow client's bytes */
	struct load_device *devices;
	size_t n_devices;
	const struct load_tpm *tpm; /* how the tpm devices quote */
	uint32_t max_age; /* the policy's: evidence is made afresh at half of it */
	const char *name; /* the secret asked for */
	const uint8_t *secret;
	size_t secret_len;
	const uint8_t *replay; /* a recorded ATTEST for LOAD_REPLAY */
	size_t replay_len;
};

struct load_latency {
	double *ms;
	size_t n, cap;
};

struct load_result {
	double wall;			   /* seconds, first connect to last end */
	uint64_t ends[LOAD_KINDS][END_KINDS];
	uint64_t refusal_codes[LOAD_KINDS][16]; /* enum ara_refusal, 0 for unknown */
	struct load_latency total;  /* genuine sessions delivered: connect to DELIVER */
	struct load_latency server; /* ... less the generator's own turn in between */
	uint64_t background_drops[LOAD_KINDS]; /* stalled or slow connections the server ended */
	double background_held;		       /* their mean life, seconds */
	uint8_t recorded_attest[LOAD_ATTEST_MAX]; /* the first delivered session's ATTEST */
	size_t recorded_len;			  /* 0: none delivered */
};

/* Plays the plan; 0, or -1 with a message on stderr if the loop itself failed. */
int load_run(const struct load_plan *plan, struct load_result *res);

/* Seconds on CLOCK_MONOTONIC. */
double load_now(void);

#endif
