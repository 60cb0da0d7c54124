/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An App instrumented for the RTM that submits its run's evidence to the
 * provisioning service with ara_rtm_submit() (ara/provision_client.h).
 * tests/provision/provision.sh runs it against ara-provision serve.
 *
 *   rtm_submit_app SOCK genuine   the report as ARA signs it
 *   rtm_submit_app SOCK tamper    one byte of the signed report changed
 *                                 by the App before it goes out
 *   rtm_submit_app SOCK fetch NAME  a provisioning session for the secret
 *                                 NAME (ara_provision_fetch)
 *
 * Before it submits, the App makes a few indirect calls (each logged).
 * The report is not marked final: the run goes on after it (returns from
 * instrumented code), which a closed log would end. Sealed segments, if
 * any, are read from the file ARA_RTM_SEGMENTS names.
 *
 * Prints "rtm-submit-app: accepted|rejected (TEXT)" and "rtm-submit-app:
 * ear BYTES", "rtm-submit-app: delivered", or "rtm-submit-app: refused
 * CODE (TEXT)"; exit 0, or 1 if the session failed (the status printed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ara/provision_client.h"
#include "ara/rtm_runtime.h"

typedef unsigned (*step_fn)(unsigned);

static unsigned twice(unsigned x) { return 2 * x; }
static unsigned plus_three(unsigned x) { return x + 3; }

/* volatile: each call loads its target, so none is folded into a constant. */
static step_fn volatile steps[] = { twice, plus_three, twice };

/* The App's own work: indirect calls (and their returns) the RTM logs. */
static unsigned work(unsigned x)
{
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		x = steps[i](x);
	return x;
}

/* A compromised App's report: ARA's, with its last byte changed. */
static int tampered_report(const uint8_t nonce[ARA_RTM_NONCE_BYTES], void *out, uint32_t cap,
			   uint32_t *len)
{
	int st = ara_rtm_report(nonce, out, cap, len);

	if (st == ARA_OK && *len > 0)
		((uint8_t *)out)[*len - 1] ^= 0x01;
	return st;
}

static int connect_unix(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || strlen(path) >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, path, strlen(path));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The session of the mode; ARA_OK, or its status. */
static int session(int fd, char **argv, struct ara_provision_refusal *why)
{
	static struct ara_rtm_verdict verdict;
	uint32_t handle;
	int st;

	if (strcmp(argv[2], "fetch") == 0) {
		st = ara_provision_fetch(fd, argv[3], &handle, why);
		if (st == ARA_OK)
			printf("rtm-submit-app: delivered\n");
		return st;
	}
	st = ara_rtm_submit(fd, strcmp(argv[2], "tamper") == 0 ? tampered_report : ara_rtm_report,
			    getenv("ARA_RTM_SEGMENTS"), &verdict, why);
	if (st == ARA_OK) {
		printf("rtm-submit-app: %s (%s)\n", verdict.accepted ? "accepted" : "rejected",
		       verdict.text);
		printf("rtm-submit-app: ear %zu\n", strlen(verdict.ear));
	}
	return st;
}

int main(int argc, char **argv)
{
	struct ara_provision_refusal why;
	int fd, st;

	if (!(argc == 3 && (strcmp(argv[2], "genuine") == 0 || strcmp(argv[2], "tamper") == 0)) &&
	    !(argc == 4 && strcmp(argv[2], "fetch") == 0)) {
		fprintf(stderr, "usage: rtm_submit_app SOCK genuine|tamper|fetch NAME\n");
		return 2;
	}
	printf("rtm-submit-app: work %u\n", work(4));
	fd = connect_unix(argv[1]);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	st = session(fd, argv, &why);
	close(fd);
	if (st == ARA_E_REFUSED) {
		printf("rtm-submit-app: refused %u (%s)\n", why.code, why.text);
		return 0;
	}
	if (st != ARA_OK) {
		printf("rtm-submit-app: the session failed: %s\n", ara_strerror(st));
		return 1;
	}
	return 0;
}
