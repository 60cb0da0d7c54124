/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Messages from DOM0 to stderr (fd 2), formatted without libc. Used for
 * initialisation reports and failures, before any App code runs.
 */
#include "dom0.h"
#include "ara/boot.h"
#include "ara/hex.h"
#include "sys.h"

void ara_msg_mem(struct ara_msg *m, const char *s, size_t n)
{
	while (n-- && m->len < sizeof(m->buf))
		m->buf[m->len++] = *s++;
}

void ara_msg_str(struct ara_msg *m, const char *s)
{
	while (*s && m->len < sizeof(m->buf))
		m->buf[m->len++] = *s++;
}

void ara_msg_hex(struct ara_msg *m, uint64_t v)
{
	char digits[18] = "0x";
	int shift = 60;

	while (shift > 0 && ((v >> shift) & 0xf) == 0)
		shift -= 4;
	size_t n = 2;
	for (; shift >= 0; shift -= 4)
		digits[n++] = ara_hex_char((unsigned int)(v >> shift));
	ara_msg_mem(m, digits, n);
}

void ara_msg_dec(struct ara_msg *m, long v)
{
	char digits[24];
	size_t n = sizeof(digits);
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;

	do {
		digits[--n] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		digits[--n] = '-';
	ara_msg_mem(m, digits + n, sizeof(digits) - n);
}

void ara_msg_emit(struct ara_msg *m)
{
	size_t off = 0;

	while (off < m->len) {
		long r = ara_sys3(__NR_write, 2, m->buf + off, m->len - off);
		if (r <= 0)
			break; /* stderr closed: nothing else to tell */
		off += (size_t)r;
	}
	m->len = 0;
}

static void report(const char *prefix, const char *what, long value)
{
	struct ara_msg m = { .len = 0 };

	ara_msg_str(&m, prefix);
	ara_msg_str(&m, what);
	ara_msg_str(&m, " (");
	ara_msg_dec(&m, value);
	ara_msg_str(&m, ")\n");
	ara_msg_emit(&m);
}

void ara_fatal(const char *what, long value)
{
	report("ara: initialisation failed: ", what, value);
	ara_sys_exit_group(ARA_EXIT_INIT_FAILED);
}

void ara_stop(int status, const char *what, long value)
{
	report("ara: stopping the process: ", what, value);
	ara_sys_exit_group(status);
}
