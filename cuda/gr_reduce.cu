/*
 * gr_reduce.cu
 *	  One-launch reductions of device arrays: integer sum, integer sum and
 *	  sum of squares, min, max and top-2, templates over the value type and
 *	  the operator.
 *
 * Layers as in CUB: the policy (gr_internal.h) fixes threads, loads in flight
 * and blocks per SM; the agent reduces the tiles one block owns into one
 * accumulator per thread, then per block (warp shuffles, one shared-memory
 * step); the kernel finishes across blocks in the same launch with the
 * last-block-done ticket, so no second launch and no host sync; the launcher
 * sizes the grid from the SM count.  An operator is a struct with the
 * accumulator type, its identity, how to fold one value or one 16-byte
 * vector in, how to combine two accumulators and how to store the answer.
 */
#include "gr_internal.h"
#include "gr_device.cuh"

/* 128-bit two's complement accumulator: int8 sums cannot overflow it */
struct GrI128
{
	unsigned long long lo;
	long long	hi;
};

/* lo/hi add with carry; v sign-extended to 128 bits */
__device__ __forceinline__ void
gr_i128_add(GrI128 &a, long long v)
{
	unsigned long long lo = a.lo + (unsigned long long) v;

	a.hi += (v >> 63) + (lo < a.lo ? 1 : 0);
	a.lo = lo;
}

/* int2/int4 sum: int64 per thread; a 16-byte vector sums in 32 bits first */
template <typename T>
struct GrSumOp
{
	typedef T In;
	typedef long long Acc;

	static __device__ __forceinline__ Acc identity() { return 0; }
	static __device__ __forceinline__ void add(Acc &a, T v) { a += v; }
	static __device__ __forceinline__ void add_vec(Acc &a, const GrVec<T> &v)
	{
		if (sizeof(T) == 2)
		{
			/* 8 int16 fit an int32 sum without overflow */
			int			s = 0;

#pragma unroll
			for (int i = 0; i < GrVec<T>::N; i++)
				s += v.e[i];
			a += s;
		}
		else
		{
#pragma unroll
			for (int i = 0; i < GrVec<T>::N; i++)
				a += v.e[i];
		}
	}
	static __device__ __forceinline__ Acc combine(Acc a, Acc b) { return a + b; }
	static __device__ __forceinline__ void store(GrCudaResult *r, Acc a)
	{
		r->sum_lo = a;
		r->sum_hi = a >> 63;
		r->nkeys = 0;
	}
};

/* int8 sum in 128 bits */
template <>
struct GrSumOp<long long>
{
	typedef long long In;
	typedef GrI128 Acc;

	static __device__ __forceinline__ Acc identity() { return Acc{0, 0}; }
	static __device__ __forceinline__ void add(Acc &a, long long v) { gr_i128_add(a, v); }
	static __device__ __forceinline__ void add_vec(Acc &a, const GrVec<long long> &v)
	{
		gr_i128_add(a, v.e[0]);
		gr_i128_add(a, v.e[1]);
	}
	static __device__ __forceinline__ Acc combine(Acc a, Acc b)
	{
		Acc			r;

		r.lo = a.lo + b.lo;
		r.hi = a.hi + b.hi + (r.lo < a.lo ? 1 : 0);
		return r;
	}
	static __device__ __forceinline__ void store(GrCudaResult *r, Acc a)
	{
		r->sum_lo = (long long) a.lo;
		r->sum_hi = a.hi;
		r->nkeys = 0;
	}
};

/* unsigned 192-bit accumulator: 2^31 int8 squares (each <= 2^126) fit it */
struct GrU192
{
	unsigned long long w[3];
};

/* Add hi:lo in one carry chain; plain C would need a compare per word. */
__device__ __forceinline__ void
gr_u192_add(GrU192 &a, unsigned long long lo, unsigned long long hi)
{
	asm("add.cc.u64 %0, %0, %3;\n\t"
		"addc.cc.u64 %1, %1, %4;\n\t"
		"addc.u64 %2, %2, 0;"
		: "+l"(a.w[0]), "+l"(a.w[1]), "+l"(a.w[2])
		: "l"(lo), "l"(hi));
}

/*
 * Exact squares as hi:lo: of one value, and summed over one 16-byte vector
 * in the narrowest words that cannot overflow, so that int2 and int4 run
 * the 192-bit carry chain once a vector, not once a value.
 */
template <typename T>
struct GrSquare;

template <>
struct GrSquare<int16_t>
{
	static __device__ __forceinline__ void one(int16_t x, unsigned long long &lo,
											   unsigned long long &hi)
	{
		lo = (unsigned long long) ((int) x * (int) x);
		hi = 0;
	}
	/* 8 squares of at most 2^30: below 2^33 */
	static __device__ __forceinline__ void vec(const GrVec<int16_t> &v,
											   unsigned long long &lo,
											   unsigned long long &hi)
	{
		unsigned long long q = 0;

#pragma unroll
		for (int i = 0; i < GrVec<int16_t>::N; i++)
			q += (unsigned long long) ((int) v.e[i] * (int) v.e[i]);
		lo = q;
		hi = 0;
	}
};

template <>
struct GrSquare<int32_t>
{
	static __device__ __forceinline__ void one(int32_t x, unsigned long long &lo,
											   unsigned long long &hi)
	{
		lo = (unsigned long long) ((long long) x * x);
		hi = 0;
	}
	/* squares of at most 2^62: a pair fits 64 bits, two pairs may carry */
	static __device__ __forceinline__ void vec(const GrVec<int32_t> &v,
											   unsigned long long &lo,
											   unsigned long long &hi)
	{
		unsigned long long a = (unsigned long long) ((long long) v.e[0] * v.e[0]) +
			(unsigned long long) ((long long) v.e[1] * v.e[1]);
		unsigned long long b = (unsigned long long) ((long long) v.e[2] * v.e[2]) +
			(unsigned long long) ((long long) v.e[3] * v.e[3]);

		lo = a + b;
		hi = lo < a ? 1 : 0;
	}
};

template <>
struct GrSquare<long long>
{
	/* squared as an unsigned magnitude, so INT64_MIN gives 2^126 */
	static __device__ __forceinline__ void one(long long x, unsigned long long &lo,
											   unsigned long long &hi)
	{
		unsigned long long m = x < 0 ? 0 - (unsigned long long) x : (unsigned long long) x;

		lo = m * m;
		hi = __umul64hi(m, m);
	}
};

/* the sum as GrSumOp keeps it, and the sum of squares */
template <typename T>
struct GrSumSqAcc
{
	typename GrSumOp<T>::Acc sum;
	GrU192		sq;
};

/*
 * Sum and sum of squares of integers (variance): the sum is GrSumOp's own
 * code, the squares are exact in an unsigned 192-bit accumulator.
 */
template <typename T>
struct GrSumSqOp
{
	typedef T In;
	typedef GrSumSqAcc<T> Acc;

	static __device__ __forceinline__ Acc identity()
	{
		return Acc{GrSumOp<T>::identity(), GrU192{{0, 0, 0}}};
	}
	static __device__ __forceinline__ void add(Acc &a, T v)
	{
		unsigned long long lo,
					hi;

		GrSumOp<T>::add(a.sum, v);
		GrSquare<T>::one(v, lo, hi);
		gr_u192_add(a.sq, lo, hi);
	}
	static __device__ __forceinline__ void add_vec(Acc &a, const GrVec<T> &v)
	{
		GrSumOp<T>::add_vec(a.sum, v);
		if constexpr (sizeof(T) == 8)
		{
			/* an int8 pair of squares can pass 2^128: one chain each */
#pragma unroll
			for (int i = 0; i < GrVec<T>::N; i++)
			{
				unsigned long long lo,
							hi;

				GrSquare<T>::one(v.e[i], lo, hi);
				gr_u192_add(a.sq, lo, hi);
			}
		}
		else
		{
			unsigned long long lo,
						hi;

			GrSquare<T>::vec(v, lo, hi);
			gr_u192_add(a.sq, lo, hi);
		}
	}
	static __device__ __forceinline__ Acc combine(Acc a, Acc b)
	{
		a.sum = GrSumOp<T>::combine(a.sum, b.sum);
		gr_u192_add(a.sq, b.sq.w[0], b.sq.w[1]);
		a.sq.w[2] += b.sq.w[2];
		return a;
	}
	static __device__ __forceinline__ void store(GrCudaResult *r, Acc a)
	{
		GrSumOp<T>::store(r, a.sum);
		r->sq[0] = a.sq.w[0];
		r->sq[1] = a.sq.w[1];
		r->sq[2] = a.sq.w[2];
	}
};

/* min (IS_MAX false) or max of order keys */
template <typename T, bool IS_MAX>
struct GrMinMaxOp
{
	typedef T In;
	typedef typename GrKeyOf<T>::K K;
	typedef K Acc;

	static __device__ __forceinline__ Acc identity()
	{
		return IS_MAX ? gr_key_lowest<K>() : gr_key_highest<K>();
	}
	static __device__ __forceinline__ Acc combine(Acc a, Acc b)
	{
		return IS_MAX ? max(a, b) : min(a, b);
	}
	static __device__ __forceinline__ void add(Acc &a, T v) { a = combine(a, GrKeyOf<T>::of(v)); }
	static __device__ __forceinline__ void add_vec(Acc &a, const GrVec<T> &v)
	{
#pragma unroll
		for (int i = 0; i < GrVec<T>::N; i++)
			add(a, v.e[i]);
	}
	static __device__ __forceinline__ void store(GrCudaResult *r, Acc a)
	{
		r->key[0] = (long long) a;
		r->key[1] = 0;
		r->nkeys = r->count > 0 ? 1 : 0;
	}
};

/* the two largest keys, duplicates counted; a >= b always */
template <typename K>
struct GrTop2
{
	K			a;
	K			b;
};

/*
 * top-2: folding a key is branch-free (b takes the smaller of the old a and
 * the new key if that beats b), so a warp never diverges here.
 */
template <typename T>
struct GrTop2Op
{
	typedef T In;
	typedef typename GrKeyOf<T>::K K;
	typedef GrTop2<K> Acc;

	static __device__ __forceinline__ Acc identity()
	{
		return Acc{gr_key_lowest<K>(), gr_key_lowest<K>()};
	}
	static __device__ __forceinline__ void add(Acc &s, T v)
	{
		K			k = GrKeyOf<T>::of(v);

		s.b = max(s.b, min(s.a, k));
		s.a = max(s.a, k);
	}
	static __device__ __forceinline__ void add_vec(Acc &s, const GrVec<T> &v)
	{
#pragma unroll
		for (int i = 0; i < GrVec<T>::N; i++)
			add(s, v.e[i]);
	}
	static __device__ __forceinline__ Acc combine(Acc x, Acc y)
	{
		return Acc{max(x.a, y.a), max(min(x.a, y.a), max(x.b, y.b))};
	}
	static __device__ __forceinline__ void store(GrCudaResult *r, Acc s)
	{
		r->key[0] = (long long) s.a;
		r->key[1] = (long long) s.b;
		r->nkeys = r->count < 2 ? (int32_t) r->count : 2;
	}
};

/*
 * Agent: fold this thread's share of p[0..n) into one accumulator.  Whole
 * tiles (THREADS x UNROLL vectors) are grid-strided over blocks with all
 * UNROLL loads issued before the first use; vectors past the last whole tile
 * and the unaligned head and tail go one per thread.
 */
template <typename Policy, typename Op>
__device__ __forceinline__ typename Op::Acc
gr_agent_reduce(const typename Op::In *p, int64_t n)
{
	typedef typename Op::In T;
	typedef typename Op::Acc Acc;
	constexpr int THREADS = Policy::THREADS;
	constexpr int UNROLL = Policy::UNROLL;
	constexpr int64_t TILE = (int64_t) THREADS * UNROLL;
	GrSplit<T>	sp(p, n);
	Acc			acc = Op::identity();
	int64_t		gtid = (int64_t) blockIdx.x * THREADS + threadIdx.x;
	int64_t		gthreads = (int64_t) gridDim.x * THREADS;
	int64_t		full = sp.nvec / TILE;

	if (gtid < sp.head)
		Op::add(acc, sp.head_ptr[gtid]);
	if (gtid < sp.tail)
		Op::add(acc, sp.tail_ptr[gtid]);

	for (int64_t t = blockIdx.x; t < full; t += gridDim.x)
	{
		const uint4 *src = sp.vec + t * TILE + threadIdx.x;
		GrVec<T>	v[UNROLL];

#pragma unroll
		for (int j = 0; j < UNROLL; j++)
			v[j].u = __ldg(src + j * THREADS);
#pragma unroll
		for (int j = 0; j < UNROLL; j++)
			Op::add_vec(acc, v[j]);
	}
	for (int64_t i = full * TILE + gtid; i < sp.nvec; i += gthreads)
	{
		GrVec<T>	v;

		v.u = __ldg(sp.vec + i);
		Op::add_vec(acc, v);
	}
	return acc;
}

/* Warp then block combine; the answer is valid in thread 0. */
template <int THREADS, typename Op>
__device__ __forceinline__ typename Op::Acc
gr_block_reduce(typename Op::Acc a)
{
	typedef typename Op::Acc Acc;
	constexpr int WARPS = THREADS / 32;
	__shared__ Acc s_warp[WARPS];
	int			lane = threadIdx.x & 31;
	int			warp = threadIdx.x >> 5;

#pragma unroll
	for (int off = 16; off > 0; off >>= 1)
		a = Op::combine(a, gr_shfl_down(a, off));
	if (lane == 0)
		s_warp[warp] = a;
	__syncthreads();
	if (warp == 0)
	{
		a = lane < WARPS ? s_warp[lane] : Op::identity();
#pragma unroll
		for (int off = 16; off > 0; off >>= 1)
			a = Op::combine(a, gr_shfl_down(a, off));
	}
	return a;
}

/*
 * The whole reduction in one launch: each block publishes its partial, the
 * last block to finish combines them all and writes the result.
 */
template <typename Policy, typename Op>
__global__ void __launch_bounds__(Policy::THREADS, Policy::MIN_BLOCKS)
gr_reduce_kernel(const typename Op::In *p, int64_t n,
				 typename Op::Acc *partials, unsigned int *counter,
				 GrCudaResult *result, int32_t op_tag,
				 int32_t nkeys_max)
{
	typedef typename Op::Acc Acc;
	Acc			a = gr_agent_reduce<Policy, Op>(p, n);

	a = gr_block_reduce<Policy::THREADS, Op>(a);
	if (gridDim.x > 1)
	{
		if (threadIdx.x == 0)
			partials[blockIdx.x] = a;
		if (!gr_last_block_done(counter))
			return;
		a = Op::identity();
		for (int b = threadIdx.x; b < (int) gridDim.x; b += Policy::THREADS)
			a = Op::combine(a, gr_load_cg(partials + b));
		__syncthreads();		/* s_warp is reused */
		a = gr_block_reduce<Policy::THREADS, Op>(a);
	}
	if (threadIdx.x == 0)
	{
		result->count = n;
		result->op = op_tag;
		result->sum_lo = result->sum_hi = 0;
		result->key[0] = result->key[1] = 0;
		result->sq[0] = result->sq[1] = result->sq[2] = 0;
		Op::store(result, a);
		if (result->nkeys > nkeys_max)
			result->nkeys = nkeys_max;
	}
}

/* Size the grid and launch one operator. */
template <typename Op>
static cudaError_t
gr_launch_op(const GrScratch *s, GrCudaOp op, const void *values, int64_t n,
			 int nkeys_max, cudaStream_t stream)
{
	typedef GrReducePolicy P;
	typedef typename Op::In T;
	int			grid = gr_grid_size<P, T>(n, s->sm_count * P::MIN_BLOCKS);

	static_assert(sizeof(typename Op::Acc) <= GR_PARTIAL_BYTES, "partials too small");
	gr_reduce_kernel<P, Op><<<grid, P::THREADS, 0, stream>>>(
		static_cast<const T *>(values), n,
		static_cast<typename Op::Acc *>(s->partials), s->counter, s->result,
		(int32_t) op, (int32_t) nkeys_max);
	return cudaGetLastError();
}

/* Pick the operator for one value type. */
template <typename T>
static cudaError_t
gr_launch_type(const GrScratch *s, GrCudaOp op, const void *values, int64_t n,
			   int nkeys_max, cudaStream_t stream)
{
	switch (op)
	{
		case GR_CUDA_MIN:
			return gr_launch_op<GrMinMaxOp<T, false>>(s, op, values, n, nkeys_max, stream);
		case GR_CUDA_MAX:
			return gr_launch_op<GrMinMaxOp<T, true>>(s, op, values, n, nkeys_max, stream);
		case GR_CUDA_TOP2:
		case GR_CUDA_TOPK:
			return gr_launch_op<GrTop2Op<T>>(s, op, values, n, nkeys_max, stream);
		default:
			return cudaErrorInvalidValue;
	}
}

/* Integer sums and sums of squares, and min/max/top-2 of every type. */
cudaError_t
gr_launch_reduce(const GrScratch *s, GrCudaType type, GrCudaOp op,
				 const void *values, int64_t n, int nkeys_max, cudaStream_t stream)
{
	if (op == GR_CUDA_SUMSQ)
	{
		switch (type)
		{
			case GR_CUDA_INT2:
				return gr_launch_op<GrSumSqOp<int16_t>>(s, op, values, n, nkeys_max, stream);
			case GR_CUDA_INT4:
				return gr_launch_op<GrSumSqOp<int32_t>>(s, op, values, n, nkeys_max, stream);
			case GR_CUDA_INT8:
				return gr_launch_op<GrSumSqOp<long long>>(s, op, values, n, nkeys_max, stream);
			default:
				return cudaErrorInvalidValue;
		}
	}
	if (op == GR_CUDA_SUM)
	{
		switch (type)
		{
			case GR_CUDA_INT2:
				return gr_launch_op<GrSumOp<int16_t>>(s, op, values, n, nkeys_max, stream);
			case GR_CUDA_INT4:
				return gr_launch_op<GrSumOp<int32_t>>(s, op, values, n, nkeys_max, stream);
			case GR_CUDA_INT8:
				return gr_launch_op<GrSumOp<long long>>(s, op, values, n, nkeys_max, stream);
			default:
				return cudaErrorInvalidValue;
		}
	}
	switch (type)
	{
		case GR_CUDA_INT2:
			return gr_launch_type<int16_t>(s, op, values, n, nkeys_max, stream);
		case GR_CUDA_INT4:
			return gr_launch_type<int32_t>(s, op, values, n, nkeys_max, stream);
		case GR_CUDA_INT8:
			return gr_launch_type<long long>(s, op, values, n, nkeys_max, stream);
		case GR_CUDA_FLOAT4:
			return gr_launch_type<float>(s, op, values, n, nkeys_max, stream);
		case GR_CUDA_FLOAT8:
			return gr_launch_type<double>(s, op, values, n, nkeys_max, stream);
	}
	return cudaErrorInvalidValue;
}
