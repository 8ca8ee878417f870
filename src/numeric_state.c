/*
 * numeric_state.c
 *	  The aggregates over numeric: an exact sum on a scaled 128-bit integer
 *	  with an exact slow path, and min/max/top-k over copies of the values.
 *
 * numeric is variable-length, so its states never batch: every value is
 * folded on the CPU as it arrives (GR_STORAGE_DATUM).
 *
 * Sum and avg: a finite value whose digits fit a 128-bit integer at the
 * state's scale (the largest display scale seen so far, at most
 * GR_NUMERIC_MAX_SCALE) is decoded straight from its base-10000 digits,
 * without numeric arithmetic, and added to nsum = sum * 10^nscale.  A value
 * with a larger display scale first rescales nsum.  Whatever does not fit
 * (a value too large at the scale, a scale past GR_NUMERIC_MAX_SCALE, a
 * rescale or an addition that would overflow) goes to the slow path: an exact
 * numeric sum kept with PostgreSQL's numeric_add, which the fast sum joins
 * when it would overflow.  NaN and the infinities are counted.  So the sum is
 * always exact, its display scale is the largest input's (as sum()'s is), and
 * finalize builds it once; avg divides it by the count with numeric_div, as
 * numeric_avg does, so the text is avg()'s.
 *
 * Min, max and top-k keep copies of the best values in the aggregate context
 * and compare values in PostgreSQL's numeric order (NaN greatest) digit by
 * digit, as numeric_cmp does but without its calls and allocations; equal
 * values of different display scales (1.5 and 1.50) are ordered by scale,
 * so the value returned does not depend on row order.
 */
#include "accum.h"

#include "catalog/pg_type.h"
#include "libpq/pqformat.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/numeric.h"

/* largest scale of the fast path: 10^38 is the largest power of 10 in an int128 */
#define GR_NUMERIC_MAX_SCALE 38

/* what kind of value a numeric is (GrNumHead.kind) */
typedef enum NumKind
{
	NUM_FINITE,
	NUM_NAN,
	NUM_PINF,
	NUM_NINF
} NumKind;

/* header bits of numeric.c */
#define NUM_SIGN_MASK		0xC000
#define NUM_NEG				0x4000
#define NUM_SHORT			0x8000
#define NUM_SPECIAL			0xC000
#define NUM_EXT_MASK		0xF000
#define NUM_NAN_BITS		0xC000
#define NUM_PINF_BITS		0xD000
#define NUM_NINF_BITS		0xF000
#define NUM_SHORT_SIGN		0x2000
#define NUM_SHORT_DSCALE_MASK 0x1F80
#define NUM_SHORT_DSCALE_SHIFT 7
#define NUM_SHORT_WEIGHT_SIGN 0x0040
#define NUM_SHORT_WEIGHT_MASK 0x003F
#define NUM_DSCALE_MASK		0x3FFF

/* Read a numeric's header, from a plain or short (packed) varlena. */
static pg_attribute_always_inline void
num_raw(const struct varlena *v, GrNumHead *r)
{
	const uint8 *d = (const uint8 *) VARDATA_ANY(v);
	int			len = VARSIZE_ANY_EXHDR(v);
	uint16		h;

	memcpy(&h, d, sizeof(h));
	if ((h & NUM_SIGN_MASK) == NUM_SPECIAL)
	{
		uint16		ext = h & NUM_EXT_MASK;

		memset(r, 0, sizeof(*r));
		r->kind = ext == NUM_PINF_BITS ? NUM_PINF : ext == NUM_NINF_BITS ? NUM_NINF : NUM_NAN;
		return;
	}
	r->kind = NUM_FINITE;
	if (h & NUM_SHORT)
	{
		r->neg = (h & NUM_SHORT_SIGN) != 0;
		r->dscale = (h & NUM_SHORT_DSCALE_MASK) >> NUM_SHORT_DSCALE_SHIFT;
		r->weight = ((h & NUM_SHORT_WEIGHT_SIGN) ? ~NUM_SHORT_WEIGHT_MASK : 0) |
			(h & NUM_SHORT_WEIGHT_MASK);
		r->digits = d + sizeof(uint16);
		r->ndigits = (len - (int) sizeof(uint16)) / (int) sizeof(int16);
	}
	else
	{
		int16		w;

		r->neg = (h & NUM_SIGN_MASK) == NUM_NEG;
		r->dscale = h & NUM_DSCALE_MASK;
		memcpy(&w, d + sizeof(uint16), sizeof(w));
		r->weight = w;
		r->digits = d + 2 * sizeof(uint16);
		r->ndigits = (len - 2 * (int) sizeof(uint16)) / (int) sizeof(int16);
	}
}

/* A numeric's header, from a plain or short (packed) varlena (group keys). */
void
gr_numeric_head(const struct varlena *v, GrNumHead *r)
{
	num_raw(v, r);
}

/* powers of ten, 10^0 .. 10^38 */
static int128 pow10_128[GR_NUMERIC_MAX_SCALE + 1];
static int64 pow10_64[19];

/* Fill the tables of powers of ten once per backend. */
static inline void
init_pow10(void)
{
	if (pow10_128[0] != 0)
		return;
	pow10_128[0] = 1;
	for (int i = 1; i <= GR_NUMERIC_MAX_SCALE; i++)
		pow10_128[i] = pow10_128[i - 1] * 10;
	for (int i = 0; i < 19; i++)
		pow10_64[i] = (int64) pow10_128[i];
}

/* Base-10000 digit i of a numeric. */
static inline int
num_digit(const GrNumHead *r, int i)
{
	int16		dg;

	memcpy(&dg, r->digits + i * sizeof(int16), sizeof(dg));
	return dg;
}

/*
 * A finite numeric times 10^scale as an int128, from its digits alone;
 * false if it does not fit or has nonzero digits past the scale.  Up to four
 * base-10000 digits (16 decimal digits: every numeric(12,2)) take int64
 * arithmetic.
 */
static pg_attribute_always_inline bool
num_scaled(const GrNumHead *r, int scale, int128 *out)
{
	/* decimal exponent of the last digit's unit, shifted by the scale */
	int			sh = 4 * (r->weight - r->ndigits + 1) + scale;
	int128		acc;

	if (r->ndigits <= 4)
	{
		int64		a = 0;

		for (int i = 0; i < r->ndigits; i++)
			a = a * 10000 + num_digit(r, i);
		if (a == 0)
		{
			*out = 0;
			return true;
		}
		if (sh < 0)
		{
			/* digits past the scale: 1 to 3 decimals of the last base-10000 digit */
			int64		q;

			switch (-sh)
			{
				case 1:
					q = a / 10;
					break;
				case 2:
					q = a / 100;
					break;
				case 3:
					q = a / 1000;
					break;
				default:
					if (-sh > 18)
						return false;
					q = a / pow10_64[-sh];
					break;
			}
			if (q * pow10_64[-sh] != a)
				return false;
			a = q;
			sh = 0;
		}
		/* the sign in 64 bits: the common case never touches 128-bit halves */
		if (r->neg)
			a = -a;
		if (sh == 0)
		{
			*out = a;
			return true;
		}
		if (sh > GR_NUMERIC_MAX_SCALE ||
			__builtin_mul_overflow((int128) a, pow10_128[sh], &acc))
			return false;
		*out = acc;
		return true;
	}
	else
	{
		acc = 0;
		for (int i = 0; i < r->ndigits; i++)
			if (__builtin_mul_overflow(acc, (int128) 10000, &acc) ||
				__builtin_add_overflow(acc, (int128) num_digit(r, i), &acc))
				return false;
		if (acc == 0)
		{
			*out = 0;
			return true;
		}
		if (sh < 0)
		{
			if (-sh > GR_NUMERIC_MAX_SCALE || acc % pow10_128[-sh] != 0)
				return false;
			acc /= pow10_128[-sh];
			sh = 0;
		}
	}
	if (sh > 0 &&
		(sh > GR_NUMERIC_MAX_SCALE || __builtin_mul_overflow(acc, pow10_128[sh], &acc)))
		return false;
	*out = r->neg ? -acc : acc;
	return true;
}

/*
 * v / 10^scale as a numeric of display scale 'scale': numeric.c's own exact
 * conversion where v fits 64 bits (a group's sum, most often), else through
 * its text.
 */
Datum
gr_scaled_numeric(int128 v, int scale)
{
	char		buf[GR_NUMERIC_MAX_SCALE + 48];
	char	   *p = buf + sizeof(buf) - 1;
	uint128		mag = v < 0 ? -(uint128) v : (uint128) v;
	int			ndig = 0;

	if (v >= PG_INT64_MIN && v <= PG_INT64_MAX)
		return NumericGetDatum(scale == 0 ? int64_to_numeric((int64) v)
							   : int64_div_fast_to_numeric((int64) v, scale));
	*p = '\0';
	do
	{
		if (scale > 0 && ndig == scale)
			*--p = '.';
		*--p = '0' + (int) (mag % 10);
		mag /= 10;
		ndig++;
	} while (mag != 0 || ndig <= scale);
	if (v < 0)
		*--p = '-';
	return DirectFunctionCall3(numeric_in, CStringGetDatum(p),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

/* A plain (detoasted, 4-byte header) copy in mcxt of a numeric in any varlena form. */
static Datum
num_copy(MemoryContext mcxt, Datum value)
{
	struct varlena *v = PG_DETOAST_DATUM(value);
	Size		size = VARSIZE(v);
	void	   *copy = MemoryContextAlloc(mcxt, size);

	memcpy(copy, v, size);
	return PointerGetDatum(copy);
}

/* The slow-path part of a numeric sum, made on first use. */
static GrNumericSlow *
slow_of(GrPartial *p, MemoryContext mcxt)
{
	if (p->nslow == NULL)
		p->nslow = MemoryContextAllocZero(mcxt, sizeof(GrNumericSlow));
	return p->nslow;
}

/*
 * slow->sum += value, exactly: numeric_add in the caller's (short-lived)
 * context, the result copied into the aggregate context.
 */
static void
slow_add(GrPartial *p, MemoryContext mcxt, Datum value)
{
	GrNumericSlow *slow = slow_of(p, mcxt);
	Datum		prev = slow->sum;
	Datum		sum;

	if (prev == (Datum) 0)
	{
		slow->sum = num_copy(mcxt, value);
		return;
	}
	sum = DirectFunctionCall2(numeric_add, prev, value);
	slow->sum = num_copy(mcxt, sum);
	pfree(DatumGetPointer(sum));
	pfree(DatumGetPointer(prev));
}

/* Move the fast sum into the slow one (it would overflow); nscale stays. */
static void
flush_fast(GrPartial *p, MemoryContext mcxt)
{
	if (p->nsum != 0)
		slow_add(p, mcxt, gr_scaled_numeric(p->nsum, p->nscale));
	p->nsum = 0;
}

/* Raise the fast sum's scale to 'scale' (<= GR_NUMERIC_MAX_SCALE). */
static void
rescale(GrPartial *p, MemoryContext mcxt, int scale)
{
	int128		m;

	Assert(scale > p->nscale && scale <= GR_NUMERIC_MAX_SCALE);
	if (__builtin_mul_overflow(p->nsum, pow10_128[scale - p->nscale], &m))
	{
		flush_fast(p, mcxt);
		m = 0;
	}
	p->nsum = m;
	p->nscale = scale;
}

/* Add an int128 at the partial's scale to the fast sum, or flush first. */
static inline void
fast_add(GrPartial *p, MemoryContext mcxt, int128 x)
{
	int128		a = p->nsum;
	/*
	 * Wrapping add and the sign test of overflow, not __builtin_add_overflow:
	 * its result goes through the stack as two 8-byte stores that the 16-byte
	 * copy into the partial then reloads, a store-forwarding stall per value
	 * (most of the bulk numeric sum's time on the CPU host, by perf).
	 */
	int128		s = (int128) ((uint128) a + (uint128) x);

	if (unlikely(((a ^ s) & (x ^ s)) < 0))
	{
		flush_fast(p, mcxt);
		s = x;
	}
	p->nsum = s;
}

/* Add one numeric value to a sum's partial result. */
static void
sum_add(GrPartial *p, MemoryContext mcxt, Datum value)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(value);
	GrNumHead	r;
	int128		x;

	if (VARATT_IS_EXTERNAL(v) || VARATT_IS_COMPRESSED(v))
		v = pg_detoast_datum_packed(v);
	num_raw(v, &r);
	switch (r.kind)
	{
		case NUM_FINITE:
			break;
		case NUM_NAN:
			slow_of(p, mcxt)->nan++;
			return;
		case NUM_PINF:
			slow_of(p, mcxt)->pinf++;
			return;
		case NUM_NINF:
			slow_of(p, mcxt)->ninf++;
			return;
	}
	if (r.dscale > p->nscale)
	{
		if (r.dscale > GR_NUMERIC_MAX_SCALE)
		{
			slow_add(p, mcxt, PointerGetDatum(v));
			return;
		}
		rescale(p, mcxt, r.dscale);
	}
	if (!num_scaled(&r, p->nscale, &x))
	{
		slow_add(p, mcxt, PointerGetDatum(v));
		return;
	}
	fast_add(p, mcxt, x);
}

/* A numeric's kind in PostgreSQL's order: -Infinity, finite, Infinity, NaN. */
static inline int
kind_rank(const GrNumHead *r)
{
	switch ((NumKind) r->kind)
	{
		case NUM_NINF:
			return 0;
		case NUM_FINITE:
			return 1;
		case NUM_PINF:
			return 2;
		case NUM_NAN:
			break;
	}
	return 3;
}

/*
 * |a| against |b| for finite values, digit by digit aligned by weight:
 * numeric.c's cmp_abs_common, so that unstripped zero digits compare as
 * they do there.
 */
static int
cmp_abs(const GrNumHead *a, const GrNumHead *b)
{
	int			wa = a->weight,
				wb = b->weight,
				ia = 0,
				ib = 0;

	while (wa > wb && ia < a->ndigits)
	{
		if (num_digit(a, ia++) != 0)
			return 1;
		wa--;
	}
	while (wb > wa && ib < b->ndigits)
	{
		if (num_digit(b, ib++) != 0)
			return -1;
		wb--;
	}
	if (wa == wb)
		while (ia < a->ndigits && ib < b->ndigits)
		{
			int			d = num_digit(a, ia++) - num_digit(b, ib++);

			if (d != 0)
				return d > 0 ? 1 : -1;
		}
	while (ia < a->ndigits)
		if (num_digit(a, ia++) != 0)
			return 1;
	while (ib < b->ndigits)
		if (num_digit(b, ib++) != 0)
			return -1;
	return 0;
}

/*
 * PostgreSQL's numeric order of two headers (numeric_cmp's: NaN greatest,
 * the infinities at the ends, finite values as cmp_var_common compares
 * them), equal values ordered by display scale so that the choice among them
 * does not depend on row order.  No numeric arithmetic, no allocation: the
 * first digit decides most comparisons.
 */
static pg_attribute_always_inline int
num_raw_cmp(const GrNumHead *a, const GrNumHead *b)
{
	int			c;

	if (unlikely(a->kind != NUM_FINITE || b->kind != NUM_FINITE))
	{
		int			ra = kind_rank(a),
					rb = kind_rank(b);

		return (ra > rb) - (ra < rb);
	}
	if (a->ndigits == 0)
		c = b->ndigits == 0 ? 0 : b->neg ? 1 : -1;
	else if (b->ndigits == 0)
		c = a->neg ? -1 : 1;
	else if (a->neg != b->neg)
		c = a->neg ? -1 : 1;
	else
		c = a->neg ? cmp_abs(b, a) : cmp_abs(a, b);
	if (c != 0)
		return c;
	return (a->dscale > b->dscale) - (a->dscale < b->dscale);
}

/* The header of a numeric Datum in any varlena form, detoasted if need be. */
static inline void
num_raw_datum(Datum value, GrNumHead *r)
{
	num_raw(pg_detoast_datum_packed((struct varlena *) DatumGetPointer(value)), r);
}

/* num_raw_cmp of two numeric Datums. */
static int
num_cmp(Datum a, Datum b)
{
	GrNumHead	ra,
				rb;

	num_raw_datum(a, &ra);
	num_raw_datum(b, &rb);
	return num_raw_cmp(&ra, &rb);
}

/* Make a value a min/max state's best: a copy, and its header. */
static void
take_best(GrPartial *p, MemoryContext mcxt, Datum value)
{
	Datum		prev = p->nbest;

	p->nbest = num_copy(mcxt, value);
	if (prev != (Datum) 0)
		pfree(DatumGetPointer(prev));
	num_raw((struct varlena *) DatumGetPointer(p->nbest), &p->nbest_head);
}

/* Restore the min-heap property of a top-k heap downwards from position i. */
static void
heap_sift_down(Datum *heap, int32 n, int32 i)
{
	Datum		v = heap[i];

	for (;;)
	{
		int32		c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && num_cmp(heap[c + 1], heap[c]) < 0)
			c++;
		if (num_cmp(heap[c], v) >= 0)
			break;
		heap[i] = heap[c];
		i = c;
	}
	heap[i] = v;
}

/*
 * Offer a numeric (in any varlena form) to a min (want_max false) or max
 * partial result; it is detoasted and copied into mcxt only if kept.
 */
static pg_attribute_always_inline void
best_push(GrPartial *p, MemoryContext mcxt, Datum value, bool want_max)
{
	GrNumHead	r;
	int			c;

	num_raw_datum(value, &r);
	if (p->nbest != (Datum) 0)
	{
		c = num_raw_cmp(&r, &p->nbest_head);
		if (want_max ? c <= 0 : c >= 0)
			return;
	}
	take_best(p, mcxt, value);
}

/* the numeric accumulators' folds of one value (GrAccum.fold_datum) */
void
gr_num_min_fold(GrPartial *p, MemoryContext mcxt, Datum value)
{
	best_push(p, mcxt, value, false);
}

void
gr_num_max_fold(GrPartial *p, MemoryContext mcxt, Datum value)
{
	best_push(p, mcxt, value, true);
}

/* Memory beside the state, for the planner: a copy of the best value. */
double
gr_num_best_side(int32 k, double values, double width)
{
	return gr_palloc_bytes((Size) width);
}

/* Memory beside the state, for the planner: the heap and a copy of each value kept. */
double
gr_num_topk_side(int32 k, double values, double width)
{
	double		cap = gr_topk_heap_cap(k, values);

	if (cap <= 0)
		return 0;
	return gr_palloc_bytes((Size) cap * sizeof(Datum)) +
		Min((double) k, values) * gr_palloc_bytes((Size) width);
}

/* Offer a numeric to a top-k heap; detoasted once, copied only if kept. */
void
gr_num_topk_fold(GrPartial *p, MemoryContext mcxt, Datum value)
{
	/* read once, not at every comparison of the heap */
	value = PointerGetDatum(pg_detoast_datum_packed((struct varlena *) DatumGetPointer(value)));
	if (p->nkeys < p->k)
	{
		int32		i;

		if (p->nkeys == p->keys_cap)
		{
			int32		cap = Min(Max(p->keys_cap * 2, 16), p->k);

			p->nheap = p->nheap == NULL
				? MemoryContextAlloc(mcxt, sizeof(Datum) * cap)
				: repalloc(p->nheap, sizeof(Datum) * cap);
			p->keys_cap = cap;
		}
		value = num_copy(mcxt, value);
		i = p->nkeys++;
		while (i > 0 && num_cmp(p->nheap[(i - 1) / 2], value) > 0)
		{
			p->nheap[i] = p->nheap[(i - 1) / 2];
			i = (i - 1) / 2;
		}
		p->nheap[i] = value;
	}
	else if (num_cmp(value, p->nheap[0]) > 0)
	{
		pfree(DatumGetPointer(p->nheap[0]));
		p->nheap[0] = num_copy(mcxt, value);
		heap_sift_down(p->nheap, p->nkeys, 0);
	}
}

void
gr_num_sum_fold(GrPartial *p, MemoryContext mcxt, Datum value)
{
	sum_add(p, mcxt, value);
}

/*
 * Scratch memory of gr_numeric_fold: detoasted copies and numeric_add's
 * temporaries.  The bulk scan adds values straight from the
 * pages in one long-lived context, so they go here, reset every
 * GR_NUMERIC_SCRATCH_ROWS values; what a state keeps is copied into its
 * aggregate context.
 */
#define GR_NUMERIC_SCRATCH_ROWS 1024
static MemoryContext scratch = NULL;
static int	scratch_rows = 0;

/*
 * Fold n non-NULL numerics (any varlena form, in a page or not) into the
 * state with its accumulator's fold: one switch into the scratch context
 * for all of them, which is reset every GR_NUMERIC_SCRATCH_ROWS values.
 */
void
gr_numeric_fold(GrState *st, GrDatumFold fold, const Datum *values, int32 n)
{
	GrPartial  *p = &st->partial;
	MemoryContext mcxt = gr_state_mcxt(st);
	MemoryContext old;

	if (n <= 0)
		return;
	init_pow10();
	if (scratch == NULL)
		scratch = AllocSetContextCreate(TopMemoryContext, "gpu_reduce numeric scratch",
										ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(scratch);
	for (int32 i = 0; i < n; i++)
		fold(p, mcxt, values[i]);
	MemoryContextSwitchTo(old);
	scratch_rows += n;
	if (scratch_rows >= GR_NUMERIC_SCRATCH_ROWS)
	{
		MemoryContextReset(scratch);
		scratch_rows = 0;
	}
	p->count += n;
	gr_stats.cpu_rows += n;
}

/*
 * Fold n numerics given as int64s times 10^scale (values the expression
 * program computed) whose largest display scale is shown (at most scale:
 * a CASE of several scales holds each value at the largest, so each is a
 * multiple of 10^(scale - shown)): a sum's or average's state takes their
 * exact sum at the scale shown (gr_numeric_add_scaled_sum), as numeric.c's
 * sum of the values would show it; other kinds them as numerics of that
 * display scale.
 */
void
gr_numeric_fold_scaled(GrState *st, GrDatumFold fold, const uint64 *vals, int32 n, int scale,
					   int shown)
{
	Datum	   *d;

	if (n <= 0)
		return;
	init_pow10();
	if (fold == gr_num_sum_fold && scale <= GR_NUMERIC_MAX_SCALE)
	{
		/* int64s sum exactly in an int128 (a row block holds a page's rows) */
		int128		sum = 0;

		for (int32 i = 0; i < n; i++)
			sum += (int64) vals[i];
		if (shown < scale)
			sum /= pow10_128[scale - shown];
		gr_numeric_add_scaled_sum(st, fold, sum, n, shown);
		gr_stats.cpu_rows += n;
		return;
	}
	/* (a scale that varies by row is a sum's or average's alone) */
	Assert(shown == scale);
	d = palloc(sizeof(Datum) * n);
	for (int32 i = 0; i < n; i++)
		d[i] = gr_scaled_numeric((int64) vals[i], scale);
	gr_numeric_fold(st, fold, d, n);
	pfree(d);
}

/*
 * Add the sum of 'count' numerics given as an int128 times 10^scale (the
 * GPU's sum of a page job's computed numerics, each an int64 at that scale)
 * to a sum's or average's state: the fast path's sum at the state's scale,
 * or the slow path's where it would not fit.
 */
void
gr_numeric_add_scaled_sum(GrState *st, GrDatumFold fold, int128 sum, int64 count, int scale)
{
	GrPartial  *p = &st->partial;
	MemoryContext mcxt = gr_state_mcxt(st);
	int128		x;

	if (count <= 0)
		return;
	if (fold != gr_num_sum_fold || scale < 0 ||
		scale > GR_NUMERIC_MAX_SCALE)
		elog(ERROR, "gpu_reduce: a scaled numeric sum for a state that is not a numeric sum");
	init_pow10();
	if (scale > p->nscale)
		rescale(p, mcxt, scale);
	if (!__builtin_mul_overflow(sum, pow10_128[p->nscale - scale], &x))
		fast_add(p, mcxt, x);
	else
		slow_add(p, mcxt, gr_scaled_numeric(sum, scale));
	p->count += count;
}

/* dst += src for the numeric accumulators (counts already added) */
void
gr_num_sum_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src)
{
	int			scale = Max(dst->nscale, src->nscale);
	int128		x;

	init_pow10();
	if (scale > dst->nscale)
		rescale(dst, mcxt, scale);
	if (!__builtin_mul_overflow(src->nsum, pow10_128[scale - src->nscale], &x))
		fast_add(dst, mcxt, x);
	else
		slow_add(dst, mcxt, gr_scaled_numeric(src->nsum, src->nscale));
	if (src->nslow != NULL)
	{
		GrNumericSlow *slow = slow_of(dst, mcxt);

		slow->nan += src->nslow->nan;
		slow->pinf += src->nslow->pinf;
		slow->ninf += src->nslow->ninf;
		if (src->nslow->sum != (Datum) 0)
			slow_add(dst, mcxt, src->nslow->sum);
	}
}

void
gr_num_min_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src)
{
	if (src->nbest != (Datum) 0)
		best_push(dst, mcxt, src->nbest, false);
}

void
gr_num_max_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src)
{
	if (src->nbest != (Datum) 0)
		best_push(dst, mcxt, src->nbest, true);
}

void
gr_num_topk_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src)
{
	for (int32 i = 0; i < src->nkeys; i++)
		gr_num_topk_fold(dst, mcxt, src->nheap[i]);
}

/* NaN or an infinity if the inputs make the sum one, else 0. */
static Datum
special_sum(GrPartial *p)
{
	GrNumericSlow *slow = p->nslow;
	const char *s;

	if (slow == NULL)
		return (Datum) 0;
	if (slow->nan > 0 || (slow->pinf > 0 && slow->ninf > 0))
		s = "NaN";
	else if (slow->pinf > 0)
		s = "Infinity";
	else if (slow->ninf > 0)
		s = "-Infinity";
	else
		return (Datum) 0;
	return DirectFunctionCall3(numeric_in, CStringGetDatum(s),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

/* The exact sum of the finite values, of the largest input display scale. */
Datum
gr_num_sum_exact(GrPartial *p)
{
	Datum		fast = gr_scaled_numeric(p->nsum, p->nscale);

	if (p->nslow == NULL || p->nslow->sum == (Datum) 0)
		return fast;
	return DirectFunctionCall2(numeric_add, fast, p->nslow->sum);
}

/*
 * How a numeric sum's partial compares with the numeric c (-1, 0 or 1 into
 * *cmp) without making its value: false where that takes more (a NaN, an
 * infinity or a sum past the fast path's 128 bits in the partial, c not
 * finite or with digits past the sum's scale).  The caller knows the sum
 * has values (count > 0).
 */
bool
gr_num_sum_cmp(const GrPartial *p, Datum c, int *cmp)
{
	GrNumHead	r;
	int128		x;

	if (p->nslow != NULL)
		return false;
	init_pow10();
	num_raw((const struct varlena *) DatumGetPointer(c), &r);
	if (r.kind != NUM_FINITE || !num_scaled(&r, p->nscale, &x))
		return false;
	*cmp = (p->nsum > x) - (p->nsum < x);
	return true;
}

/*
 * A numeric constant as an integer times 10^scale, into *x; false where it
 * is not finite or has digits past the scale (no such integer).
 */
bool
gr_num_scaled_const(Datum c, int scale, int128 *x)
{
	GrNumHead	r;

	if (scale < 0 || scale > GR_NUMERIC_MAX_SCALE)
		return false;
	init_pow10();
	num_raw((const struct varlena *) DatumGetPointer(c), &r);
	return r.kind == NUM_FINITE && num_scaled(&r, scale, x);
}

/* gpu_sum(numeric): sum()'s value and text. */
Datum
gr_numeric_sum_final(GrState *st, bool *isnull)
{
	Datum		special = special_sum(&st->partial);

	return special != (Datum) 0 ? special : gr_num_sum_exact(&st->partial);
}

/* gpu_avg(numeric): the exact sum over the count of finite values, as numeric_avg. */
Datum
gr_numeric_avg_final(GrState *st, bool *isnull)
{
	GrPartial  *p = &st->partial;
	Datum		special = special_sum(p);
	int64		n = p->count;

	if (special != (Datum) 0)
		return special;
	if (p->nslow != NULL)
		n -= p->nslow->nan + p->nslow->pinf + p->nslow->ninf;
	return DirectFunctionCall2(numeric_div, gr_num_sum_exact(p),
							   NumericGetDatum(int64_to_numeric(n)));
}

/* qsort comparator: descending numerics */
static int
num_cmp_desc(const void *a, const void *b)
{
	return num_cmp(*(const Datum *) b, *(const Datum *) a);
}

/* The top-k values, largest first, in a palloc'd array (pointers into the heap). */
static int
numeric_sorted(GrPartial *p, Datum **values)
{
	Datum	   *sorted = palloc(sizeof(Datum) * Max(p->nkeys, 1));

	memcpy(sorted, p->nheap, sizeof(Datum) * p->nkeys);
	qsort(sorted, p->nkeys, sizeof(Datum), num_cmp_desc);
	*values = sorted;
	return p->nkeys;
}

/* gpu_min/gpu_max of numeric: the kept value. */
Datum
gr_numeric_best_final(GrState *st, bool *isnull)
{
	return num_copy(CurrentMemoryContext, st->partial.nbest);
}

/* gpu_top2/gpu_topk of numeric: an array, largest first. */
Datum
gr_numeric_array_final(GrState *st, bool *isnull)
{
	Datum	   *values;
	int			n = numeric_sorted(&st->partial, &values);

	return PointerGetDatum(construct_array(values, n, NUMERICOID, -1, false, TYPALIGN_INT));
}

/*
 * Serialized fields (serial.c writes the common header; the layout is
 * listed there).  Every reader checks what it reads.
 */
/* A numeric sum's fields (also the two sums of a numeric variance). */
void
gr_num_sum_send_partial(StringInfo buf, const GrPartial *p)
{
	pq_sendint64(buf, (int64) (p->nsum >> 64));
	pq_sendint64(buf, (int64) (uint64) p->nsum);
	pq_sendint32(buf, p->nscale);
	pq_sendint64(buf, p->nslow ? p->nslow->nan : 0);
	pq_sendint64(buf, p->nslow ? p->nslow->pinf : 0);
	pq_sendint64(buf, p->nslow ? p->nslow->ninf : 0);
	gr_send_numeric(buf, p->nslow ? p->nslow->sum : (Datum) 0);
}

/* Read them back, checked against the state's count of values. */
void
gr_num_sum_recv_partial(GrReader *r, GrPartial *p, int64 count)
{
	uint64		hi = gr_read_uint(r, 8);
	uint64		lo = gr_read_uint(r, 8);
	int32		scale = (int32) gr_read_uint(r, 4);
	int64		nan = (int64) gr_read_uint(r, 8);
	int64		pinf = (int64) gr_read_uint(r, 8);
	int64		ninf = (int64) gr_read_uint(r, 8);
	Datum		sum = gr_read_numeric(r, true);

	if (scale < 0 || scale > GR_NUMERIC_MAX_SCALE)
		gr_malformed("numeric scale out of range");
	if (nan < 0 || pinf < 0 || ninf < 0 ||
		nan > count || pinf > count || ninf > count)
		gr_malformed("special value counts out of range");
	if (sum != (Datum) 0 &&
		(numeric_is_nan(DatumGetNumeric(sum)) || numeric_is_inf(DatumGetNumeric(sum))))
		gr_malformed("numeric sum not finite");
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
}

void
gr_num_sum_send(StringInfo buf, GrState *st)
{
	gr_num_sum_send_partial(buf, &st->partial);
}

void
gr_num_sum_recv(GrReader *r, GrState *st)
{
	gr_num_sum_recv_partial(r, &st->partial, st->partial.count);
}

void
gr_num_best_send(StringInfo buf, GrState *st)
{
	gr_send_numeric(buf, st->partial.nbest);
}

/* A min or max state's value: none only for an empty state. */
static void
best_recv(GrReader *r, GrState *st, bool want_max)
{
	Datum		v = gr_read_numeric(r, st->partial.count == 0);

	if (v != (Datum) 0)
		best_push(&st->partial, CurrentMemoryContext, v, want_max);
}

void
gr_num_min_recv(GrReader *r, GrState *st)
{
	best_recv(r, st, false);
}

void
gr_num_max_recv(GrReader *r, GrState *st)
{
	best_recv(r, st, true);
}

void
gr_num_topk_send(StringInfo buf, GrState *st)
{
	Datum	   *values;
	int			n = numeric_sorted(&st->partial, &values);

	pq_sendint32(buf, st->partial.k);
	pq_sendint32(buf, n);
	for (int i = 0; i < n; i++)
		gr_send_numeric(buf, values[i]);
}

void
gr_num_topk_recv(GrReader *r, GrState *st)
{
	GrPartial  *p = &st->partial;
	int32		n = gr_topk_recv_head(r, p);
	Datum		prev = (Datum) 0;

	for (int32 i = 0; i < n; i++)
	{
		Datum		v = gr_read_numeric(r, false);

		if (i > 0 && num_cmp(v, prev) > 0)
			gr_malformed("top-k values not in descending order");
		prev = v;
		gr_num_topk_fold(p, CurrentMemoryContext, v);
	}
}
