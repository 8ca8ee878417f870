/*
 * xsum.h
 *	  Exact accumulator for sums of float4/float8 values.
 *
 * Plain C99 with no PostgreSQL or CUDA headers, so the CPU reducer, the GPU
 * kernels and the serializer share one definition of the layout.
 *
 * A finite double is m * 2^(p - 1074) with an integer 0 <= m < 2^53 and a bit
 * position 0 <= p <= 2045 (p = max(E, 1) - 1 for biased exponent E).  The
 * accumulator holds an integer multiple of 2^-1074 as signed radix-2^32
 * digits: value = sum(limb[i] * 2^(32 i - 1074)).  Limbs need not be
 * normalized: any limbs with the right value are a valid state, which is what
 * lets batches be reduced anywhere (CPU, GPU, any order) and still round to
 * the same bits.  NaN, infinities and -0.0 are counted, not added; a zero
 * sum rounds to -0.0 only when every input was -0.0, as IEEE addition does.
 */
#ifndef GR_XSUM_H
#define GR_XSUM_H

#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#define GR_XSUM_LIMB_BITS	32
#define GR_XSUM_LIMBS		67	/* 2046 + 53 bits of position, plus headroom */

/*
 * Each limb may absorb this many 32-bit digit additions before it has to be
 * normalized; a digit added is below 2^32 in magnitude, a limb stays < 2^62.
 */
#define GR_XSUM_MAX_UNNORMALIZED	((int64_t) 1 << 29)

/*
 * From this many values at once, gr_xsum_add_doubles() and _floats() sum by
 * exponent buckets (xsum.c): cheaper a value, with a fixed cost per call.
 */
#define GR_XSUM_BUCKETED_MIN		256

typedef struct GrXsum
{
	int64_t		limb[GR_XSUM_LIMBS];
	int64_t		nan;			/* NaN inputs */
	int64_t		pinf;			/* +Infinity inputs */
	int64_t		ninf;			/* -Infinity inputs */
	int64_t		negzero;		/* -0.0 inputs: an all -0.0 input sums to -0.0 */
	int64_t		pending;		/* digit additions since last normalize */
} GrXsum;

/* how a rounded sum came out */
typedef enum GrXsumStatus
{
	GR_XSUM_OK,
	GR_XSUM_NAN,				/* result is NaN */
	GR_XSUM_PINF,				/* result is +Infinity (an input was) */
	GR_XSUM_NINF,				/* result is -Infinity (an input was) */
	GR_XSUM_OVERFLOW			/* finite inputs, exact sum out of range */
} GrXsumStatus;

/*
 * A small exact accumulator: GR_XSMALL_LIMBS consecutive limbs of a GrXsum,
 * limb[j] standing for GrXsum limb lo + j.  It holds a sum exactly while
 * every value falls in its window (values within 2^32 to 2^64 of each
 * other, depending on where they fall, which is what most columns hold), in
 * 40 bytes instead of a GrXsum's 576: a GROUP BY with a million groups keeps
 * one per group, inside a 64-byte state.  It has no counters
 * for NaN, infinities and -0.0; adding one of those, or a value outside the
 * window it cannot move to cover, fails, and the caller moves to a GrXsum.
 */
#define GR_XSMALL_LIMBS 4

typedef struct GrXsmall
{
	int64_t		limb[GR_XSMALL_LIMBS];
	int16_t		lo;				/* GrXsum limb of limb[0]; -1 while empty
								 * (lower values are left to the owner) */
	int32_t		pending;		/* digit additions since last normalize */
} GrXsmall;

extern void gr_xsum_init(GrXsum *x);
extern void gr_xsum_add_double(GrXsum *x, double v);
extern void gr_xsum_add_doubles(GrXsum *x, const double *v, int64_t n);
extern void gr_xsum_add_floats(GrXsum *x, const float *v, int64_t n);
extern void gr_xsum_add_squares_doubles(GrXsum *x, const double *v, int64_t n);
extern void gr_xsum_add_squares_floats(GrXsum *x, const float *v, int64_t n);
extern void gr_xsum_normalize(GrXsum *x);
extern void gr_xsum_merge(GrXsum *dst, const GrXsum *src);
extern GrXsumStatus gr_xsum_round(GrXsum *x, int64_t count, int precision,
								  int min_exp, int max_exp, double *result);
extern GrXsumStatus gr_xsum_to_double(GrXsum *x, int64_t count, double *result);
extern GrXsumStatus gr_xsum_to_float(GrXsum *x, int64_t count, float *result);

extern void gr_xsmall_init(GrXsmall *s);
extern bool gr_xsmall_add_slow(GrXsmall *s, uint64_t bits);
extern bool gr_xsmall_merge(GrXsmall *dst, const GrXsmall *src);
extern void gr_xsmall_to_xsum(const GrXsmall *s, GrXsum *x);
extern bool gr_xsmall_from_xsum(GrXsmall *s, const GrXsum *x);
extern bool gr_xsmall_round(const GrXsmall *s, bool single, double *result);

/*
 * The fields of a double's bit pattern, for both accumulators: the biased
 * exponent e (0x7FF: NaN or an infinity; 0: a zero or a subnormal), the
 * 52-bit fraction, and the significand, the fraction with a normal number's
 * hidden bit.  A finite nonzero value is significand * 2^(p - 1074), p its
 * unit's digit position.
 */
static inline unsigned
gr_xsum_exponent(uint64_t bits)
{
	return (unsigned) (bits >> 52) & 0x7FF;
}

static inline uint64_t
gr_xsum_fraction(uint64_t bits)
{
	return bits & (((uint64_t) 1 << 52) - 1);
}

static inline uint64_t
gr_xsum_significand(uint64_t bits)
{
	return gr_xsum_fraction(bits) | ((uint64_t) (gr_xsum_exponent(bits) != 0) << 52);
}

static inline unsigned
gr_xsum_position(unsigned e)
{
	return e != 0 ? e - 1 : 0;
}

/*
 * Add (or, with negative, subtract) m * 2^(p % 32) at limb[0..2], m < 2^63:
 * a finite nonzero double m * 2^(p - 1074) (m < 2^53), or a sum of such
 * mantissas, spread over the three 32-bit digits from digit p / 32, which
 * limb points at; every digit added is below 2^32.  Shared by both
 * accumulators.  No branch: a column's signs are often random, and a
 * mispredicted branch a value was most of the CPU's exact sum.
 * (m >> 1) >> (63 - sh) is m >> (64 - sh) for sh > 0 and 0 for sh = 0,
 * with no shift by 64.
 */
static inline void
gr_xsum_spread(int64_t *limb, unsigned p, uint64_t m, bool negative)
{
	unsigned	sh = p & 31;
	uint64_t	lo = m << sh;
	uint64_t	hi = (m >> 1) >> (63 - sh);
	int64_t		neg = -(int64_t) negative;	/* 0 or all ones */

	limb[0] += ((int64_t) (lo & 0xFFFFFFFF) ^ neg) - neg;
	limb[1] += ((int64_t) (lo >> 32) ^ neg) - neg;
	limb[2] += ((int64_t) hi ^ neg) - neg;
}

/*
 * Add one double to a small accumulator; false (nothing added) if it needs
 * the full one.  The common case, a finite value inside the window, is
 * inline; the rest goes to gr_xsmall_add_slow().
 */
static inline bool
gr_xsmall_add(GrXsmall *s, double v)
{
	uint64_t	bits;
	unsigned	e,
				p;
	int			j;

	memcpy(&bits, &v, sizeof(bits));
	e = gr_xsum_exponent(bits);
	if (e == 0 || e == 0x7FF || s->lo < 0 ||
		s->pending >= GR_XSUM_MAX_UNNORMALIZED)
		return gr_xsmall_add_slow(s, bits);
	p = gr_xsum_position(e);
	j = (int) (p >> 5) - s->lo;
	if (j < 0 || j > GR_XSMALL_LIMBS - 3)
		return gr_xsmall_add_slow(s, bits);
	gr_xsum_spread(s->limb + j, p, gr_xsum_significand(bits), (bits >> 63) != 0);
	s->pending++;
	return true;
}

#endif							/* GR_XSUM_H */
