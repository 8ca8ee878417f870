/*
 * serial.c
 *	  Serialization of partial results for parallel aggregation, and the
 *	  validating deserializer.
 *
 * The byte layout is versioned; every integer is big-endian:
 *	 version:1  op:1  type:1  count:8
 *	 sum/avg of integers:  sum_hi:8 sum_lo:8
 *	 sum/avg of floats:    nan:8 pinf:8 ninf:8 negzero:8 first:2 nlimbs:2
 *						   limb:8 * nlimbs (normalized accumulator limbs)
 *	 min/max:              key:8
 *	 top-k:                k:4 n:4 key:8 * n (descending)
 * The deserializer checks every field and the length, so a malformed value
 * is an ERROR and never a crash or a wrong answer.
 */
#include "gpu_reduce.h"
#include "bulk.h"

#include "libpq/pqformat.h"
#include "utils/builtins.h"

#define GR_FORMAT_VERSION 1

PG_FUNCTION_INFO_V1(gpu_reduce_serialize);
PG_FUNCTION_INFO_V1(gpu_reduce_deserialize);
PG_FUNCTION_INFO_V1(gpu_reduce_state_info);

/*
 * Settle the state and write its partial result: the serialize function's
 * work, and the bulk scan's output in a parallel plan.
 */
bytea *
gr_state_serialize(GrState *st)
{
	GrPartial  *p = &st->partial;
	StringInfoData buf;

	gr_state_settle(st);
	gr_state_release_buffer(st);

	pq_begintypsend(&buf);
	pq_sendbyte(&buf, GR_FORMAT_VERSION);
	pq_sendbyte(&buf, st->op);
	pq_sendbyte(&buf, st->type);
	pq_sendint64(&buf, p->count);
	switch (st->op)
	{
		case GR_OP_SUM:
		case GR_OP_AVG:
			if (GR_IS_FLOAT(st->type))
			{
				GrXsum		tmp;
				GrXsum	   *x = gr_partial_xsum(p, &tmp);
				int			first = 0;
				int			last = GR_XSUM_LIMBS - 1;

				gr_xsum_normalize(x);
				while (first <= last && x->limb[first] == 0)
					first++;
				while (last >= first && x->limb[last] == 0)
					last--;
				pq_sendint64(&buf, x->nan);
				pq_sendint64(&buf, x->pinf);
				pq_sendint64(&buf, x->ninf);
				pq_sendint64(&buf, x->negzero);
				pq_sendint16(&buf, first > last ? 0 : first);
				pq_sendint16(&buf, last - first + 1);
				for (int i = first; i <= last; i++)
					pq_sendint64(&buf, x->limb[i]);
			}
			else
			{
				pq_sendint64(&buf, (int64) (p->isum >> 64));
				pq_sendint64(&buf, (int64) (uint64) p->isum);
			}
			break;
		case GR_OP_MIN:
		case GR_OP_MAX:
			pq_sendint64(&buf, p->key);
			break;
		case GR_OP_TOPK:
			{
				int64	   *keys;
				int			n = gr_partial_sorted_keys(p, &keys);

				pq_sendint32(&buf, p->k);
				pq_sendint32(&buf, n);
				for (int i = 0; i < n; i++)
					pq_sendint64(&buf, keys[i]);
				break;
			}
	}
	return pq_endtypsend(&buf);
}

/* Serialize function: settle the state and write its partial result. */
Datum
gpu_reduce_serialize(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(gr_state_serialize((GrState *) PG_GETARG_POINTER(0)));
}

/* A bounds-checked reader over the serialized bytes. */
typedef struct Reader
{
	const uint8 *data;
	int			len;
	int			pos;
} Reader;

/* Report a malformed state. */
pg_noreturn static void
malformed(const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			 errmsg("invalid gpu_reduce state: %s", detail)));
}

/* Read n bytes as a big-endian unsigned integer. */
static uint64
read_uint(Reader *r, int n)
{
	uint64		v = 0;

	if (r->len - r->pos < n)
		malformed("too short");
	for (int i = 0; i < n; i++)
		v = (v << 8) | r->data[r->pos++];
	return v;
}

/* Whether an order key can come from a value of the type. */
static bool
key_in_range(GrType type, int64 key)
{
	return key >= gr_type_info(type)->key_min && key <= gr_type_info(type)->key_max;
}

/* Parse and check serialized bytes into a new state in CurrentMemoryContext. */
static GrState *
read_state(bytea *bytes)
{
	Reader		r = {(const uint8 *) VARDATA_ANY(bytes), VARSIZE_ANY_EXHDR(bytes), 0};
	int			version,
				op,
				type;
	GrState    *st;
	GrPartial  *p;

	version = (int) read_uint(&r, 1);
	if (version != GR_FORMAT_VERSION)
		malformed(psprintf("unsupported format version %d", version));
	op = (int) read_uint(&r, 1);
	type = (int) read_uint(&r, 1);
	if (op < GR_OP_SUM || op > GR_OP_LAST)
		malformed(psprintf("unknown operation %d", op));
	if (type < GR_INT2 || type > GR_TYPE_LAST)
		malformed(psprintf("unknown type %d", type));
	if ((op == GR_OP_SUM || op == GR_OP_AVG) && gr_type_info(type)->sum == GR_SUM_NONE)
		malformed(psprintf("no sum of type %s", gr_type_info(type)->name));

	st = gr_state_create(CurrentMemoryContext, op, type,
						 op == GR_OP_TOPK ? GR_TOPK_MAX : 0);
	p = &st->partial;
	p->count = (int64) read_uint(&r, 8);
	if (p->count < 0)
		malformed("negative count");

	switch ((GrOp) op)
	{
		case GR_OP_SUM:
		case GR_OP_AVG:
			if (GR_IS_FLOAT(type))
			{
				GrXsum		full;
				GrXsum	   *x = &full;
				int			first,
							nlimbs;

				gr_xsum_init(x);
				x->nan = (int64) read_uint(&r, 8);
				x->pinf = (int64) read_uint(&r, 8);
				x->ninf = (int64) read_uint(&r, 8);
				x->negzero = (int64) read_uint(&r, 8);
				if (x->nan < 0 || x->pinf < 0 || x->ninf < 0 || x->negzero < 0 ||
					x->nan > p->count || x->pinf > p->count ||
					x->ninf > p->count || x->negzero > p->count)
					malformed("special value counts out of range");
				first = (int) read_uint(&r, 2);
				nlimbs = (int) read_uint(&r, 2);
				if (first + nlimbs > GR_XSUM_LIMBS)
					malformed("accumulator limbs out of range");
				for (int i = first; i < first + nlimbs; i++)
				{
					int64		limb = (int64) read_uint(&r, 8);

					/* normalized: digits in [0, 2^32), a signed top limb */
					if (i < GR_XSUM_LIMBS - 1 ? (limb < 0 || limb > PG_UINT32_MAX)
						: (limb < -(INT64CONST(1) << 61) || limb > (INT64CONST(1) << 61)))
						malformed("accumulator limb out of range");
					x->limb[i] = limb;
				}
				/* kept small when it fits, as the state was before serializing */
				if (!gr_xsmall_from_xsum(&p->small, x))
				{
					gr_partial_set_xsum(p, MemoryContextAlloc(CurrentMemoryContext,
															  sizeof(GrXsum)));
					*p->xsum = full;
				}
			}
			else
			{
				uint64		hi = read_uint(&r, 8);
				uint64		lo = read_uint(&r, 8);

				p->isum = (int128) (((uint128) hi << 64) | lo);
			}
			break;
		case GR_OP_MIN:
		case GR_OP_MAX:
			p->key = (int64) read_uint(&r, 8);
			if (!key_in_range(type, p->key))
				malformed("value out of range for its type");
			break;
		case GR_OP_TOPK:
			{
				int32		k = (int32) read_uint(&r, 4);
				int32		n = (int32) read_uint(&r, 4);
				int64		prev = 0;

				if (k < 1 || k > GR_TOPK_MAX)
					malformed("k out of range");
				if (n != Min(p->count, (int64) k))
					malformed("number of top-k values does not match the count");
				p->k = k;
				for (int32 i = 0; i < n; i++)
				{
					int64		key = (int64) read_uint(&r, 8);

					if (!key_in_range(type, key))
						malformed("value out of range for its type");
					if (i > 0 && key > prev)
						malformed("top-k values not in descending order");
					prev = key;
					gr_partial_topk_push(p, CurrentMemoryContext, key);
				}
				break;
			}
	}
	if (r.pos != r.len)
		malformed("trailing bytes");
	return st;
}

/* Deserialize function. */
Datum
gpu_reduce_deserialize(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(read_state(PG_GETARG_BYTEA_PP(0)));
}

/* gpu_reduce_state_info(bytea): validate and describe a serialized state. */
Datum
gpu_reduce_state_info(PG_FUNCTION_ARGS)
{
	static const char *const ops[] = {"", "sum", "min", "max", "avg", "topk"};
	GrState    *st = read_state(PG_GETARG_BYTEA_PP(0));

	PG_RETURN_TEXT_P(cstring_to_text(psprintf("op=%s type=%s count=" INT64_FORMAT,
											  ops[st->op], gr_type_info(st->type)->name,
											  st->partial.count)));
}
