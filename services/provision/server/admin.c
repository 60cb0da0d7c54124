/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-provision's operator subcommands (admin.h): each opens the store
 * (--store URL, else the service's default, ara_store_default_url()), makes
 * one or two store calls and prints what it did or found: text for a
 * person, or with --json one JSON object a line (JSON lines: a listing
 * streams). Times are RFC 3339 UTC with milliseconds on output, and on
 * input (--since, --until) RFC 3339 UTC with or without them.
 */
#define _GNU_SOURCE /* timegm */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mbedtls/platform_util.h>

#include "admin.h"
#include "ara/hex.h"
#include "ara_cli.h"
#include "kek.h"
#include "policy.h"
#include "store.h"
#include "tpm_verify.h"

/* The exit statuses beyond ara_cli's 0 and 2 (docs/man/ara-provision.1). */
enum admin_exit {
	EXIT_STORE = 3,	    /* the store, a file or the database failed */
	EXIT_NOT_FOUND = 4, /* no such device, secret or policy */
	EXIT_CONFLICT = 5,  /* it exists already, or is revoked already */
};

static const char usage_text[] = "usage: ara-provision COMMAND [--store URL] [--json] ...\n"
				 ARA_ADMIN_USAGE "  -h, --help          print this help and exit 0\n";

enum command { C_ENROL, C_REVOKE, C_POLICY, C_SECRET, C_DELIVERIES, C_AUDIT, C_DEVICE };

static const struct {
	const char *name;
	const char *options; /* the short codes of the options it takes */
	int min, max;	     /* how many operands */
	const char *operands;
} commands[] = {
	[C_ENROL] = { "enrol", "ae", 1, 1, "DEVICE [--ak PEM [--ek-chain DER]]" },
	[C_REVOKE] = { "revoke", "r", 1, 1, "DEVICE [--reason TEXT]" },
	[C_POLICY] = { "policy", "", 2, 2, "add FILE" },
	[C_SECRET] = { "secret", "vok", 2, 2, "add|rotate NAME --value FILE [--once] [--kek FILE]" },
	[C_DELIVERIES] = { "deliveries", "dsbun", 0, 0, "[FILTER]" },
	[C_AUDIT] = { "audit", "dsbunD", 0, 0, "[FILTER] [--decision delivered|refused]" },
	[C_DEVICE] = { "device", "", 0, 1, "[DEVICE]" },
};

/* What the command line asks for. */
struct args {
	enum command cmd;
	const char *store, *ak, *ek_chain, *reason, *value, *kek, *decision;
	int json, once;
	struct ara_store_filter filter;
	const char *operand[2]; /* the words after the command */
	int noperands;
};

int ara_admin_is_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i].name))
			return 1;
	return 0;
}

/* "2026-01-31T12:00:00Z" or with ".123" before the Z: ms since the epoch. */
static int64_t parse_time(const char *option, const char *s)
{
	struct tm tm = { 0 };
	const char *end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	int64_t ms = 0;

	if (end && end[0] == '.' && end[1] >= '0' && end[1] <= '9' && end[2] >= '0' &&
	    end[2] <= '9' && end[3] >= '0' && end[3] <= '9') {
		ms = (end[1] - '0') * 100 + (end[2] - '0') * 10 + (end[3] - '0');
		end += 4;
	}
	if (!end || strcmp(end, "Z") || tm.tm_year < 70)
		ara_usage_error("%s %s: expected an RFC 3339 UTC time, e.g. 2026-01-31T12:00:00Z",
				option, s);
	return (int64_t)timegm(&tm) * 1000 + ms;
}

/* ms since the epoch as RFC 3339 UTC with milliseconds, into out[32]. */
static const char *format_time(int64_t ms, char out[32])
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	size_t n;

	if (!gmtime_r(&t, &tm) || !(n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm)))
		snprintf(out, 32, "?");
	else
		snprintf(out + n, 32 - n, ".%03dZ", (int)(ms % 1000));
	return out;
}

static void operand(struct args *a, const char *word)
{
	if (a->noperands == commands[a->cmd].max)
		ara_usage_error("%s: unexpected argument '%s'; usage: ara-provision %s %s",
				commands[a->cmd].name, word, commands[a->cmd].name,
				commands[a->cmd].operands);
	a->operand[a->noperands++] = word;
}

static void parse_args(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 'S' },   { "json", no_argument, NULL, 'j' },
		{ "ak", required_argument, NULL, 'a' },      { "ek-chain", required_argument, NULL, 'e' },
		{ "reason", required_argument, NULL, 'r' },  { "value", required_argument, NULL, 'v' },
		{ "once", no_argument, NULL, 'o' },	     { "kek", required_argument, NULL, 'k' },
		{ "device", required_argument, NULL, 'd' },  { "secret", required_argument, NULL, 's' },
		{ "since", required_argument, NULL, 'b' },   { "until", required_argument, NULL, 'u' },
		{ "limit", required_argument, NULL, 'n' },   { "decision", required_argument, NULL, 'D' },
		ARA_CLI_OPTIONS,			     { NULL, 0, NULL, 0 },
	};
	const char *cmd = argv[0];
	int c, index;

	for (a->cmd = 0; strcmp(commands[a->cmd].name, cmd); a->cmd++)
		;
	optind = 1;
	for (;;) {
		/* Operands and options in any order; "--" ends the options. */
		while (optind < argc && argv[optind][0] != '-')
			operand(a, argv[optind++]);
		if ((c = getopt_long(argc, argv, "+:hV", longopts, &index)) == -1)
			break;
		if (c != 'S' && c != 'j' && c != 'h' && c != 'V' && c != ':' && c != '?' &&
		    !strchr(commands[a->cmd].options, c))
			ara_usage_error("%s: option '--%s' does not go with it", cmd,
					longopts[index].name);
		switch (c) {
		case 'S': a->store = optarg; break;
		case 'j': a->json = 1; break;
		case 'a': a->ak = optarg; break;
		case 'e': a->ek_chain = optarg; break;
		case 'r': a->reason = optarg; break;
		case 'v': a->value = optarg; break;
		case 'o': a->once = 1; break;
		case 'k': a->kek = optarg; break;
		case 'd': a->filter.device = optarg; break;
		case 's': a->filter.secret = optarg; break;
		case 'b': a->filter.since_ms = parse_time("--since", optarg); break;
		case 'u': a->filter.until_ms = parse_time("--until", optarg); break;
		case 'n': a->filter.limit = (uint32_t)ara_cli_number("--limit", optarg, 1, UINT32_MAX); break;
		case 'D':
			if (strcmp(optarg, "delivered") && strcmp(optarg, "refused"))
				ara_usage_error("--decision %s: delivered or refused", optarg);
			a->filter.decision = optarg;
			break;
		default: ara_cli_option(c, argv, usage_text);
		}
	}
	while (optind < argc)
		operand(a, argv[optind++]);
	if (a->noperands < commands[a->cmd].min)
		ara_usage_error("usage: ara-provision %s %s", cmd, commands[a->cmd].operands);
	if (a->ek_chain && !a->ak)
		ara_usage_error("enrol: --ek-chain goes with --ak");
	if (a->cmd == C_POLICY && strcmp(a->operand[0], "add"))
		ara_usage_error("policy %s: unknown; 'policy add FILE'", a->operand[0]);
	if (a->cmd == C_SECRET && strcmp(a->operand[0], "add") && strcmp(a->operand[0], "rotate"))
		ara_usage_error("secret %s: unknown; 'secret add' or 'secret rotate'", a->operand[0]);
	if (a->cmd == C_SECRET && !a->value)
		ara_usage_error("secret %s: --value FILE is needed", a->operand[0]);
	if (a->cmd == C_SECRET &&
	    !ara_wire_name_ok((const uint8_t *)a->operand[1], strlen(a->operand[1])))
		ara_usage_error("secret %s: '%s' is not 1..%u of [A-Za-z0-9._-]", a->operand[0],
				a->operand[1], ARA_WIRE_NAME_MAX);
}

/* A store status as the exit status, the store's line on stderr. */
static int store_failed(const struct ara_store *s, int rc)
{
	ara_msg("%s", s->why);
	return rc == ARA_STORE_NOT_FOUND ? EXIT_NOT_FOUND
	       : rc == ARA_STORE_CONFLICT ? EXIT_CONFLICT
					  : EXIT_STORE;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * A whole file of at most max bytes ("-": standard input) into buf (max + 1
 * bytes, NUL-terminated); its length, or -1 after the message.
 */
static long read_file(const char *path, char *buf, size_t max, const char *what)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	size_t len = 0;
	int err;

	if (fd < 0) {
		ara_file_error(path, "cannot open");
		return -1;
	}
	err = ara_read_upto(fd, buf, max + 1, &len);
	if (fd != STDIN_FILENO)
		close(fd);
	if (err) {
		ara_file_error(path, "cannot read");
		return -1;
	}
	if (len > max) {
		ara_msg("%s: %s over %zu bytes", path, what, max);
		return -1;
	}
	buf[len] = '\0';
	return (long)len;
}

static void print_hex(const uint8_t *b, size_t len)
{
	char s[3];

	for (size_t i = 0; i < len; i++) {
		ara_hex_encode(b + i, 1, s);
		fputs(s, stdout);
	}
}

/* "name":"value" in a JSON object; first: no comma before it. */
static void json_str(int first, const char *name, const char *value)
{
	printf("%s\"%s\":", first ? "{" : ",", name);
	ara_json_string(stdout, value);
}

static void json_time(const char *name, int64_t ms)
{
	char t[32];

	if (ms)
		printf(",\"%s\":\"%s\",\"%s_ms\":%" PRId64, name, format_time(ms, t), name, ms);
	else
		printf(",\"%s\":null,\"%s_ms\":0", name, name);
}

static int print_device(void *ctx, const struct ara_store_device *d)
{
	const struct args *a = ctx;
	char t1[32], t2[32], t3[32];

	if (a->json) {
		json_str(1, "device", d->id);
		json_time("enrolled", d->enrolled_ms);
		json_time("revoked", d->revoked_ms);
		printf(",\"revoke_reason\":");
		ara_json_string(stdout, d->revoke_reason);
		json_time("last_attest", d->last_attest_ms);
		printf("}\n");
		return 0;
	}
	printf("%s enrolled %s last-attestation %s", d->id, format_time(d->enrolled_ms, t1),
	       d->last_attest_ms ? format_time(d->last_attest_ms, t2) : "never");
	if (d->revoked_ms)
		printf(" revoked %s (%s)", format_time(d->revoked_ms, t3), d->revoke_reason);
	printf("\n");
	return 0;
}

static int print_delivery(void *ctx, const struct ara_store_delivery *d)
{
	const struct args *a = ctx;
	char t[32];

	if (a->json) {
		printf("{\"id\":%" PRId64, d->id);
		json_time("time", d->time_ms);
		json_str(0, "peer", d->peer);
		printf(",\"session\":%" PRIu64, d->session);
		json_str(0, "service", d->service);
		json_str(0, "device", d->device);
		printf(",\"instance_pub\":\"");
		print_hex(d->instance_pub, sizeof(d->instance_pub));
		printf("\",\"app\":\"");
		print_hex(d->app, sizeof(d->app));
		printf("\"");
		json_str(0, "secret", d->secret);
		printf(",\"secret_version\":%" PRIu32 ",\"once\":%s}\n", d->secret_version,
		       d->once ? "true" : "false");
		return 0;
	}
	printf("%" PRId64 " %s %s v%" PRIu32 "%s to device %s app ", d->id,
	       format_time(d->time_ms, t), d->secret, d->secret_version, d->once ? " (once)" : "",
	       d->device[0] ? d->device : "-");
	print_hex(d->app, sizeof(d->app));
	printf(" peer %s session %" PRIu64 " service %s\n", d->peer, d->session,
	       d->service[0] ? d->service : "-");
	return 0;
}

static int print_audit(void *ctx, const struct ara_store_audit *r)
{
	const struct args *a = ctx;
	char t[32];

	if (a->json) {
		printf("{\"id\":%" PRId64, r->id);
		json_time("time", r->time_ms);
		json_str(0, "peer", r->peer);
		printf(",\"session\":%" PRIu64, r->session);
		json_str(0, "service", r->service);
		json_str(0, "decision", r->decision);
		json_str(0, "reason", r->reason);
		json_str(0, "detail", r->detail);
		json_str(0, "device", r->device);
		json_str(0, "secret", r->secret);
		printf(",\"policy_version\":%" PRIu32 "}\n", r->policy_version);
		return 0;
	}
	printf("%" PRId64 " %s %s%s%s peer %s session %" PRIu64 " device %s secret %s: %s\n", r->id,
	       format_time(r->time_ms, t), r->decision, r->reason[0] ? " " : "", r->reason, r->peer,
	       r->session, r->device[0] ? r->device : "-", r->secret[0] ? r->secret : "-",
	       r->detail);
	return 0;
}

/*
 * The inputs of enrol, policy add and secret, read and checked before the
 * store is opened: a bad input fails the command with the store untouched.
 */
static struct ara_store_ak ak;		       /* enrol --ak */
static char policy_text[ARA_STORE_POLICY_MAX + 1]; /* policy add */
static struct ara_store_secret sealed;	       /* secret: sealed once its version is known */
static uint8_t secret_kek[ARA_KEK_LEN];	       /* secret: the KEK */
static uint8_t secret_value[ARA_WIRE_SECRET_MAX + 1];
static size_t secret_len;

/* read_file() or exit: nothing is open yet. */
static size_t read_or_exit(const char *path, char *buf, size_t max, const char *what)
{
	long len = read_file(path, buf, max, what);

	if (len < 0)
		exit(EXIT_STORE);
	return (size_t)len;
}

static void read_ak(const struct args *a)
{
	static char pem[16384];
	char why[256];
	size_t len = read_or_exit(a->ak, pem, sizeof(pem) - 1, "an AK");

	if (ara_tpm_ak_from_pem(pem, len, ak.pub, why, sizeof(why)))
		ara_die(ARA_CLI_USAGE, "%s: %s", a->ak, why);
	if (ara_tpm_ak_signer(ak.pub, ak.signer))
		ara_die(EXIT_STORE, "%s: cannot compute the AK's name", a->ak);
	if (a->ek_chain) {
		static char chain[ARA_STORE_EK_CHAIN_MAX + 1];

		ak.ek_chain_len = read_or_exit(a->ek_chain, chain, ARA_STORE_EK_CHAIN_MAX,
					       "an EK certificate chain");
		memcpy(ak.ek_chain, chain, ak.ek_chain_len);
	}
	snprintf(ak.device, sizeof(ak.device), "%s", a->operand[0]);
	ak.enrolled_ms = now_ms();
}

/* Checked as the service will read it (the parser changes its copy). */
static void read_policy(const struct args *a)
{
	static char parsed[ARA_STORE_POLICY_MAX + 1];
	static struct ara_policy policy;
	size_t len = read_or_exit(a->operand[1], policy_text, ARA_STORE_POLICY_MAX, "a policy");
	char why[512];
	int rc;

	if (memchr(policy_text, '\0', len))
		ara_die(ARA_CLI_USAGE, "%s: a NUL byte in the policy", a->operand[1]);
	memcpy(parsed, policy_text, len + 1);
	rc = ara_policy_parse(a->operand[1], parsed, len, &policy, why, sizeof(why));
	ara_policy_wipe(&policy);
	if (rc)
		ara_die(ARA_CLI_USAGE, "policy %s", why);
}

/* The value and the KEK (default: "kek" in the service's state directory). */
static void read_secret(const struct args *a)
{
	char dir[4096], path[4200], why[512];
	const char *file = a->kek;

	secret_len = read_or_exit(a->value, (char *)secret_value, ARA_WIRE_SECRET_MAX, "a secret");
	if (secret_len == 0)
		ara_die(ARA_CLI_USAGE, "%s: an empty secret", a->value);
	if (!file) {
		if (ara_store_state_dir(dir, sizeof(dir), why, sizeof(why)))
			ara_die(EXIT_STORE, "%s", why);
		snprintf(path, sizeof(path), "%s/kek", dir);
		file = path;
	}
	if (ara_kek_load(file, secret_kek, why, sizeof(why)))
		ara_die(EXIT_STORE, "%s", why);
	snprintf(sealed.name, sizeof(sealed.name), "%s", a->operand[1]);
	sealed.once = a->once;
}

static int cmd_enrol(struct ara_store *s, const struct args *a)
{
	const char *id = a->operand[0];
	int rc, added = 0;

	/* A known AK is refused before the device is added: nothing half done. */
	if (a->ak) {
		static struct ara_store_ak known;
		struct ara_store_device owner;

		rc = s->ops->ak_find(s, ak.signer, &known, &owner);
		if (rc == ARA_STORE_OK) {
			ara_msg("%s: this AK is enrolled already, to device '%s'", a->ak, owner.id);
			return EXIT_CONFLICT;
		}
		if (rc != ARA_STORE_NOT_FOUND)
			return store_failed(s, rc);
	}
	rc = s->ops->device_add(s, id, now_ms());
	if (rc == ARA_STORE_OK)
		added = 1;
	else if (!(rc == ARA_STORE_CONFLICT && a->ak)) /* a known device: its new AK */
		return store_failed(s, rc);
	if (a->ak && (rc = s->ops->ak_add(s, &ak)))
		return store_failed(s, rc);
	if (a->json) {
		json_str(1, "device", id);
		printf(",\"enrolled\":%s,\"ak_signer\":", added ? "true" : "false");
		if (a->ak) {
			printf("\"");
			print_hex(ak.signer, sizeof(ak.signer));
			printf("\"}\n");
		} else {
			printf("null}\n");
		}
	} else {
		printf("%s: %s", id, added ? "enrolled" : "known");
		if (a->ak) {
			printf(", AK ");
			print_hex(ak.signer, sizeof(ak.signer));
			printf(" added");
		}
		printf("\n");
	}
	return ARA_CLI_OK;
}

static int cmd_revoke(struct ara_store *s, const struct args *a)
{
	const char *reason = a->reason ? a->reason : "revoked by the operator";
	struct ara_store_device d;
	int rc;

	if ((rc = s->ops->device_revoke(s, a->operand[0], reason, now_ms())) ||
	    (rc = s->ops->device_get(s, a->operand[0], &d)))
		return store_failed(s, rc);
	print_device((void *)a, &d);
	return ARA_CLI_OK;
}

static int cmd_policy(struct ara_store *s, const struct args *a)
{
	uint32_t version;
	int rc;

	if ((rc = s->ops->policy_add(s, policy_text, now_ms(), &version)))
		return store_failed(s, rc);
	if (a->json)
		printf("{\"policy_version\":%" PRIu32 "}\n", version);
	else
		printf("policy version %" PRIu32 " added\n", version);
	return ARA_CLI_OK;
}

/* add: a new name; rotate: the next version of a known one. */
static int cmd_secret(struct ara_store *s, const struct args *a)
{
	static struct ara_store_secret old;
	int rotate = !strcmp(a->operand[0], "rotate");
	int rc = s->ops->secret_get(s, sealed.name, &old);

	if (rc == ARA_STORE_OK && !rotate) {
		ara_msg("secret '%s' exists (version %" PRIu32 "): 'secret rotate' makes its next",
			sealed.name, old.version);
		return EXIT_CONFLICT;
	}
	if (rc != ARA_STORE_OK && !(rc == ARA_STORE_NOT_FOUND && !rotate))
		return store_failed(s, rc);
	/* Sealed for the version it is to be (kek.h binds it); CONFLICT: another writer's first. */
	sealed.version = rc == ARA_STORE_OK ? old.version + 1 : 1;
	sealed.created_ms = now_ms();
	rc = ara_kek_seal(secret_kek, &sealed, secret_value, secret_len);
	mbedtls_platform_zeroize(secret_value, sizeof(secret_value));
	if (rc) {
		ara_msg("secret '%s': cannot seal it", sealed.name);
		return EXIT_STORE;
	}
	if ((rc = s->ops->secret_put(s, &sealed)))
		return store_failed(s, rc);
	if (a->json)
		printf("{\"secret\":\"%s\",\"version\":%" PRIu32 ",\"once\":%s}\n", sealed.name,
		       sealed.version, sealed.once ? "true" : "false");
	else
		printf("secret %s version %" PRIu32 "%s added\n", sealed.name, sealed.version,
		       sealed.once ? " (once)" : "");
	return ARA_CLI_OK;
}

static int cmd_device(struct ara_store *s, const struct args *a)
{
	struct ara_store_device d;
	int rc;

	if (a->noperands == 0)
		rc = s->ops->device_list(s, print_device, (void *)a);
	else if ((rc = s->ops->device_get(s, a->operand[0], &d)) == ARA_STORE_OK)
		print_device((void *)a, &d);
	return rc ? store_failed(s, rc) : ARA_CLI_OK;
}

int ara_admin_main(int argc, char **argv)
{
	static struct args a;
	char url[4200], why[512];
	struct ara_store *s;
	int status;

	parse_args(argc, argv, &a);
	if (a.cmd == C_ENROL && a.ak)
		read_ak(&a);
	if (a.cmd == C_POLICY)
		read_policy(&a);
	if (a.cmd == C_SECRET)
		read_secret(&a);
	if (a.store)
		snprintf(url, sizeof(url), "%s", a.store);
	else if (ara_store_default_url(url, sizeof(url), why, sizeof(why)))
		ara_die(EXIT_STORE, "%s", why);
	/* With the KEK (secret), the migration may re-seal (store.h). */
	s = a.cmd == C_SECRET ? ara_store_open_kek(url, ara_kek_reseal, secret_kek, why, sizeof(why))
			      : ara_store_open(url, why, sizeof(why));
	if (!s) {
		mbedtls_platform_zeroize(secret_kek, sizeof(secret_kek));
		ara_die(EXIT_STORE, "%s", why);
	}
	switch (a.cmd) {
	case C_ENROL: status = cmd_enrol(s, &a); break;
	case C_REVOKE: status = cmd_revoke(s, &a); break;
	case C_POLICY: status = cmd_policy(s, &a); break;
	case C_SECRET: status = cmd_secret(s, &a); break;
	case C_DEVICE: status = cmd_device(s, &a); break;
	case C_DELIVERIES:
		status = s->ops->delivery_list(s, &a.filter, print_delivery, &a);
		status = status ? store_failed(s, status) : ARA_CLI_OK;
		break;
	default: /* C_AUDIT */
		status = s->ops->audit_query(s, &a.filter, print_audit, &a);
		status = status ? store_failed(s, status) : ARA_CLI_OK;
		break;
	}
	ara_store_close(s);
	mbedtls_platform_zeroize(secret_kek, sizeof(secret_kek));
	mbedtls_platform_zeroize(secret_value, sizeof(secret_value));
	if (fflush(stdout) || ferror(stdout))
		ara_die_file(EXIT_STORE, "stdout", "cannot write");
	return status;
}
