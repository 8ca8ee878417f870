/*
 * partial.c
 *	  Partial results: creating them, adding top-k keys, and combining two of
 *	  them.
 *
 * Every reducer's output ends up here: the CPU reducer folds values into a
 * partial result, a GPU batch comes back as a partial result that is
 * combined, and parallel workers' states are combined the same way.  Every
 * field combines associatively and commutatively and exactly (integer sums
 * in 128 bits, float sums in the exact accumulator, min/max/top-k on order
 * keys), so the grouping of values into batches cannot change the answer.
 */
#include "gpu_reduce.h"

/* Bytes of a GrPartial that op on type uses. */
Size
gr_partial_size(GrOp op, GrType type)
{
	if (gr_type_info(type)->storage == GR_STORAGE_DATUM)
	{
		if (op == GR_OP_SUM || op == GR_OP_AVG)
			return offsetof(GrPartial, nslow) + sizeof(GrNumericSlow *);
		if (op == GR_OP_MIN || op == GR_OP_MAX)
			return offsetof(GrPartial, nbest_head) + sizeof(GrNumHead);
		return sizeof(GrPartial);
	}
	switch (op)
	{
		case GR_OP_SUM:
		case GR_OP_AVG:
			if (!GR_IS_FLOAT(type))
				return offsetof(GrPartial, isum) + sizeof(int128);
			break;
		case GR_OP_MIN:
		case GR_OP_MAX:
			return offsetof(GrPartial, key) + sizeof(int64);
		case GR_OP_TOPK:
			break;
	}
	return sizeof(GrPartial);
}

/* Set up an empty partial result for op on type (gr_partial_size of it). */
void
gr_partial_init(GrPartial *p, MemoryContext mcxt, GrOp op, GrType type, int32 k)
{
	memset(p, 0, gr_partial_size(op, type));
	if (gr_type_info(type)->storage == GR_STORAGE_DATUM)
	{
		/* numeric: empty is all zeros */
		if (op == GR_OP_TOPK)
			p->k = k;
		return;
	}
	switch (op)
	{
		case GR_OP_SUM:
		case GR_OP_AVG:
			if (GR_IS_FLOAT(type))
				gr_xsmall_init(&p->small);
			break;
		case GR_OP_MIN:
			p->key = PG_INT64_MAX;
			break;
		case GR_OP_MAX:
			p->key = PG_INT64_MIN;
			break;
		case GR_OP_TOPK:
			p->k = k;
			break;
	}
}

/*
 * Move a float sum from its small accumulator to a full one, for a value
 * the small one cannot take.
 */
void
gr_partial_widen(GrPartial *p, MemoryContext mcxt)
{
	gr_partial_set_xsum(p, gr_partial_xsum(p, MemoryContextAlloc(mcxt, sizeof(GrXsum))));
}

/* The float sum as a full accumulator: its own, or a copy made in tmp. */
GrXsum *
gr_partial_xsum(GrPartial *p, GrXsum *tmp)
{
	if (gr_partial_is_wide(p))
		return p->xsum;
	gr_xsum_init(tmp);
	gr_xsmall_to_xsum(&p->small, tmp);
	return tmp;
}

/* Restore the min-heap property downwards from position i. */
static void
heap_sift_down(int64 *heap, int32 n, int32 i)
{
	int64		v = heap[i];

	for (;;)
	{
		int32		c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && heap[c + 1] < heap[c])
			c++;
		if (heap[c] >= v)
			break;
		heap[i] = heap[c];
		i = c;
	}
	heap[i] = v;
}

/*
 * Offer one key to the top-k heap.  The heap keeps the k largest keys seen,
 * duplicates included; its root is the smallest of them.
 */
void
gr_partial_topk_push(GrPartial *p, MemoryContext mcxt, int64 key)
{
	if (p->nkeys < p->k)
	{
		int32		i;

		if (p->nkeys == p->keys_cap)
		{
			int32		cap = Min(Max(p->keys_cap * 2, 16), p->k);

			p->keys = p->keys == NULL
				? MemoryContextAlloc(mcxt, sizeof(int64) * cap)
				: repalloc(p->keys, sizeof(int64) * cap);
			p->keys_cap = cap;
		}
		/* sift up */
		i = p->nkeys++;
		while (i > 0 && p->keys[(i - 1) / 2] > key)
		{
			p->keys[i] = p->keys[(i - 1) / 2];
			i = (i - 1) / 2;
		}
		p->keys[i] = key;
	}
	else if (key > p->keys[0])
	{
		p->keys[0] = key;
		heap_sift_down(p->keys, p->nkeys, 0);
	}
}

/* dst += src, for partial results of the same op and type. */
void
gr_partial_combine(GrPartial *dst, MemoryContext mcxt, GrOp op, GrType type,
				   const GrPartial *src)
{
	if (src->count == 0)
		return;
	dst->count += src->count;
	if (gr_type_info(type)->storage == GR_STORAGE_DATUM)
	{
		gr_numeric_combine(dst, mcxt, op, src);
		return;
	}
	switch (op)
	{
		case GR_OP_SUM:
		case GR_OP_AVG:
			if (!GR_IS_FLOAT(type))
				dst->isum += src->isum;
			else if (!gr_partial_is_wide(dst) && !gr_partial_is_wide(src) &&
					 gr_xsmall_merge(&dst->small, &src->small))
				break;
			else
			{
				if (!gr_partial_is_wide(dst))
					gr_partial_widen(dst, mcxt);
				if (gr_partial_is_wide(src))
					gr_xsum_merge(dst->xsum, src->xsum);
				else
					gr_xsmall_to_xsum(&src->small, dst->xsum);
			}
			break;
		case GR_OP_MIN:
			dst->key = Min(dst->key, src->key);
			break;
		case GR_OP_MAX:
			dst->key = Max(dst->key, src->key);
			break;
		case GR_OP_TOPK:
			for (int32 i = 0; i < src->nkeys; i++)
				gr_partial_topk_push(dst, mcxt, src->keys[i]);
			break;
	}
}

/* qsort comparator: descending keys */
static int
key_cmp_desc(const void *a, const void *b)
{
	int64		x = *(const int64 *) a;
	int64		y = *(const int64 *) b;

	return (x < y) - (x > y);
}

/* A palloc'd copy of the top-k keys in descending order; the heap stays. */
int
gr_partial_sorted_keys(GrPartial *p, int64 **keys)
{
	int64	   *sorted = palloc(sizeof(int64) * Max(p->nkeys, 1));

	memcpy(sorted, p->keys, sizeof(int64) * p->nkeys);
	qsort(sorted, p->nkeys, sizeof(int64), key_cmp_desc);
	*keys = sorted;
	return p->nkeys;
}
