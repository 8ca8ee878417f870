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
 *	 numeric sum/avg:      sum_hi:8 sum_lo:8 scale:4 nan:8 pinf:8 ninf:8
 *						   slow_len:4 slow:slow_len (the slow path's sum as
 *						   text; slow_len -1: none)
 *	 numeric min/max:      len:4 value:len (text)
 *	 numeric top-k:        k:4 n:4 (len:4 value:len) * n (descending)
 * The deserializer checks every field and the length, so a malformed value
 * is an ERROR and never a crash or a wrong answer.
 */
#include "gpu_reduce.h"
#include "bulk.h"

#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/numeric.h"

#define GR_FORMAT_VERSION 1

PG_FUNCTION_INFO_V1(gpu_reduce_serialize);
PG_FUNCTION_INFO_V1(gpu_reduce_deserialize);
PG_FUNCTION_INFO_V1(gpu_reduce_state_info);

/* Write a numeric as its text, length first; -1 for none. */
static void
send_numeric(StringInfo buf, Datum value)
{
	char	   *s;
	int			len;

	if (value == (Datum) 0)
	{
		pq_sendint32(buf, -1);
		return;
	}
	s = DatumGetCString(DirectFunctionCall1(numeric_out, value));
	len = strlen(s);
	pq_sendint32(buf, len);
	pq_sendbytes(buf, s, len);
	pfree(s);
}

/* The fields of a numeric state's partial result. */
static void
send_numeric_partial(StringInfo buf, GrState *st)
{
	GrPartial  *p = &st->partial;

	switch (st->op)
	{
		case GR_OP_SUM:
		case GR_OP_AVG:
			pq_sendint64(buf, (int64) (p->nsum >> 64));
			pq_sendint64(buf, (int64) (uint64) p->nsum);
			pq_sendint32(buf, p->nscale);
			pq_sendint64(buf, p->nslow ? p->nslow->nan : 0);
			pq_sendint64(buf, p->nslow ? p->nslow->pinf : 0);
			pq_sendint64(buf, p->nslow ? p->nslow->ninf : 0);
			send_numeric(buf, p->nslow ? p->nslow->sum : (Datum) 0);
			break;
		case GR_OP_MIN:
		case GR_OP_MAX:
			send_numeric(buf, p->nbest);
			break;
		case GR_OP_TOPK:
			{
				Datum	   *values;
				int			n = gr_numeric_sorted(p, &values);

				pq_sendint32(buf, p->k);
				pq_sendint32(buf, n);
				for (int i = 0; i < n; i++)
					send_numeric(buf, values[i]);
				break;
			}
	}
}

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
	if (gr_type_info(st->type)->storage == GR_STORAGE_DATUM)
	{
		send_numeric_partial(&buf, st);
		return pq_endtypsend(&buf);
	}
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

/* Read a numeric written by send_numeric; (Datum) 0 for none (-1). */
static Datum
read_numeric(Reader *r, bool allow_none)
{
	int32		len = (int32) read_uint(r, 4);
	Datum		v;

	if (len == -1 && allow_none)
		return (Datum) 0;
	if (len <= 0 || len > r->len - r->pos)
		malformed("numeric value length out of range");
	v = gr_numeric_parse((const char *) r->data + r->pos, len);
	r->pos += len;
	return v;
}

/* Read and check the fields of a numeric state's partial result. */
static void
read_numeric_partial(Reader *r, GrState *st)
{
	GrPartial  *p = &st->partial;

	switch ((GrOp) st->op)
	{
		case GR_OP_SUM:
		case GR_OP_AVG:
			{
				uint64		hi = read_uint(r, 8);
				uint64		lo = read_uint(r, 8);
				int32		scale = (int32) read_uint(r, 4);
				int64		nan = (int64) read_uint(r, 8);
				int64		pinf = (int64) read_uint(r, 8);
				int64		ninf = (int64) read_uint(r, 8);
				Datum		sum = read_numeric(r, true);

				if (scale < 0 || scale > gr_numeric_max_scale())
					malformed("numeric scale out of range");
				if (nan < 0 || pinf < 0 || ninf < 0 ||
					nan > p->count || pinf > p->count || ninf > p->count)
					malformed("special value counts out of range");
				if (sum != (Datum) 0 &&
					(numeric_is_nan(DatumGetNumeric(sum)) || numeric_is_inf(DatumGetNumeric(sum))))
					malformed("numeric sum not finite");
				p->nsum = (int128) (((uint128) hi << 64) | lo);
				p->nscale = scale;
				if (nan || pinf || ninf || sum != (Datum) 0)
				{
					p->nslow = palloc0(sizeof(GrNumericSlow));
					p->nslow->nan = nan;
					p->nslow->pinf = pinf;
					p->nslow->ninf = ninf;
					p->nslow->sum = sum;
				}
				break;
			}
		case GR_OP_MIN:
		case GR_OP_MAX:
			{
				Datum		v = read_numeric(r, p->count == 0);

				if (v != (Datum) 0)
					gr_numeric_push(p, CurrentMemoryContext, (GrOp) st->op, v);
				break;
			}
			break;
		case GR_OP_TOPK:
			{
				int32		k = (int32) read_uint(r, 4);
				int32		n = (int32) read_uint(r, 4);
				Datum		prev = (Datum) 0;

				if (!gr_k_in_range(k))
					malformed("k out of range");
				if (n != Min(p->count, (int64) k))
					malformed("number of top-k values does not match the count");
				p->k = k;
				for (int32 i = 0; i < n; i++)
				{
					Datum		v = read_numeric(r, false);

					if (i > 0 && gr_numeric_cmp(v, prev) > 0)
						malformed("top-k values not in descending order");
					prev = v;
					gr_numeric_push(p, CurrentMemoryContext, GR_OP_TOPK, v);
				}
				break;
			}
	}
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

	if (gr_type_info(type)->storage == GR_STORAGE_DATUM)
	{
		read_numeric_partial(&r, st);
		if (r.pos != r.len)
			malformed("trailing bytes");
		return st;
	}
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

				if (!gr_k_in_range(k))
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
