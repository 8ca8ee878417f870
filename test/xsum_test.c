/*
 * test/xsum_test.c -- unit test of the exact float accumulators (src/xsum.c).
 *
 * The small accumulator (GrXsmall) must give the same bits as the full one
 * (GrXsum) whatever the values, however they are split into partial sums and
 * merged, and through a round trip from full to small; its quick rounding
 * (gr_xsmall_round) must agree with gr_xsum_round for float8 and float4
 * results.  The array adders (gr_xsum_add_doubles and _floats, which sum
 * by exponent buckets from GR_XSUM_BUCKETED_MIN values on) must give the
 * bits of adding the values one by one.  Vectors come from a fixed-seed generator over many magnitude
 * mixes (narrow, wide, subnormal, near overflow, NaN, infinities, -0.0), and
 * the edge cases are listed too.  test/run_tests.sh builds and runs it.
 * Prints a summary; exit status 1 on any mismatch.
 */
#include "xsum.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng = 0x9E3779B97F4A7C15u;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A value of one of several magnitude mixes. */
static double
value(int mix)
{
	double		u = (double) (next() >> 11) / 9007199254740992.0;
	uint64_t	bits;
	double		d;

	switch (mix)
	{
		case 0:
			return (u - 0.5) * 2e6;	/* the benchmark's column */
		case 1:
			return ldexp(u - 0.5, (int) (next() % 40) - 20);
		case 2:
			return ldexp(u - 0.5, (int) (next() % 200) - 100);	/* wider than a window */
		case 3:
			bits = next();		/* any finite double */
			memcpy(&d, &bits, sizeof(d));
			return isfinite(d) ? d : 1.0;
		case 4:
			return ldexp(u, -1074 + (int) (next() % 60));	/* subnormal */
		case 5:
			return (next() & 1 ? 1 : -1) * ldexp(1.0 + u, 1020 + (int) (next() % 3));	/* overflow */
		case 6:
			return (double) (float) ((u - 0.5) * 1e4);	/* float4 values */
		case 7:
			return ldexp(u - 0.5, 125 + (int) (next() % 5));	/* float4 overflow */
		case 8:
			{
				static const double special[] = {0.0, -0.0, 1.0, -1.0, NAN, INFINITY, -INFINITY};

				return next() % 8 ? (double) ((int) (next() % 2001) - 1000) * 0.125
					: special[next() % 7];
			}
		default:
			return (double) ((int64_t) (next() % 2000001) - 1000000) * ldexp(1.0, -(int) (next() % 3));
	}
}

/* A partial sum the way src/partial.c keeps one: small until it must widen. */
typedef struct
{
	GrXsmall	small;
	GrXsum		full;
	bool		wide;
} Sum;

static void
sum_init(Sum *s)
{
	gr_xsmall_init(&s->small);
	s->wide = false;
}

static void
widen(Sum *s)
{
	if (!s->wide)
	{
		gr_xsum_init(&s->full);
		gr_xsmall_to_xsum(&s->small, &s->full);
		s->wide = true;
	}
}

static void
sum_add(Sum *s, double v)
{
	if (!s->wide && gr_xsmall_add(&s->small, v))
		return;
	widen(s);
	gr_xsum_add_double(&s->full, v);
}

static void
sum_merge(Sum *dst, Sum *src)
{
	if (!dst->wide && !src->wide && gr_xsmall_merge(&dst->small, &src->small))
		return;
	widen(dst);
	if (src->wide)
		gr_xsum_merge(&dst->full, &src->full);
	else
		gr_xsmall_to_xsum(&src->small, &dst->full);
}

/* The rounded sum, float8 or float4, as double bits. */
static double
sum_round(Sum *s, int64_t n, bool single, bool *quick)
{
	GrXsum		x;
	double		r;
	float		f;

	*quick = false;
	if (!s->wide && gr_xsmall_round(&s->small, single, &r))
	{
		*quick = true;
		return r;
	}
	if (s->wide)
		x = s->full;
	else
	{
		gr_xsum_init(&x);
		gr_xsmall_to_xsum(&s->small, &x);
	}
	if (single)
	{
		gr_xsum_to_float(&x, n, &f);
		return f;
	}
	gr_xsum_to_double(&x, n, &r);
	return r;
}

static long failures;

static void
check(const char *what, int mix, int n, double got, double want)
{
	if (memcmp(&got, &want, sizeof(got)) != 0 && !(isnan(got) && isnan(want)))
	{
		if (failures < 10)
			printf("MISMATCH %s: mix %d, %d values: got %a, want %a\n", what, mix, n, got, want);
		failures++;
	}
}

int
main(void)
{
	long		vectors = 0,
				small_kept = 0,
				quick = 0;

	for (int t = 0; t < 60000; t++)
	{
		int			mix = t % 10;
		int			n = 1 + (int) (next() % (t % 4 == 0 ? 3000 : 40));
		double	   *v = malloc(sizeof(double) * n);
		float	   *f4 = malloc(sizeof(float) * n);
		GrXsum		ref,
					ref4,
					arr,
					arr4;
		Sum			one,
					parts[4];
		GrXsmall	back;

		for (int i = 0; i < n; i++)
			v[i] = value(mix);
		gr_xsum_init(&ref);
		sum_init(&one);
		for (int p = 0; p < 4; p++)
			sum_init(&parts[p]);
		for (int i = 0; i < n; i++)
		{
			gr_xsum_add_double(&ref, v[i]);
			sum_add(&one, v[i]);
			sum_add(&parts[next() % 4], v[i]);
		}
		for (int p = 1; p < 4; p++)
			sum_merge(&parts[0], &parts[p]);
		/* the array adders, over pieces of random length */
		gr_xsum_init(&ref4);
		gr_xsum_init(&arr);
		gr_xsum_init(&arr4);
		for (int i = 0; i < n; i++)
		{
			f4[i] = (float) v[i];
			gr_xsum_add_double(&ref4, f4[i]);
		}
		for (int i = 0, k; i < n; i += k)
		{
			k = 1 + (int) (next() % (next() % 2 ? 3000 : 300));
			k = k < n - i ? k : n - i;
			gr_xsum_add_doubles(&arr, v + i, k);
			gr_xsum_add_floats(&arr4, f4 + i, k);
		}
		{
			GrXsum		x = ref,
						y = ref4;
			double		want,
						got;
			float		fw,
						fg;

			gr_xsum_to_double(&x, n, &want);
			gr_xsum_to_double(&arr, n, &got);
			check("array add, float8", mix, n, got, want);
			gr_xsum_to_float(&y, n, &fw);
			gr_xsum_to_float(&arr4, n, &fg);
			check("array add of floats, float4", mix, n, fg, fw);
		}

		for (int single = 0; single <= 1; single++)
		{
			GrXsum		x = ref;
			double		want;
			float		f;
			bool		q;

			if (single)
			{
				gr_xsum_to_float(&x, n, &f);
				want = f;
			}
			else
				gr_xsum_to_double(&x, n, &want);
			check(single ? "one sum, float4" : "one sum, float8", mix, n,
				  sum_round(&one, n, single, &q), want);
			quick += q;
			check(single ? "merged parts, float4" : "merged parts, float8", mix, n,
				  sum_round(&parts[0], n, single, &q), want);
			quick += q;
			x = ref;
			gr_xsum_normalize(&x);
			if (gr_xsmall_from_xsum(&back, &x))
			{
				Sum			b = {back, {{0}}, false};

				check(single ? "full to small, float4" : "full to small, float8", mix, n,
					  sum_round(&b, n, single, &q), want);
			}
		}
		small_kept += !one.wide;
		vectors++;
		free(v);
		free(f4);
	}
	printf("xsum_test: %ld vectors, %ld kept in the small accumulator, %ld quick roundings, %ld mismatches\n",
		   vectors, small_kept, quick, failures);
	return failures != 0;
}
