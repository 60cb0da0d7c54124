/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM evidence of a whole run, written at exit, for programs that know
 * nothing of ARA (a third-party program built with the instrumentation).
 *
 * With ARA_RTM_NONCE (the verifier's nonce, 64 hex digits) in the
 * environment, when the program exits the runtime exports the segments
 * still waiting, writes the final report over that nonce to
 * ARA_RTM_REPORT (after it, DOM0 ends the process at any logged transfer:
 * the nonce was known from the start, so only a final report shows the
 * whole run), and
 * writes to ARA_RTM_ATTEST the instance's ATTEST for a CHALLENGE made of
 * the same nonce: the platform evidence binding the instance key, which
 * signs the report, to the measured loader, libara and App
 * (docs/provisioning.md; ara-verify --attest). With ARA_RTM_BATCH=1 as
 * well, batch mode starts over that nonce before main (a checkpoint per
 * sealed segment). Evidence that cannot be
 * written ends the process with ARA_RTM_EXIT_NO_EVIDENCE: a run that
 * cannot be verified must not look like one that can.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/provision.h"
#include "ara/rtm.h"
#include "ara/rtm_runtime.h"
#include "runtime_internal.h"
#include "ara/hex.h"
#include "wire.h"

static int parse_nonce(const char *hex, uint8_t nonce[ARA_RTM_NONCE_BYTES])
{
	return ara_hex_decode(hex, nonce, ARA_RTM_NONCE_BYTES) == ARA_RTM_NONCE_BYTES ? 0 : -1;
}

/* Writes the file the variable names, whole; 0 or -1 (said on stderr). */
static int write_file(const char *var, const uint8_t *data, size_t len)
{
	const char *path = getenv(var);
	int fd;

	if (!path || !*path) {
		ara_rtm_warn(var, "not set, but ARA_RTM_NONCE is: nowhere to write the evidence");
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		ara_rtm_warn(path, strerror(errno));
		return -1;
	}
	while (len > 0) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ara_rtm_warn(path, n < 0 ? strerror(errno) : "short write");
			close(fd);
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	if (close(fd)) {
		ara_rtm_warn(path, strerror(errno));
		return -1;
	}
	return 0;
}

static int write_report(const uint8_t nonce[ARA_RTM_NONCE_BYTES])
{
	uint8_t *report = malloc(ARA_RTM_REPORT_MAX);
	uint32_t len = 0;
	int st, r = -1;

	if (!report) {
		ara_rtm_warn("the report", "out of memory");
		return -1;
	}
	st = ara_rtm_report_final(nonce, report, ARA_RTM_REPORT_MAX, &len);
	if (st != ARA_OK)
		ara_rtm_warn("RTM_REPORT", st == ARA_RTM_IO_ERROR ? "a segment could not be written"
								  : ara_strerror(st));
	else
		r = write_file("ARA_RTM_REPORT", report, len);
	free(report);
	return r;
}

static int write_attest(const uint8_t nonce[ARA_RTM_NONCE_BYTES])
{
	static const char name[] = "ara-rtm";
	uint8_t challenge[64], *attest = malloc(ARA_PROVISION_ATTEST_MAX);
	size_t challenge_len;
	struct ara_provision_begin_arg a = {
		.challenge = (uintptr_t)challenge,
		.name = (uintptr_t)name,
		.attest = (uintptr_t)attest,
		.name_len = sizeof(name) - 1,
		.attest_cap = ARA_PROVISION_ATTEST_MAX,
	};
	int st, r = -1;

	if (!attest) {
		ara_rtm_warn("the attestation", "out of memory");
		return -1;
	}
	if (ara_wire_encode_challenge(nonce, challenge, sizeof(challenge), &challenge_len) !=
	    ARA_WIRE_OK) {
		ara_rtm_warn("the attestation", "cannot encode the CHALLENGE");
	} else {
		a.challenge_len = (uint32_t)challenge_len;
		st = secure_call(ARA_FID_PROVISION_BEGIN, &a);
		if (st != ARA_OK)
			ara_rtm_warn("PROVISION_BEGIN", ara_strerror(st));
		else
			r = write_file("ARA_RTM_ATTEST", attest, a.attest_len);
	}
	free(attest);
	return r;
}

static void write_evidence(void)
{
	const char *hex = getenv("ARA_RTM_NONCE");
	uint8_t nonce[ARA_RTM_NONCE_BYTES];

	if (!hex)
		return;
	if (parse_nonce(hex, nonce)) {
		ara_rtm_warn("ARA_RTM_NONCE", "not 64 hexadecimal digits");
		_exit(ARA_RTM_EXIT_NO_EVIDENCE);
	}
	if (write_report(nonce) || write_attest(nonce))
		_exit(ARA_RTM_EXIT_NO_EVIDENCE);
}

/*
 * With ARA_RTM_BATCH=1 too: batch mode over the same nonce from the start,
 * a signed checkpoint per sealed segment (to ARA_RTM_CHECKPOINTS).
 */
static void start_batch(void)
{
	uint8_t nonce[ARA_RTM_NONCE_BYTES];
	int st;

	if (parse_nonce(getenv("ARA_RTM_NONCE"), nonce)) {
		ara_rtm_warn("ARA_RTM_NONCE", "not 64 hexadecimal digits");
		_exit(ARA_RTM_EXIT_NO_EVIDENCE);
	}
	if ((st = ara_rtm_batch(nonce)) != ARA_OK) {
		ara_rtm_warn("RTM_BATCH", ara_strerror(st));
		_exit(ARA_RTM_EXIT_NO_EVIDENCE);
	}
}

static pid_t evidence_pid; /* the process the evidence is of */

/*
 * Nothing calls it by name: the runtime is one object (AraPrelink.cmake),
 * which any hook an App uses brings whole.
 */
__attribute__((constructor)) static void exit_evidence_register(void)
{
	const char *batch = getenv("ARA_RTM_BATCH");

	evidence_pid = getpid();
	if (getenv("ARA_RTM_NONCE") && batch && strcmp(batch, "1") == 0)
		start_batch();
}

/*
 * The last of the program's destructors (priority 101 runs after the
 * program's others, which follow its atexit handlers): the final report
 * must come after every transfer instrumented code makes on the way out.
 */
__attribute__((destructor(101))) static void exit_evidence(void)
{
	/*
	 * Not in a forked child that exits: its DOM0 state started empty (no
	 * instance key, a run of its own), and the files are its parent's.
	 */
	if (getpid() == evidence_pid)
		write_evidence();
}
