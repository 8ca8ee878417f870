/*
 * xsum.c
 *	  Exact summation of float4/float8 values and correct rounding of the sum.
 *
 * The accumulator (xsum.h) is a fixed-point integer in units of 2^-1074, wide
 * enough for any sum of 2^63 doubles, so adding is exact and the order of
 * additions cannot change the result.  Rounding happens once, in
 * gr_xsum_round(), to nearest with ties to even, as IEEE 754 addition of the
 * exact value would.  Plain C99: the kernels' tests link this file as their
 * reference.
 */
#include "xsum.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define Min(a, b) ((a) < (b) ? (a) : (b))
#define Max(a, b) ((a) > (b) ? (a) : (b))

/* Zero the accumulator. */
void
gr_xsum_init(GrXsum *x)
{
	memset(x, 0, sizeof(*x));
}

/* Add one double given as its bit pattern; no normalization. */
static inline void
xsum_add_bits(GrXsum *x, uint64_t bits)
{
	unsigned	e = gr_xsum_exponent(bits);
	unsigned	p;

	if (e == 0x7FF)
	{
		if (gr_xsum_fraction(bits) != 0)
			x->nan++;
		else if (bits >> 63)
			x->ninf++;
		else
			x->pinf++;
		return;
	}
	if (e == 0 && gr_xsum_fraction(bits) == 0)
	{
		if (bits >> 63)
			x->negzero++;
		return;
	}
	p = gr_xsum_position(e);
	gr_xsum_spread(x->limb + (p >> 5), p, gr_xsum_significand(bits), (bits >> 63) != 0);
}

/* Bit pattern of a double, without aliasing trouble. */
static inline uint64_t
double_bits(double v)
{
	uint64_t	b;

	memcpy(&b, &v, sizeof(b));
	return b;
}

/* Add one value. */
void
gr_xsum_add_double(GrXsum *x, double v)
{
	xsum_add_bits(x, double_bits(v));
	if (++x->pending >= GR_XSUM_MAX_UNNORMALIZED)
		gr_xsum_normalize(x);
}

/*
 * Add n doubles, or floats widened exactly to double, one at a time,
 * normalizing often enough that no limb can overflow.
 */
static void
add_values_one_by_one(GrXsum *x, const void *values, bool floats, int64_t n)
{
	int64_t		done = 0;

	while (done < n)
	{
		int64_t		room = GR_XSUM_MAX_UNNORMALIZED - x->pending;
		int64_t		end = n - done < room ? n : done + room;

		if (floats)
			for (int64_t i = done; i < end; i++)
				xsum_add_bits(x, double_bits((double) ((const float *) values)[i]));
		else
			for (int64_t i = done; i < end; i++)
				xsum_add_bits(x, double_bits(((const double *) values)[i]));
		x->pending += end - done;
		done = end;
		if (x->pending >= GR_XSUM_MAX_UNNORMALIZED)
			gr_xsum_normalize(x);
	}
}

/*
 * The large-accumulator way (Neal's xsum): each value's signed 53-bit
 * mantissa is added to a 64-bit bucket for its exponent, with no digit
 * work, and every XSUM_CHUNK values the buckets used are spread into the
 * digits.  A bucket takes at most XSUM_CHUNK mantissas below 2^53, so its
 * sum stays below 2^63 in magnitude.  Worth it from a few hundred values:
 * the buckets are zeroed once per call.
 */
#define XSUM_CHUNK		1024

/* A bucket's sum b * 2^(p - 1074), |b| < 2^63, into the digits. */
static inline void
spread_bucket_sum(int64_t *limb, unsigned p, int64_t b)
{
	gr_xsum_spread(limb, p, b < 0 ? -(uint64_t) b : (uint64_t) b, b < 0);
}

static void
add_values_bucketed(GrXsum *x, const void *values, bool floats, int64_t n)
{
	int64_t		bucket[0x7FF];	/* by biased exponent; 0x7FF never used */

	memset(bucket, 0, sizeof(bucket));
	for (int64_t start = 0; start < n; start += XSUM_CHUNK)
	{
		int64_t		end = Min(n, start + XSUM_CHUNK);
		unsigned	emin = 0x7FF,
					emax = 0;

		for (int64_t i = start; i < end; i++)
		{
			uint64_t	bits = floats ? double_bits((double) ((const float *) values)[i])
				: double_bits(((const double *) values)[i]);
			unsigned	e = gr_xsum_exponent(bits);
			int64_t		m,
						neg;

			if (e == 0x7FF || (bits << 1) == 0)
			{
				/* NaN, infinity or zero: counted (or nothing), no digits */
				xsum_add_bits(x, bits);
				continue;
			}
			m = (int64_t) gr_xsum_significand(bits);
			neg = -(int64_t) (bits >> 63);
			bucket[e] += (m ^ neg) - neg;
			emin = e < emin ? e : emin;
			emax = e > emax ? e : emax;
		}
		if (emin > emax)
			continue;
		/* at most one digit per bucket lands on a limb */
		if (x->pending + (emax - emin + 1) >= GR_XSUM_MAX_UNNORMALIZED)
			gr_xsum_normalize(x);
		for (unsigned e = emin; e <= emax; e++)
		{
			/* value = bucket * 2^(p - 1074), as in xsum_add_bits */
			unsigned	p = gr_xsum_position(e);

			if (bucket[e] == 0)
				continue;
			spread_bucket_sum(x->limb + (p >> 5), p, bucket[e]);
			bucket[e] = 0;
		}
		x->pending += emax - emin + 1;
	}
}

/* Add n doubles, or floats widened exactly to double. */
static void
add_values(GrXsum *x, const void *values, bool floats, int64_t n)
{
	if (n >= GR_XSUM_BUCKETED_MIN)
		add_values_bucketed(x, values, floats, n);
	else
		add_values_one_by_one(x, values, floats, n);
}

/* Add n doubles. */
void
gr_xsum_add_doubles(GrXsum *x, const double *v, int64_t n)
{
	add_values(x, v, false, n);
}

/* Add n floats; each converts to double exactly. */
void
gr_xsum_add_floats(GrXsum *x, const float *v, int64_t n)
{
	add_values(x, v, true, n);
}

/*
 * Add the square of each value exactly: a double's square is the two
 * doubles of an fma two-product (hi = v*v rounded, lo = the rest, exact
 * unless the square is below the subnormal range), a float's square is
 * exact in one double.  A square that overflows adds +Infinity, a NaN adds
 * a NaN; the variance finals turn those into PostgreSQL's answers.
 */
void
gr_xsum_add_squares_doubles(GrXsum *x, const double *v, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
	{
		double		hi = v[i] * v[i];

		gr_xsum_add_double(x, hi);
		if (isfinite(hi))
			gr_xsum_add_double(x, fma(v[i], v[i], -hi));
	}
}

/* The same for floats: a float's square is exact in a double. */
void
gr_xsum_add_squares_floats(GrXsum *x, const float *v, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
		gr_xsum_add_double(x, (double) v[i] * (double) v[i]);
}

/*
 * Propagate carries so that every limb but the top one is in [0, 2^32); the
 * top limb carries the sign.  The value is unchanged.
 */
void
gr_xsum_normalize(GrXsum *x)
{
	for (int i = 0; i < GR_XSUM_LIMBS - 1; i++)
	{
		/* floor division by 2^32, also for negative limbs */
		int64_t		c = x->limb[i] >> 32;

		x->limb[i] -= (int64_t) ((uint64_t) c << 32);
		x->limb[i + 1] += c;
	}
	x->pending = 0;
}

/*
 * dst += src.  src may be unnormalized as long as its limbs stay below 2^62
 * in magnitude (the GPU result contract); dst is normalized before and after.
 */
void
gr_xsum_merge(GrXsum *dst, const GrXsum *src)
{
	gr_xsum_normalize(dst);
	for (int i = 0; i < GR_XSUM_LIMBS; i++)
		dst->limb[i] += src->limb[i];
	dst->nan += src->nan;
	dst->pinf += src->pinf;
	dst->ninf += src->ninf;
	dst->negzero += src->negzero;
	gr_xsum_normalize(dst);
}

/* Number of significant bits in a nonzero 32-bit digit. */
static int
bit_length(uint64_t v)
{
	int			n = 0;

	while (v != 0)
	{
		n++;
		v >>= 1;
	}
	return n;
}

/* Bits [from, from + n) of a normalized nonnegative accumulator, n <= 63. */
static uint64_t
xsum_bits(const GrXsum *x, int from, int n)
{
	uint64_t	r = 0;

	for (int i = n - 1; i >= 0; i--)
	{
		int			b = from + i;
		uint64_t	bit = b < 0 ? 0 : ((uint64_t) x->limb[b >> 5] >> (b & 31)) & 1;

		r = (r << 1) | bit;
	}
	return r;
}

/* Whether any bit below position 'below' is set. */
static bool
xsum_any_below(const GrXsum *x, int below)
{
	int			d;

	if (below <= 0)
		return false;
	d = below >> 5;
	for (int i = 0; i < d; i++)
		if (x->limb[i] != 0)
			return true;
	if ((below & 31) != 0 &&
		((uint64_t) x->limb[d] & ((((uint64_t) 1) << (below & 31)) - 1)) != 0)
		return true;
	return false;
}

/*
 * Round the exact sum to a binary format with 'precision' significand bits,
 * smallest ulp 2^min_exp and overflow at 2^max_exp (53, -1074, 1024 for
 * double; 24, -149, 128 for float).  'count' is the number of inputs, which
 * decides the sign of a zero sum.  The result is returned as a double, which
 * holds any value of either format exactly.
 */
GrXsumStatus
gr_xsum_round(GrXsum *x, int64_t count, int precision, int min_exp,
			  int max_exp, double *result)
{
	GrXsum		mag;
	bool		negative;
	int			top;
	int			length;
	int			ulp;
	int			r;
	uint64_t	q;

	*result = 0.0;
	if (x->nan > 0 || (x->pinf > 0 && x->ninf > 0))
	{
		*result = NAN;
		return GR_XSUM_NAN;
	}
	if (x->pinf > 0)
	{
		*result = INFINITY;
		return GR_XSUM_PINF;
	}
	if (x->ninf > 0)
	{
		*result = -INFINITY;
		return GR_XSUM_NINF;
	}

	gr_xsum_normalize(x);
	mag = *x;
	negative = mag.limb[GR_XSUM_LIMBS - 1] < 0;
	if (negative)
	{
		for (int i = 0; i < GR_XSUM_LIMBS; i++)
			mag.limb[i] = -mag.limb[i];
		gr_xsum_normalize(&mag);
	}

	for (top = GR_XSUM_LIMBS - 1; top >= 0 && mag.limb[top] == 0; top--)
		;
	if (top < 0)
	{
		/* exact zero: -0.0 only if every input was -0.0, as in IEEE */
		*result = (count > 0 && x->negzero == count) ? -0.0 : 0.0;
		return GR_XSUM_OK;
	}

	/* length in bits of the magnitude, counted from 2^-1074 */
	length = 32 * top + bit_length((uint64_t) mag.limb[top]);
	ulp = length - 1 - 1074 - (precision - 1);
	if (ulp < min_exp)
		ulp = min_exp;
	r = ulp + 1074;				/* bit index of the ulp */

	q = xsum_bits(&mag, r, length - r);
	if (r > 0)
	{
		bool		half = xsum_bits(&mag, r - 1, 1) != 0;
		bool		sticky = xsum_any_below(&mag, r - 1);

		if (half && (sticky || (q & 1)))
		{
			q++;
			if (q == ((uint64_t) 1 << precision))
			{
				q >>= 1;
				ulp++;
			}
		}
	}

	/* q < 2^precision, so q * 2^ulp >= 2^max_exp iff this holds */
	if (ulp + bit_length(q) > max_exp)
		return GR_XSUM_OVERFLOW;

	*result = ldexp((double) q, ulp);
	if (negative)
		*result = -*result;
	return GR_XSUM_OK;
}

/* Correctly rounded float8 sum. */
GrXsumStatus
gr_xsum_to_double(GrXsum *x, int64_t count, double *result)
{
	return gr_xsum_round(x, count, 53, -1074, 1024, result);
}

/* Correctly rounded float4 sum (rounded once, straight from the exact sum). */
GrXsumStatus
gr_xsum_to_float(GrXsum *x, int64_t count, float *result)
{
	double		d;
	GrXsumStatus st = gr_xsum_round(x, count, 24, -149, 128, &d);

	*result = (float) d;
	return st;
}

/* ---- the small accumulator ---- */

#define XSMALL_TOP_LIMIT ((int64_t) 1 << 31)

/* Empty small accumulator. */
void
gr_xsmall_init(GrXsmall *s)
{
	memset(s, 0, sizeof(*s));
	s->lo = -1;
}

/*
 * Propagate carries so that every limb but the top one is in [-2^31, 2^31):
 * signed digits, so that a small negative sum stays in few limbs.
 */
static void
signed_digits(int64_t *limb, int n)
{
	for (int j = 0; j < n - 1; j++)
	{
		int64_t		c = (limb[j] + ((int64_t) 1 << 31)) >> 32;

		limb[j] -= (int64_t) ((uint64_t) c << 32);
		limb[j + 1] += c;
	}
}

/* Normalize a small accumulator to signed digits. */
static void
xsmall_normalize(GrXsmall *s)
{
	signed_digits(s->limb, GR_XSMALL_LIMBS);
	s->pending = 0;
}

/* The nonzero limbs of limb[0..n-1] are limb[first..last]; -1, -1 if none. */
static void
nonzero_range(const int64_t *limb, int n, int *first, int *last)
{
	*first = *last = -1;
	for (int j = 0; j < n; j++)
		if (limb[j] != 0)
		{
			if (*first < 0)
				*first = j;
			*last = j;
		}
}

/*
 * Normalize s and find its nonzero limbs, limb[first..last] (first = -1 if
 * none).  False if the top limb holds more than a digit, which no window
 * move can keep.
 */
static bool
xsmall_used(GrXsmall *s, int *first, int *last)
{
	xsmall_normalize(s);
	*first = *last = -1;
	if (s->limb[GR_XSMALL_LIMBS - 1] >= XSMALL_TOP_LIMIT ||
		s->limb[GR_XSMALL_LIMBS - 1] < -XSMALL_TOP_LIMIT)
		return false;
	nonzero_range(s->limb, GR_XSMALL_LIMBS, first, last);
	return true;
}

/*
 * Move the window of a small accumulator (normalizing it) so that it covers
 * GrXsum limbs [first, last] as well as its own nonzero limbs.  False, changing
 * nothing, if they span more than GR_XSMALL_LIMBS limbs or the top limb
 * holds more than a digit.
 */
static bool
xsmall_cover(GrXsmall *s, int first, int last)
{
	int64_t		moved[GR_XSMALL_LIMBS] = {0};
	int			lo;

	if (s->lo >= 0)
	{
		int			used_first,
					used_last;

		if (!xsmall_used(s, &used_first, &used_last))
			return false;
		if (used_first >= 0)
		{
			first = Min(first, s->lo + used_first);
			last = Max(last, s->lo + used_last);
		}
	}
	if (last - first + 1 > GR_XSMALL_LIMBS)
		return false;
	/* centre the used limbs, leaving room for carries above them */
	lo = first - (GR_XSMALL_LIMBS - (last - first + 1)) / 2;
	if (lo > GR_XSUM_LIMBS - GR_XSMALL_LIMBS)
		lo = GR_XSUM_LIMBS - GR_XSMALL_LIMBS;
	if (lo < 0)
		lo = 0;
	if (s->lo >= 0)
		for (int j = 0; j < GR_XSMALL_LIMBS; j++)
			if (s->limb[j] != 0)
				moved[s->lo + j - lo] = s->limb[j];
	memcpy(s->limb, moved, sizeof(moved));
	s->lo = (int16_t) lo;
	return true;
}

/*
 * gr_xsmall_add's other cases: zeros, subnormals, NaN and infinities, the
 * first value, a value outside the window, and normalizing.
 */
bool
gr_xsmall_add_slow(GrXsmall *s, uint64_t bits)
{
	unsigned	e = gr_xsum_exponent(bits);
	unsigned	p;

	if (e == 0x7FF)
		return false;
	if (e == 0 && gr_xsum_fraction(bits) == 0)
		return (bits >> 63) == 0;	/* +0.0 adds nothing; -0.0 is counted */
	p = gr_xsum_position(e);
	if (!xsmall_cover(s, (int) (p >> 5), (int) (p >> 5) + 2))
		return false;
	gr_xsum_spread(s->limb + (p >> 5) - s->lo, p, gr_xsum_significand(bits), (bits >> 63) != 0);
	s->pending = 1;
	return true;
}

/* dst += src; false, changing nothing, if dst's window cannot hold both. */
bool
gr_xsmall_merge(GrXsmall *dst, const GrXsmall *src)
{
	GrXsmall	add = *src;
	int			first,
				last;

	if (src->lo < 0)
		return true;
	if (!xsmall_used(&add, &first, &last))
		return false;
	if (first < 0)
		return true;
	if (!xsmall_cover(dst, add.lo + first, add.lo + last))
		return false;
	for (int j = 0; j < GR_XSMALL_LIMBS; j++)
		if (add.limb[j] != 0)
			dst->limb[add.lo + j - dst->lo] += add.limb[j];
	dst->pending = 1;
	return true;
}

/* x += s. */
void
gr_xsmall_to_xsum(const GrXsmall *s, GrXsum *x)
{
	if (s->lo < 0)
		return;
	gr_xsum_normalize(x);
	for (int j = 0; j < GR_XSMALL_LIMBS; j++)
		x->limb[s->lo + j] += s->limb[j];
	gr_xsum_normalize(x);
}

/*
 * The value of a full accumulator as a small one, if it has no special
 * values and its digits fit in a window; false, leaving s empty, if not.
 */
bool
gr_xsmall_from_xsum(GrXsmall *s, const GrXsum *x)
{
	int64_t		d[GR_XSUM_LIMBS];
	int			first,
				last;

	gr_xsmall_init(s);
	if (x->nan != 0 || x->pinf != 0 || x->ninf != 0 || x->negzero != 0)
		return false;
	memcpy(d, x->limb, sizeof(d));
	signed_digits(d, GR_XSUM_LIMBS);
	nonzero_range(d, GR_XSUM_LIMBS, &first, &last);
	if (last < 0)
		return true;
	if (d[last] >= XSMALL_TOP_LIMIT || d[last] < -XSMALL_TOP_LIMIT ||
		!xsmall_cover(s, first, last))
	{
		gr_xsmall_init(s);
		return false;
	}
	for (int i = first; i <= last; i++)
		s->limb[i - s->lo] = d[i];
	return true;
}

/*
 * Round a small accumulator's sum to double (or, with single, to float) the
 * quick way: when its digits fit in 128 bits, the integer converts with one
 * correct rounding (the compiler's int128 conversion rounds to nearest even)
 * and scaling by a power of two is exact for a normal result.  False when
 * that does not hold (digits wider than 128 bits, subnormal or overflowing
 * results): gr_xsum_round() then does it.
 */
bool
gr_xsmall_round(const GrXsmall *s, bool single, double *result)
{
	GrXsmall	t = *s;
	int			first = -1,
				last = -1;
	__int128	v = 0;
	int			e;

	if (t.lo < 0)
	{
		*result = 0.0;
		return true;
	}
	if (!xsmall_used(&t, &first, &last))
		return false;
	if (first < 0)
	{
		*result = 0.0;			/* no -0.0 here: those go to the full one */
		return true;
	}
	if (last - first > 3)
		return false;
	for (int j = last; j >= first; j--)
		v = v * ((__int128) 1 << 32) + t.limb[j];
	e = 32 * (t.lo + first) - 1074;
	/* scaling is exact only when the result is normal and finite */
	if (single)
	{
		float		f = (float) v;
		int			ex;

		(void) frexpf(f, &ex);
		if (ex + e < FLT_MIN_EXP || ex + e > FLT_MAX_EXP)
			return false;
		*result = ldexpf(f, e);
	}
	else
	{
		double		d = (double) v;
		int			ex;

		(void) frexp(d, &ex);
		if (ex + e < DBL_MIN_EXP || ex + e > DBL_MAX_EXP)
			return false;
		*result = ldexp(d, e);
	}
	return true;
}
