/* SPDX-License-Identifier: Apache-2.0 */
/* Connections per peer (peers.h): a chained hash table of counts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "peers.h"

#define BUCKETS 1024u

struct peer {
	struct peer *next;
	unsigned count;
	char key[ARA_PEER_KEY_MAX];
};

struct ara_peers {
	struct peer *bucket[BUCKETS];
};

/* FNV-1a: keys are the peers' own addresses, but a bucket's length costs only time. */
static struct peer **slot(struct ara_peers *t, const char *key)
{
	uint32_t h = 2166136261u;
	struct peer **p;

	for (const unsigned char *c = (const unsigned char *)key; *c; c++)
		h = (h ^ *c) * 16777619u;
	for (p = &t->bucket[h % BUCKETS]; *p && strcmp((*p)->key, key); p = &(*p)->next)
		;
	return p;
}

struct ara_peers *ara_peers_new(void)
{
	return calloc(1, sizeof(struct ara_peers));
}

void ara_peers_free(struct ara_peers *t)
{
	for (unsigned i = 0; t && i < BUCKETS; i++)
		while (t->bucket[i]) {
			struct peer *p = t->bucket[i];

			t->bucket[i] = p->next;
			free(p);
		}
	free(t);
}

unsigned ara_peers_add(struct ara_peers *t, const char *key)
{
	struct peer **p = slot(t, key);

	if (!*p) {
		*p = calloc(1, sizeof(**p));
		if (!*p)
			return 0;
		strncpy((*p)->key, key, sizeof((*p)->key) - 1);
	}
	return ++(*p)->count;
}

void ara_peers_remove(struct ara_peers *t, const char *key)
{
	struct peer **p = slot(t, key), *gone = *p;

	if (gone && --gone->count == 0) {
		*p = gone->next;
		free(gone);
	}
}
