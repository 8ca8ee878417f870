/*
 * variance.c
 *	  The variance family (gpu_variance, gpu_var_pop, gpu_stddev,
 *	  gpu_stddev_pop): its three accumulators and its results.
 *
 * Every member keeps the count, the sum of the values and the sum of their
 * squares, exactly, so that batches fold in any order on the CPU or the GPU
 * and partial states combine without loss:
 *   - integers: a 128-bit sum and an unsigned 192-bit sum of squares;
 *   - floats: an exact GrXsum of the values and one of their squares (each
 *     square added exactly as the two doubles of an fma two-product);
 *   - numeric: two exact numeric sums (numeric_state.c's accumulator).
 * Integer and numeric results are computed as numeric.c's
 * numeric_stddev_internal computes them, from the same exact sums and with
 * PostgreSQL's own numeric functions, so their text equals native's.
 * Float results are computed from the exact sums with numeric arithmetic
 * and rounded once to double: they do not depend on the order of the rows,
 * where native's Youngs-Cramer updates in double do (README, Exactness).
 */
#include "kinds.h"
#include "accum.h"
#include "gr_cuda.h"

#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"

/* significant digits of a float result's quotient before it is rounded to double */
#define GR_VAR_FLOAT_DIGITS 40

/* ---- integers ---- */

/* Add a 192-bit unsigned amount to the sum of squares. */
static inline void
add_squares(GrPartial *p, uint128 lo, uint64 hi)
{
	uint128		old = p->vsq;

	p->vsq += lo;
	p->vsq_hi += hi + (p->vsq < old ? 1 : 0);
}

/* The CPU fold of a batch of int2, int4 or int8 values. */
void
gr_ivar_fold(GrState *st, const void *values, int32 n)
{
	GrPartial  *p = &st->partial;
	int128		sum = 0;
	uint128		sq = 0;

	switch (gr_type_info(st->type)->storage)
	{
		case GR_INT2:
			for (int32 i = 0; i < n; i++)
			{
				int64		x = ((const int16 *) values)[i];

				sum += x;
				sq += (uint64) (x * x);
			}
			break;
		case GR_INT4:
			/* a square is below 2^62 and a batch below 2^31 values: no carry */
			for (int32 i = 0; i < n; i++)
			{
				int64		x = ((const int32 *) values)[i];

				sum += x;
				sq += (uint64) (x * x);
			}
			break;
		default:
			for (int32 i = 0; i < n; i++)
			{
				int64		x = ((const int64 *) values)[i];
				uint64		a = x < 0 ? -(uint64) x : (uint64) x;

				sum += x;
				add_squares(p, (uint128) a * a, 0);
			}
			break;
	}
	p->vsum += sum;
	add_squares(p, sq, 0);
}

/* Fold one integer in place: the row path (GrAccum.fold_key). */
void
gr_ivar_fold_key(GrPartial *p, int64 x)
{
	uint64		a = x < 0 ? -(uint64) x : (uint64) x;

	p->vsum += x;
	add_squares(p, (uint128) a * a, 0);
}

void
gr_ivar_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src)
{
	dst->vsum += src->vsum;
	add_squares(dst, src->vsq, src->vsq_hi);
}

void
gr_ivar_send(StringInfo buf, GrState *st)
{
	GrPartial  *p = &st->partial;

	pq_sendint64(buf, (int64) (p->vsum >> 64));
	pq_sendint64(buf, (int64) (uint64) p->vsum);
	pq_sendint64(buf, (int64) p->vsq_hi);
	pq_sendint64(buf, (int64) (uint64) (p->vsq >> 64));
	pq_sendint64(buf, (int64) (uint64) p->vsq);
}

void
gr_ivar_recv(GrReader *r, GrState *st)
{
	GrPartial  *p = &st->partial;
	uint64		hi = gr_read_uint(r, 8);
	uint64		lo = gr_read_uint(r, 8);
	uint64		q2 = gr_read_uint(r, 8);
	uint64		q1 = gr_read_uint(r, 8);
	uint64		q0 = gr_read_uint(r, 8);

	p->vsum = (int128) (((uint128) hi << 64) | lo);
	p->vsq_hi = q2;
	p->vsq = ((uint128) q1 << 64) | q0;
}

void
gr_ivar_from_gpu(GrPartial *p, const GrCudaResult *r, int cuda_op, int64 *topk)
{
	p->vsum = (int128) (((uint128) (uint64) r->sum_hi << 64) | (uint64) r->sum_lo);
	p->vsq = ((uint128) r->sq[1] << 64) | r->sq[0];
	p->vsq_hi = r->sq[2];
}

/* ---- floats ---- */

/* The exact sums of a float variance, made on its first values. */
static void
fvar_make(GrPartial *p, MemoryContext mcxt)
{
	GrXsum	   *x = MemoryContextAlloc(mcxt, 2 * sizeof(GrXsum));

	gr_xsum_init(&x[0]);
	gr_xsum_init(&x[1]);
	p->vx = &x[0];
	p->vx2 = &x[1];
}

void
gr_fvar_fold(GrState *st, const void *values, int32 n)
{
	GrPartial  *p = &st->partial;

	if (p->vx == NULL)
		fvar_make(p, gr_state_mcxt(st));
	if (gr_type_info(st->type)->storage == GR_FLOAT4)
	{
		gr_xsum_add_floats(p->vx, values, n);
		gr_xsum_add_squares_floats(p->vx2, values, n);
	}
	else
	{
		gr_xsum_add_doubles(p->vx, values, n);
		gr_xsum_add_squares_doubles(p->vx2, values, n);
	}
}

void
gr_fvar_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src)
{
	if (src->vx == NULL)
		return;
	if (dst->vx == NULL)
		fvar_make(dst, mcxt);
	gr_xsum_merge(dst->vx, src->vx);
	gr_xsum_merge(dst->vx2, src->vx2);
}

void
gr_fvar_send(StringInfo buf, GrState *st)
{
	GrPartial  *p = &st->partial;
	GrXsum		empty;

	gr_xsum_init(&empty);
	gr_xsum_send(buf, p->vx != NULL ? p->vx : &empty);
	gr_xsum_send(buf, p->vx2 != NULL ? p->vx2 : &empty);
}

void
gr_fvar_recv(GrReader *r, GrState *st)
{
	GrPartial  *p = &st->partial;

	fvar_make(p, CurrentMemoryContext);
	gr_xsum_recv(r, p->vx, p->count);
	gr_xsum_recv(r, p->vx2, p->count);
}

void
gr_fvar_from_gpu(GrPartial *p, const GrCudaResult *r, int cuda_op, int64 *topk)
{
	p->vx = (GrXsum *) &r->xsum;
	p->vx2 = (GrXsum *) &r->xsum2;
}

/* Memory beside the state, for the planner: both exact sums, in one chunk. */
double
gr_fvar_side(int32 k, double values, double width)
{
	return gr_palloc_bytes(2 * sizeof(GrXsum));
}

/* ---- numeric ---- */

/* The two numeric sums of a numeric variance, made on its first value. */
static void
nvar_make(GrPartial *p, MemoryContext mcxt)
{
	p->vn1 = MemoryContextAllocZero(mcxt, sizeof(GrPartial));
	p->vn2 = MemoryContextAllocZero(mcxt, sizeof(GrPartial));
}

/* Memory beside the state, for the planner: the two sums' partial results. */
double
gr_nvar_side(int32 k, double values, double width)
{
	return 2.0 * gr_palloc_bytes(sizeof(GrPartial));
}

/* Fold one numeric: into the sum, and its square (exact, as numeric_mul) into the other. */
void
gr_nvar_fold(GrPartial *p, MemoryContext mcxt, Datum value)
{
	Numeric		x = DatumGetNumeric(value);

	if (p->vn1 == NULL)
		nvar_make(p, mcxt);
	gr_num_sum_fold(p->vn1, mcxt, NumericGetDatum(x));
	if (!numeric_is_nan(x) && !numeric_is_inf(x))
		gr_num_sum_fold(p->vn2, mcxt,
						DirectFunctionCall2(numeric_mul, NumericGetDatum(x), NumericGetDatum(x)));
}

void
gr_nvar_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src)
{
	if (src->vn1 == NULL)
		return;
	if (dst->vn1 == NULL)
		nvar_make(dst, mcxt);
	gr_num_sum_combine(dst->vn1, mcxt, src->vn1);
	gr_num_sum_combine(dst->vn2, mcxt, src->vn2);
}

void
gr_nvar_send(StringInfo buf, GrState *st)
{
	GrPartial  *p = &st->partial;
	GrPartial	empty;

	memset(&empty, 0, sizeof(empty));
	gr_num_sum_send_partial(buf, p->vn1 != NULL ? p->vn1 : &empty);
	gr_num_sum_send_partial(buf, p->vn2 != NULL ? p->vn2 : &empty);
}

void
gr_nvar_recv(GrReader *r, GrState *st)
{
	GrPartial  *p = &st->partial;

	nvar_make(p, CurrentMemoryContext);
	gr_num_sum_recv_partial(r, p->vn1, p->count);
	gr_num_sum_recv_partial(r, p->vn2, p->count);
}

/* ---- results ---- */

static Datum
num_mul(Datum a, Datum b)
{
	return DirectFunctionCall2(numeric_mul, a, b);
}

static Datum
num_sub(Datum a, Datum b)
{
	return DirectFunctionCall2(numeric_sub, a, b);
}

static Datum
num_add(Datum a, Datum b)
{
	return DirectFunctionCall2(numeric_add, a, b);
}

static int
num_cmp(Datum a, Datum b)
{
	return DatumGetInt32(DirectFunctionCall2(numeric_cmp, a, b));
}

static Datum
num_text(const char *s)
{
	return DirectFunctionCall3(numeric_in, CStringGetDatum(s),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

static Datum
num_int(int64 v)
{
	return NumericGetDatum(int64_to_numeric(v));
}

/* The display scale of a numeric: digits after the point in its text. */
static int
num_scale(Datum v)
{
	char	   *s = DatumGetCString(DirectFunctionCall1(numeric_out, v));
	char	   *point = strchr(s, '.');

	return point != NULL ? (int) strlen(point + 1) : 0;
}

/*
 * The square root of v rounded half away from zero to 'scale' digits, as
 * numeric.c's sqrt_var(v, result, scale) gives it: numeric_sqrt picks its
 * own scale (never less than v's), so its root is rounded to 'scale' and
 * then checked exactly, (r - h)^2 <= v < (r + h)^2 with h half a unit in
 * the last place, and moved by one unit where the double rounding missed.
 */
static Datum
sqrt_at_scale(Datum v, int scale)
{
	Datum		r = DirectFunctionCall2(numeric_round,
										DirectFunctionCall1(numeric_sqrt, v),
										Int32GetDatum(scale));
	Datum		ulp = num_text(psprintf("1e-%d", scale));
	Datum		half = num_text(psprintf("5e-%d", scale + 1));
	Datum		lo = num_sub(r, half);
	Datum		hi = num_add(r, half);

	if (num_cmp(num_mul(lo, lo), v) > 0)
		r = num_sub(r, ulp);
	else if (num_cmp(num_mul(hi, hi), v) <= 0)
		r = num_add(r, ulp);
	return DirectFunctionCall2(numeric_round, r, Int32GetDatum(scale));
}

/*
 * numeric_stddev_internal's arithmetic on exact sums with PostgreSQL's own
 * numeric functions: numeric_mul is exact (mul_var at the sum of the
 * scales, which is the scale numeric.c asks for), numeric_sub exact,
 * numeric_div divides at select_div_scale's scale with rounding as div_var
 * does, and the root is taken at that same scale.  n is at least 1 (2 for
 * a sample).
 */
static Datum
variance_of_sums(int64 n, Datum sumx, Datum sumx2, bool sample, bool root)
{
	Datum		vn = num_int(n);
	Datum		numer = num_sub(num_mul(vn, sumx2), num_mul(sumx, sumx));
	Datum		denom;
	Datum		var;

	/* roundoff cannot make it negative here, but numeric.c checks: so do we */
	if (num_cmp(numer, num_int(0)) <= 0)
		return num_int(0);
	denom = num_mul(vn, num_int(sample ? n - 1 : n));
	var = DirectFunctionCall2(numeric_div, numer, denom);
	return root ? sqrt_at_scale(var, num_scale(var)) : var;
}

/* An unsigned 192-bit integer (three words, least significant first) as numeric. */
static Datum
uint192_to_numeric(uint64 w2, uint128 lo)
{
	Datum		two64 = num_text("18446744073709551616");
	Datum		v = num_text(psprintf(UINT64_FORMAT, w2));

	v = num_add(num_mul(v, two64), num_text(psprintf(UINT64_FORMAT, (uint64) (lo >> 64))));
	return num_add(num_mul(v, two64), num_text(psprintf(UINT64_FORMAT, (uint64) lo)));
}

/*
 * An integer or numeric variance's sums of the finite values and of their
 * squares, as numerics of PostgreSQL's display scales (a native partial
 * state's sumX and sumX2).
 */
void
gr_var_sums(GrState *st, Datum *sumx, Datum *sumx2)
{
	GrPartial  *p = &st->partial;

	if (st->acc == GR_ACC_IVAR)
	{
		*sumx = NumericGetDatum(gr_int128_to_numeric(p->vsum));
		*sumx2 = uint192_to_numeric(p->vsq_hi, p->vsq);
		return;
	}
	Assert(st->acc == GR_ACC_NVAR && p->vn1 != NULL);
	*sumx = gr_num_sum_exact(p->vn1);
	*sumx2 = gr_num_sum_exact(p->vn2);
}

static Datum
int_final(GrState *st, bool *isnull, bool sample, bool root)
{
	GrPartial  *p = &st->partial;

	if (sample && p->count < 2)
	{
		*isnull = true;
		return (Datum) 0;
	}
	return variance_of_sums(p->count, NumericGetDatum(gr_int128_to_numeric(p->vsum)),
							uint192_to_numeric(p->vsq_hi, p->vsq), sample, root);
}

static Datum
numeric_final(GrState *st, bool *isnull, bool sample, bool root)
{
	GrPartial  *p = &st->partial;
	GrNumericSlow *slow = p->vn1->nslow;
	int64		n = p->count;

	/*
	 * As numeric_stddev_internal: too few values (NaN and infinities
	 * counted) give NULL, then NaN or an infinity among them gives NaN.
	 */
	if (n < (sample ? 2 : 1))
	{
		*isnull = true;
		return (Datum) 0;
	}
	if (slow != NULL && (slow->nan > 0 || slow->pinf > 0 || slow->ninf > 0))
		return num_text("NaN");
	return variance_of_sums(n, gr_num_sum_exact(p->vn1), gr_num_sum_exact(p->vn2),
							sample, root);
}

/*
 * An exact float sum as a numeric, exactly: its limbs make an integer m
 * times 2^e; for e < 0 that is m * 5^-e / 10^-e, written out as decimal
 * text with the point -e digits from the right.
 */
static Datum
xsum_to_numeric(GrXsum *x)
{
	int			lo = 0;
	int			hi = GR_XSUM_LIMBS - 1;
	Datum		two32 = num_int(INT64CONST(1) << 32);
	Datum		m;
	int			e;
	char	   *digits;
	bool		neg;
	int			len;
	StringInfoData buf;

	gr_xsum_normalize(x);
	while (lo <= hi && x->limb[lo] == 0)
		lo++;
	while (hi >= lo && x->limb[hi] == 0)
		hi--;
	if (lo > hi)
		return num_int(0);
	m = num_int(x->limb[hi]);
	for (int i = hi - 1; i >= lo; i--)
		m = num_add(num_mul(m, two32), num_int(x->limb[i]));
	e = GR_XSUM_LIMB_BITS * lo - 1074;
	if (e >= 0)
	{
		for (int i = 0; i < e; i++)
			m = num_mul(m, num_int(2));
		return m;
	}
	{
		/* 5^-e by squaring */
		Datum		p5 = num_int(1);
		Datum		b = num_int(5);

		for (int k = -e; k > 0; k >>= 1)
		{
			if (k & 1)
				p5 = num_mul(p5, b);
			if (k > 1)
				b = num_mul(b, b);
		}
		m = num_mul(m, p5);
	}
	digits = DatumGetCString(DirectFunctionCall1(numeric_out, m));
	neg = digits[0] == '-';
	if (neg)
		digits++;
	len = strlen(digits);
	initStringInfo(&buf);
	if (neg)
		appendStringInfoChar(&buf, '-');
	if (len <= -e)
	{
		appendStringInfoString(&buf, "0.");
		for (int i = len; i < -e; i++)
			appendStringInfoChar(&buf, '0');
		appendStringInfoString(&buf, digits);
	}
	else
	{
		appendBinaryStringInfo(&buf, digits, len + e);
		appendStringInfoChar(&buf, '.');
		appendStringInfoString(&buf, digits + len + e);
	}
	return num_text(buf.data);
}

/* The decimal exponent of a nonzero numeric's leading digit. */
static int
num_exponent(Datum v)
{
	char	   *s = DatumGetCString(DirectFunctionCall1(numeric_out, v));
	char	   *point;
	int			e;

	if (*s == '-')
		s++;
	point = strchr(s, '.');
	if (s[0] != '0')
		return (point != NULL ? (int) (point - s) : (int) strlen(s)) - 1;
	e = -1;
	for (char *c = point + 1; *c == '0'; c++)
		e--;
	return e;
}

/*
 * A float variance or standard deviation from the exact sums: the numerator
 * n * sum(x^2) - sum(x)^2 exactly, the quotient to GR_VAR_FLOAT_DIGITS
 * significant digits (and its root to as many), rounded once to double.
 */
static Datum
float_final(GrState *st, bool *isnull, bool sample, bool root)
{
	GrPartial  *p = &st->partial;
	int64		n = p->count;
	GrXsum	   *x = p->vx;
	Datum		sumx;
	Datum		numer;
	Datum		denom;
	Datum		q;
	int			scale;
	float8		result;

	if (n < (sample ? 2 : 1))
	{
		*isnull = true;
		return (Datum) 0;
	}
	/* as float8_accum: a NaN or an infinity among the values makes the answer NaN */
	if (x->nan > 0 || x->pinf > 0 || x->ninf > 0)
		return Float8GetDatum(get_float8_nan());
	/* finite values whose squares overflow: float8_accum's error */
	if (p->vx2->pinf > 0)
		float_overflow_error();
	sumx = xsum_to_numeric(x);
	numer = num_sub(num_mul(num_int(n), xsum_to_numeric(p->vx2)), num_mul(sumx, sumx));
	if (num_cmp(numer, num_int(0)) <= 0)
		return Float8GetDatum(0.0);
	denom = num_mul(num_int(n), num_int(sample ? n - 1 : n));
	scale = GR_VAR_FLOAT_DIGITS - (num_exponent(numer) - num_exponent(denom));
	/* more digits after the point make numeric_div keep more (never fewer) */
	scale = Min(scale, NUMERIC_MAX_RESULT_SCALE);
	if (scale > num_scale(numer))
		numer = DirectFunctionCall2(numeric_round, numer, Int32GetDatum(scale));
	q = DirectFunctionCall2(numeric_div, numer, denom);
	if (root)
		q = DirectFunctionCall1(numeric_sqrt, q);
	result = DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow, q));
	if (isinf(result))
		float_overflow_error();
	return Float8GetDatum(result);
}

#define VAR_FINALS(name, sample, root) \
Datum \
gr_final_##name##_int(GrState *st, bool *isnull) \
{ \
	return int_final(st, isnull, sample, root); \
} \
Datum \
gr_final_##name##_float(GrState *st, bool *isnull) \
{ \
	return float_final(st, isnull, sample, root); \
} \
Datum \
gr_final_##name##_numeric(GrState *st, bool *isnull) \
{ \
	return numeric_final(st, isnull, sample, root); \
}

VAR_FINALS(variance, true, false)
VAR_FINALS(var_pop, false, false)
VAR_FINALS(stddev, true, true)
VAR_FINALS(stddev_pop, false, true)
