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
 * Each accumulator writes and reads its own fields (kinds.h: send, recv;
 * partial.c, numeric_state.c).  The deserializer checks every field and the
 * length, so a malformed value is an ERROR and never a crash or a wrong
 * answer.
 */
#include "batch.h"
#include "bulk.h"

#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/numeric.h"

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
	gr_state_accum(st)->send(&buf, st);
	return pq_endtypsend(&buf);
}

/* Serialize function: settle the state and write its partial result. */
Datum
gpu_reduce_serialize(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(gr_state_serialize((GrState *) PG_GETARG_POINTER(0)));
}

/* Parse and check serialized bytes into a new state in CurrentMemoryContext. */
static GrState *
read_state(bytea *bytes)
{
	GrReader	r = {(const uint8 *) VARDATA_ANY(bytes), VARSIZE_ANY_EXHDR(bytes), 0};
	int			version,
				op,
				type;
	GrState    *st;
	GrPartial  *p;

	version = (int) gr_read_uint(&r, 1);
	if (version != GR_FORMAT_VERSION)
		gr_malformed(psprintf("unsupported format version %d", version));
	op = (int) gr_read_uint(&r, 1);
	type = (int) gr_read_uint(&r, 1);
	if (op < GR_OP_SUM || op > GR_OP_LAST)
		gr_malformed(psprintf("unknown operation %d", op));
	if (type < GR_INT2 || type > GR_TYPE_LAST)
		gr_malformed(psprintf("unknown type %d", type));
	if (gr_kind_accum(op, type) == NULL)
		gr_malformed(psprintf("no %s of type %s", gr_kind(op)->name, gr_type_info(type)->name));

	st = gr_state_create(CurrentMemoryContext, op, type,
						 gr_kind(op)->takes_k ? GR_TOPK_MAX : 0);
	p = &st->partial;
	p->count = (int64) gr_read_uint(&r, 8);
	if (p->count < 0)
		gr_malformed("negative count");
	gr_state_accum(st)->recv(&r, st);
	if (r.pos != r.len)
		gr_malformed("trailing bytes");
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
	GrState    *st = read_state(PG_GETARG_BYTEA_PP(0));

	PG_RETURN_TEXT_P(cstring_to_text(psprintf("op=%s type=%s count=" INT64_FORMAT,
											  gr_kind(st->op)->name, gr_type_info(st->type)->name,
											  st->partial.count)));
}
