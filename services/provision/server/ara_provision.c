/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-provision: the provisioning service. It releases a secret to an ARA
 * instance only after verifying the instance's platform evidence and its
 * session signature against a policy (docs/provisioning.md; its command
 * line in docs/man/ara-provision.1). The command is "serve", also when
 * none is named; the service itself is server.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <errno.h>

#include "admin.h"
#include "ara_cli.h"
#include "config.h"
#include "server.h"

static const char usage_text[] =
	"usage: ara-provision [serve] [--config FILE] [--policy FILE]\n"
	"                     [--unix PATH | --tcp HOST:PORT]... [--store URL] [--kek FILE]\n"
	"                     [--signing-key FILE] [--sessions N] [--log FILE]\n"
	"                     [--rtm-apps DIR [--rtm-root DIR] [--ear-key FILE]]\n"
	"       ara-provision COMMAND [--store URL] [--json] ...\n"
	"Serve provisioning sessions: release a secret to an ARA instance whose\n"
	"evidence passes the policy. Many sessions at once; SIGHUP reloads the\n"
	"configuration and the policy, SIGTERM stops (docs/provisioning.md).\n"
	"\n"
	"  --config FILE       the configuration file (listeners, policy, log, limits)\n"
	"  --policy FILE       the policy (docs/provisioning.md; ara-policy writes one)\n"
	"  --unix PATH         listen on a Unix socket at PATH (removed at exit)\n"
	"  --tcp HOST:PORT     listen on a numeric address; port 0: the kernel picks\n"
	"  --store URL         the state: sqlite:PATH or postgresql://... (default:\n"
	"                      sqlite:DIR/store.db, created on first start; DIR in\n"
	"                      ara-provision(1))\n"
	"  --kek FILE          the key that seals the store's secrets (default:\n"
	"                      DIR/kek, created on first start)\n"
	"  --signing-key FILE  sign every DELIVER with this P-256 private key (PEM,\n"
	"                      mode 0600): Apps whose manifest pins its public key\n"
	"                      accept secrets only so signed\n"
	"  --rtm-apps DIR      verify RTM reports: the App files, each named by its\n"
	"                      SHA-256 in hex (docs/provisioning.md, \"RTM reports\")\n"
	"  --rtm-root DIR      read the reports' other modules under DIR\n"
	"  --ear-key FILE      sign each report's verdict as an EAR with this P-256\n"
	"                      key (docs/ear.md)\n"
	"  --sessions N        exit 0 after N sessions (default: serve until SIGTERM)\n"
	"  --log FILE          append the log, JSON lines, to FILE (default: stderr)\n"
	"  -h, --help          print this help and exit 0\n"
	"  -V, --version       print the version and exit 0\n"
	"\n"
	"The command line's values win over the file's; its listeners replace the\n"
	"file's. At most 8 listeners. Exit status: 0 served (SIGTERM, or the N\n"
	"sessions), 2 usage error, or a configuration, policy or signing key that\n"
	"does not parse, 3 the configuration, policy or signing key file cannot be\n"
	"read, or a socket, the log, a thread, the store or the KEK cannot be made\n"
	"or opened.\n"
	"\n" ARA_ADMIN_USAGE;

/* 2 also for a configuration, policy or signing key that does not parse. */
enum ara_provision_exit { EXIT_SERVED = ARA_CLI_OK, EXIT_USAGE = ARA_CLI_USAGE, EXIT_SYSTEM = ARA_CLI_IO };

/* ara_server_run's statuses are the program's. */
_Static_assert((int)ARA_SERVER_DONE == (int)EXIT_SERVED &&
		       (int)ARA_SERVER_CONFIG == (int)EXIT_USAGE &&
		       (int)ARA_SERVER_SYSTEM == (int)EXIT_SYSTEM,
	       "server.h's statuses are ara-provision's exit statuses");

/* What the command line asks for; nothing is opened while it is read. */
struct options {
	const char *config, *policy, *log, *store, *kek, *signing_key, *rtm_apps, *rtm_root, *ear_key;
	struct ara_config_listener listen[ARA_CONFIG_LISTENERS_MAX];
	size_t n_listen;
	uint64_t sessions; /* 0: for ever */
};

static void parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "policy", required_argument, NULL, 'p' },
		{ "unix", required_argument, NULL, 'u' },
		{ "tcp", required_argument, NULL, 't' },
		{ "sessions", required_argument, NULL, 's' },
		{ "log", required_argument, NULL, 'l' },
		{ "store", required_argument, NULL, 'S' },
		{ "kek", required_argument, NULL, 'k' },
		{ "signing-key", required_argument, NULL, 'K' },
		{ "rtm-apps", required_argument, NULL, 'a' },
		{ "rtm-root", required_argument, NULL, 'r' },
		{ "ear-key", required_argument, NULL, 'e' },
		ARA_CLI_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	char why[PATH_MAX + 64];
	int c;

	while ((c = getopt_long(argc, argv, ":hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': o->config = optarg; break;
		case 'p': o->policy = optarg; break;
		case 'l': o->log = optarg; break;
		case 'a': o->rtm_apps = optarg; break;
		case 'r': o->rtm_root = optarg; break;
		case 'e': o->ear_key = optarg; break;
		case 'S': o->store = optarg; break;
		case 'k': o->kek = optarg; break;
		case 'K': o->signing_key = optarg; break;
		case 'u':
		case 't':
			if (o->n_listen == ARA_CONFIG_LISTENERS_MAX)
				ara_usage_error("at most %d listeners", ARA_CONFIG_LISTENERS_MAX);
			if (ara_config_listener(c == 'u' ? "unix" : "tcp", optarg,
						&o->listen[o->n_listen], why, sizeof(why)))
				ara_usage_error("--%s", why);
			o->n_listen++;
			break;
		case 's': o->sessions = ara_cli_number("--sessions", optarg, 1, UINT32_MAX); break;
		default: ara_cli_option(c, argv, usage_text);
		}
	}
	if (optind != argc)
		ara_usage_error("unexpected argument '%s'", argv[optind]);
	if (!o->policy && !o->config)
		ara_usage_error("--policy or --config is needed");
}

/* The configuration: defaults, the file, then the command line (server.h). */
static int configure(void *arg, struct ara_config *c, char *why, size_t cap)
{
	const struct options *o = arg;
	char msg[PATH_MAX + 256];
	int r;

	ara_config_defaults(c);
	if (o->config && (r = ara_config_load(o->config, c, msg, sizeof(msg))) != 0) {
		snprintf(why, cap, "config %s", msg);
		return r;
	}
	if (o->policy)
		snprintf(c->policy, sizeof(c->policy), "%s", o->policy);
	if (o->log)
		snprintf(c->log, sizeof(c->log), "%s", o->log);
	if (o->store)
		snprintf(c->store, sizeof(c->store), "%s", o->store);
	if (o->kek)
		snprintf(c->kek, sizeof(c->kek), "%s", o->kek);
	if (o->signing_key)
		snprintf(c->signing_key, sizeof(c->signing_key), "%s", o->signing_key);
	if (o->rtm_apps)
		snprintf(c->rtm_apps, sizeof(c->rtm_apps), "%s", o->rtm_apps);
	if (o->rtm_root)
		snprintf(c->rtm_root, sizeof(c->rtm_root), "%s", o->rtm_root);
	if (o->ear_key)
		snprintf(c->ear_key, sizeof(c->ear_key), "%s", o->ear_key);
	if (o->n_listen) {
		memcpy(c->listen, o->listen, sizeof(c->listen));
		c->n_listen = o->n_listen;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct options o;
	struct ara_server_options so = { configure, &o, 0 };

	ara_cli_init("ara-provision");
	/* An operator command over the store (admin.h), or the service. */
	if (argc > 1 && ara_admin_is_command(argv[1]))
		return ara_admin_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "serve") == 0) {
		argv[1] = argv[0];
		argc--;
		argv++;
	} else if (argc > 1 && argv[1][0] != '-') {
		ara_usage_error("unknown command '%s'", argv[1]);
	}
	parse_options(argc, argv, &o);
	/* The secrets are in this process from here on: no core dumps of it. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		ara_die(EXIT_SYSTEM, "prctl(PR_SET_DUMPABLE): %s", strerror(errno));
	so.sessions = o.sessions;
	return ara_server_run(&so);
}
