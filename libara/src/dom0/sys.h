/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The core's raw system calls: ara/sys.h's, declared once for the services
 * too, with the system-call page's layout (svc_page.h) for the core's own
 * special calls.
 */
#ifndef ARA_DOM0_SYS_H
#define ARA_DOM0_SYS_H

#include "ara/sys.h"
#include "svc_page.h"

#endif
