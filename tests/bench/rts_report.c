/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rts_study's output: the CSV, one row per run, written and flushed as each
 * run ends; and per stream size, on stderr, a summary per configuration:
 * the mean seconds per run and the half-width of its 95 % confidence
 * interval (Student's t with n - 1 degrees of freedom), the overhead over
 * none (the difference of the means, and that in per cent of none's), the
 * overhead as a multiple of ara's (the paper's comparison; "-" while ara's
 * is not told from zero, no larger than the two intervals' half-widths
 * together), and the mean context switches per run.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "rts_study.h"

/*
 * Two-sided 95 % quantiles of Student's t for 1..30 degrees of freedom.
 * Beyond 30, 30's: wider than the true interval, by less than 5 %.
 */
static const double t95[30] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201,	2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080,	2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

static int flushed(FILE *f, const char *path)
{
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	fprintf(stderr, "rts_study: %s: %s\n", path, strerror(errno));
	return -1;
}

int rts_csv_header(FILE *f, const char *path)
{
	fprintf(f, "workload,config,size_bytes,repeat,seconds,ctx_switches,chunks\n");
	return flushed(f, path);
}

int rts_csv_row(FILE *f, const char *path, const char *config, const struct rts_stream *s,
		unsigned int repeat, const struct rts_sample *x)
{
	fprintf(f, "%s,%s,%zu,%u,%.9f,%ld,%u\n", rts_workload_name(s->workload), config, s->size,
		repeat, x->seconds, x->csw, s->chunks);
	return flushed(f, path);
}

struct stats {
	double mean, half; /* seconds; half: the 95 % interval's half-width, NAN for one run */
	double csw;
};

static struct stats stats_of(const struct rts_sample *x, unsigned int n)
{
	struct stats st = { 0 };
	double ss = 0;

	for (unsigned int i = 0; i < n; i++) {
		st.mean += x[i].seconds;
		st.csw += (double)x[i].csw;
	}
	st.mean /= n;
	st.csw /= n;
	for (unsigned int i = 0; i < n; i++)
		ss += (x[i].seconds - st.mean) * (x[i].seconds - st.mean);
	st.half = n < 2 ? NAN : t95[(n - 1 < 30 ? n - 1 : 30) - 1] * sqrt(ss / (n - 1) / n);
	return st;
}

void rts_summary(const struct rts_stream *s, const struct rts_config *const *configs,
		 size_t n_configs, const struct rts_sample *samples, unsigned int repeats)
{
	struct stats none = stats_of(samples, repeats), ara = stats_of(samples + repeats, repeats);
	double ara_over = ara.mean - none.mean;
	int ara_told = ara_over > none.half + ara.half; /* NAN (one run): never */

	fprintf(stderr,
		"rts_study: %s, a %zu-byte stream in %u %s%s, %u run%s per configuration: seconds "
		"per run, mean and 95 %% confidence half-width; overhead over none; context "
		"switches per run (App and worker)\n",
		rts_workload_name(s->workload), s->size, s->chunks,
		s->workload == RTS_CENC ? "sample" : "chunk", s->chunks == 1 ? "" : "s", repeats,
		repeats == 1 ? "" : "s");
	fprintf(stderr, "%-8s %12s %12s %12s %10s %10s %12s\n", "config", "mean s", "+- 95% s",
		"overhead s", "overhead %", "x ara's", "ctx switches");
	for (size_t c = 0; c < n_configs; c++) {
		struct stats st = stats_of(samples + c * repeats, repeats);
		double over = st.mean - none.mean;

		fprintf(stderr, "%-8s %12.6f ", configs[c]->name, st.mean);
		if (isnan(st.half))
			fprintf(stderr, "%12s", "-");
		else
			fprintf(stderr, "%12.6f", st.half);
		fprintf(stderr, " %12.6f %10.1f ", over, 100 * over / none.mean);
		if (c > 0 && ara_told)
			fprintf(stderr, "%10.1f", over / ara_over);
		else
			fprintf(stderr, "%10s", "-");
		fprintf(stderr, " %12.1f\n", st.csw);
	}
}
