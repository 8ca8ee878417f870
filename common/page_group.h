/*
 * page_group.h
 *	  A page job that groups (GROUP BY): how a kept row's keys become words a
 *	  table compares, where a group's running values live, and how one row
 *	  folds into them.  The kernel (cuda/gr_page.cu) and the host's run of the
 *	  same job (src/page_path.c, gpu_reduce.page_path = cpu) share all of it.
 *
 * Plain C99, every function GR_HOSTDEV.  The includer that folds rows says
 * how a running word changes, by defining before the include GR_PG_ADD(p,
 * v) (p: uint64_t *, v: uint64_t, added modulo 2^64), GR_PG_MIN_S and
 * GR_PG_MAX_S (v an int64_t kept as the smaller or larger, p's word read as
 * int64_t) and GR_PG_MIN_U (unsigned): atomics on the device, plain C on
 * the host; without them it sees the layout only.  The functions that use
 * them are GR_PG_FN (GR_HOSTDEV unless the includer says __device__).
 *
 * A group is an entry of 1 + ngkeys + gwords words:
 *	 [0]			which keys are NULL (bit k)
 *	 [1 .. ngkeys]	each key's word (gr_page_group_key)
 *	 then its gwords running words, each with its operator (job->gword_op):
 *	 GR_PG_W_REP	the group's first row: page index << 16 | line pointer (MIN_U)
 *	 GR_PG_W_ROWS	its rows (ADD)
 *	 col_word[c]	column c's non-NULL values among them (ADD)
 *	 outs[o].word	the output's running value:
 *		sum of an integer (or of a computed numeric's int64s): two ADD words,
 *		the values' low 32 bits, unsigned, and their high 32 bits, signed;
 *		the sum is high * 2^32 + low, with no carry between the words (a
 *		job's rows are fewer than 2^20, so neither word can wrap);
 *		sum of a float: GR_PG_XSUM_WORDS ADD words: a GrXsum's limbs as the
 *		kernels add a double's digits, then NaN, +Infinity, -Infinity, -0.0;
 *		min, max: the order key (order_key.h), MIN_S or MAX_S.
 * Every operator is commutative and reads no other word, so rows fold in
 * any order, and a thread block may fold its rows into a copy started at
 * each word's identity and add that copy into the group word by word.
 * The first row is the smallest (page, line pointer) of the job: the host
 * takes the group's key values from that row, so a group's output key is
 * its first row's in the job's page order, as the CPU's grouping has it.
 */
#ifndef GR_PAGE_GROUP_H
#define GR_PAGE_GROUP_H

#include "group_key.h"
#include "order_key.h"
#include "page_job.h"
#include "xsum.h"

/* a running word's operator */
typedef enum GrPageWordOp
{
	GR_PG_OP_ADD = 0,
	GR_PG_OP_MIN_S = 1,
	GR_PG_OP_MAX_S = 2,
	GR_PG_OP_MIN_U = 3
} GrPageWordOp;

/*
 * A key word that names where a hashed relation's value lies (the tag, then
 * the value's offset in the relation's image), not the value: rows of one
 * image row have one word, so they are one group; rows of equal values in
 * several image rows are several, which the host's table, comparing values,
 * makes one again.  No text word has this top byte (a length, at most 7).
 */
#define GR_PG_KEY_REF			(UINT64_C(0x80) << 56)

/* the running words every group has first */
#define GR_PG_W_REP				0
#define GR_PG_W_ROWS			1
#define GR_PG_W_FIXED			2

/* words of a float sum: the limbs, then the NaN, +Inf, -Inf and -0.0 counts */
#define GR_PG_XSUM_WORDS		(GR_XSUM_LIMBS + 4)

/* A word's value before any row: what its operator leaves unchanged. */
GR_HOSTDEV uint64_t
gr_page_group_identity(int op)
{
	switch (op)
	{
		case GR_PG_OP_MIN_S:
			return (uint64_t) INT64_MAX;
		case GR_PG_OP_MAX_S:
			return (uint64_t) INT64_MIN;
		case GR_PG_OP_MIN_U:
			return UINT64_MAX;
		default:
			return 0;
	}
}

/* Words of an entry with nkeys keys and gwords running words: NULL flags, keys, running words. */
GR_HOSTDEV int
gr_page_group_words(int nkeys, int gwords)
{
	return 1 + nkeys + gwords;
}

/* Words of one of a job's entries. */
GR_HOSTDEV int
gr_page_group_entry_words(const GrPageJob *job)
{
	return gr_page_group_words(job->ngkeys, job->gwords);
}

/* Running words of an output: by its reduction and type. */
GR_HOSTDEV int
gr_page_group_out_words(int op, int type)
{
	if (op != GR_PAGE_OP_SUM)
		return 1;
	return type == GR_PAGE_FLOAT4 || type == GR_PAGE_FLOAT8 ? GR_PG_XSUM_WORDS : 2;
}

/*
 * A text or char(n) key's bytes back out of its word (gr_page_group_key):
 * into out (at least 7 bytes), returning their length, or -1 for a word
 * that is no such key.
 */
GR_HOSTDEV int
gr_page_group_text(uint64_t word, uint8_t *out)
{
	int			len = (int) (word >> 56);

	if (len > 7)
		return -1;
	for (int i = 0; i < len; i++)
		out[i] = (uint8_t) (word >> (8 * i));
	return len;
}

/* An integer sum's two running words x: high * 2^32 + low, as 128 bits. */
GR_HOSTDEV __int128
gr_page_group_int_sum(const uint64_t *x)
{
	return (__int128) (int64_t) x[1] * ((__int128) 1 << 32) + (__int128) x[0];
}

/*
 * Whether checks (a collect job's GrPageCheck: HAVING on a scan table's
 * group) reject group entry e of a table with ngkeys keys, gkey_rel as the
 * job's: a sum with no value is NULL, which rejects as a sum that compares
 * so.  A group keyed by where a hashed relation's value lies may be one of
 * several of that value (GR_PG_KEY_REF): never rejected here; the host's
 * table makes them one, and its filter decides.
 */
GR_HOSTDEV bool
gr_page_group_rejected(const GrPageCheck *checks, int ncheck, int ngkeys,
					   const uint8_t *gkey_rel, const uint64_t *e)
{
	const uint64_t *w = e + 1 + ngkeys;

	for (int k = 0; k < ngkeys; k++)
		if (gkey_rel[k] > 0 && ((e[0] >> k) & 1) == 0 && (e[1 + k] & GR_PG_KEY_REF) != 0)
			return false;
	for (int i = 0; i < ncheck; i++)
	{
		const GrPageCheck *c = &checks[i];
		__int128	k = (__int128) c->khi * ((__int128) 1 << 64) + (__int128) c->klo;
		__int128	v;
		int			cmp;

		if (c->nonnull >= 0 && w[c->nonnull] == 0)
			return true;
		if (c->wide)
			v = gr_page_group_int_sum(&w[c->word]);
		else
			v = (int64_t) w[c->word];
		cmp = (v > k) - (v < k);
		if (((c->pass >> (cmp + 1)) & 1) == 0)
			return true;
	}
	return false;
}

#if defined(GR_PG_ADD) && defined(GR_PG_MIN_S) && defined(GR_PG_MAX_S) && defined(GR_PG_MIN_U)

#ifndef GR_PG_FN
#define GR_PG_FN GR_HOSTDEV
#endif

/*
 * A row's keys as words: key[0] the NULL flags, key[1 + k] key k's word.
 * A fixed-width key is its bits as PostgreSQL's equality groups them
 * (gr_key_norm_bits: -0 and 0 one group, every NaN one); a text or char(n)
 * key (char(n) without its trailing blanks) of up to 7 bytes is its bytes
 * with its length in the top byte.  A hashed relation's text or numeric
 * value that is no such word is GR_PG_KEY_REF and its place in the image.
 * False for a row whose key is none of those (a table's longer, compressed
 * or TOASTed text): the job hands it back.
 */
GR_HOSTDEV bool
gr_page_group_key(const GrPageJob *job, const uint64_t *vals, const bool *nulls,
				  uint64_t *key)
{
	uint64_t	nullmask = 0;

	for (int k = 0; k < job->ngkeys; k++)
	{
		int			c = job->gkey_col[k];
		int			kind = job->gkey_kind[k];
		uint64_t	w = 0;

		if (nulls[c])
			nullmask |= UINT64_C(1) << k;
		else if (gr_key_fixed(kind))
			w = gr_key_norm_bits(kind, vals[c]);
		else if (kind == GR_KEY_TEXT || kind == GR_KEY_BPCHAR || kind == GR_KEY_NUMERIC)
		{
			const uint8_t *p;
			int32_t		len;
			bool		text = kind != GR_KEY_NUMERIC &&
				gr_text_bytes((const uint8_t *) (uintptr_t) vals[c], &p, &len);

			if (text && kind == GR_KEY_BPCHAR)
				while (len > 0 && p[len - 1] == ' ')
					len--;
			if (text && len <= 7)
			{
				for (int i = 0; i < len; i++)
					w |= (uint64_t) p[i] << (8 * i);
				w |= (uint64_t) len << 56;
			}
			else if (job->gkey_rel[k] > 0)
				w = GR_PG_KEY_REF | (vals[c] - job->joins[job->gkey_rel[k] - 1].image);
			else
				return false;
		}
		else
			return false;
		key[1 + k] = w;
	}
	key[0] = nullmask;
	return true;
}

/* The hash of a row's key words. */
GR_HOSTDEV uint64_t
gr_page_group_hash(const uint64_t *key, int nkeys)
{
	uint64_t	h = gr_key_hash_mix(0, key[0]);

	for (int k = 1; k <= nkeys; k++)
		h = gr_key_hash_mix(h, key[k]);
	return h;
}

/* Add a double exactly into a float sum's words (the kernels' digits, gr_xsum.cu). */
GR_PG_FN void
gr_page_group_xsum(uint64_t *x, uint64_t bits)
{
	unsigned	e = (unsigned) (bits >> 52) & 0x7FF;
	int64_t		m = (int64_t) (bits & ((UINT64_C(1) << 52) - 1));
	int64_t		v;
	int			k,
				s,
				limb;
	uint64_t	lo;
	int64_t		hi;

	if (e == 0x7FF)
	{
		GR_PG_ADD(&x[GR_XSUM_LIMBS + (m != 0 ? 0 : (int64_t) bits < 0 ? 2 : 1)], 1);
		return;
	}
	if (e != 0)
		m |= INT64_C(1) << 52;
	else if (m == 0)
	{
		if ((int64_t) bits < 0)
			GR_PG_ADD(&x[GR_XSUM_LIMBS + 3], 1);
		return;
	}
	v = (int64_t) bits < 0 ? -m : m;
	k = e != 0 ? (int) e - 1 : 0;
	s = k & 31;
	limb = k >> 5;
	lo = (uint64_t) v << s;
	hi = s != 0 ? v >> (64 - s) : v >> 63;
	if ((lo & 0xFFFFFFFFu) != 0)
		GR_PG_ADD(&x[limb], lo & 0xFFFFFFFFu);
	if ((lo >> 32) != 0)
		GR_PG_ADD(&x[limb + 1], lo >> 32);
	if (hi != 0)
		GR_PG_ADD(&x[limb + 2], (uint64_t) hi);
}

/* A column's bits of 'type' as a signed integer. */
GR_HOSTDEV int64_t
gr_page_group_int(int type, uint64_t v)
{
	switch (type)
	{
		case GR_PAGE_INT2:
			return (int16_t) v;
		case GR_PAGE_INT4:
			return (int32_t) v;
		default:
			return (int64_t) v;
	}
}

/*
 * Fold one kept row (its decoded and computed columns vals, nulls; rep its
 * page index << 16 | line pointer) into a group's running words w.
 */
GR_PG_FN void
gr_page_group_fold(const GrPageJob *job, uint64_t *w, const uint64_t *vals,
				   const bool *nulls, uint64_t rep)
{
	GR_PG_MIN_U(&w[GR_PG_W_REP], rep);
	GR_PG_ADD(&w[GR_PG_W_ROWS], 1);
	for (int c = 0; c < job->ncols; c++)
		if (job->col_word[c] >= 0 && !nulls[c])
			GR_PG_ADD(&w[job->col_word[c]], 1);
	for (int o = 0; o < job->nouts; o++)
	{
		const GrPageOut *out = &job->outs[o];
		uint64_t	v = vals[out->col];
		uint64_t   *x = &w[out->word];
		bool		fl = out->type == GR_PAGE_FLOAT4 || out->type == GR_PAGE_FLOAT8;
		int64_t		key;

		if (nulls[out->col])
			continue;
		if (out->type == GR_PAGE_FLOAT4)
		{
			uint32_t	u = (uint32_t) v;
			float		f;
			double		dv;

			memcpy(&f, &u, sizeof(f));
			dv = (double) f;
			memcpy(&v, &dv, sizeof(v));
			key = gr_key_float4_bits((int32_t) u);
		}
		else if (out->type == GR_PAGE_FLOAT8)
			key = gr_key_float8_bits((int64_t) v);
		else
			key = gr_page_group_int(out->type, v);
		if (out->op == GR_PAGE_OP_SUM)
		{
			if (fl)
				gr_page_group_xsum(x, v);
			else
			{
				GR_PG_ADD(&x[0], (uint64_t) key & 0xFFFFFFFFu);
				GR_PG_ADD(&x[1], (uint64_t) (key >> 32));
			}
		}
		else if (out->op == GR_PAGE_OP_MIN)
			GR_PG_MIN_S(x, key);
		else
			GR_PG_MAX_S(x, key);
	}
}

#endif							/* the fold's operators defined */

#endif							/* GR_PAGE_GROUP_H */
