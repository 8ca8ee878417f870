/*
 * batch.h
 *	  The per-value path into a state: folding a value in place, appending it
 *	  to the state's batch, or handing it to batch.c when the batch is full.
 *
 * Inline, so that each caller (agg.c's transition functions, the bulk
 * scan) gets code compiled for its aggregate kind; everything past a full
 * batch is batch.c's.
 */
#ifndef GR_BATCH_H
#define GR_BATCH_H

#include "state.h"
#include "kinds.h"

/* state and batch (batch.c) */
extern GrState *gr_state_create(MemoryContext mcxt, GrOp op, GrType type,
								int32 k);
extern void gr_state_add_slow(GrState *st, Datum value);
extern void gr_state_settle(GrState *st);
extern void gr_state_release_buffer(GrState *st);

/* finalize and serialize a state outside an aggregate call (agg.c, serial.c) */
extern Datum gr_state_final(GrState *st, bool *isnull);
extern bytea *gr_state_serialize(GrState *st);

/* Add one value to the exact float sum of a state's partial result. */
static inline void
gr_state_add_double(GrState *st, double v)
{
	GrPartial  *p = &st->partial;

	if (likely(!gr_partial_is_wide(p)))
	{
		if (likely(gr_xsmall_add(&p->small, v)))
			return;
		gr_partial_widen(p, gr_state_mcxt(st));
	}
	gr_xsum_add_double(p->xsum, v);
}

/* A value of a fixed-width type (given by its storage kind) as its order key. */
static pg_attribute_always_inline int64
gr_datum_key(GrType storage, Datum value)
{
	switch (storage)
	{
		case GR_INT2:
			return DatumGetInt16(value);
		case GR_INT4:
			return DatumGetInt32(value);
		case GR_INT8:
			return DatumGetInt64(value);
		case GR_FLOAT4:
			return gr_key_float4(DatumGetFloat4(value));
		default:
			return gr_key_float8(DatumGetFloat8(value));
	}
}

/*
 * Fold one value straight into the partial result, the way native
 * aggregates work, without counting it in gr_stats: the row path's folds
 * in place (agg.c), where one increment of a global counter a row was
 * measured at 2.5 % of the row's cost.
 */
static pg_attribute_always_inline void
gr_fold_value(GrState *st, GrOp op, Datum value)
{
	GrPartial  *p = &st->partial;
	GrType		storage = gr_types[st->type].storage;
	int64		key = gr_datum_key(storage, value);

	switch (op)
	{
		case GR_OP_SUM:
		case GR_OP_AVG:
			if (storage >= GR_FLOAT4)
				gr_state_add_double(st, storage == GR_FLOAT8 ? DatumGetFloat8(value)
									: (double) DatumGetFloat4(value));
			else
				p->isum += key;
			break;
		case GR_OP_MIN:
			if (key < p->key)
				p->key = key;
			break;
		case GR_OP_MAX:
			if (key > p->key)
				p->key = key;
			break;
		case GR_OP_TOPK:
			gr_partial_topk_push(p, gr_state_mcxt(st), key);
			break;
		default:
			if (gr_state_accum(st)->fold_key != NULL)
				gr_state_accum(st)->fold_key(p, key);
			else
			{
				/* no fold in place: the accumulator's batch fold, of one */
				uint64		bits;

				gr_store_value(st->type, &bits, 0, value);
				gr_state_accum(st)->fold_batch(st, &bits, 1);
			}
			break;
	}
	p->count++;
}

/*
 * Fold one value into the partial result, counted as a row but not as a
 * batch (EXPLAIN said "CPU Batches: 5000000" for 5 M values folded so).  A
 * state does this until it has values enough to make a batch worth having
 * (batch.c).
 */
static pg_attribute_always_inline void
gr_fold_one(GrState *st, GrOp op, Datum value)
{
	gr_fold_value(st, op, value);
	gr_stats.cpu_rows++;
}

/*
 * Append one value to the state's batch if it has room: the per-row path of
 * a large state.  False for a state without a batch or with a full one.
 */
static pg_attribute_always_inline bool
gr_state_append(GrState *st, Datum value)
{
	GrStateExt *ext = st->ext;

	if (ext == NULL || ext->batch.n >= ext->batch.cap)
		return false;
	gr_store_value(st->type, ext->batch.values, ext->batch.n++, value);
	return true;
}

/*
 * Add one non-NULL input value to the state.  op is st->op, passed so that
 * a caller that knows it gets code for that op alone (agg.c compiles the
 * rows that do not simply append once per op).
 */
static pg_attribute_always_inline void
gr_state_add(GrState *st, GrOp op, Datum value)
{
	if (likely(gr_state_append(st, value)))
		return;
	if (st->direct_left > 0)
	{
		st->direct_left--;
		gr_fold_one(st, op, value);
	}
	else
		gr_state_add_slow(st, value);
}


/*
 * Add n non-NULL values, given as zero-extended bits, to the state: the
 * bulk scan's path.  Runs that fit the batch are copied at once; the rest
 * go one by one (a small state, a full batch).
 */
static pg_attribute_always_inline void
gr_state_add_many(GrState *st, GrOp op, const uint64 *bits, int32 n)
{
	int32		i = 0;

	/* numeric: the bits are the values' addresses in the page */
	if (unlikely(!gr_state_accum(st)->batches))
	{
		StaticAssertStmt(sizeof(Datum) == sizeof(uint64), "a Datum holds an address");
		gr_numeric_fold(st, gr_state_accum(st)->fold_datum, (const Datum *) bits, n);
		return;
	}
	while (i < n)
	{
		GrStateExt *ext = st->ext;

		if (ext != NULL && ext->batch.n < ext->batch.cap)
		{
			int32		m = Min(n - i, ext->batch.cap - ext->batch.n);

			gr_store_values(st->type, ext->batch.values, ext->batch.n, bits + i, m);
			ext->batch.n += m;
			i += m;
		}
		else
			gr_state_add(st, op, (Datum) bits[i++]);
	}
}

#endif							/* GR_BATCH_H */
