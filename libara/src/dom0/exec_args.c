/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The strings of an execve (exec_req.h): the App's path, arguments and
 * environment, copied once into DOM0; a script's #! line; and the
 * dynamic linker's argv and envp, as ara-loader gives them
 * (loader/launch.c).
 */
#include "dom0.h"
#include "exec_req.h"
#include "kernel.h"
#include "mem.h"

#define SCRIPT_LINE 256u /* of a script's first line the kernel reads: BINPRM_BUF_SIZE */

void ara_exec_refuse(const char *why, const char *what)
{
	struct ara_msg m = { .len = 0 };

	ara_msg_str(&m, "ara: execve refused: ");
	ara_msg_str(&m, why);
	if (what) {
		ara_msg_str(&m, ": ");
		ara_msg_str(&m, what);
	}
	ara_msg_str(&m, "\n");
	ara_msg_emit(&m);
}

static size_t put_str(char *out, const char *s)
{
	size_t n = strlen(s);

	memcpy(out, s, n + 1);
	return n;
}

static int has_prefix(const char *s, const char *prefix)
{
	while (*prefix && *s == *prefix)
		s++, prefix++;
	return *prefix == '\0';
}

/* A new string in r->strings: a copy of the n bytes at s, or NULL if full. */
static const char *keep_string(struct ara_exec_req *r, const char *s, size_t n)
{
	char *out = r->strings + r->used;

	if (n + 1 > ARA_EXEC_STRINGS_MAX - r->used)
		return NULL;
	memcpy(out, s, n);
	out[n] = '\0';
	r->used += n + 1;
	return out;
}

/* Entries of the App's NULL-terminated vector (a NULL vector is empty, as Linux takes it). */
static long vector_length(uint64_t app_vec)
{
	long n = 0;

	for (; app_vec; n++) {
		uint64_t p;

		if (n == ARA_EXEC_VECTOR_MAX)
			return -E2BIG;
		if (ara_copy_from_app(&p, app_vec + (uint64_t)n * sizeof(p), sizeof(p)) != ARA_OK)
			return -EFAULT;
		if (!p)
			break;
	}
	return n;
}

/*
 * The App's vector of strings into r->strings. Its pointers are read
 * again: one another App thread changed since vector_length is just
 * another string, and a new NULL ends the copy early.
 */
static long copy_vector(struct ara_exec_req *r, uint64_t app_vec, uint64_t **out, size_t *count)
{
	long n = vector_length(app_vec);
	size_t i = 0;

	if (n < 0)
		return n;
	*out = (uint64_t *)ara_dom0_calloc((size_t)n + 1, sizeof(uint64_t));
	if (!*out)
		return -ENOMEM;
	for (; i < (size_t)n; i++) {
		uint64_t p;
		long len;

		if (ara_copy_from_app(&p, app_vec + i * sizeof(p), sizeof(p)) != ARA_OK)
			return -EFAULT;
		if (!p)
			break;
		len = ara_copy_string_from_app(r->strings + r->used, p,
					       ARA_EXEC_STRINGS_MAX - r->used);
		if (len < 0)
			return len == -ENAMETOOLONG ? -E2BIG : len;
		(*out)[i] = (uint64_t)(uintptr_t)(r->strings + r->used);
		r->used += (size_t)len + 1;
	}
	*count = i;
	return 0;
}

long ara_exec_copy_strings(struct ara_exec_req *r, uint64_t app_path, uint64_t app_argv,
			   uint64_t app_envp)
{
	long ret = ara_copy_string_from_app(r->path, app_path, sizeof(r->path));

	if (ret < 0)
		return ret;
	r->strings = ara_dom0_calloc(ARA_EXEC_STRINGS_MAX, 1);
	if (!r->strings)
		return -ENOMEM;
	ret = copy_vector(r, app_argv, &r->args, &r->argc);
	if (ret == 0)
		ret = copy_vector(r, app_envp, &r->env, &r->envc);
	return ret;
}

/*
 * As Linux's binfmt_script reads a script: "#!", blanks, the interpreter,
 * blanks, and the rest of the line (trailing blanks dropped) as one
 * optional argument. The line must end within SCRIPT_LINE bytes.
 */
long ara_exec_parse_script(struct ara_exec_req *r, const uint8_t *buf, uint64_t size)
{
	const size_t n = size < SCRIPT_LINE ? (size_t)size : SCRIPT_LINE;
	size_t end = 2, i = 2, start;

	while (end < n && buf[end] != '\n')
		end++;
	if (end == SCRIPT_LINE)
		return -ENOEXEC;
	while (i < end && (buf[i] == ' ' || buf[i] == '\t'))
		i++;
	for (start = i; i < end && buf[i] != ' ' && buf[i] != '\t'; i++)
		if (buf[i] == '\0')
			return -ENOEXEC;
	if (i == start)
		return -ENOEXEC;
	r->script_interp = keep_string(r, (const char *)buf + start, i - start);
	while (i < end && (buf[i] == ' ' || buf[i] == '\t'))
		i++;
	while (end > i && (buf[end - 1] == ' ' || buf[end - 1] == '\t'))
		end--;
	r->script_arg = end > i ? keep_string(r, (const char *)buf + i, end - i) : NULL;
	if (!r->script_interp || (end > i && !r->script_arg))
		return -E2BIG;
	return ARA_EXEC_IS_SCRIPT;
}

/*
 * interpreter, its argument if any, the script's name as the kernel gives
 * it (the path, or /dev/fd/N[/path] for a descriptor), then the script's
 * own arguments after the first.
 */
long ara_exec_script_args(struct ara_exec_req *r, long dirfd, uint64_t flags)
{
	char name[ARA_EXEC_PATH_BYTES + ARA_EXEC_FD_PATH_BYTES];
	const char *kept;
	size_t n = 0, len;
	uint64_t *args;

	if (r->path[0] == '/' || dirfd == AT_FDCWD) {
		len = put_str(name, r->path);
	} else {
		ara_put_fd(name, "/dev/fd/", dirfd);
		len = strlen(name);
		if (r->path[0] || !(flags & AT_EMPTY_PATH)) {
			len += put_str(name + len, "/");
			len += put_str(name + len, r->path);
		}
	}
	if (strlen(r->script_interp) >= sizeof(r->path))
		return -ENAMETOOLONG;
	kept = keep_string(r, name, len);
	args = (uint64_t *)ara_dom0_calloc(r->argc + 3, sizeof(uint64_t));
	if (!kept || !args) {
		ara_dom0_free(args);
		return kept ? -ENOMEM : -E2BIG;
	}
	args[n++] = (uint64_t)(uintptr_t)r->script_interp;
	if (r->script_arg)
		args[n++] = (uint64_t)(uintptr_t)r->script_arg;
	args[n++] = (uint64_t)(uintptr_t)kept;
	for (size_t i = 1; i < r->argc; i++)
		args[n++] = r->args[i];
	ara_dom0_free(r->args);
	r->args = args;
	r->argc = n;
	put_str(r->path, r->script_interp);
	return 0;
}

/*
 * GLIBC_TUNABLES with glibc.pthread.rseq=0 last and only once (libara
 * checks that no rseq area exists), in r->strings. old is the App's entry,
 * or NULL.
 */
static const char *rseq_off(struct ara_exec_req *r, const char *old)
{
	static const char name[] = "GLIBC_TUNABLES=", tunable[] = "glibc.pthread.rseq=";
	char *out = r->strings + r->used;
	size_t n = 0, room = ARA_EXEC_STRINGS_MAX - r->used;

	if (room < sizeof(name) + sizeof(tunable) + 1)
		return NULL;
	n = put_str(out, name);
	for (const char *c = old ? old + sizeof(name) - 1 : ""; *c;) {
		size_t len = 0;

		while (c[len] && c[len] != ':')
			len++;
		if (len && !has_prefix(c, tunable)) {
			if (n + len + 1 + sizeof(tunable) + 1 > room)
				return NULL;
			memcpy(out + n, c, len);
			n += len;
			out[n++] = ':';
		}
		c += len + (c[len] == ':');
	}
	n += put_str(out + n, tunable);
	put_str(out + n, "0");
	r->used += n + 2;
	return out;
}

long ara_exec_loader_vectors(struct ara_exec_req *r)
{
	/* No argv[0]: "" (Linux 5.18 and later give the program one). */
	const char *argv0 = r->argc ? (const char *)(uintptr_t)r->args[0] : "";
	const char *tunables = NULL;
	size_t n = 0, len;

	len = ara_put_fd(r->preload, "/proc/self/fd/", r->entry.fd);
	ara_put_fd(r->preload + len, " /proc/self/fd/", r->libara.fd);
	ara_put_fd(r->app_link, "/proc/self/fd/", r->program.fd);
	ara_put_fd(r->boot_env, ARA_BOOT_ENV "=", r->boot_file.fd);

	/* interp --preload L --argv0 A /proc/self/fd/N, argv[1..], NULL; envp, 2 more, NULL */
	r->vec = (uint64_t *)ara_dom0_calloc(7 + r->argc + r->envc + 3, sizeof(uint64_t));
	if (!r->vec)
		return -ENOMEM;
	r->vec[n++] = (uint64_t)(uintptr_t)r->interp;
	r->vec[n++] = (uint64_t)(uintptr_t)"--preload";
	r->vec[n++] = (uint64_t)(uintptr_t)r->preload;
	r->vec[n++] = (uint64_t)(uintptr_t)"--argv0";
	r->vec[n++] = (uint64_t)(uintptr_t)argv0;
	r->vec[n++] = (uint64_t)(uintptr_t)r->app_link;
	for (size_t i = 1; i < r->argc; i++)
		r->vec[n++] = r->args[i];
	r->vec[n++] = 0;
	for (size_t i = 0; i < r->envc; i++) {
		const char *e = (const char *)(uintptr_t)r->env[i];

		/* Libraries' IFUNC resolvers run before ARA's initialisation. */
		if (has_prefix(e, "LD_PRELOAD=") || has_prefix(e, "LD_AUDIT=") ||
		    has_prefix(e, "LD_LIBRARY_PATH=")) {
			ara_exec_refuse("it would let the caller choose code that runs before ARA", e);
			return -EPERM;
		}
		if (has_prefix(e, ARA_BOOT_ENV "="))
			continue;
		if (has_prefix(e, "GLIBC_TUNABLES=")) {
			tunables = e;
			continue;
		}
		r->vec[n++] = r->env[i];
	}
	tunables = rseq_off(r, tunables);
	if (!tunables)
		return -E2BIG;
	r->vec[n++] = (uint64_t)(uintptr_t)tunables;
	r->vec[n++] = (uint64_t)(uintptr_t)r->boot_env;
	r->vec[n] = 0;
	return 0;
}
