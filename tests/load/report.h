/* SPDX-License-Identifier: Apache-2.0 */
/* ara-loadgen's results: the table people read and the JSON tools read (report.c). */
#ifndef ARA_LOAD_REPORT_H
#define ARA_LOAD_REPORT_H

#include <stdio.h>

#include "load.h"

/* CPU seconds spent during the run. */
struct load_cpu {
	double generator; /* this process: user and system */
	double server;	  /* the --server-pid processes, summed */
	int server_known; /* every --server-pid could be read before and after */
};

/* Faulty sessions that got a DELIVER, and genuine ones that got another secret. */
uint64_t load_breaches(const struct load_result *res);

/* Sorts the latencies (before either report). */
void load_report_sort(struct load_result *res);

void load_report_table(FILE *f, const struct load_plan *plan, const struct load_result *res,
		       const struct load_cpu *cpu);
void load_report_json(FILE *f, const struct load_plan *plan, const struct load_result *res,
		      const struct load_cpu *cpu);

#endif
