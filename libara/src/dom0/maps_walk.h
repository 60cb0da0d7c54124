/* SPDX-License-Identifier: Apache-2.0 */
#ifndef ARA_DOM0_MAPS_WALK_H
#define ARA_DOM0_MAPS_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ara/maps.h"

typedef void (*ara_map_fn)(const struct ara_mapping *m, void *ctx);

/* Calls fn for every mapping of a snapshot of /proc/self/maps; fatal on error. */
void ara_maps_foreach(ara_map_fn fn, void *ctx);

/*
 * The same for a service, which must not end the process: 0, or -1 with
 * *why and *value saying what failed (fn may have seen some mappings).
 */
int ara_maps_try_foreach(ara_map_fn fn, void *ctx, const char **why, long *value);

/* True if the mapping's path is exactly path. */
bool ara_mapping_is(const struct ara_mapping *m, const char *path);

/* A file as /proc/self/maps names it: device numbers and inode. */
struct ara_file_id {
	uint32_t major, minor;
	uint64_t inode;
};

/* The file mapped at addr; fatal if none. */
struct ara_file_id ara_mapped_file(uint64_t addr);

#endif
