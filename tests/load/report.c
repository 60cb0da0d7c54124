/* SPDX-License-Identifier: Apache-2.0 */
/* ara-loadgen's table and JSON (report.h). */
#include <arpa/inet.h>
#include <math.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report.h"

static const char *const kind_names[LOAD_KINDS] = { "genuine", "malformed", "oversized",
						    "replay",  "stalled",   "slow" };
static const char *const end_names[END_KINDS] = { "delivered", "wrong_secret", "refused",
						  "closed",    "connect",      "timeout",
						  "protocol" };
static const double percents[] = { 50, 90, 99, 100 };
static const char *const percent_names[] = { "p50", "p90", "p99", "max" };
#define N_PERCENTS (sizeof(percents) / sizeof(percents[0]))

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void load_report_sort(struct load_result *res)
{
	if (res->total.n) /* none delivered: no array */
		qsort(res->total.ms, res->total.n, sizeof(double), by_value);
	if (res->server.n)
		qsort(res->server.ms, res->server.n, sizeof(double), by_value);
}

/* Nearest rank of a sorted list; 0 for an empty one. */
static double percentile(const struct load_latency *l, double p)
{
	size_t rank = (size_t)ceil(p / 100 * (double)l->n);

	return l->n ? l->ms[rank ? rank - 1 : 0] : 0;
}

uint64_t load_breaches(const struct load_result *res)
{
	uint64_t n = res->ends[LOAD_GENUINE][END_WRONG_SECRET] +
		     res->ends[LOAD_SLOW][END_WRONG_SECRET];

	for (int k = LOAD_MALFORMED; k <= LOAD_REPLAY; k++)
		n += res->ends[k][END_DELIVERED];
	return n;
}

static uint64_t started(const struct load_result *res)
{
	uint64_t n = 0;

	for (int k = 0; k < LOAD_KINDS; k++)
		for (int e = 0; e < END_KINDS; e++)
			n += k == LOAD_STALL || k == LOAD_SLOW ? 0 : res->ends[k][e];
	return n;
}

static double rate(double n, double per)
{
	return per > 0 ? n / per : 0;
}

void load_report_table(FILE *f, const struct load_plan *plan, const struct load_result *res,
		       const struct load_cpu *cpu)
{
	uint64_t delivered = res->ends[LOAD_GENUINE][END_DELIVERED];

	fprintf(f, "%" PRIu64 " sessions started, %u in flight at most", started(res),
		plan->concurrency);
	if (plan->rate)
		fprintf(f, ", %.0f a second", plan->rate);
	fprintf(f, ", %zu server(s), %.2f s\n", plan->n_targets, res->wall);
	fprintf(f, "%-22s", "latency (ms)");
	for (size_t i = 0; i < N_PERCENTS; i++)
		fprintf(f, " %9s", percent_names[i]);
	fprintf(f, "\n%-22s", "  connect to DELIVER");
	for (size_t i = 0; i < N_PERCENTS; i++)
		fprintf(f, " %9.2f", percentile(&res->total, percents[i]));
	fprintf(f, "\n%-22s", "  server's part");
	for (size_t i = 0; i < N_PERCENTS; i++)
		fprintf(f, " %9.2f", percentile(&res->server, percents[i]));
	fprintf(f, "\ndelivered %" PRIu64 ": %.1f /s of wall time", delivered,
		rate((double)delivered, res->wall));
	if (cpu->server_known)
		fprintf(f, ", %.1f /s of server CPU", rate((double)delivered, cpu->server));
	fprintf(f, "\nCPU: generator %.2f s", cpu->generator);
	if (cpu->server_known)
		fprintf(f, ", server %.2f s", cpu->server);
	fputc('\n', f);
	for (int k = 0; k < LOAD_KINDS; k++) {
		int any = 0;

		for (int e = 0; e < END_KINDS; e++)
			if (res->ends[k][e]) {
				fprintf(f, "%s%s %s %" PRIu64, any ? ", " : "", any ? "" : kind_names[k],
					end_names[e], res->ends[k][e]);
				any = 1;
			}
		if (any)
			fputc('\n', f);
	}
	if (plan->stalled || plan->slow)
		fprintf(f, "background: %u stalled, %u slow; ended by the server %" PRIu64 " and %" PRIu64
			   " times, after %.2f s on average\n",
			plan->stalled, plan->slow, res->background_drops[LOAD_STALL],
			res->background_drops[LOAD_SLOW], res->background_held);
	fprintf(f, "breaches: %" PRIu64 "\n", load_breaches(res));
}

static void json_latency(FILE *f, const char *name, const struct load_latency *l)
{
	fprintf(f, "\"%s\":{", name);
	for (size_t i = 0; i < N_PERCENTS; i++)
		fprintf(f, "%s\"%s\":%.3f", i ? "," : "", percent_names[i], percentile(l, percents[i]));
	fputc('}', f);
}

void load_report_json(FILE *f, const struct load_plan *plan, const struct load_result *res,
		      const struct load_cpu *cpu)
{
	uint64_t delivered = res->ends[LOAD_GENUINE][END_DELIVERED];
	char addr[INET_ADDRSTRLEN];

	fprintf(f, "{\"started\":%" PRIu64 ",\"delivered\":%" PRIu64 ",\"concurrency\":%u,"
		   "\"rate\":%.0f,",
		started(res), delivered, plan->concurrency, plan->rate);
	fputs("\"targets\":[", f);
	for (size_t i = 0; i < plan->n_targets; i++)
		fprintf(f, "%s\"%s:%u\"", i ? "," : "",
			inet_ntop(AF_INET, &plan->targets[i].sin_addr, addr, sizeof(addr)),
			ntohs(plan->targets[i].sin_port));
	fprintf(f, "],\"wall_s\":%.3f,\"per_wall_s\":%.1f,", res->wall,
		rate((double)delivered, res->wall));
	json_latency(f, "latency_ms", &res->total);
	fputc(',', f);
	json_latency(f, "server_latency_ms", &res->server);
	fprintf(f, ",\"generator_cpu_s\":%.3f,", cpu->generator);
	if (cpu->server_known)
		fprintf(f, "\"server_cpu_s\":%.3f,\"per_server_cpu_s\":%.1f,", cpu->server,
			rate((double)delivered, cpu->server));
	else
		fputs("\"server_cpu_s\":null,\"per_server_cpu_s\":null,", f);
	fputs("\"ends\":{", f);
	for (int k = 0; k < LOAD_KINDS; k++) {
		fprintf(f, "%s\"%s\":{", k ? "," : "", kind_names[k]);
		for (int e = 0; e < END_KINDS; e++)
			fprintf(f, "%s\"%s\":%" PRIu64, e ? "," : "", end_names[e], res->ends[k][e]);
		fputs(",\"refusals\":{", f);
		for (int c = 0, any = 0; c < 16; c++)
			if (res->refusal_codes[k][c]) {
				const char *name = ara_refusal_name(c);

				fputs(any++ ? "," : "", f);
				if (strcmp(name, "unknown"))
					fprintf(f, "\"%s\"", name);
				else
					fprintf(f, "\"code_%d\"", c); /* 0: 16 or more */
				fprintf(f, ":%" PRIu64, res->refusal_codes[k][c]);
			}
		fputs("}}", f);
	}
	fprintf(f, "},\"background\":{\"stalled\":%u,\"slow\":%u,\"stalled_ended\":%" PRIu64
		   ",\"slow_ended\":%" PRIu64 ",\"held_mean_s\":%.3f},",
		plan->stalled, plan->slow, res->background_drops[LOAD_STALL],
		res->background_drops[LOAD_SLOW], res->background_held);
	fprintf(f, "\"breaches\":%" PRIu64 "}\n", load_breaches(res));
}
