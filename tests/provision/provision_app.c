/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An ARA App that provisions a secret, and the attacks a compromised App
 * (or a relay it works with) can make on provisioning. tests/provision/
 * provision.sh runs it against ara-provision and checks both sides.
 *
 *   provision_app fetch SOCK NAME MSG        the secret; then its HMAC of MSG
 *   provision_app scan SOCK NAME SECRETHEX   the secret; then search every
 *                                            byte the App can read for it
 *   provision_app stale SOCK NAME SECONDS    wait, then fetch
 *   provision_app replay SOCK NAME           a second session with the
 *                                            first one's ATTEST
 *   provision_app relay-share SOCK NAME      ATTEST with the relay's own key
 *                                            share in place of ARA's
 *   provision_app unsigned-share SOCK NAME   ... and signed by the relay's key
 *   provision_app other-instance SOCK NAME   ... instance key replaced too
 *   provision_app relay-deliver SOCK NAME    the provisioner's (signed)
 *                                            DELIVER with the relay's own
 *                                            secret sealed into it
 *   provision_app rtm-oracle SOCK NAME       the relay's key share, and
 *                                            the session signed through a
 *                                            compromised RTM (an rtm-probe
 *                                            variant of libara)
 *   provision_app truncated|oversized|random SOCK NAME
 *                                            malformed ATTESTs
 *   provision_app open-tpm DEVICE ALIAS      App code opens the TPM, by its
 *                                            path and by another node of it
 *   provision_app sessions                   more sessions than ARA keeps,
 *                                            and a forked child's (none)
 *   provision_app rts SOCK NAME IN OUT [N]   the content key NAME, then the
 *                                            sealed chunk stream IN opened by
 *                                            ARA into OUT (only N chunks, then
 *                                            close: a stream cut short)
 *
 * SOCK is a Unix socket path or tcp:HOST:PORT. Prints "provision-app:
 * delivered", "provision-app: refused CODE (TEXT)" or "BREACH ..." (the
 * attack got what it must not); exit 0 unless something failed to run.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ara/domains.h"
#include "ara/provision.h"
#include "ara/rts.h"
#include "binding.h"
#include "ara/provision_client.h"
#include "hpke.h"
#include "p256.h"
#include "probe.h"
#include "sockio.h"
#include "wire.h"

#define REPLY_MAX 2048

/* provision.sh makes a one-byte variant of this App by changing the digit. */
__attribute__((used)) static const char variant_mark[] = "ARA-PROVISION-APP-VARIANT:0";

__attribute__((noreturn)) static void die(const char *what)
{
	fprintf(stderr, "provision-app: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Connects, retrying for 20 s while the provisioner starts. */
static int connect_to(const char *spec)
{
	for (int tries = 0; tries < 200; tries++) {
		int fd;

		if (strncmp(spec, "tcp:", 4) == 0) {
			struct sockaddr_in sa = { .sin_family = AF_INET };
			const char *colon = strrchr(spec + 4, ':');
			char host[64];

			if (!colon || colon - (spec + 4) >= (long)sizeof(host))
				die("bad tcp:HOST:PORT");
			snprintf(host, sizeof(host), "%.*s", (int)(colon - (spec + 4)), spec + 4);
			if (inet_pton(AF_INET, host, &sa.sin_addr) != 1)
				die("bad tcp host");
			sa.sin_port = htons((uint16_t)atoi(colon + 1));
			fd = socket(AF_INET, SOCK_STREAM, 0);
			if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
				return fd;
		} else {
			struct sockaddr_un sa = { .sun_family = AF_UNIX };

			snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", spec);
			fd = socket(AF_UNIX, SOCK_STREAM, 0);
			if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
				return fd;
		}
		if (fd >= 0)
			close(fd);
		usleep(100000);
	}
	die("connect");
}

static void send_all(int fd, const uint8_t *p, size_t n)
{
	if (ara_send_all(fd, p, n))
		die("send");
}

static void print_hex(const char *label, const uint8_t *p, size_t n)
{
	printf("provision-app: %s ", label);
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

/* The provisioner's answer: "refused", or "delivered" (to whom it may concern). */
static int report_reply(const uint8_t *reply, long len)
{
	struct ara_wire_refuse f;
	struct ara_wire_deliver d;

	if (len > 0 && ara_wire_decode_refuse(reply, (size_t)len, &f) == ARA_WIRE_OK) {
		printf("provision-app: refused %u (%.*s)\n", f.code, (int)f.text_len, f.text);
		return 0;
	}
	if (len > 0 && ara_wire_decode_deliver(reply, (size_t)len, &d) == ARA_WIRE_OK) {
		printf("BREACH: the provisioner delivered to a forged ATTEST\n");
		return 1;
	}
	printf("provision-app: no reply the protocol knows (%ld bytes)\n", len);
	return 0;
}

static int fetch(const char *sock, const char *name, uint32_t *handle)
{
	struct ara_provision_refusal why;
	int fd = connect_to(sock);
	int st = ara_provision_fetch(fd, name, handle, &why);

	close(fd);
	if (st == ARA_E_REFUSED)
		printf("provision-app: refused %u (%s)\n", why.code, why.text);
	else if (st != ARA_OK)
		printf("provision-app: fetch failed: %s\n", ara_strerror(st));
	else
		printf("provision-app: delivered, handle %#x\n", *handle);
	return st;
}

/* Uses the secret through ARA: its name and length, and an HMAC of msg. */
static int use_secret(uint32_t handle, const char *msg)
{
	struct ara_secret_info_arg info = { .handle = handle };
	struct ara_secret_hmac_arg h = { .msg = (uintptr_t)msg, .msg_len = (uint32_t)strlen(msg),
					 .handle = handle };
	int st;

	if ((st = secure_call(ARA_FID_SECRET_INFO, &info)) != ARA_OK ||
	    (st = secure_call(ARA_FID_SECRET_HMAC, &h)) != ARA_OK) {
		printf("provision-app: using the secret failed: %s\n", ara_strerror(st));
		return 1;
	}
	printf("provision-app: secret '%.*s', %u bytes\n", (int)info.name_len, info.name,
	       info.length);
	print_hex("hmac", h.mac, sizeof(h.mac));
	return 0;
}

/*
 * The scan's needle: the secret from hex, each byte XORed with MASK, so
 * that the App's own copy of what it looks for is not the secret.
 */
#define MASK 0x5a

static int hexdigit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static size_t masked_unhex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = strlen(s) / 2;

	if (n > cap || strlen(s) % 2)
		exit(2);
	for (size_t i = 0; i < n; i++) {
		int hi = hexdigit(s[2 * i]), lo = hexdigit(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			exit(2);
		out[i] = (uint8_t)((hi << 4 | lo) ^ MASK);
	}
	return n;
}

static sigjmp_buf unbacked;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(unbacked, 1);
}

/*
 * Does the secret occur in [p, p + n)? (needle: the secret, masked.) -1 if
 * part of it has no backing (a file mapping past the file's end: SIGBUS).
 */
static int holds(const volatile uint8_t *p, size_t n, const uint8_t *needle, size_t len)
{
	if (sigsetjmp(unbacked, 1))
		return -1;
	for (size_t i = 0; i + len <= n; i++) {
		size_t k = 0;

		while (k < len && (uint8_t)(p[i + k] ^ MASK) == needle[k])
			k++;
		if (k == len)
			return 1;
	}
	return 0;
}

/*
 * Searches every byte App code can read for the secret: each readable
 * mapping of /proc/self/smaps that carries DOM2's key, read in place (a
 * mapping ARA tagged wrongly would fault here, and ARA would end the
 * process: the test fails). Mappings with DOM0's or DOM1's key are
 * counted, not read: the keys forbid it, as ara_attack_* show.
 */
static int scan(const uint8_t *secret, size_t len)
{
	FILE *smaps = fopen("/proc/self/smaps", "r");
	unsigned long lo = 0, hi = 0, searched = 0, withheld = 0, l, h;
	struct sigaction sa = { .sa_handler = on_sigbus };
	char line[512], perms[5] = "", name[256] = "", this_name[256];
	unsigned key;
	int found = 0;

	if (!smaps || sigaction(SIGBUS, &sa, NULL))
		die("smaps or sigaction");
	while (fgets(line, sizeof(line), smaps)) {
		this_name[0] = '\0';
		if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %255s", &l, &h, perms, this_name) >= 3) {
			/* A mapping's first line; its key comes later. */
			lo = l, hi = h;
			memcpy(name, this_name, sizeof(name));
			continue;
		}
		if (sscanf(line, "ProtectionKey: %u", &key) != 1 || perms[0] != 'r')
			continue;
		if (key != ARA_PKEY_DOM2) {
			withheld += (hi - lo) / 4096;
			continue;
		}
		switch (holds((const volatile uint8_t *)lo, hi - lo, secret, len)) {
		case 1:
			printf("BREACH: the secret is readable in %lx-%lx %s\n", lo, hi, name);
			found = 1;
			break;
		case -1:
			printf("provision-app: %lx-%lx %s: partly past its file's end (SIGBUS)\n", lo,
			       hi, name);
			break;
		}
		searched += (hi - lo) / 4096;
	}
	fclose(smaps);
	if (searched == 0)
		die("smaps showed no ProtectionKey lines");
	printf("ara-evidence: provision scan: %lu pages App code can read searched in place, %lu pages "
	       "of DOM0/DOM1 keys not readable; the secret %s\n",
	       searched, withheld, found ? "FOUND" : "not found");
	return found;
}

/* One session by hand: the challenge, and ARA's ATTEST for it. */
struct manual {
	int fd;
	uint8_t challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE];
	uint8_t *attest;
	uint32_t attest_len, session;
};

static void begin(struct manual *m, const char *sock, const char *name)
{
	struct ara_provision_begin_arg b = { 0 };
	int st;

	m->fd = connect_to(sock);
	if (ara_provision_recv(m->fd, m->challenge, sizeof(m->challenge)) != sizeof(m->challenge))
		die("no CHALLENGE");
	m->attest = malloc(ARA_PROVISION_ATTEST_MAX);
	if (!m->attest)
		die("malloc");
	b.challenge = (uintptr_t)m->challenge;
	b.challenge_len = sizeof(m->challenge);
	b.name = (uintptr_t)name;
	b.name_len = (uint32_t)strlen(name);
	b.attest = (uintptr_t)m->attest;
	b.attest_cap = ARA_PROVISION_ATTEST_MAX;
	st = secure_call(ARA_FID_PROVISION_BEGIN, &b);
	if (st != ARA_OK) {
		fprintf(stderr, "provision-app: PROVISION_BEGIN: %s\n", ara_strerror(st));
		exit(1);
	}
	m->attest_len = b.attest_len;
	m->session = b.session;
}

static long reply_of(int fd, uint8_t *reply)
{
	return ara_provision_recv(fd, reply, REPLY_MAX);
}

/* A key pair of the attacker's own, outside ARA. */
static void own_key(uint8_t sk[ARA_HPKE_NSK], uint8_t pk[ARA_HPKE_NPK])
{
	uint8_t ikm[32];

	if (getrandom(ikm, sizeof(ikm), 0) != sizeof(ikm) ||
	    ara_hpke_derive_keypair(ikm, sizeof(ikm), sk, pk))
		die("own key");
}

/*
 * The relay's edits of a genuine ATTEST: its own key share (its private
 * half in sk, the decoded ATTEST in a), and then, as asked, its own
 * signature over the session and its own instance key.
 */
static void substitute(struct manual *m, int resign, int instance, struct ara_wire_attest *a,
		       uint8_t sk[ARA_HPKE_NSK])
{
	uint8_t pk[ARA_HPKE_NPK], hash[32], sig[ARA_WIRE_SIG];

	if (ara_wire_decode_attest(m->attest, m->attest_len, a) != ARA_WIRE_OK)
		die("ARA's ATTEST does not decode");
	own_key(sk, pk);
	memcpy((uint8_t *)a->share_pub, pk, ARA_WIRE_POINT);
	if (instance)
		memcpy((uint8_t *)a->instance_pub, pk, ARA_WIRE_POINT);
	if (resign) {
		if (ara_provision_session_hash(m->challenge, sizeof(m->challenge), m->attest,
					       a->signed_len, hash) ||
		    ara_p256_sign(sk, hash, sig))
			die("signing");
		ara_wire_set_sig(m->attest, m->attest_len, sig);
	}
}

static int relay(const char *sock, const char *name, int resign, int instance)
{
	struct manual m;
	struct ara_wire_attest a;
	uint8_t reply[REPLY_MAX], sk[ARA_HPKE_NSK];

	begin(&m, sock, name);
	substitute(&m, resign, instance, &a, sk);
	send_all(m.fd, m.attest, m.attest_len);
	return report_reply(reply, reply_of(m.fd, reply));
}

/*
 * A relay between a genuine provisioner and ARA keeps the provisioner's
 * DELIVER, signature and all, but seals a secret of its own to ARA's share
 * (which the ATTEST shows). Where the manifest pins the provisioner's key,
 * ARA must refuse it: the signature covers the ciphertext.
 */
static int relay_deliver(const char *sock, const char *name)
{
	static const uint8_t own[32] = "the relay's own secret, 32 byte";
	uint8_t reply[REPLY_MAX], info[ARA_HPKE_INFO_BYTES], sk_e[ARA_HPKE_NSK], enc[ARA_HPKE_NPK];
	uint8_t ct[sizeof(own) + ARA_HPKE_NT];
	struct ara_provision_finish_arg f = { 0 };
	struct ara_wire_deliver d;
	struct ara_wire_attest a;
	struct ara_hpke_ctx ctx;
	struct manual m;
	long len;
	int st;

	begin(&m, sock, name);
	send_all(m.fd, m.attest, m.attest_len);
	len = reply_of(m.fd, reply);
	if (len <= 0 || ara_wire_decode_deliver(reply, (size_t)len, &d) != ARA_WIRE_OK ||
	    d.ct_len != sizeof(ct)) {
		printf("provision-app: no DELIVER of a 32-byte secret to substitute into\n");
		return 1;
	}
	own_key(sk_e, enc);
	if (ara_wire_decode_attest(m.attest, m.attest_len, &a) != ARA_WIRE_OK ||
	    ara_provision_hpke_info(m.challenge, sizeof(m.challenge), m.attest, m.attest_len, info) ||
	    ara_hpke_setup_base_s(a.share_pub, sk_e, info, sizeof(info), enc, &ctx) ||
	    ara_hpke_seal(&ctx, (const uint8_t *)name, strlen(name), own, sizeof(own), ct))
		die("sealing the relay's secret");
	ara_hpke_ctx_wipe(&ctx);
	memcpy((uint8_t *)d.enc, enc, sizeof(enc));
	memcpy((uint8_t *)d.ct, ct, sizeof(ct));
	f.reply = (uintptr_t)reply;
	f.reply_len = (uint32_t)len;
	f.session = m.session;
	st = secure_call(ARA_FID_PROVISION_FINISH, &f);
	printf("provision-app: the relay's own secret in the provisioner's %s DELIVER: %s\n",
	       d.sig ? "signed" : "unsigned", ara_strerror(st));
	if (st == ARA_OK)
		printf("BREACH: ARA kept a secret the provisioner did not sign\n");
	return 0;
}

/*
 * What a compromised RTM could sign for the App (the rtm-probe variants'
 * SIGN: provisioning signs what the RTM's domain asks): the relay's own
 * key share in ARA's ATTEST, signed by the instance key over that
 * session's hash, asked for through the RTM. Provisioning signs a hash
 * of that digest under its label for a module, which the provisioner
 * refuses as the session's signature; where it signs the digest as it is
 * (the twin's variant), the provisioner seals the secret to the App's
 * share, and the App opens it outside ARA.
 */
static int rtm_oracle(const char *sock, const char *name)
{
	uint8_t reply[REPLY_MAX], info[ARA_HPKE_INFO_BYTES], secret[ARA_WIRE_SECRET_MAX];
	uint8_t sk[ARA_HPKE_NSK], labelled[32];
	struct probe_sign_arg p = { 0 };
	struct ara_wire_deliver d;
	struct ara_wire_attest a;
	struct ara_hpke_ctx ctx;
	struct manual m;
	long len;
	int st;

	begin(&m, sock, name);
	substitute(&m, 0, 0, &a, sk);
	if (ara_provision_session_hash(m.challenge, sizeof(m.challenge), m.attest, a.signed_len,
				       p.digest))
		die("hashing the session");
	st = secure_call(PROBE_FID_SIGN, &p);
	printf("provision-app: the RTM's domain had provisioning sign the session's hash: %s\n",
	       ara_strerror(st));
	if (st != ARA_OK || ara_provision_module_hash(p.digest, labelled))
		return 1;
	/* What the instance key signed: the hash under the label for a module, or the digest itself. */
	if (ara_p256_verify(a.instance_pub, labelled, p.sig) == 0)
		printf("provision-app: the signature is over the label for a module\n");
	else if (ara_p256_verify(a.instance_pub, p.digest, p.sig) == 0)
		printf("provision-app: the signature is over the session's hash itself\n");
	else
		printf("provision-app: the signature verifies over neither hash\n");
	ara_wire_set_sig(m.attest, m.attest_len, p.sig);
	send_all(m.fd, m.attest, m.attest_len);
	len = reply_of(m.fd, reply);
	if (len <= 0 || ara_wire_decode_deliver(reply, (size_t)len, &d) != ARA_WIRE_OK)
		return report_reply(reply, len);
	if (d.ct_len < ARA_HPKE_NT || d.ct_len - ARA_HPKE_NT > sizeof(secret) ||
	    ara_provision_hpke_info(m.challenge, sizeof(m.challenge), m.attest, m.attest_len, info) ||
	    ara_hpke_setup_base_r(d.enc, sk, info, sizeof(info), &ctx) ||
	    ara_hpke_open(&ctx, (const uint8_t *)name, strlen(name), d.ct, d.ct_len, secret)) {
		printf("provision-app: a DELIVER the App's own share does not open\n");
		return 1;
	}
	ara_hpke_ctx_wipe(&ctx);
	print_hex("BREACH: the secret, sealed to the App's share, opened outside ARA:", secret,
		  d.ct_len - ARA_HPKE_NT);
	return 0;
}

static int replay(const char *sock, const char *name)
{
	struct manual first, second;
	uint8_t reply[REPLY_MAX];
	struct ara_provision_finish_arg f = { 0 };
	long len;

	begin(&first, sock, name);
	send_all(first.fd, first.attest, first.attest_len);
	len = reply_of(first.fd, reply);
	f.reply = (uintptr_t)reply;
	f.reply_len = len < 0 ? 0 : (uint32_t)len;
	f.session = first.session;
	printf("provision-app: first session: %s\n",
	       ara_strerror(secure_call(ARA_FID_PROVISION_FINISH, &f)));
	/* The second session's challenge is ignored; the first ATTEST goes instead. */
	begin(&second, sock, name);
	send_all(second.fd, first.attest, first.attest_len);
	return report_reply(reply, reply_of(second.fd, reply));
}

static int malformed(const char *sock, const char *name, const char *kind)
{
	struct manual m;
	uint8_t reply[REPLY_MAX], junk[300];

	begin(&m, sock, name);
	if (strcmp(kind, "truncated") == 0) {
		send_all(m.fd, m.attest, m.attest_len / 2);
	} else if (strcmp(kind, "oversized") == 0) {
		/* A header announcing a body one byte over the largest message. */
		uint32_t body = (512u << 10) + 1024u + 1u;

		m.attest[8] = (uint8_t)(body >> 24);
		m.attest[9] = (uint8_t)(body >> 16);
		m.attest[10] = (uint8_t)(body >> 8);
		m.attest[11] = (uint8_t)body;
		send_all(m.fd, m.attest, m.attest_len);
	} else {
		if (getrandom(junk, sizeof(junk), 0) != sizeof(junk))
			die("getrandom");
		send_all(m.fd, junk, sizeof(junk));
	}
	shutdown(m.fd, SHUT_WR);
	return report_reply(reply, reply_of(m.fd, reply));
}

static int begin_local(uint32_t *session)
{
	uint8_t nonce[ARA_WIRE_NONCE] = { 1 }, challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE];
	static uint8_t attest[ARA_PROVISION_ATTEST_MAX];
	struct ara_provision_begin_arg b = { 0 };
	size_t len;
	int st;

	if (ara_wire_encode_challenge(nonce, challenge, sizeof(challenge), &len))
		die("encode");
	b.challenge = (uintptr_t)challenge;
	b.challenge_len = (uint32_t)len;
	b.name = (uintptr_t)"k";
	b.name_len = 1;
	b.attest = (uintptr_t)attest;
	b.attest_cap = sizeof(attest);
	st = secure_call(ARA_FID_PROVISION_BEGIN, &b);
	*session = b.session;
	return st;
}

static int finish_empty(uint32_t session)
{
	struct ara_provision_finish_arg f = { .session = session };

	return secure_call(ARA_FID_PROVISION_FINISH, &f);
}

/* expect(WHAT, GOT, WANT): 1 and a line if GOT is not WANT. */
static int expect(const char *what, int got, int want)
{
	printf("provision-app: %s: %s%s\n", what, ara_strerror(got), got == want ? "" : " (WRONG)");
	return got != want;
}

/*
 * ARA keeps ARA_PROVISION_SESSIONS unfinished sessions: one more BEGIN
 * ends the oldest, whose FINISH then finds nothing; a FINISH ends its
 * session whatever the reply. A forked child has no instance at all.
 */
static int sessions(void)
{
	uint32_t id[ARA_PROVISION_SESSIONS + 1];
	int bad = 0, status;
	pid_t child;

	for (unsigned i = 0; i <= ARA_PROVISION_SESSIONS; i++)
		bad |= expect("begin", begin_local(&id[i]), ARA_OK);
	bad |= expect("finish of the oldest, ended by the fifth begin", finish_empty(id[0]),
		      ARA_E_NOENT);
	bad |= expect("finish of the second with no reply", finish_empty(id[1]), ARA_E_BADMSG);
	bad |= expect("finish of the second again", finish_empty(id[1]), ARA_E_NOENT);
	child = fork();
	if (child == 0)
		_exit(expect("begin in a forked child", begin_local(&id[0]), ARA_E_NO_EVIDENCE));
	if (child < 0 || waitpid(child, &status, 0) != child)
		die("fork");
	bad |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	printf("ara-evidence: provision sessions: %s\n",
	       bad ? "WRONG" : "a fifth unfinished session ends the oldest; FINISH ends a session once; "
			       "a forked child has no instance");
	return bad;
}

/*
 * Opens the sealed chunk stream in (services/rts/chunk_format.h) through
 * ARA into out, chunk by chunk, stopping at the first refusal or after
 * `stop` chunks; the last chunk is the one before the end of the file.
 */
static int rts(const char *sock, const char *name, const char *in_path, const char *out_path,
	       unsigned stop)
{
	static uint8_t header[36], chunk[65536 + 16], clear[65536];
	struct ara_rts_open_arg o = { .header = (uintptr_t)header, .header_len = sizeof(header) };
	struct ara_rts_close_arg c;
	FILE *in = fopen(in_path, "rb"), *out = fopen(out_path, "wb");
	uint32_t handle, chunk_size;
	unsigned n = 0;
	int st;

	if (!in || !out || fread(header, 1, sizeof(header), in) != sizeof(header))
		die("the stream or the output");
	if (fetch(sock, name, &handle) != ARA_OK)
		return 1;
	chunk_size = (uint32_t)header[32] << 24 | (uint32_t)header[33] << 16 |
		     (uint32_t)header[34] << 8 | header[35];
	if (chunk_size == 0 || chunk_size > 65536)
		chunk_size = 65536; /* ARA refuses the header; the App need not know why */
	st = secure_call(ARA_FID_RTS_STREAM_OPEN, &o);
	printf("provision-app: rts open: %s\n", ara_strerror(st));
	if (st != ARA_OK)
		return 0;
	for (;;) {
		struct ara_rts_chunk_arg a = { .in = (uintptr_t)chunk, .out = (uintptr_t)clear,
					       .out_cap = sizeof(clear), .stream = o.stream };
		size_t got = fread(chunk, 1, chunk_size + 16, in);
		int c0;

		if (got == 0 || n == stop)
			break;
		c0 = fgetc(in); /* the final chunk: nothing follows it */
		a.final = c0 == EOF;
		if (c0 != EOF)
			ungetc(c0, in);
		a.in_len = (uint32_t)got;
		st = secure_call(ARA_FID_RTS_STREAM_CHUNK, &a);
		if (st != ARA_OK) {
			printf("provision-app: rts chunk %u refused: %s\n", n, ara_strerror(st));
			break;
		}
		if (fwrite(clear, 1, a.out_len, out) != a.out_len)
			die("write");
		n++;
	}
	c.stream = o.stream;
	st = secure_call(ARA_FID_RTS_STREAM_CLOSE, &c);
	printf("provision-app: rts close after %u chunks: %s\n", n, ara_strerror(st));
	fclose(in);
	return fclose(out) ? 1 : 0;
}

/*
 * With a TPM, App code could have it quote a binding of a key of its own
 * (docs/provisioning.md): ARA refuses it the device under any name. The
 * alias, a node with the device's numbers elsewhere, is made by the test
 * script: App code can make no device node (ARA drops CAP_MKNOD).
 */
static int open_tpm(const char *device, const char *alias)
{
	struct stat st;
	int fd, breach = 0;

	if (stat(device, &st) || !S_ISCHR(st.st_mode))
		die("the TPM device (run in the TPM guest)");
	fd = open(device, O_RDWR);
	if (fd >= 0) {
		printf("BREACH: App code opened %s\n", device);
		breach = 1;
	} else {
		printf("provision-app: open %s: %s\n", device, strerror(errno));
	}
	/* The same device under another name. */
	fd = open(alias, O_RDWR);
	if (fd >= 0) {
		printf("BREACH: App code opened the TPM as %s\n", alias);
		breach = 1;
	} else {
		printf("provision-app: open %s (%u:%u): %s\n", alias, major(st.st_rdev),
		       minor(st.st_rdev), strerror(errno));
	}
	return breach;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 2 ? argv[1] : "", *sock = argv[2], *name = argv[3];
	uint8_t secret[1024];
	uint32_t handle;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(mode, "fetch") == 0 && argc == 5)
		return fetch(sock, name, &handle) == ARA_OK ? use_secret(handle, argv[4]) : 0;
	if (strcmp(mode, "scan") == 0 && argc == 5) {
		size_t len = masked_unhex(argv[4], secret, sizeof(secret));

		if (fetch(sock, name, &handle) != ARA_OK || use_secret(handle, "scan"))
			return 1;
		return scan(secret, len);
	}
	if (strcmp(mode, "stale") == 0 && argc == 5) {
		sleep((unsigned)atoi(argv[4]));
		fetch(sock, name, &handle);
		return 0;
	}
	if (strcmp(mode, "replay") == 0 && argc == 4)
		return replay(sock, name);
	if (strcmp(mode, "relay-share") == 0 && argc == 4)
		return relay(sock, name, 0, 0);
	if (strcmp(mode, "unsigned-share") == 0 && argc == 4)
		return relay(sock, name, 1, 0);
	if (strcmp(mode, "other-instance") == 0 && argc == 4)
		return relay(sock, name, 1, 1);
	if (strcmp(mode, "relay-deliver") == 0 && argc == 4)
		return relay_deliver(sock, name);
	if (strcmp(mode, "rtm-oracle") == 0 && argc == 4)
		return rtm_oracle(sock, name);
	if ((strcmp(mode, "truncated") == 0 || strcmp(mode, "oversized") == 0 ||
	     strcmp(mode, "random") == 0) && argc == 4)
		return malformed(sock, name, mode);
	if (strcmp(mode, "rts") == 0 && (argc == 6 || argc == 7))
		return rts(sock, name, argv[4], argv[5], argc == 7 ? (unsigned)atoi(argv[6]) : ~0u);
	if (argc == 2 && strcmp(argv[1], "sessions") == 0)
		return sessions();
	if (strcmp(mode, "open-tpm") == 0 && argc == 4)
		return open_tpm(argv[2], argv[3]);
	fprintf(stderr, "usage: see the comment at the top of provision_app.c\n");
	return 2;
}
