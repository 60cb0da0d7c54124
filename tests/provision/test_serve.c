/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The service (services/provision/server/server.c) run as a program,
 * ara-provision serve, against the device's test double over its Unix
 * socket. What is checked is order and counts, never speed: fast sessions
 * complete while a stalled and a trickling one are held open, and those
 * two end at their deadline after the fast ones (the log's order); limits
 * refuse with a log line; SIGTERM removes the socket and a restart serves;
 * SIGHUP takes a new policy and keeps the old one over a bad file, and
 * takes the RTM reports' files the same way; systemd
 * hears READY, RELOADING and STOPPING, and its socket activation serves. Timeouts here only end a test that
 * hangs.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "device_double.h"
#include "sockio.h"
#include "wire.h"

#define FAST_SESSIONS 20
#define DEADLINE 6 /* s: the stalled peers' */
#define HANG_S 60  /* s: a wait longer than this is a hung test */

static char dir[32], sock_path[64], log_path[64], config_path[64], policy_path[64],
	secrets_path[64], notify_path[64];
static pid_t server;
static int notify_fd = -1;

static void write_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
}

static void write_text(const char *path, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void write_text(const char *path, const char *fmt, ...)
{
	char text[2048];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < sizeof(text));
	write_file(path, text, (size_t)n);
}

/* The digests the double attests: loader 01..., libara 02..., entry 03..., app 04.... */
static const struct ara_wire_digests *digests(void)
{
	static struct ara_wire_digests d;

	memset(d.loader, 1, 32);
	memset(d.libara, 2, 32);
	memset(d.entry, 3, 32);
	memset(d.app, 4, 32);
	return &d;
}

#define HEX32(b) b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b

/* A policy that accepts the double, holding one secret of that name. */
static void write_policy(const char *secret)
{
	write_text(secrets_path, "%s %s\n", secret, HEX32("77"));
	write_text(policy_path,
		   "backend dev-insecure\nmax-age 300\nloader %s\nlibara %s\nentry %s\napp %s\n"
		   "secrets %s\n",
		   HEX32("01"), HEX32("02"), HEX32("03"), HEX32("04"), secrets_path);
}

static void write_config(const char *extra)
{
	write_text(config_path,
		   "# test_serve\npolicy %s\nlisten unix %s\nlog %s\ndeadline %d\n"
		   "stop-grace 1\nworkers 2\n%s",
		   policy_path, sock_path, log_path, DEADLINE, extra);
}

static char *read_log(void)
{
	static char text[1 << 20];
	FILE *f = fopen(log_path, "r");
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;

	if (f)
		fclose(f);
	text[n] = '\0';
	return text;
}

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Waits (up to HANG_S) for the log to hold needle n times. */
static void wait_log(const char *needle, int n)
{
	for (int i = 0; i < HANG_S * 20; i++) {
		if (count(read_log(), needle) >= n)
			return;
		usleep(50000);
	}
	fail_msg("the log never had %d x '%s':\n%s", n, needle, read_log());
}

static void start_server(void)
{
	server = fork();
	assert_true(server >= 0);
	if (server == 0) {
		setenv("NOTIFY_SOCKET", notify_path, 1);
		setenv("ARA_PROVISION_STATE", dir, 1); /* its default store and KEK: the case's */
		execl(ARA_PROVISION, ARA_PROVISION, "serve", "--config", config_path, (char *)NULL);
		_exit(127);
	}
	wait_log("\"event\":\"listening\"", 1);
}

/* The server's exit status, waiting for it (up to HANG_S). */
static int wait_server(void)
{
	int status = 0;

	for (int i = 0; i < HANG_S * 20; i++) {
		if (waitpid(server, &status, WNOHANG) == server) {
			server = 0;
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		}
		usleep(50000);
	}
	fail_msg("ara-provision did not exit; its log:\n%s", read_log());
	return -1;
}

/* The next readiness message to systemd, or "" (none within HANG_S). */
static const char *notified(void)
{
	static char msg[256];
	ssize_t n = recv(notify_fd, msg, sizeof(msg) - 1, 0);

	msg[n > 0 ? n : 0] = '\0';
	return msg;
}

/* Connected to the service, with a receive timeout that ends a hung test. */
static int connect_server(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = HANG_S };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock_path);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
	return fd;
}

/* Connected and past the CHALLENGE (into challenge, if given). */
static int open_session(uint8_t challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE])
{
	uint8_t buf[ARA_WIRE_HEADER + ARA_WIRE_NONCE];
	int fd = connect_server();

	assert_int_equal(ara_recv_exact(fd, buf, sizeof(buf)), 0);
	if (challenge)
		memcpy(challenge, buf, sizeof(buf));
	return fd;
}

/* The reply's type (DELIVER or REFUSE), or 0 if the connection just ended. */
static int reply_type(int fd)
{
	uint8_t header[ARA_WIRE_HEADER], type, body[2048];
	size_t total;

	if (ara_recv_exact(fd, header, sizeof(header)) ||
	    ara_wire_peek(header, sizeof(header), &type, &total) != ARA_WIRE_OK)
		return 0;
	assert_true(total - sizeof(header) <= sizeof(body));
	assert_int_equal(ara_recv_exact(fd, body, total - sizeof(header)), 0);
	return type;
}

/* One whole session asking for name: the reply's type. */
static int session(const char *name)
{
	uint8_t challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE], attest[2048];
	struct device_double d;
	size_t len;
	int fd = open_session(challenge), type;

	assert_int_equal(device_double_attest(&d, digests(), name, (uint64_t)time(NULL), challenge,
					      sizeof(challenge), attest, sizeof(attest), &len),
			 0);
	assert_int_equal(ara_send_all(fd, attest, len), 0);
	type = reply_type(fd);
	close(fd);
	return type;
}

/* 1 if the service has closed fd (EOF or a reply waiting), 0 if it is open. */
static int closed_by_server(int fd)
{
	uint8_t b;
	ssize_t n = recv(fd, &b, 1, MSG_DONTWAIT | MSG_PEEK);

	return !(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));
}

static int setup(void **state)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = HANG_S };

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_serve.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(sock_path, sizeof(sock_path), "%s/sock", dir);
	snprintf(log_path, sizeof(log_path), "%s/log", dir);
	snprintf(config_path, sizeof(config_path), "%s/config", dir);
	snprintf(policy_path, sizeof(policy_path), "%s/policy", dir);
	snprintf(secrets_path, sizeof(secrets_path), "%s/secrets", dir);
	snprintf(notify_path, sizeof(notify_path), "%s/notify", dir);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", notify_path);
	notify_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	assert_int_equal(bind(notify_fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(setsockopt(notify_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
	write_policy("media-key");
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	if (server > 0) {
		kill(server, SIGKILL);
		waitpid(server, NULL, 0);
	}
	close(notify_fd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

/*
 * A stalled peer (the CHALLENGE read, nothing sent) and a trickling one (a
 * byte after each fast session) are open while FAST_SESSIONS sessions are
 * delivered; then both end at their deadline, after every delivery.
 */
static void stalled_and_trickling_delay_no_one(void **state)
{
	uint8_t challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE], attest[2048];
	struct device_double d;
	const char *log, *last_delivery;
	size_t len;
	int stalled, trickling;

	(void)state;
	write_config("");
	start_server();
	assert_string_equal(notified(), "READY=1");
	stalled = open_session(NULL);
	trickling = open_session(challenge);
	assert_int_equal(device_double_attest(&d, digests(), "media-key", (uint64_t)time(NULL),
					      challenge, sizeof(challenge), attest, sizeof(attest),
					      &len),
			 0);
	for (int i = 0; i < FAST_SESSIONS; i++) {
		assert_int_equal(session("media-key"), ARA_WIRE_DELIVER);
		assert_int_equal(ara_send_all(trickling, attest + i, 1), 0);
	}
	/* Every fast session done, and the slow two still held: none waited for them. */
	assert_int_equal(closed_by_server(stalled), 0);
	assert_int_equal(closed_by_server(trickling), 0);
	/* Then each ends at its deadline, with a REFUSE. */
	assert_int_equal(reply_type(stalled), ARA_WIRE_REFUSE);
	assert_int_equal(reply_type(trickling), ARA_WIRE_REFUSE);
	close(stalled);
	close(trickling);
	wait_log("the deadline passed", 2);
	log = read_log();
	assert_int_equal(count(log, "\"decision\":\"delivered\""), FAST_SESSIONS);
	last_delivery = log;
	for (const char *p = log; (p = strstr(p, "\"decision\":\"delivered\"")); p++)
		last_delivery = p;
	assert_true(strstr(log, "the deadline passed: 0 of the header's bytes") > last_delivery);
	assert_true(strstr(log, "the deadline passed: 20 of its bytes") > last_delivery);
	kill(server, SIGTERM);
	assert_int_equal(wait_server(), 0);
	assert_string_equal(notified(), "STOPPING=1");
}

/* max-per-peer, max-message: refused, each with its log line; the service lives on. */
static void limits_refuse_with_a_log_line(void **state)
{
	int a, b, c;

	(void)state;
	write_config("max-per-peer 2\nmax-message 200\n");
	start_server();
	assert_string_equal(notified(), "READY=1");
	a = open_session(NULL);
	b = open_session(NULL);
	c = connect_server();
	assert_int_equal(reply_type(c), 0); /* closed, no CHALLENGE */
	close(c);
	wait_log("max-per-peer reached for this peer", 1);
	assert_non_null(strstr(read_log(), "\"event\":\"limit\""));
	close(a);
	close(b);
	wait_log("the peer sent 0 bytes and closed", 2);
	/* The double's ATTEST is over 200 bytes. */
	assert_int_equal(session("media-key"), ARA_WIRE_REFUSE);
	wait_log("over max-message 200", 1);
	kill(server, SIGTERM);
	assert_int_equal(wait_server(), 0);
	assert_string_equal(notified(), "STOPPING=1");
}

/*
 * max-connections; max-buffered, held by a peer that sent an ATTEST's
 * header only (its whole length is reserved then).
 */
static void connections_and_bytes_held_are_limited(void **state)
{
	uint8_t challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE] = { 0 }, attest[2048];
	struct device_double d;
	char extra[128];
	size_t len;
	int holding, c;

	(void)state;
	/* The double's ATTEST's length, for the byte limit: one fits, two do not. */
	assert_int_equal(device_double_attest(&d, digests(), "media-key", 0, challenge,
					      sizeof(challenge), attest, sizeof(attest), &len),
			 0);
	snprintf(extra, sizeof(extra), "max-connections 2\nmax-buffered %zu\n", len + len / 2);
	write_config(extra);
	start_server();
	assert_string_equal(notified(), "READY=1");
	holding = open_session(challenge);
	assert_int_equal(ara_send_all(holding, attest, ARA_WIRE_HEADER), 0);
	assert_int_equal(session("media-key"), ARA_WIRE_REFUSE);
	wait_log("limit: max-buffered", 1);
	c = open_session(NULL); /* the second connection */
	assert_int_equal(reply_type(connect_server()), 0); /* a third: closed at once */
	wait_log("max-connections reached", 1);
	close(c);
	close(holding);
	wait_log("the peer sent 0 bytes and closed", 1);
	assert_int_equal(session("media-key"), ARA_WIRE_DELIVER);
	kill(server, SIGTERM);
	assert_int_equal(wait_server(), 0);
}

/*
 * SIGTERM ends a stalled session at once (stop-grace 1 s), exits 0 and
 * removes the socket; a restart on the same path serves; after a kill -9
 * the stale socket file does not stop the next start.
 */
static void sigterm_removes_the_socket_and_restart_works(void **state)
{
	struct stat st;
	int stalled;

	(void)state;
	write_config("");
	start_server();
	assert_string_equal(notified(), "READY=1");
	stalled = open_session(NULL);
	kill(server, SIGTERM);
	assert_int_equal(reply_type(stalled), ARA_WIRE_REFUSE);
	close(stalled);
	assert_int_equal(wait_server(), 0);
	assert_string_equal(notified(), "STOPPING=1");
	assert_non_null(strstr(read_log(), "the provisioner is stopping"));
	assert_int_equal(stat(sock_path, &st), -1);
	start_server();
	assert_string_equal(notified(), "READY=1");
	assert_int_equal(session("media-key"), ARA_WIRE_DELIVER);
	kill(server, SIGKILL);
	assert_int_equal(wait_server(), 128 + SIGKILL);
	assert_int_equal(stat(sock_path, &st), 0); /* left behind */
	unlink(log_path);
	start_server();
	assert_string_equal(notified(), "READY=1");
	assert_int_equal(session("media-key"), ARA_WIRE_DELIVER);
	kill(server, SIGTERM);
	assert_int_equal(wait_server(), 0);
	assert_string_equal(notified(), "STOPPING=1");
}

/* SIGHUP: a new policy is served; a bad policy or configuration keeps the running one. */
static void sighup_reloads_and_keeps_the_old_on_a_bad_file(void **state)
{
	static const char nul_policy[] = "backend dev-insecure\nmax-age 300\0max-age 86400\n";

	(void)state;
	write_policy("media-key");
	write_config("");
	start_server();
	assert_string_equal(notified(), "READY=1");
	assert_int_equal(session("new-key"), ARA_WIRE_REFUSE);
	write_policy("new-key");
	kill(server, SIGHUP);
	assert_int_equal(strncmp(notified(), "RELOADING=1\nMONOTONIC_USEC=", 27), 0);
	assert_string_equal(notified(), "READY=1");
	wait_log("loaded", 1);
	assert_int_equal(session("new-key"), ARA_WIRE_DELIVER);
	/* A policy with a NUL: refused whole, the running policy kept. */
	write_file(policy_path, nul_policy, sizeof(nul_policy) - 1);
	kill(server, SIGHUP);
	wait_log("refused, the running policy kept", 1);
	assert_int_equal(session("new-key"), ARA_WIRE_DELIVER);
	/* A configuration with a directive twice: refused, the running one kept. */
	write_policy("newer-key");
	write_config("deadline 5\n");
	kill(server, SIGHUP);
	wait_log("deadline given twice", 1);
	assert_int_equal(session("new-key"), ARA_WIRE_DELIVER);
	assert_int_equal(session("newer-key"), ARA_WIRE_REFUSE);
	kill(server, SIGTERM);
	assert_int_equal(wait_server(), 0);
}

/* A REPORT whose parts are no ATTEST and no RTM report: the reply's type. */
static int report_session(void)
{
	static const uint8_t part[] = { 0 };
	struct ara_wire_report r = { part, sizeof(part), part, sizeof(part), NULL, 0 };
	uint8_t msg[64];
	size_t len;
	int fd = open_session(NULL), type;

	assert_int_equal(ara_wire_encode_report(&r, msg, sizeof(msg), &len), ARA_WIRE_OK);
	assert_int_equal(ara_send_all(fd, msg, len), 0);
	type = reply_type(fd);
	close(fd);
	return type;
}

/* The EAR key's prefix the n-th "reports" event names ("" if it names none). */
static const char *ear_key_named(int n)
{
	static char key[16];
	const char *p = read_log(), *k;

	for (int i = 0; i < n && p; i++)
		if ((p = strstr(p, "\"event\":\"reports\"")))
			p++;
	k = p ? strstr(p, "EARs signed by key ") : NULL;
	key[0] = '\0';
	if (k && k < strchr(p, '\n'))
		snprintf(key, sizeof(key), "%.8s", k + strlen("EARs signed by key "));
	return key;
}

/* SIGHUP, and the reload heard through to its end (systemd's notifications read). */
static void hup(void)
{
	kill(server, SIGHUP);
	assert_int_equal(strncmp(notified(), "RELOADING=1\n", 12), 0);
	assert_string_equal(notified(), "READY=1");
}

/*
 * rtm-apps, rtm-root and ear-key are read with the policy: a SIGHUP takes
 * them (a REPORT passes the header check or not, the EAR key named is the
 * new file's), and a bad key file or an rtm-apps that is no directory
 * keeps the running ones, with the log saying why.
 */
static void sighup_reloads_the_rtm_report_files(void **state)
{
	char apps[64], key1[64], key2[64], bad[64], pub[64], cmd[512], extra[512];
	char first[16];

	(void)state;
	snprintf(apps, sizeof(apps), "%s/apps", dir);
	snprintf(key1, sizeof(key1), "%s/ear1.pem", dir);
	snprintf(key2, sizeof(key2), "%s/ear2.pem", dir);
	snprintf(bad, sizeof(bad), "%s/bad.pem", dir);
	snprintf(pub, sizeof(pub), "%s/pub.pem", dir);
	assert_int_equal(mkdir(apps, 0700), 0);
	snprintf(cmd, sizeof(cmd), "%s %s %s && %s %s %s", P256_KEYGEN, key1, pub, P256_KEYGEN,
		 key2, pub);
	assert_int_equal(system(cmd), 0);
	write_text(bad, "not a key\n");
	write_config("");
	start_server();
	assert_string_equal(notified(), "READY=1");
	wait_log("RTM reports refused (no rtm-apps)", 1);
	assert_int_equal(report_session(), ARA_WIRE_REFUSE);
	wait_log("bad header (not an ATTEST)", 1);

	snprintf(extra, sizeof(extra), "rtm-apps %s\nrtm-root %s\near-key %s\n", apps, dir, key1);
	write_config(extra);
	hup();
	wait_log("RTM reports verified", 1);
	snprintf(first, sizeof(first), "%s", ear_key_named(2));
	assert_int_equal(strlen(first), 8);
	assert_int_equal(report_session(), ARA_WIRE_REFUSE);
	wait_log("\"session\":2,", 1);
	assert_int_equal(count(read_log(), "bad header"), 1); /* past the header: decided */

	snprintf(extra, sizeof(extra), "rtm-apps %s\near-key %s\n", apps, key2);
	write_config(extra);
	hup();
	wait_log("RTM reports verified", 2);
	assert_int_equal(strlen(ear_key_named(3)), 8);
	assert_string_not_equal(ear_key_named(3), first);
	assert_int_equal(count(read_log(), "other modules at their own paths"), 1);

	/* A key file that is no key, an rtm-apps that is no directory: nothing changes. */
	snprintf(extra, sizeof(extra), "rtm-apps %s\near-key %s\n", apps, bad);
	write_config(extra);
	hup();
	wait_log("refused, the running policy kept: ear-key", 1);
	snprintf(extra, sizeof(extra), "rtm-apps %s\n", key1);
	write_config(extra);
	hup();
	wait_log("not a directory", 1);
	assert_int_equal(count(read_log(), "\"event\":\"reports\""), 3);
	assert_int_equal(report_session(), ARA_WIRE_REFUSE);
	wait_log("\"session\":3,", 1);
	assert_int_equal(count(read_log(), "bad header"), 1);

	/* Without rtm-apps: REPORTs refused at their header again. */
	write_config("");
	hup();
	wait_log("RTM reports refused (no rtm-apps)", 2);
	assert_int_equal(report_session(), ARA_WIRE_REFUSE);
	wait_log("bad header (not an ATTEST)", 2);
	kill(server, SIGTERM);
	assert_int_equal(wait_server(), 0);
}

/*
 * Socket activation: a listening socket on fd 3 with LISTEN_PID and
 * LISTEN_FDS, as systemd passes it, is served; its file is systemd's and
 * stays after SIGTERM.
 */
static void socket_activation_serves_and_leaves_the_file(void **state)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	char pid[16];
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	(void)state;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock_path);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(fd, 16), 0);
	/* No listen line: the service has systemd's socket only. */
	write_text(config_path, "policy %s\nlog %s\n", policy_path, log_path);
	server = fork();
	assert_true(server >= 0);
	if (server == 0) {
		if (dup2(fd, 3) != 3)
			_exit(127);
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		setenv("LISTEN_PID", pid, 1);
		setenv("LISTEN_FDS", "1", 1);
		setenv("NOTIFY_SOCKET", notify_path, 1);
		setenv("ARA_PROVISION_STATE", dir, 1);
		execl(ARA_PROVISION, ARA_PROVISION, "serve", "--config", config_path, (char *)NULL);
		_exit(127);
	}
	close(fd);
	assert_string_equal(notified(), "READY=1");
	assert_non_null(strstr(read_log(), "\"event\":\"listening\",\"detail\":\"unix "));
	assert_int_equal(session("media-key"), ARA_WIRE_DELIVER);
	kill(server, SIGTERM);
	assert_int_equal(wait_server(), 0);
	assert_int_equal(stat(sock_path, &st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(stalled_and_trickling_delay_no_one, setup, teardown),
		cmocka_unit_test_setup_teardown(limits_refuse_with_a_log_line, setup, teardown),
		cmocka_unit_test_setup_teardown(connections_and_bytes_held_are_limited, setup,
						teardown),
		cmocka_unit_test_setup_teardown(sigterm_removes_the_socket_and_restart_works, setup,
						teardown),
		cmocka_unit_test_setup_teardown(sighup_reloads_and_keeps_the_old_on_a_bad_file,
						setup, teardown),
		cmocka_unit_test_setup_teardown(sighup_reloads_the_rtm_report_files, setup,
						teardown),
		cmocka_unit_test_setup_teardown(socket_activation_serves_and_leaves_the_file, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
