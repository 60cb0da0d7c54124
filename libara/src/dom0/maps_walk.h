/* SPDX-License-Identifier: Apache-2.0 */
#ifndef ARA_DOM0_MAPS_WALK_H
#define ARA_DOM0_MAPS_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "ara/maps.h"

typedef void (*ara_map_fn)(const struct ara_mapping *m, void *ctx);

/* Calls fn for every mapping of a snapshot of /proc/self/maps; fatal on error. */
void ara_maps_foreach(ara_map_fn fn, void *ctx);

/* True if the mapping's path is exactly path. */
bool ara_mapping_is(const struct ara_mapping *m, const char *path);

#endif
