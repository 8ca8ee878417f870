/*
 * gr_data.cuh
 *	  Test and benchmark data, made on the device from a counter-based hash
 *	  (same seed, same data), in the patterns the kernels must survive.
 */
#ifndef GR_DATA_CUH
#define GR_DATA_CUH

#include <stdint.h>
#include <cuda_runtime.h>

#include "../cuda/gr_cuda.h"

/* data patterns; which types each applies to is noted */
enum GrPattern
{
	PAT_RANDOM,					/* ints: full range; floats: uniform [-1, 1) */
	PAT_SMALLINT,				/* ints: 0..9, many duplicates; floats: same as doubles */
	PAT_WIDE,					/* floats: |x| in 2^-20 .. 2^20, random sign */
	PAT_BITS,					/* any bit pattern: NaNs, infinities, subnormals */
	PAT_SPECIAL,				/* uniform with NaN, -NaN, +-Inf, -0.0, +0.0 sprinkled */
	PAT_CANCEL,					/* 1e16, 1, -1e16, repeated */
	PAT_EQUAL,					/* all 0.1 (ints: all -7) */
	PAT_NEGZERO,				/* all -0.0 (ints: all INT_MIN) */
	PAT_TINY,					/* subnormals and the smallest normals */
	PAT_HUGE,					/* |x| near the top of the range (no overflow to inf in doubles' sum? may) */
	PAT_SQEDGE,					/* floats: squares at the ends of double's range (overflow,
								 * subnormal, above the bins' 2^1000) among ordinary values */
	PAT_COUNT
};

static const char *const gr_pattern_name[PAT_COUNT] = {
	"random", "smallint", "wide", "bits", "special", "cancel", "equal", "negzero", "tiny", "huge",
	"sqedge"
};

/* splitmix64: a good 64-bit hash of a counter */
__device__ __forceinline__ uint64_t
gr_mix(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

/* One double of a pattern. */
__device__ __forceinline__ double
gr_gen_double(int pat, uint64_t i, uint64_t seed)
{
	uint64_t	h = gr_mix(seed * 0x100000001B3ULL + i);
	uint64_t	h2 = gr_mix(h);
	double		u = (double) (h >> 11) * 0x1.0p-53 * 2.0 - 1.0;

	switch (pat)
	{
		case PAT_SMALLINT:
			return (double) (h % 10);
		case PAT_WIDE:
			{
				/* random 52-bit mantissa, exponent -20..20 */
				uint64_t	b = (h & 0x000FFFFFFFFFFFFFULL) |
					((uint64_t) (1023 - 20 + (int) (h2 % 41)) << 52) | (h2 & (1ULL << 63));

				return __longlong_as_double((long long) b);
			}
		case PAT_BITS:
			return __longlong_as_double((long long) h);
		case PAT_SPECIAL:
			switch (h2 % 16)
			{
				case 0:
					return __longlong_as_double(0x7FF8000000000001LL);
				case 1:
					return __longlong_as_double((long long) 0xFFF8000000000000ULL);
				case 2:
					return __longlong_as_double(0x7FF0000000000000LL);
				case 3:
					return __longlong_as_double((long long) 0xFFF0000000000000ULL);
				case 4:
					return -0.0;
				case 5:
					return 0.0;
				default:
					return u;
			}
		case PAT_CANCEL:
			return i % 3 == 0 ? 1e16 : i % 3 == 1 ? 1.0 : -1e16;
		case PAT_EQUAL:
			return 0.1;
		case PAT_NEGZERO:
			return -0.0;
		case PAT_TINY:
			return __longlong_as_double((long long) ((h & 0x001FFFFFFFFFFFFFULL) | (h2 & (1ULL << 63))));
		case PAT_HUGE:
			return __longlong_as_double((long long) ((h & 0x000FFFFFFFFFFFFFULL) |
													 ((uint64_t) (2046 - (h2 % 40)) << 52) |
													 (h2 & (1ULL << 63))));
		case PAT_SQEDGE:
			{
				/* 2^500..2^513: squares up to and past overflow; 2^-545..2^-500: squares
				 * subnormal, their fma remainders rounded; else uniform */
				int			band = (int) (h2 % 3);
				uint64_t	e = band == 0 ? 1023 + 500 + (h2 >> 8) % 13 :
					band == 1 ? 1023 - 545 + (h2 >> 8) % 46 : 0;

				if (band == 2)
					return u;
				return __longlong_as_double((long long) ((h & 0x000FFFFFFFFFFFFFULL) | (e << 52) |
														 (h2 & (1ULL << 63))));
			}
		default:
			return u;
	}
}

/* One float of a pattern (same shapes, float's range). */
__device__ __forceinline__ float
gr_gen_float(int pat, uint64_t i, uint64_t seed)
{
	uint64_t	h = gr_mix(seed * 0x100000001B3ULL + i);
	uint64_t	h2 = gr_mix(h);

	switch (pat)
	{
		case PAT_WIDE:
			return __uint_as_float((unsigned) ((h & 0x7FFFFF) | ((127 - 20 + (h2 % 41)) << 23) |
											   (h2 & 0x80000000u)));
		case PAT_BITS:
			return __uint_as_float((unsigned) h);
		case PAT_TINY:
			return __uint_as_float((unsigned) ((h & 0xFFFFFF) | (h2 & 0x80000000u)));
		case PAT_HUGE:
			return __uint_as_float((unsigned) ((h & 0x7FFFFF) | ((254 - (h2 % 20)) << 23) |
											   (h2 & 0x80000000u)));
		case PAT_CANCEL:
			return i % 3 == 0 ? 1e16f : i % 3 == 1 ? 1.0f : -1e16f;
		case PAT_SQEDGE:
			/* the largest and the subnormal floats, squares 2^-298..2^256, and ordinary ones */
			if (h2 % 3 == 0)
				return __uint_as_float((unsigned) ((h & 0x7FFFFF) | ((254 - ((h2 >> 8) % 20)) << 23) |
												   (h2 & 0x80000000u)));
			if (h2 % 3 == 1)
				return __uint_as_float((unsigned) ((h & 0xFFFFFF) | (h2 & 0x80000000u)));
			return (float) gr_gen_double(PAT_RANDOM, i, seed);
		default:
			return (float) gr_gen_double(pat, i, seed);
	}
}

/* One integer of a pattern, as int64 (narrowed by the caller). */
__device__ __forceinline__ long long
gr_gen_int(int pat, uint64_t i, uint64_t seed, int bits)
{
	uint64_t	h = gr_mix(seed * 0x100000001B3ULL + i);
	long long	lo = bits == 64 ? (long long) INT64_MIN : -(1LL << (bits - 1));

	switch (pat)
	{
		case PAT_SMALLINT:
			return (long long) (h % 10);
		case PAT_EQUAL:
			return -7;
		case PAT_NEGZERO:
			return lo;
		case PAT_HUGE:
			return h & 1 ? ~lo - (long long) (h % 4) : lo + (long long) (h % 4);
		default:
			return bits == 64 ? (long long) h : lo + (long long) (h >> (64 - bits));
	}
}

/* Fill values[0..n) of a type with a pattern. */
__global__ void
gr_fill_kernel(void *values, int type, int pat, int64_t n, uint64_t seed)
{
	for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		switch (type)
		{
			case GR_CUDA_INT2:
				((int16_t *) values)[i] = (int16_t) gr_gen_int(pat, i, seed, 16);
				break;
			case GR_CUDA_INT4:
				((int32_t *) values)[i] = (int32_t) gr_gen_int(pat, i, seed, 32);
				break;
			case GR_CUDA_INT8:
				((long long *) values)[i] = gr_gen_int(pat, i, seed, 64);
				break;
			case GR_CUDA_FLOAT4:
				((float *) values)[i] = gr_gen_float(pat, i, seed);
				break;
			case GR_CUDA_FLOAT8:
				((double *) values)[i] = gr_gen_double(pat, i, seed);
				break;
		}
	}
}

/* Fill on the stream 0 and check the launch. */
static inline cudaError_t
gr_fill(void *values, GrCudaType type, int pat, int64_t n, uint64_t seed)
{
	if (n <= 0)
		return cudaSuccess;
	gr_fill_kernel<<<1024, 256>>>(values, (int) type, pat, n, seed);
	return cudaGetLastError();
}

#endif							/* GR_DATA_CUH */
