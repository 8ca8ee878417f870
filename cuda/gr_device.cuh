/*
 * gr_device.cuh
 *	  Device helpers every kernel shares: order keys, the split of an array
 *	  into an unaligned head, 16-byte vectors and a tail, warp shuffles of any
 *	  small struct, and the last-block-done ticket that lets one launch finish
 *	  a reduction across blocks.
 */
#ifndef GR_DEVICE_CUH
#define GR_DEVICE_CUH

#include <stdint.h>
#include <cuda_runtime.h>

#include "order_key.h"

#define GR_FULL_MASK 0xffffffffu

/*
 * Order key of a value (common/order_key.h).  Narrow types keep 32-bit keys
 * in registers (cheaper compares); results are widened to int64.
 */
template <typename T>
struct GrKeyOf;

template <>
struct GrKeyOf<int16_t>
{
	typedef int32_t K;
	static __device__ __forceinline__ K of(int16_t v) { return v; }
};

template <>
struct GrKeyOf<int32_t>
{
	typedef int32_t K;
	static __device__ __forceinline__ K of(int32_t v) { return v; }
};

template <>
struct GrKeyOf<long long>
{
	typedef long long K;
	static __device__ __forceinline__ K of(long long v) { return v; }
};

/* floats: the fold of common/order_key.h, float4's kept in 32 bits */
template <>
struct GrKeyOf<float>
{
	typedef int32_t K;
	static __device__ __forceinline__ K of(float v)
	{
		return gr_key_float4_bits(__float_as_int(v));
	}
};

template <>
struct GrKeyOf<double>
{
	typedef long long K;
	static __device__ __forceinline__ K of(double v)
	{
		return gr_key_float8_bits(__double_as_longlong(v));
	}
};

/* smallest and largest key of a key type (identities of max and min) */
template <typename K>
__device__ __forceinline__ K gr_key_lowest();
template <>
__device__ __forceinline__ int32_t gr_key_lowest<int32_t>() { return INT32_MIN; }
template <>
__device__ __forceinline__ long long gr_key_lowest<long long>() { return (long long) INT64_MIN; }
template <typename K>
__device__ __forceinline__ K gr_key_highest();
template <>
__device__ __forceinline__ int32_t gr_key_highest<int32_t>() { return INT32_MAX; }
template <>
__device__ __forceinline__ long long gr_key_highest<long long>() { return (long long) INT64_MAX; }

/* 16 bytes of values, read as one vector load */
template <typename T>
union GrVec
{
	static constexpr int N = 16 / sizeof(T);
	uint4		u;
	T			e[N];
};

/*
 * An array split so that the middle is whole 16-byte vectors: 'head' values
 * before the first aligned address, 'nvec' vectors, 'tail' values after.
 * Needs only that the pointer is aligned to sizeof(T).
 */
template <typename T>
struct GrSplit
{
	const T    *head_ptr;
	int64_t		head;
	const uint4 *vec;
	int64_t		nvec;
	const T    *tail_ptr;
	int64_t		tail;

	__device__ __forceinline__ GrSplit(const T *p, int64_t n)
	{
		constexpr int N = 16 / sizeof(T);
		int64_t		h = (int64_t) ((16 - ((uintptr_t) p & 15)) & 15) / (int64_t) sizeof(T);

		if (h > n)
			h = n;
		head_ptr = p;
		head = h;
		vec = reinterpret_cast<const uint4 *>(p + h);
		nvec = (n - h) / N;
		tail_ptr = p + h + nvec * N;
		tail = n - h - nvec * N;
	}
};

/* Shuffle down any small trivially-copyable struct, one 32-bit word at a time. */
template <typename A>
__device__ __forceinline__ A
gr_shfl_down(A v, int offset)
{
	static_assert(sizeof(A) % 4 == 0, "shuffled type must be whole words");
	union
	{
		A			a;
		int			w[sizeof(A) / 4];
	}			u;

	u.a = v;
#pragma unroll
	for (int i = 0; i < (int) (sizeof(A) / 4); i++)
		u.w[i] = __shfl_down_sync(GR_FULL_MASK, u.w[i], offset);
	return u.a;
}

/*
 * Warp-wide maximum and sum of a 32-bit value, the result in every lane:
 * one redux instruction from sm_80 on, a butterfly of shuffles before (sm_75
 * has no __reduce_*_sync).
 */
__device__ __forceinline__ unsigned int
gr_warp_max_u32(unsigned int v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#pragma unroll
	for (int o = 16; o > 0; o >>= 1)
		v = max(v, __shfl_xor_sync(GR_FULL_MASK, v, o));
	return v;
#else
	return __reduce_max_sync(GR_FULL_MASK, v);
#endif
}

__device__ __forceinline__ unsigned int
gr_warp_add_u32(unsigned int v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#pragma unroll
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_xor_sync(GR_FULL_MASK, v, o);
	return v;
#else
	return __reduce_add_sync(GR_FULL_MASK, v);
#endif
}

/* Read a struct another block wrote, bypassing this SM's L1. */
template <typename A>
__device__ __forceinline__ A
gr_load_cg(const A *p)
{
	static_assert(sizeof(A) % 4 == 0, "loaded type must be whole words");
	union
	{
		A			a;
		unsigned int w[sizeof(A) / 4];
	}			u;
	const unsigned int *src = reinterpret_cast<const unsigned int *>(p);

#pragma unroll
	for (int i = 0; i < (int) (sizeof(A) / 4); i++)
		u.w[i] = __ldcg(src + i);
	return u.a;
}

/*
 * Called by every thread after thread 0 of the block has stored its partial:
 * true in the block that finished last, which then owns every partial.  The
 * fence orders the partial before the ticket; the last block resets the
 * counter for the next launch on this stream.
 */
__device__ __forceinline__ bool
gr_last_block_done(unsigned int *counter)
{
	__shared__ bool s_last;

	if (threadIdx.x == 0)
	{
		__threadfence();
		s_last = atomicAdd(counter, 1u) == gridDim.x - 1;
	}
	__syncthreads();
	if (s_last)
	{
		__threadfence();
		if (threadIdx.x == 0)
			*counter = 0;
	}
	return s_last;
}

/* Grid size for n values of T: enough tiles to cover them, at most a full GPU. */
template <typename Policy, typename T>
static inline int
gr_grid_size(int64_t n, int max_blocks)
{
	int64_t		tile_bytes = (int64_t) Policy::THREADS * Policy::UNROLL * 16;
	int64_t		tiles = ((int64_t) n * (int64_t) sizeof(T) + tile_bytes - 1) / tile_bytes;
	int			limit = max_blocks;

	if (tiles < 1)
		tiles = 1;
	return tiles < limit ? (int) tiles : limit;
}

#endif							/* GR_DEVICE_CUH */
