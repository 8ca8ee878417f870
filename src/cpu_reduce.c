/*
 * cpu_reduce.c
 *	  The CPU reducer: each fixed-width accumulator's fold of a batch of raw
 *	  values into a partial result (GrAccum.fold_batch; gr_cpu_reduce in
 *	  kinds.c picks the state's).
 *
 * It takes every batch the GPU does not: small ones, all of them without a
 * GPU, and any batch whose GPU reduction failed.  Its results are exact, so
 * they agree bit for bit with the GPU's.
 */
#include "accum.h"

/* Order key of value i of a batch of the given type. */
static inline int64
key_at(GrType storage, const void *values, int32 i)
{
	switch (storage)
	{
		case GR_INT2:
			return ((const int16 *) values)[i];
		case GR_INT4:
			return ((const int32 *) values)[i];
		case GR_INT8:
			return ((const int64 *) values)[i];
		case GR_FLOAT4:
			return gr_key_float4(((const float4 *) values)[i]);
		default:
			return gr_key_float8(((const float8 *) values)[i]);
	}
}

/* Exact sum of a batch of integers. */
static int128
sum_integers(GrType storage, const void *values, int32 n)
{
	int128		sum = 0;

	switch (storage)
	{
		case GR_INT2:
			{
				const int16 *v = values;
				int64		s = 0;

				for (int32 i = 0; i < n; i++)
					s += v[i];
				sum = s;
				break;
			}
		case GR_INT4:
			{
				const int32 *v = values;
				int64		s = 0;	/* n < 2^31 values below 2^31 fit */

				for (int32 i = 0; i < n; i++)
					s += v[i];
				sum = s;
				break;
			}
		case GR_INT8:
			{
				const int64 *v = values;

				for (int32 i = 0; i < n; i++)
					sum += v[i];
				break;
			}
		default:
			elog(ERROR, "gpu_reduce: integer sum of a float type");
	}
	return sum;
}

/*
 * Smallest (want_max false) or largest order key of n keys computed by
 * KEY(i): one loop per type, without branches, so that it vectorizes.
 */
#define EXTREME_KEY(KEY) \
	do { \
		best = KEY(0); \
		if (want_max) \
			for (int32 i = 1; i < n; i++) \
				best = Max(best, KEY(i)); \
		else \
			for (int32 i = 1; i < n; i++) \
				best = Min(best, KEY(i)); \
	} while (0)

/* Smallest (want_max false) or largest order key of a batch. */
static int64
extreme_key(GrType storage, const void *values, int32 n, bool want_max)
{
	int64		best;

	switch (storage)
	{
#define KEY_INT2(i) ((int64) ((const int16 *) values)[i])
#define KEY_INT4(i) ((int64) ((const int32 *) values)[i])
#define KEY_INT8(i) (((const int64 *) values)[i])
#define KEY_FLOAT4(i) ((int64) gr_key_float4_bits(((const int32 *) values)[i]))
#define KEY_FLOAT8(i) gr_key_float8_bits(((const int64 *) values)[i])
		case GR_INT2:
			EXTREME_KEY(KEY_INT2);
			break;
		case GR_INT4:
			EXTREME_KEY(KEY_INT4);
			break;
		case GR_INT8:
			EXTREME_KEY(KEY_INT8);
			break;
		case GR_FLOAT4:
			EXTREME_KEY(KEY_FLOAT4);
			break;
		default:
			EXTREME_KEY(KEY_FLOAT8);
			break;
	}
	return best;
}

/*
 * Add a batch of float4 or float8 values to the exact sum: in the small
 * accumulator while they fit, the rest in the full one.
 */
static void
add_floats(GrState *st, const void *values, int32 n)
{
	GrPartial  *p = &st->partial;
	bool		is_double = gr_type_info(st->type)->storage == GR_FLOAT8;
	int32		i = 0;

	if (!gr_partial_is_wide(p) && n >= GR_XSUM_BUCKETED_MIN)
	{
		/*
		 * Many values: sum them in a full accumulator the bucketed way
		 * (xsum.c), then fold that into the small one if its window holds
		 * it.  Either way the sum is exact, so the answer is the same.
		 */
		GrXsum		batch;
		GrXsmall	sum;

		gr_xsum_init(&batch);
		if (is_double)
			gr_xsum_add_doubles(&batch, (const float8 *) values, n);
		else
			gr_xsum_add_floats(&batch, (const float4 *) values, n);
		gr_xsum_normalize(&batch);
		if (gr_xsmall_from_xsum(&sum, &batch) && gr_xsmall_merge(&p->small, &sum))
			return;
		gr_partial_widen(p, gr_state_mcxt(st));
		gr_xsum_merge(p->xsum, &batch);
		return;
	}
	if (!gr_partial_is_wide(p))
	{
		if (is_double)
			while (i < n && gr_xsmall_add(&p->small, ((const float8 *) values)[i]))
				i++;
		else
			while (i < n && gr_xsmall_add(&p->small, ((const float4 *) values)[i]))
				i++;
		if (i == n)
			return;
		gr_partial_widen(p, gr_state_mcxt(st));
	}
	if (is_double)
		gr_xsum_add_doubles(p->xsum, (const float8 *) values + i, n - i);
	else
		gr_xsum_add_floats(p->xsum, (const float4 *) values + i, n - i);
}

/* The state's type's storage kind (which loop reads its values). */
static inline GrType
storage_of(GrState *st)
{
	return gr_type_info(st->type)->storage;
}

/* the batch folds of the fixed-width accumulators (GrAccum.fold_batch) */
void
gr_cpu_isum(GrState *st, const void *values, int32 n)
{
	st->partial.isum += sum_integers(storage_of(st), values, n);
}

void
gr_cpu_xsum(GrState *st, const void *values, int32 n)
{
	add_floats(st, values, n);
}

void
gr_cpu_key_min(GrState *st, const void *values, int32 n)
{
	st->partial.key = Min(st->partial.key, extreme_key(storage_of(st), values, n, false));
}

void
gr_cpu_key_max(GrState *st, const void *values, int32 n)
{
	st->partial.key = Max(st->partial.key, extreme_key(storage_of(st), values, n, true));
}

void
gr_cpu_key_topk(GrState *st, const void *values, int32 n)
{
	GrType		storage = storage_of(st);

	for (int32 i = 0; i < n; i++)
		gr_partial_topk_push(&st->partial, gr_state_mcxt(st), key_at(storage, values, i));
}

