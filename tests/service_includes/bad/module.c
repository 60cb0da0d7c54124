/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Not compiled: a service source that reaches into the core, each way
 * cmake/check-service-includes.cmake must refuse (tests/service_includes),
 * beside includes it must let pass.
 */
#include <stdint.h>

#include "../../../libara/src/dom0/live.h"            /* the core's path, spelled out */
#include "../../../libara/./src/heap.h"               /* the same, disguised */
#include "../../../libara/include/../src/dom0/mem.h"  /* through a public folder */
#include <ara/../../src/dom0/live.h>                  /* the same, from a public root */
#include "dom0/dom0.h"                                /* libara/src on the include path */
#include <dom0/sys.h>                                 /* the same, angled */
#include "regions.h"                                  /* libara/src itself on the path */
#include "ara/service.h"                              /* the interface: passes */
#include "local.h"                                    /* its own folder's: passes */
