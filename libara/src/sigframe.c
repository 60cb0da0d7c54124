/* SPDX-License-Identifier: Apache-2.0 */
#include "sigframe.h"

#include "ara/bytes.h"

struct record_head {
	uint32_t magic, size;
};

/* A record is a head (magic, size) followed by size - 8 bytes. */
static struct record_head head_at(const uint8_t *r)
{
	struct record_head h = { ara_get_le32(r), ara_get_le32(r + 4) };

	return h;
}

/*
 * Walks the records of res: the POE record's offset into *poe (or
 * ARA_SIGCONTEXT_RESERVED if none), the terminator's into *end.
 */
static enum ara_sigframe_result walk(const uint8_t *res, uint32_t *poe, uint32_t *end)
{
	const uint32_t limit = ARA_SIGCONTEXT_RESERVED;
	uint32_t off = 0;

	*poe = limit;
	for (;;) {
		struct record_head h;

		if (limit - off < sizeof(h))
			return ARA_SIGFRAME_MALFORMED; /* no terminator */
		h = head_at(res + off);
		if (h.magic == 0) {
			if (h.size != 0)
				return ARA_SIGFRAME_MALFORMED;
			*end = off;
			return ARA_SIGFRAME_OK;
		}
		if (h.size < sizeof(h) || h.size % 16 || h.size > limit - off)
			return ARA_SIGFRAME_MALFORMED;
		if (h.magic == ARA_EXTRA_MAGIC)
			return ARA_SIGFRAME_EXTRA;
		if (h.magic == ARA_POE_MAGIC) {
			if (*poe != limit || h.size != ARA_POE_RECORD_SIZE)
				return ARA_SIGFRAME_MALFORMED;
			*poe = off;
		}
		off += h.size;
	}
}

size_t ara_sigframe_used(const struct ara_rt_sigframe *f)
{
	uint32_t poe, end;

	if (walk(f->uc.uc_mcontext.reserved, &poe, &end) != ARA_SIGFRAME_OK)
		return 0;
	return ARA_SIGFRAME_RECORDS + end + sizeof(struct record_head);
}

size_t ara_sigframe_copy_size(const struct ara_rt_sigframe *f)
{
	const size_t used = ara_sigframe_used(f);

	return used ? used : sizeof(*f);
}

void ara_sigframe_clear_gaps(struct ara_rt_sigframe *f)
{
	__builtin_memset(f->uc.unused, 0, sizeof(f->uc.unused));
	f->uc.pad = 0;
	f->uc.uc_mcontext.pad = 0;
}

enum ara_sigframe_result ara_sigframe_get_por(const struct ara_rt_sigframe *f, uint64_t *por)
{
	const uint8_t *res = f->uc.uc_mcontext.reserved;
	uint32_t poe, end;
	enum ara_sigframe_result r = walk(res, &poe, &end);

	if (r != ARA_SIGFRAME_OK)
		return r;
	if (poe == ARA_SIGCONTEXT_RESERVED)
		return ARA_SIGFRAME_MALFORMED;
	*por = 0;
	for (int i = 7; i >= 0; i--)
		*por = *por << 8 | res[poe + 8 + (unsigned int)i];
	return ARA_SIGFRAME_OK;
}

enum ara_sigframe_result ara_sigframe_set_por(struct ara_rt_sigframe *f, uint64_t por)
{
	uint8_t *const res = f->uc.uc_mcontext.reserved;
	const uint32_t limit = ARA_SIGCONTEXT_RESERVED;
	uint8_t *poe = NULL;
	uint32_t poe_off, off;
	enum ara_sigframe_result r = walk(res, &poe_off, &off);

	if (r != ARA_SIGFRAME_OK)
		return r;
	if (poe_off != limit)
		poe = res + poe_off;
	if (!poe) {
		/* The new record takes the terminator's place; a new terminator follows it. */
		if (limit - off < ARA_POE_RECORD_SIZE + 16)
			return ARA_SIGFRAME_FULL;
		poe = res + off;
		ara_put_le32(poe, ARA_POE_MAGIC);
		ara_put_le32(poe + 4, ARA_POE_RECORD_SIZE);
		for (unsigned int i = 0; i < 16; i++)
			poe[ARA_POE_RECORD_SIZE + i] = 0;
	}
	ara_put_le64(poe + 8, por);
	return ARA_SIGFRAME_OK;
}
