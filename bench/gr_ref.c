/*
 * gr_ref.c
 *	  CPU references for the kernel benchmark and tests.
 *
 * Deliberately the plain way (one loop per answer, OpenMP over big arrays),
 * so that it shares no idea with the kernels it checks.  Exact float sums use
 * the extension's own CPU code, src/xsum.c.
 */
#include "gr_ref.h"

#include <stdlib.h>
#include <string.h>

/* Bytes of one value. */
int
ref_type_bytes(GrCudaType type)
{
	return type == GR_CUDA_INT2 ? 2 : (type == GR_CUDA_INT4 || type == GR_CUDA_FLOAT4) ? 4 : 8;
}

/* The order key of values[i], as the interface defines it. */
int64_t
ref_key(GrCudaType type, const void *values, int64_t i)
{
	switch (type)
	{
		case GR_CUDA_INT2:
			return ((const int16_t *) values)[i];
		case GR_CUDA_INT4:
			return ((const int32_t *) values)[i];
		case GR_CUDA_INT8:
			return ((const int64_t *) values)[i];
		case GR_CUDA_FLOAT4:
			{
				int32_t		b;

				memcpy(&b, (const float *) values + i, 4);
				if ((b & 0x7FFFFFFF) > 0x7F800000)
					b = 0x7FC00000;
				return b >= 0 ? b : b ^ 0x7FFFFFFF;
			}
		case GR_CUDA_FLOAT8:
			{
				int64_t		b;

				memcpy(&b, (const double *) values + i, 8);
				if ((b & INT64_MAX) > 0x7FF0000000000000LL)
					b = 0x7FF8000000000000LL;
				return b >= 0 ? b : b ^ INT64_MAX;
			}
	}
	return 0;
}

/* Integer sum in 128 bits. */
void
ref_sum_int(GrCudaType type, const void *values, int64_t n, int64_t *lo, int64_t *hi)
{
	__int128	total = 0;

#pragma omp parallel
	{
		__int128	s = 0;

#pragma omp for schedule(static)
		for (int64_t i = 0; i < n; i++)
			s += ref_key(type, values, i);
#pragma omp critical
		total += s;
	}
	*lo = (int64_t) (unsigned __int128) total;
	*hi = (int64_t) (total >> 64);
}

/*
 * Sum in 128 bits and sum of squares in 192: each square exact in unsigned
 * __int128, the sum's carries counted in a third word.
 */
void
ref_sumsq_int(GrCudaType type, const void *values, int64_t n, int64_t *lo, int64_t *hi,
			  uint64_t sq[3])
{
	unsigned __int128 low = 0;
	uint64_t	top = 0;

	ref_sum_int(type, values, n, lo, hi);
#pragma omp parallel
	{
		unsigned __int128 s = 0;
		uint64_t	c = 0;

#pragma omp for schedule(static)
		for (int64_t i = 0; i < n; i++)
		{
			int64_t		k = ref_key(type, values, i);
			uint64_t	m = k < 0 ? -(uint64_t) k : (uint64_t) k;
			unsigned __int128 q = (unsigned __int128) m * m;

			s += q;
			c += s < q;
		}
#pragma omp critical
		{
			low += s;
			top += c + (low < s);
		}
	}
	sq[0] = (uint64_t) low;
	sq[1] = (uint64_t) (low >> 64);
	sq[2] = top;
}

/* Smallest or largest key. */
int64_t
ref_minmax(GrCudaType type, const void *values, int64_t n, bool is_max)
{
	int64_t		lo = INT64_MAX,
				hi = INT64_MIN;

#pragma omp parallel for reduction(min:lo) reduction(max:hi)
	for (int64_t i = 0; i < n; i++)
	{
		int64_t		k = ref_key(type, values, i);

		if (k < lo)
			lo = k;
		if (k > hi)
			hi = k;
	}
	return is_max ? hi : lo;
}

/* Two largest keys, duplicates counted; returns how many exist. */
int
ref_top2(GrCudaType type, const void *values, int64_t n, int64_t key[2])
{
	int64_t		a = INT64_MIN,
				b = INT64_MIN;

	for (int64_t i = 0; i < n; i++)
	{
		int64_t		k = ref_key(type, values, i);

		if (k > a)
		{
			b = a;
			a = k;
		}
		else if (k > b)
			b = k;
	}
	key[0] = a;
	key[1] = b;
	return n < 2 ? (int) n : 2;
}

/* qsort order: descending */
static int
cmp_desc(const void *x, const void *y)
{
	int64_t		a = *(const int64_t *) x,
				b = *(const int64_t *) y;

	return a < b ? 1 : a > b ? -1 : 0;
}

/* k largest keys descending into keys[] (room for n); returns min(n, k). */
int64_t
ref_topk(GrCudaType type, const void *values, int64_t n, int64_t k, int64_t *keys)
{
	for (int64_t i = 0; i < n; i++)
		keys[i] = ref_key(type, values, i);
	qsort(keys, (size_t) n, sizeof(int64_t), cmp_desc);
	return k < n ? k : n;
}

/* Exact sum of the values, or of their squares, with src/xsum.c, in chunks on all cores. */
static void
ref_xsum_of(GrCudaType type, const void *values, int64_t n, GrXsum *x, bool squares)
{
	gr_xsum_init(x);
#pragma omp parallel
	{
		GrXsum		part;

		gr_xsum_init(&part);
#pragma omp for schedule(static)
		for (int64_t c = 0; c < n; c += 1 << 20)
		{
			int64_t		m = n - c < (1 << 20) ? n - c : (1 << 20);
			const double *d = (const double *) values + c;
			const float *f = (const float *) values + c;

			if (type == GR_CUDA_FLOAT8 && squares)
				gr_xsum_add_squares_doubles(&part, d, m);
			else if (type == GR_CUDA_FLOAT8)
				gr_xsum_add_doubles(&part, d, m);
			else if (squares)
				gr_xsum_add_squares_floats(&part, f, m);
			else
				gr_xsum_add_floats(&part, f, m);
		}
#pragma omp critical
		gr_xsum_merge(x, &part);
	}
}

void
ref_xsum(GrCudaType type, const void *values, int64_t n, GrXsum *x)
{
	ref_xsum_of(type, values, n, x, false);
}

/* Exact sum of squares, each square added as src/xsum.c adds them. */
void
ref_xsum_squares(GrCudaType type, const void *values, int64_t n, GrXsum *x)
{
	ref_xsum_of(type, values, n, x, true);
}

/* Same exact value and same special counts (limbs may differ in form). */
bool
ref_xsum_equal(const GrXsum *a, const GrXsum *b)
{
	__int128	carry = 0;

	if (a->nan != b->nan || a->pinf != b->pinf || a->ninf != b->ninf ||
		a->negzero != b->negzero)
		return false;
	for (int i = 0; i < GR_XSUM_LIMBS; i++)
	{
		__int128	d = (__int128) a->limb[i] - b->limb[i] + carry;

		/* the low 32 bits of the difference must vanish at every digit */
		if ((d & 0xFFFFFFFF) != 0)
			return false;
		carry = d >> 32;
	}
	return carry == 0;
}

/* The GPU result contract: every limb below 2^62 in magnitude. */
bool
ref_xsum_limbs_bounded(const GrXsum *x)
{
	for (int i = 0; i < GR_XSUM_LIMBS; i++)
		if (x->limb[i] >= ((int64_t) 1 << 62) || x->limb[i] <= -((int64_t) 1 << 62))
			return false;
	return true;
}
