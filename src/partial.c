/*
 * partial.c
 *	  Partial results: creating them, adding top-k keys, and combining two of
 *	  them.
 *
 * The accumulators of fixed-width values (kinds.h): 128-bit integer sums,
 * exact float sums, min/max order keys and the top-k heap of keys, with
 * their initial values, combine functions, serialized fields and GPU
 * results.  Every reducer's output ends up here: the CPU reducer folds
 * values into a partial result, a GPU batch comes back as a partial result
 * that is combined, and parallel workers' states are combined the same way.  Every
 * field combines associatively and commutatively and exactly (integer sums
 * in 128 bits, float sums in the exact accumulator, min/max/top-k on order
 * keys), so the grouping of values into batches cannot change the answer.
 */
#include "accum.h"

#include <math.h>

#include "libpq/pqformat.h"
#include "gr_cuda.h"

/* empty partial results (the rest of the used size is zero; isum needs nothing more) */
void
gr_xsum_acc_init(GrPartial *p, int32 k)
{
	gr_xsmall_init(&p->small);
}

void
gr_key_min_init(GrPartial *p, int32 k)
{
	p->key = PG_INT64_MAX;
}

void
gr_key_max_init(GrPartial *p, int32 k)
{
	p->key = PG_INT64_MIN;
}

void
gr_topk_init(GrPartial *p, int32 k)
{
	p->k = k;
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

/*
 * Keys a top-k heap has room for once it holds min(k, values) of them: its
 * capacity doubles from 16 as it fills, up to k (gr_partial_topk_push and
 * numeric_state.c's heap alike).
 */
double
gr_topk_heap_cap(int32 k, double values)
{
	double		keep = Min((double) k, values);

	if (keep < 1)
		return 0;
	return Min((double) k, Max(16.0, (double) pg_nextpower2_32((uint32) ceil(keep))));
}

/* memory beside the state, for the planner (GrAccum.side_bytes) */
double
gr_xsum_acc_side(int32 k, double values, double width)
{
	/*
	 * the full accumulator a sum of widely spread values moves to; one
	 * value per group always fits the state's small one (an all-distinct
	 * GROUP BY planned 1 kB a group for it, and its hash aggregation spilled
	 * at 60 % of work_mem)
	 */
	if (values < 2)
		return 0;
	return gr_palloc_bytes(sizeof(GrXsum));
}

double
gr_topk_side(int32 k, double values, double width)
{
	double		cap = gr_topk_heap_cap(k, values);

	return cap > 0 ? gr_palloc_bytes((Size) cap * sizeof(int64)) : 0;
}

/* dst += src for each accumulator (counts already added) */
void
gr_isum_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src)
{
	dst->isum += src->isum;
}

void
gr_xsum_acc_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src)
{
	if (!gr_partial_is_wide(dst) && !gr_partial_is_wide(src) &&
		gr_xsmall_merge(&dst->small, &src->small))
		return;
	if (!gr_partial_is_wide(dst))
		gr_partial_widen(dst, mcxt);
	if (gr_partial_is_wide(src))
		gr_xsum_merge(dst->xsum, src->xsum);
	else
		gr_xsmall_to_xsum(&src->small, dst->xsum);
}

void
gr_key_min_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src)
{
	dst->key = Min(dst->key, src->key);
}

void
gr_key_max_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src)
{
	dst->key = Max(dst->key, src->key);
}

void
gr_topk_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src)
{
	for (int32 i = 0; i < src->nkeys; i++)
		gr_partial_topk_push(dst, mcxt, src->keys[i]);
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

/* Whether an order key can come from a value of the type. */
static bool
key_in_range(GrType type, int64 key)
{
	return key >= gr_type_info(type)->key_min && key <= gr_type_info(type)->key_max;
}

/*
 * Serialized fields (serial.c writes the common header; the layout is
 * listed there).  Every reader checks what it reads.
 */
void
gr_isum_send(StringInfo buf, GrState *st)
{
	pq_sendint64(buf, (int64) (st->partial.isum >> 64));
	pq_sendint64(buf, (int64) (uint64) st->partial.isum);
}

void
gr_isum_recv(GrReader *r, GrState *st)
{
	uint64		hi = gr_read_uint(r, 8);
	uint64		lo = gr_read_uint(r, 8);

	st->partial.isum = (int128) (((uint128) hi << 64) | lo);
}

/* An exact float sum's fields: its counters and its nonzero limbs, normalized. */
void
gr_xsum_send(StringInfo buf, GrXsum *x)
{
	int			first = 0;
	int			last = GR_XSUM_LIMBS - 1;

	gr_xsum_normalize(x);
	while (first <= last && x->limb[first] == 0)
		first++;
	while (last >= first && x->limb[last] == 0)
		last--;
	pq_sendint64(buf, x->nan);
	pq_sendint64(buf, x->pinf);
	pq_sendint64(buf, x->ninf);
	pq_sendint64(buf, x->negzero);
	pq_sendint16(buf, first > last ? 0 : first);
	pq_sendint16(buf, last - first + 1);
	for (int i = first; i <= last; i++)
		pq_sendint64(buf, x->limb[i]);
}

/* Read them into x (initialized here), checked against the state's count. */
void
gr_xsum_recv(GrReader *r, GrXsum *x, int64 count)
{
	int			first,
				nlimbs;

	gr_xsum_init(x);
	x->nan = (int64) gr_read_uint(r, 8);
	x->pinf = (int64) gr_read_uint(r, 8);
	x->ninf = (int64) gr_read_uint(r, 8);
	x->negzero = (int64) gr_read_uint(r, 8);
	if (x->nan < 0 || x->pinf < 0 || x->ninf < 0 || x->negzero < 0 ||
		x->nan > count || x->pinf > count ||
		x->ninf > count || x->negzero > count)
		gr_malformed("special value counts out of range");
	first = (int) gr_read_uint(r, 2);
	nlimbs = (int) gr_read_uint(r, 2);
	if (first + nlimbs > GR_XSUM_LIMBS)
		gr_malformed("accumulator limbs out of range");
	for (int i = first; i < first + nlimbs; i++)
	{
		int64		limb = (int64) gr_read_uint(r, 8);

		/* normalized: digits in [0, 2^32), a signed top limb */
		if (i < GR_XSUM_LIMBS - 1 ? (limb < 0 || limb > PG_UINT32_MAX)
			: (limb < -(INT64CONST(1) << 61) || limb > (INT64CONST(1) << 61)))
			gr_malformed("accumulator limb out of range");
		x->limb[i] = limb;
	}
}

void
gr_xsum_acc_send(StringInfo buf, GrState *st)
{
	GrXsum		tmp;

	gr_xsum_send(buf, gr_partial_xsum(&st->partial, &tmp));
}

void
gr_xsum_acc_recv(GrReader *r, GrState *st)
{
	GrPartial  *p = &st->partial;
	GrXsum		full;

	gr_xsum_recv(r, &full, p->count);
	/* kept small when it fits, as the state was before serializing */
	if (!gr_xsmall_from_xsum(&p->small, &full))
	{
		gr_partial_set_xsum(p, MemoryContextAlloc(CurrentMemoryContext, sizeof(GrXsum)));
		*p->xsum = full;
	}
}

void
gr_key_send(StringInfo buf, GrState *st)
{
	pq_sendint64(buf, st->partial.key);
}

void
gr_key_recv(GrReader *r, GrState *st)
{
	st->partial.key = (int64) gr_read_uint(r, 8);
	if (!key_in_range(st->type, st->partial.key))
		gr_malformed("value out of range for its type");
}

void
gr_topk_send(StringInfo buf, GrState *st)
{
	int64	   *keys;
	int			n = gr_partial_sorted_keys(&st->partial, &keys);

	pq_sendint32(buf, st->partial.k);
	pq_sendint32(buf, n);
	for (int i = 0; i < n; i++)
		pq_sendint64(buf, keys[i]);
}

/* top-k's k and count, checked; the heap is empty and takes k */
int32
gr_topk_recv_head(GrReader *r, GrPartial *p)
{
	int32		k = (int32) gr_read_uint(r, 4);
	int32		n = (int32) gr_read_uint(r, 4);

	if (!gr_k_in_range(k))
		gr_malformed("k out of range");
	if (n != Min(p->count, (int64) k))
		gr_malformed("number of top-k values does not match the count");
	p->k = k;
	return n;
}

void
gr_topk_recv(GrReader *r, GrState *st)
{
	GrPartial  *p = &st->partial;
	int32		n = gr_topk_recv_head(r, p);
	int64		prev = 0;

	for (int32 i = 0; i < n; i++)
	{
		int64		key = (int64) gr_read_uint(r, 8);

		if (!key_in_range(st->type, key))
			gr_malformed("value out of range for its type");
		if (i > 0 && key > prev)
			gr_malformed("top-k values not in descending order");
		prev = key;
		gr_partial_topk_push(p, CurrentMemoryContext, key);
	}
}

/*
 * A kernel's result as a partial result (count and k set by the caller):
 * the integer sum, exact float sum, key or keys it wrote.  keys point into
 * the result or the slot: the combine copies them.
 */
void
gr_isum_from_gpu(GrPartial *p, const GrCudaResult *r, int cuda_op, int64 *topk)
{
	p->isum = (int128) (((uint128) (uint64) r->sum_hi << 64) | (uint64) r->sum_lo);
}

void
gr_xsum_acc_from_gpu(GrPartial *p, const GrCudaResult *r, int cuda_op, int64 *topk)
{
	gr_partial_set_xsum(p, (GrXsum *) &r->xsum);
}

void
gr_key_from_gpu(GrPartial *p, const GrCudaResult *r, int cuda_op, int64 *topk)
{
	p->key = r->key[0];
}

void
gr_topk_from_gpu(GrPartial *p, const GrCudaResult *r, int cuda_op, int64 *topk)
{
	p->nkeys = r->nkeys;
	p->keys = cuda_op == GR_CUDA_TOP2 ? (int64 *) r->key : topk;
}
