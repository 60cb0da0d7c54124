/* SPDX-License-Identifier: Apache-2.0 */
#ifndef ARA_DOM0_MAPS_WALK_H
#define ARA_DOM0_MAPS_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ara/maps.h"
#include "ara/service.h" /* the walk itself: ara_maps_foreach and the rest, the services' too */

/* A file as /proc/self/maps names it: device numbers and inode. */
struct ara_file_id {
	uint32_t major, minor;
	uint64_t inode;
};

/* The file mapped at addr; fatal if none. */
struct ara_file_id ara_mapped_file(uint64_t addr);

#endif
