/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The case study's IPC baseline (docs/rtm.md, "The case study"): the
 * logger (ipc_logger.c) logs, acknowledges and chains every entry as DOM0
 * chains segments, and refuses a torn stream; the hooks (ipc_hooks.c, in
 * the program ipc_producer given as argv[1]) hand every transfer off and
 * the summary counts them, and a hand-off that breaks ends the process
 * with ARA_RTM_EXIT_NO_EVIDENCE.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ara/rtm.h"
#include "ara/rtm_runtime.h"
#include "chain.h"
#include "ipc_logger.h"

static const char *producer; /* argv[1] */

static uint64_t entry_at(uint64_t i)
{
	return ara_rtm_entry(ARA_RTM_RET, (void *)(uintptr_t)(0x400000u + 8 * i));
}

/*
 * A segment and three entries, sent in batches of up to 512 (as threads
 * sharing the socket would), each batch waiting for its acknowledgements:
 * every entry acknowledged once, two segments chained (the second
 * zero-padded).
 */
static void logs_acks_and_chains(void **state)
{
	const uint64_t n = ARA_RTM_SEGMENT_ENTRIES + 3;
	uint8_t run_id[ARA_RTM_HASH_BYTES], want[ARA_RTM_HASH_BYTES];
	struct ara_rtm_ipc_log log;
	uint64_t *seg = calloc(ARA_RTM_SEGMENT_ENTRIES, sizeof(*seg));
	int sv[2], status;
	pid_t pid;

	(void)state;
	assert_non_null(seg);
	memset(run_id, 0x5a, sizeof(run_id));
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		uint64_t batch[512];
		char acks[512];

		close(sv[1]);
		for (uint64_t i = 0; i < n;) {
			size_t k = 0, got = 0;

			for (; k < 512 && i < n; k++, i++)
				batch[k] = entry_at(i);
			if (send(sv[0], batch, k * sizeof(batch[0]), 0) != (ssize_t)(k * sizeof(batch[0])))
				_exit(1);
			while (got < k) {
				ssize_t r = recv(sv[0], acks, k - got, 0);

				if (r <= 0)
					_exit(1);
				got += (size_t)r;
			}
		}
		shutdown(sv[0], SHUT_WR);
		_exit(recv(sv[0], acks, 1, 0) == 0 ? 0 : 2); /* no acknowledgement too many */
	}
	close(sv[0]);
	assert_int_equal(ara_rtm_ipc_serve(sv[1], run_id, &log), 0);
	close(sv[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(log.entries, n);
	assert_int_equal(log.segments, 2);

	assert_int_equal(ara_rtm_chain_start(run_id, want), 0);
	for (uint64_t i = 0; i < ARA_RTM_SEGMENT_ENTRIES; i++)
		seg[i] = entry_at(i);
	assert_int_equal(ara_rtm_chain_step(want, (const uint8_t *)seg), 0);
	memset(seg, 0, ARA_RTM_SEGMENT_BYTES);
	for (uint64_t i = 0; i < 3; i++)
		seg[i] = entry_at(ARA_RTM_SEGMENT_ENTRIES + i);
	assert_int_equal(ara_rtm_chain_step(want, (const uint8_t *)seg), 0);
	assert_memory_equal(log.chain, want, sizeof(want));
	free(seg);
}

/* A stream that ends inside an entry is an error, not a shorter log. */
static void refuses_a_torn_entry(void **state)
{
	uint8_t run_id[ARA_RTM_HASH_BYTES] = { 0 };
	struct ara_rtm_ipc_log log;
	uint64_t two[2] = { entry_at(0), entry_at(1) };
	char ack;
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(send(sv[0], two, 12, 0), 12);
	assert_int_equal(shutdown(sv[0], SHUT_WR), 0);
	assert_int_equal(ara_rtm_ipc_serve(sv[1], run_id, &log), -1);
	assert_int_equal(errno, EPROTO);
	assert_int_equal(log.entries, 1);
	assert_int_equal(recv(sv[0], &ack, 1, 0), 1); /* the whole entry was acknowledged */
	close(sv[0]);
	close(sv[1]);
}

/* Runs ipc_producer with args; its exit status (-1: not an exit) and stderr in err. */
static int run_producer(const char *summary, char *const args[], char *err, size_t cap)
{
	int fds[2], status;
	size_t len = 0;
	ssize_t got;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (dup2(fds[1], STDERR_FILENO) < 0 || setenv("ARA_RTM_IPC_SUMMARY", summary, 1))
			_exit(120);
		close(fds[0]);
		close(fds[1]);
		execv(producer, args);
		_exit(121);
	}
	close(fds[1]);
	while (len < cap - 1 && (got = read(fds[0], err + len, cap - 1 - len)) > 0)
		len += (size_t)got;
	err[len] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Every transfer reaches the logger before the producer's exit, which waits for its summary. */
static void hooks_hand_off_every_transfer(void **state)
{
	char summary[] = "/tmp/test_ipc_summary_XXXXXX", err[1024], text[256] = "";
	char *args[] = { (char *)producer, "count", "100", NULL };
	int fd = mkstemp(summary);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(run_producer(summary, args, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	f = fopen(summary, "r");
	assert_non_null(f);
	assert_int_equal(fread(text, 1, sizeof(text) - 1, f) > 0, 1);
	fclose(f);
	unlink(summary);
	assert_int_equal(strncmp(text, "entries 300\nsegments 1\nchain ", 29), 0);
	assert_int_equal(strlen(text), 29 + 2 * ARA_RTM_HASH_BYTES + 1);
}

/* A logger gone mid-run ends the producer at its next transfer, saying why. */
static void hooks_fail_closed(void **state)
{
	char err[1024];
	char *args[] = { (char *)producer, "cut", NULL };

	(void)state;
	assert_int_equal(run_producer("/dev/null", args, err, sizeof(err)), ARA_RTM_EXIT_NO_EVIDENCE);
	assert_non_null(strstr(err, "ara-rtm-ipc: sending an entry to the logger: "));
	assert_non_null(strstr(err, "ending the process"));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(logs_acks_and_chains),
		cmocka_unit_test(refuses_a_torn_entry),
		cmocka_unit_test(hooks_hand_off_every_transfer),
		cmocka_unit_test(hooks_fail_closed),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: test_ipc PATH_OF_ipc_producer\n");
		return 2;
	}
	producer = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
