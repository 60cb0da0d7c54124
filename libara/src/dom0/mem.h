/* SPDX-License-Identifier: Apache-2.0 */
/* The core's name for DOM0's memory primitives: declared once, for the services too. */
#ifndef ARA_DOM0_MEM_H
#define ARA_DOM0_MEM_H

#include "ara/mem.h"

#endif
