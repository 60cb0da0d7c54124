/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-loadgen: plays many devices running the provisioning protocol
 * against ara-provision over TCP loopback (docs/performance.md,
 * "Provisioning service"): real ATTESTs with real crypto (the dev-insecure
 * evidence backend), every DELIVER opened and its secret checked, faults
 * mixed in on request. Bounded by a count and a time; reports throughput,
 * latency percentiles and the CPU time of the generator and of the servers,
 * so that the generator's cost is not charged to the server.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "ara_cli.h"
#include "policy.h"
#include "report.h"

#define PIDS_MAX 4

static const char usage_text[] =
	"usage: ara-loadgen --policy FILE --name SECRET --connect IP:PORT... [options]\n"
	"Play devices running the provisioning protocol against ara-provision.\n"
	"\n"
	"  --policy FILE        the servers' policy: the digests the devices measure\n"
	"                       and the secret each DELIVER must hold\n"
	"  --name SECRET        the secret the devices ask for\n"
	"  --connect IP:PORT    a server (IPv4, numeric); several: round-robin, at most 4\n"
	"  --sessions N         start at most N sessions (default 1000)\n"
	"  --duration S         start sessions for at most S seconds (default: no limit)\n"
	"  --concurrency C      sessions in flight, at most (default 256)\n"
	"  --rate R             start R sessions a second, latency counted from when\n"
	"                       each was due (default: each as one ends)\n"
	"  --devices N          distinct devices, each its own instance key (default C)\n"
	"  --timeout S          seconds a session has, connect to reply (default 10)\n"
	"  --malformed PCT      percent of sessions whose ATTEST signature is broken\n"
	"  --oversized PCT      percent that send the largest body the wire allows, or\n"
	"                       announce a larger one\n"
	"  --replay PCT:FILE    percent that send the ATTEST recorded in FILE\n"
	"  --record FILE        write the first delivered session's ATTEST to FILE\n"
	"  --stalled N          N more connections that take the CHALLENGE and stall\n"
	"  --slow N             N more connections that send one byte per interval\n"
	"  --slow-interval MS   a slow connection's interval (default 100)\n"
	"  --tpm-devices N      the first N devices have tpm evidence, quoted by:\n"
	"  --tpm-quote PATH     ara-tpm-quote, run once per device and evidence\n"
	"  --tcti CONF          its TPM (e.g. swtpm:path=SOCKET)\n"
	"  --ima-log PATH       its IMA log\n"
	"  --server-pid PID     a server whose CPU time to measure (several: summed)\n"
	"  --json FILE          also write the results as JSON to FILE\n"
	"  -h, --help           print this help and exit 0\n"
	"  -V, --version        print the version and exit 0\n"
	"\n"
	"Exit status: 0 every genuine session delivered its secret and no faulty one\n"
	"got a DELIVER, 1 some genuine session was not delivered, 2 usage error or a\n"
	"policy that does not load, 3 a system error, 4 a breach: a faulty session got\n"
	"a DELIVER, or a DELIVER held another secret.\n";

enum loadgen_exit { EXIT_FAILED = 1, EXIT_SYSTEM = 3, EXIT_BREACH = 4 };

struct options {
	const char *policy, *name, *replay, *record, *json;
	struct load_plan plan;
	struct load_tpm tpm;
	uint64_t tpm_devices;
	pid_t pids[PIDS_MAX];
	size_t n_pids;
};

static void parse_target(struct load_plan *p, const char *spec)
{
	const char *colon = strrchr(spec, ':');
	struct sockaddr_in *sa = &p->targets[p->n_targets];
	char host[INET_ADDRSTRLEN];

	if (p->n_targets == LOAD_TARGETS_MAX)
		ara_usage_error("at most %d --connect", LOAD_TARGETS_MAX);
	if (!colon || (size_t)(colon - spec) >= sizeof(host))
		ara_usage_error("--connect %s: expected IP:PORT", spec);
	snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec);
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)ara_cli_number("--connect's port", colon + 1, 1, 65535));
	if (inet_pton(AF_INET, host, &sa->sin_addr) != 1)
		ara_usage_error("--connect %s: %s is not a numeric IPv4 address", spec, host);
	p->n_targets++;
}

static void parse_options(int argc, char **argv, struct options *o)
{
	enum { O_POLICY = 256, O_NAME, O_CONNECT, O_SESSIONS, O_DURATION, O_CONC, O_DEVICES,
	       O_TIMEOUT, O_MALFORMED, O_OVERSIZED, O_REPLAY, O_RECORD, O_STALLED, O_SLOW,
	       O_SLOW_MS, O_PID, O_JSON, O_TPM_DEVICES, O_TPM_QUOTE, O_TCTI, O_IMA_LOG, O_RATE };
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, O_POLICY },
		{ "name", required_argument, NULL, O_NAME },
		{ "connect", required_argument, NULL, O_CONNECT },
		{ "sessions", required_argument, NULL, O_SESSIONS },
		{ "duration", required_argument, NULL, O_DURATION },
		{ "concurrency", required_argument, NULL, O_CONC },
		{ "rate", required_argument, NULL, O_RATE },
		{ "devices", required_argument, NULL, O_DEVICES },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "malformed", required_argument, NULL, O_MALFORMED },
		{ "oversized", required_argument, NULL, O_OVERSIZED },
		{ "replay", required_argument, NULL, O_REPLAY },
		{ "record", required_argument, NULL, O_RECORD },
		{ "stalled", required_argument, NULL, O_STALLED },
		{ "slow", required_argument, NULL, O_SLOW },
		{ "slow-interval", required_argument, NULL, O_SLOW_MS },
		{ "server-pid", required_argument, NULL, O_PID },
		{ "json", required_argument, NULL, O_JSON },
		{ "tpm-devices", required_argument, NULL, O_TPM_DEVICES },
		{ "tpm-quote", required_argument, NULL, O_TPM_QUOTE },
		{ "tcti", required_argument, NULL, O_TCTI },
		{ "ima-log", required_argument, NULL, O_IMA_LOG },
		ARA_CLI_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct load_plan *p = &o->plan;
	uint64_t sessions = 1000, duration = 0, devices = 0;
	const char *colon;
	int c;

	p->concurrency = 256;
	p->timeout = 10;
	p->slow_interval = 0.1;
	while ((c = getopt_long(argc, argv, ":hV", longopts, NULL)) != -1) {
		switch (c) {
		case O_POLICY: o->policy = optarg; break;
		case O_NAME: o->name = optarg; break;
		case O_CONNECT: parse_target(p, optarg); break;
		case O_SESSIONS: sessions = ara_cli_number("--sessions", optarg, 0, UINT32_MAX); break;
		case O_DURATION: duration = ara_cli_number("--duration", optarg, 1, 86400); break;
		case O_CONC:
			p->concurrency = (unsigned)ara_cli_number("--concurrency", optarg, 1, 4096);
			break;
		case O_RATE: p->rate = (double)ara_cli_number("--rate", optarg, 1, 1000000); break;
		case O_DEVICES: devices = ara_cli_number("--devices", optarg, 1, 100000); break;
		case O_TIMEOUT: p->timeout = (double)ara_cli_number("--timeout", optarg, 1, 3600); break;
		case O_MALFORMED:
			p->pct[LOAD_MALFORMED] = (unsigned)ara_cli_number("--malformed", optarg, 0, 100);
			break;
		case O_OVERSIZED:
			p->pct[LOAD_OVERSIZED] = (unsigned)ara_cli_number("--oversized", optarg, 0, 100);
			break;
		case O_REPLAY:
			colon = strchr(optarg, ':');
			if (!colon || colon == optarg || (size_t)(colon - optarg) > 3)
				ara_usage_error("--replay %s: expected PCT:FILE", optarg);
			{
				char pct[4];

				snprintf(pct, sizeof(pct), "%.*s", (int)(colon - optarg), optarg);
				p->pct[LOAD_REPLAY] = (unsigned)ara_cli_number("--replay", pct, 1, 100);
			}
			o->replay = colon + 1;
			break;
		case O_RECORD: o->record = optarg; break;
		case O_STALLED: p->stalled = (unsigned)ara_cli_number("--stalled", optarg, 0, 4096); break;
		case O_SLOW: p->slow = (unsigned)ara_cli_number("--slow", optarg, 0, 4096); break;
		case O_SLOW_MS:
			p->slow_interval =
				(double)ara_cli_number("--slow-interval", optarg, 1, 60000) / 1e3;
			break;
		case O_PID:
			if (o->n_pids == PIDS_MAX)
				ara_usage_error("at most %d --server-pid", PIDS_MAX);
			o->pids[o->n_pids++] = (pid_t)ara_cli_number("--server-pid", optarg, 1, INT32_MAX);
			break;
		case O_JSON: o->json = optarg; break;
		case O_TPM_DEVICES:
			o->tpm_devices = ara_cli_number("--tpm-devices", optarg, 1, 100000);
			break;
		case O_TPM_QUOTE: o->tpm.quote = optarg; break;
		case O_TCTI: o->tpm.tcti = optarg; break;
		case O_IMA_LOG: o->tpm.ima_log = optarg; break;
		default: ara_cli_option(c, argv, usage_text);
		}
	}
	if (optind != argc)
		ara_usage_error("unexpected argument '%s'", argv[optind]);
	if (!o->policy || !o->name || p->n_targets == 0)
		ara_usage_error("--policy, --name and at least one --connect are needed");
	if (!ara_wire_name_ok((const uint8_t *)o->name, strlen(o->name)))
		ara_usage_error("--name %s: not a secret name ([A-Za-z0-9._-]{1,64})", o->name);
	if (p->pct[LOAD_MALFORMED] + p->pct[LOAD_OVERSIZED] + p->pct[LOAD_REPLAY] > 100)
		ara_usage_error("--malformed, --oversized and --replay add up to over 100%%");
	if (sessions == 0 && duration == 0)
		ara_usage_error("--sessions 0 needs --duration: the run must be bounded");
	p->sessions = sessions;
	p->duration = (double)duration;
	p->n_devices = devices ? devices : p->concurrency;
	if (o->tpm_devices && (!o->tpm.quote || !o->tpm.tcti || !o->tpm.ima_log))
		ara_usage_error("--tpm-devices needs --tpm-quote, --tcti and --ima-log");
	if (o->tpm_devices > p->n_devices)
		ara_usage_error("--tpm-devices %llu: more than the %zu devices",
				(unsigned long long)o->tpm_devices, p->n_devices);
	p->tpm = &o->tpm;
}

/* A process's user and system time from /proc/PID/stat; -1 if it is gone. */
static double proc_cpu(pid_t pid)
{
	char path[64], buf[1024], *close_paren;
	unsigned long utime, stime;
	size_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ara_read_upto(fd, buf, sizeof(buf) - 1, &len)) {
		close(fd);
		return -1;
	}
	close(fd);
	buf[len] = '\0';
	/* After the command's closing parenthesis: state is field 3, utime 14, stime 15. */
	close_paren = strrchr(buf, ')');
	if (!close_paren ||
	    sscanf(close_paren + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime,
		   &stime) != 2)
		return -1;
	return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

static double self_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static double servers_cpu(const struct options *o)
{
	double sum = 0;

	for (size_t i = 0; i < o->n_pids; i++) {
		double t = proc_cpu(o->pids[i]);

		if (t < 0)
			return -1;
		sum += t;
	}
	return sum;
}

static uint8_t *read_replay(const char *path, size_t *len)
{
	static uint8_t buf[LOAD_ATTEST_MAX + 1];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		ara_die_file(EXIT_SYSTEM, path, "cannot open");
	if (ara_read_upto(fd, buf, sizeof(buf), len))
		ara_die_file(EXIT_SYSTEM, path, "cannot read");
	close(fd);
	if (*len < ARA_WIRE_HEADER || *len > LOAD_ATTEST_MAX)
		ara_die(ARA_CLI_USAGE, "%s: %zu bytes: not a recorded ATTEST", path, *len);
	return buf;
}

static void write_file(const char *path, const void *bytes, size_t len)
{
	struct ara_out out;

	if (ara_out_open(&out, path, 0644) || ara_write_all(out.fd, bytes, len) ||
	    ara_out_commit(&out))
		ara_die_file(EXIT_SYSTEM, path, "cannot write");
}

static void write_json(const char *path, const struct load_plan *plan,
		       const struct load_result *res, const struct load_cpu *cpu)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		ara_die(EXIT_SYSTEM, "open_memstream: %s", strerror(errno));
	load_report_json(m, plan, res, cpu);
	if (fclose(m))
		ara_die(EXIT_SYSTEM, "the JSON: %s", strerror(errno));
	write_file(path, text, len);
	free(text);
}

int main(int argc, char **argv)
{
	static struct ara_policy policy; /* large: secrets inline */
	static struct options o;
	static struct load_result res;
	struct load_plan *p = &o.plan;
	const struct ara_policy_secret *secret;
	struct load_cpu cpu = { 0 };
	double gen0, srv0, srv1;
	char why[512];

	ara_cli_init("ara-loadgen");
	parse_options(argc, argv, &o);
	if (ara_policy_load(o.policy, &policy, why, sizeof(why)))
		ara_die(ARA_CLI_USAGE, "policy %s", why);
	secret = ara_policy_secret(&policy, (const uint8_t *)o.name, strlen(o.name));
	if (!secret)
		ara_die(ARA_CLI_USAGE, "%s: no secret named '%s'", o.policy, o.name);
	p->name = o.name;
	p->secret = secret->value;
	p->secret_len = secret->len;
	p->max_age = policy.max_age;
	if (o.replay)
		p->replay = read_replay(o.replay, &p->replay_len);
	p->devices = calloc(p->n_devices, sizeof(*p->devices));
	if (!p->devices)
		ara_die(EXIT_SYSTEM, "out of memory for %zu devices", p->n_devices);
	for (size_t i = 0; i < p->n_devices; i++)
		if (load_device_init(&p->devices[i], &policy.expect, i < o.tpm_devices ? p->tpm : NULL,
				     (uint64_t)time(NULL)))
			ara_die(EXIT_SYSTEM, "device %zu: cannot make its key and evidence", i);
	signal(SIGPIPE, SIG_IGN);
	gen0 = self_cpu();
	srv0 = servers_cpu(&o);
	if (load_run(p, &res))
		return EXIT_SYSTEM;
	cpu.generator = self_cpu() - gen0;
	srv1 = servers_cpu(&o);
	cpu.server_known = o.n_pids && srv0 >= 0 && srv1 >= 0;
	cpu.server = cpu.server_known ? srv1 - srv0 : 0;
	load_report_sort(&res);
	load_report_table(stdout, p, &res, &cpu);
	if (fflush(stdout))
		ara_die(EXIT_SYSTEM, "stdout: %s", strerror(errno));
	if (o.json)
		write_json(o.json, p, &res, &cpu);
	if (o.record) {
		if (!res.recorded_len)
			ara_die(EXIT_FAILED, "--record %s: no session was delivered", o.record);
		write_file(o.record, res.recorded_attest, res.recorded_len);
	}
	ara_policy_wipe(&policy);
	for (size_t i = 0; i < p->n_devices; i++)
		free(p->devices[i].evidence);
	free(p->devices);
	if (load_breaches(&res))
		return EXIT_BREACH;
	for (int e = 0; e < END_KINDS; e++)
		if (e != END_DELIVERED && res.ends[LOAD_GENUINE][e])
			return EXIT_FAILED;
	return ARA_CLI_OK;
}
