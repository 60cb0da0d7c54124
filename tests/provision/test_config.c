/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The service's configuration file (services/provision/server/config.c):
 * a whole file read, then each refusal of its grammar, the running values
 * untouched by a refused file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"

static struct ara_config config;

static int parse(const char *text, size_t len, char *why, size_t cap)
{
	return ara_config_parse("/etc/ara/provision.conf", text, len, &config, why, cap);
}

static void refused(const char *text, size_t len, const char *phrase)
{
	struct ara_config before;
	char why[512] = "";

	ara_config_defaults(&config);
	before = config;
	assert_int_equal(parse(text, len, why, sizeof(why)), -1);
	if (!strstr(why, phrase))
		fail_msg("'%s' lacks '%s'", why, phrase);
	assert_memory_equal(&config, &before, sizeof(config));
}

#define REFUSED(text, phrase) refused(text, sizeof(text) - 1, phrase)

static void a_whole_file(void **state)
{
	static const char text[] = "# the service\n"
				   "policy policy\n"
				   "listen unix /run/ara/provision.sock\n"
				   "listen\ttcp 127.0.0.1:7070\n"
				   "log /var/log/ara.log\n"
				   "workers 4\n"
				   "max-connections 100\n"
				   "max-per-peer 8\n"
				   "max-message 4096\n"
				   "max-buffered 1048576\n"
				   "deadline 10\n"
				   "stop-grace 0   \n"
				   "\n";
	char why[512] = "";

	(void)state;
	ara_config_defaults(&config);
	assert_int_equal(parse(text, sizeof(text) - 1, why, sizeof(why)), 0);
	assert_string_equal(config.policy, "/etc/ara/policy"); /* relative to the file */
	assert_int_equal(config.n_listen, 2);
	assert_false(config.listen[0].tcp);
	assert_string_equal(config.listen[0].spec, "/run/ara/provision.sock");
	assert_true(config.listen[1].tcp);
	assert_string_equal(config.listen[1].spec, "127.0.0.1:7070");
	assert_string_equal(config.log, "/var/log/ara.log");
	assert_int_equal(config.workers, 4);
	assert_int_equal(config.max_connections, 100);
	assert_int_equal(config.max_per_peer, 8);
	assert_int_equal(config.max_message, 4096);
	assert_int_equal(config.max_buffered, 1048576);
	assert_int_equal(config.deadline, 10);
	assert_int_equal(config.stop_grace, 0);
}

static void refusals(void **state)
{
	(void)state;
	REFUSED("policy a\nmax-age 5\n", ":2: unknown directive 'max-age'");
	REFUSED("deadline 5\ndeadline 60\n", ":2: deadline given twice");
	REFUSED("policy a\npolicy b\n", ":2: policy given twice");
	REFUSED("policy a\nlog b\nlog c\n", ":3: log given twice");
	REFUSED("policy a\n\0policy b\n", ":2: a NUL byte");
	REFUSED("deadline 0\n", "deadline: '0' is not a number in 1..3600");
	REFUSED("workers 65\n", "workers: '65' is not a number in 1..64");
	REFUSED("workers 4x\n", "workers: '4x' is not a number");
	REFUSED("max-message 99999999\n", "max-message: '99999999' is not a number");
	REFUSED("policy\n", ":1: policy: a value is needed");
	REFUSED("policy a b\n", "policy: one value expected, not 'a b'");
	REFUSED("listen udp 1.2.3.4:5\n", "listen udp: expected 'unix PATH' or 'tcp HOST:PORT'");
	REFUSED("listen tcp localhost:5\n", "tcp localhost:5: expected HOST:PORT");
	REFUSED("listen unix\n", "listen: expected 'unix PATH' or 'tcp HOST:PORT'");
	REFUSED("listen unix a\nlisten unix b\nlisten unix c\nlisten unix d\nlisten unix e\n"
		"listen unix f\nlisten unix g\nlisten unix h\nlisten unix i\n",
		":9: at most 8 listen lines");
}

static void a_long_line_is_refused(void **state)
{
	char text[2100];

	(void)state;
	memset(text, 'a', sizeof(text));
	memcpy(text, "policy ", 7);
	refused(text, sizeof(text), ":1: line over 1024 bytes");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_whole_file),
		cmocka_unit_test(refusals),
		cmocka_unit_test(a_long_line_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
