/*
 * gr_xsum.cu
 *	  Exact sum of float4/float8 device arrays into a GrXsum (src/xsum.h),
 *	  and the exact sum with the exact sum of squares (GR_CUDA_SUMSQ), in one
 *	  launch.
 *
 * Fast path: each thread keeps NB double "bins" (ExtractScalar of Rump,
 * Ogita and Oishi).  Bin j is a double S_j = 1.5*2^52*q_j plus a running sum
 * of multiples of its quantum q_j = 2^(T - 32(j+1)); t = S_j + r rounds r to
 * a multiple of q_j, d = t - S_j is exactly what was taken and r - d exactly
 * what is left for the next bin.  So while every value is below 2^T and
 * fewer than 2^18 of them went in, x = d_0 + ... + d_{NB-1} + r holds
 * exactly; r is zero unless x has bits below q_{NB-1}, and then that
 * remainder goes to the slow path.  That is 3 double adds per bin and value,
 * well within Hopper's FP64 rate at full memory bandwidth, and no shared
 * memory traffic at all for data of a sane dynamic range: a float8 with bits
 * down to 2^(e-52) is exact in NB8 = 4 bins while e >= T - 76, i.e. about 70
 * binades below the warp's largest value; a float4 (24-bit significand) in
 * NB4 = 3 bins while e >= T - 73.  With one bin fewer each was about 8%
 * faster on uniform data but 6-20x slower on data spread over 2^-20..2^20
 * (bench/NOTES.md).
 *
 * T is chosen per warp (so a flush can sum the warp's bins with shuffles)
 * from the largest exponent seen, with a few binades of margin, and only
 * ever raised: a value too large for the bins makes the warp flush and
 * rebase.  NaN, infinities and -0.0 are counted per lane; values >= 2^1000
 * and remainders are added exactly as 32-bit digits into the block's
 * 67-limb accumulator in shared memory by atomics (the slow path, about 15x
 * slower, for data spread over the whole double range).  Bins flush into
 * the same accumulator, the block
 * normalizes it and publishes it, and the last block to finish adds all
 * blocks' limbs and normalizes again, so every output limb is below 2^32
 * except the top one, which holds the (small) signed carry.
 *
 * The sum of squares reads each value once and feeds its square into a
 * second accumulator through bins of its own (GrXsumSquares), added exactly
 * as src/xsum.c's gr_xsum_add_squares_* add them: a float8 square as the two
 * doubles hi = v*v and lo = fma(v, v, -hi) (lo only if hi is finite), a
 * float4 square as the one double it is exactly.  Reading the data twice
 * would cost a second pass over memory; the extra bins cost FP64 adds
 * instead (1.7-1.8x a plain exact sum's time on an H100, bench/NOTES.md).
 */
#include "gr_internal.h"
#include "gr_device.cuh"

/* field indexes of the block accumulator after the limbs */
#define GR_XF_NAN		(GR_XSUM_LIMBS + 0)
#define GR_XF_PINF		(GR_XSUM_LIMBS + 1)
#define GR_XF_NINF		(GR_XSUM_LIMBS + 2)
#define GR_XF_NEGZERO	(GR_XSUM_LIMBS + 3)

/* largest bin top: the top bin's base 1.5*2^(T+20) must stay finite */
#define GR_XSUM_TMAX	1000
/* binades above the largest value seen that a new T leaves for growth */
#define GR_XSUM_MARGIN	6
/* values one lane may add between flushes; bin capacity is 2^19 */
#define GR_XSUM_FLUSH_VALUES (1 << 18)

#define GR_DBL_FRAC		0x000FFFFFFFFFFFFFLL
#define GR_DBL_HIDDEN	0x0010000000000000LL
#define GR_DBL_NEGZERO	((long long) 0x8000000000000000ULL)

/* The block's exact accumulator: limbs, then nan, pinf, ninf, negzero. */
struct GrXsumShared
{
	unsigned long long f[GR_XSUM_FIELDS];
};

/* 2^e as a double, for a normal e */
__device__ __forceinline__ double
gr_pow2(int e)
{
	return __longlong_as_double((long long) (e + 1023) << 52);
}

/* Add v * 2^(k - 1074), |v| < 2^58, as three 32-bit digits. */
__device__ __forceinline__ void
gr_xsum_add_scaled(GrXsumShared &acc, long long v, int k)
{
	int			s = k & 31;
	int			limb = k >> 5;
	unsigned long long lo = (unsigned long long) v << s;
	long long	hi = s != 0 ? v >> (64 - s) : v >> 63;
	unsigned long long d0 = lo & 0xFFFFFFFFULL;
	unsigned long long d1 = lo >> 32;

	if (d0 != 0)
		atomicAdd(&acc.f[limb], d0);
	if (d1 != 0)
		atomicAdd(&acc.f[limb + 1], d1);
	if (hi != 0)
		atomicAdd(&acc.f[limb + 2], (unsigned long long) hi);
}

/* Add one double exactly the way src/xsum.c does (the slow path). */
__device__ __noinline__ void
gr_xsum_add_slow(GrXsumShared &acc, double x)
{
	long long	b = __double_as_longlong(x);
	int			e = (int) ((b >> 52) & 0x7FF);
	long long	m = b & GR_DBL_FRAC;

	if (e == 0x7FF)
	{
		atomicAdd(&acc.f[m != 0 ? GR_XF_NAN : b < 0 ? GR_XF_NINF : GR_XF_PINF], 1ULL);
		return;
	}
	if (e != 0)
		m |= GR_DBL_HIDDEN;
	else if (m == 0)
	{
		if (b < 0)
			atomicAdd(&acc.f[GR_XF_NEGZERO], 1ULL);
		return;
	}
	gr_xsum_add_scaled(acc, b < 0 ? -m : m, e != 0 ? e - 1 : 0);
}

/* One lane's bins and the warp-uniform exponent they are built on. */
template <int NB>
struct GrXsumThread
{
	static constexpr int TMIN = 32 * NB - 1074;	/* lowest quantum 2^-1074 */

	double		S[NB];
	double		lim;			/* 2^T: the fast path takes |x| < lim */
	int			T;
	int			iters;			/* steps since the last flush */
	unsigned int negzero;		/* counts kept per lane: no atomics per value */
	unsigned int nan;
	unsigned int pinf;
	unsigned int ninf;

	/* No counts, the lowest T, empty bins. */
	__device__ __forceinline__ void init()
	{
		T = TMIN;
		negzero = nan = pinf = ninf = 0;
		reset();
	}

	/* Empty bins for the current T. */
	__device__ __forceinline__ void reset()
	{
#pragma unroll
		for (int j = 0; j < NB; j++)
			S[j] = __longlong_as_double(((long long) (T + 20 - 32 * j + 1023) << 52) |
										(1LL << 51));
		lim = gr_pow2(T);
		iters = 0;
	}

	/*
	 * Warp-collective: move the bins into the block accumulator.  Bin j's
	 * integer content is its significand minus 1.5*2^52, since its exponent
	 * never moved; all lanes share T, so the warp adds them up first.
	 */
	__device__ __forceinline__ void flush(GrXsumShared &acc)
	{
#pragma unroll
		for (int j = 0; j < NB; j++)
		{
			long long	m = ((__double_as_longlong(S[j]) & GR_DBL_FRAC) | GR_DBL_HIDDEN) -
				(3LL << 51);

#pragma unroll
			for (int off = 16; off > 0; off >>= 1)
				m += __shfl_xor_sync(GR_FULL_MASK, m, off);
			if ((threadIdx.x & 31) == 0 && m != 0)
				gr_xsum_add_scaled(acc, m, T - 32 * (j + 1) + 1074);
		}
		reset();
	}
};

/*
 * Warp-collective, taken only when some lane holds a value the bins cannot
 * take: raise T if a finite value was too large, then send whatever still
 * does not fit (NaN, infinities, |x| >= 2^TMAX) to the slow path, leaving a
 * zero in its place.
 */
template <int NB, int E>
__device__ __forceinline__ void
gr_xsum_rebase(GrXsumShared &acc, double (&x)[E], GrXsumThread<NB> &st)
{
	unsigned int emax = 0;
	bool		grow = false;

#pragma unroll
	for (int i = 0; i < E; i++)
	{
		unsigned int e = (unsigned int) (__double_as_longlong(x[i]) >> 52) & 0x7FF;

		if (e != 0x7FF)
		{
			emax = max(emax, e);
			grow |= !(fabs(x[i]) < st.lim);
		}
	}
	if (__any_sync(GR_FULL_MASK, grow) && st.T < GR_XSUM_TMAX)
	{
		int			e = (int) gr_warp_max_u32(emax);
		int			t = min(max(e - 1022 + GR_XSUM_MARGIN, GrXsumThread<NB>::TMIN),
							GR_XSUM_TMAX);

		if (t > st.T)
		{
			st.flush(acc);
			st.T = t;
			st.reset();
		}
	}
#pragma unroll
	for (int i = 0; i < E; i++)
	{
		if (!(fabs(x[i]) < st.lim))
		{
			long long	b = __double_as_longlong(x[i]);

			if ((b & 0x7FFFFFFFFFFFFFFFLL) > 0x7FF0000000000000LL)
				st.nan++;
			else if (b == (long long) 0xFFF0000000000000ULL)
				st.ninf++;
			else if (b == 0x7FF0000000000000LL)
				st.pinf++;
			else
				gr_xsum_add_slow(acc, x[i]);
			x[i] = 0.0;
		}
	}
}

/*
 * Warp-collective: fold E values (zeros where a lane has none) into the
 * bins.  Bins from NB_FAST on run only while some lane of the warp has bits
 * below the first NB_FAST: a window as wide as NB bins for what costs
 * NB_FAST on data of a narrow range.
 */
template <int NB, int E, int FLUSH_STEPS, int NB_FAST = NB>
__device__ __forceinline__ void
gr_xsum_step(GrXsumShared &acc, double (&x)[E], GrXsumThread<NB> &st)
{
	bool		bad = false;

#pragma unroll
	for (int i = 0; i < E; i++)
		bad |= !(fabs(x[i]) < st.lim);
	if (__any_sync(GR_FULL_MASK, bad))
		gr_xsum_rebase<NB, E>(acc, x, st);

	/* remainders stay in x[] and go to the slow path after the loop */
	bool		rest = false;

#pragma unroll
	for (int i = 0; i < E; i++)
	{
		double		r = x[i];

		st.negzero += __double_as_longlong(x[i]) == GR_DBL_NEGZERO;
#pragma unroll
		for (int j = 0; j < NB_FAST; j++)
		{
			double		t = st.S[j] + r;

			r -= t - st.S[j];
			st.S[j] = t;
		}
		x[i] = r;
		rest |= r != 0.0;
	}
	if constexpr (NB_FAST < NB)
	{
		if (__any_sync(GR_FULL_MASK, rest))
		{
			rest = false;
#pragma unroll
			for (int i = 0; i < E; i++)
			{
				double		r = x[i];

#pragma unroll
				for (int j = NB_FAST; j < NB; j++)
				{
					double		t = st.S[j] + r;

					r -= t - st.S[j];
					st.S[j] = t;
				}
				x[i] = r;
				rest |= r != 0.0;
			}
		}
	}
	if (rest)
	{
#pragma unroll
		for (int i = 0; i < E; i++)
			if (x[i] != 0.0)
				gr_xsum_add_slow(acc, x[i]);
	}
	if (++st.iters == FLUSH_STEPS)
		st.flush(acc);
}

/* Warp-collective: add the lanes' NaN, infinity and -0.0 counts to the block's. */
template <int NB>
__device__ __forceinline__ void
gr_xsum_counts(GrXsumShared &acc, const GrXsumThread<NB> &st)
{
	unsigned int c[4] = {st.nan, st.pinf, st.ninf, st.negzero};

#pragma unroll
	for (int i = 0; i < 4; i++)
	{
		c[i] = gr_warp_add_u32(c[i]);
		if ((threadIdx.x & 31) == 0 && c[i] != 0)
			atomicAdd(&acc.f[GR_XF_NAN + i], (unsigned long long) c[i]);
	}
}

/*
 * One lane's bins for the squares of the values of type T (the values come
 * in widened to double).  step() and add_slow() add exactly what
 * gr_xsum_add_squares_* of src/xsum.c add; hi = v*v is __dmul_rn so that
 * the compiler cannot fuse it into a bin's add.
 */
template <typename T>
struct GrXsumSquares;

/*
 * A float8 square is hi + lo.  lo is at most 2^-53 of hi, so it has bins of
 * its own with their own exponent window: in hi's bins its bits would need
 * 53 binades more of window.  A square that overflows is +Infinity with no
 * lo, a NaN's is NaN with no lo.
 */
template <>
struct GrXsumSquares<double>
{
	static constexpr int NB_HI = GR_XSUM_NB8_HI + GR_XSUM_SQ_EXTRA;
	static constexpr int NB_LO = GR_XSUM_NB8_LO + GR_XSUM_SQ_EXTRA;

	GrXsumThread<NB_HI> hi;
	GrXsumThread<NB_LO> lo;

	__device__ __forceinline__ void init()
	{
		hi.init();
		lo.init();
	}

	static __device__ __forceinline__ void square(double v, double &h, double &l)
	{
		h = __dmul_rn(v, v);
		l = fma(v, v, -h);
		if ((__double_as_longlong(h) & 0x7FF0000000000000LL) == 0x7FF0000000000000LL)
			l = 0.0;
	}

	/* Warp-collective: add the squares of G values. */
	template <int G, int FLUSH_STEPS>
	__device__ __forceinline__ void step(GrXsumShared &acc, const double (&x)[G])
	{
		double		h[G];
		double		l[G];

#pragma unroll
		for (int i = 0; i < G; i++)
			square(x[i], h[i], l[i]);
		gr_xsum_step<NB_HI, G, FLUSH_STEPS, GR_XSUM_NB8_HI>(acc, h, hi);
		gr_xsum_step<NB_LO, G, FLUSH_STEPS, GR_XSUM_NB8_LO>(acc, l, lo);
	}

	__device__ __forceinline__ void add_slow(GrXsumShared &acc, double v)
	{
		double		h,
					l;

		square(v, h, l);
		gr_xsum_add_slow(acc, h);
		gr_xsum_add_slow(acc, l);
	}

	/* Warp-collective: everything the bins and counters hold into acc. */
	__device__ __forceinline__ void finish(GrXsumShared &acc)
	{
		hi.flush(acc);
		lo.flush(acc);
		gr_xsum_counts(acc, hi);
		gr_xsum_counts(acc, lo);
	}
};

/* A float4 square (a 24-bit significand squared) is exact in one double. */
template <>
struct GrXsumSquares<float>
{
	static constexpr int NB_SQ = GR_XSUM_NB4_SQ + GR_XSUM_SQ_EXTRA;

	GrXsumThread<NB_SQ> sq;

	__device__ __forceinline__ void init()
	{
		sq.init();
	}

	template <int G, int FLUSH_STEPS>
	__device__ __forceinline__ void step(GrXsumShared &acc, const double (&x)[G])
	{
		double		h[G];

#pragma unroll
		for (int i = 0; i < G; i++)
			h[i] = __dmul_rn(x[i], x[i]);
		gr_xsum_step<NB_SQ, G, FLUSH_STEPS, GR_XSUM_NB4_SQ>(acc, h, sq);
	}

	__device__ __forceinline__ void add_slow(GrXsumShared &acc, double v)
	{
		gr_xsum_add_slow(acc, __dmul_rn(v, v));
	}

	__device__ __forceinline__ void finish(GrXsumShared &acc)
	{
		sq.flush(acc);
		gr_xsum_counts(acc, sq);
	}
};

/* Carry-propagate limbs so all but the top one are in [0, 2^32). */
__device__ __forceinline__ void
gr_xsum_normalize_limbs(long long *limb)
{
	for (int i = 0; i < GR_XSUM_LIMBS - 1; i++)
	{
		long long	c = limb[i] >> 32;

		limb[i] -= (long long) ((unsigned long long) c << 32);
		limb[i + 1] += c;
	}
}

/* Copy one finished accumulator's fields into a GrXsum. */
__device__ __forceinline__ void
gr_xsum_copy_out(GrXsum *x, const long long *f)
{
	for (int i = 0; i < GR_XSUM_LIMBS; i++)
		x->limb[i] = f[i];
	x->nan = f[GR_XF_NAN];
	x->pinf = f[GR_XF_PINF];
	x->ninf = f[GR_XF_NINF];
	x->negzero = f[GR_XF_NEGZERO];
	x->pending = 0;
}

/* Write the result's header and its exact sum. */
__device__ __forceinline__ void
gr_xsum_store(GrCudaResult *r, const long long *f, int64_t n, int32_t op_tag)
{
	r->count = n;
	r->op = op_tag;
	r->nkeys = 0;
	r->sum_lo = r->sum_hi = 0;
	r->key[0] = r->key[1] = 0;
	r->sq[0] = r->sq[1] = r->sq[2] = 0;
	gr_xsum_copy_out(&r->xsum, f);
}

/*
 * The exact sum in one launch, with the exact sum of squares when SQ.  T is
 * float or double; NB bins per lane.  Whole tiles are grid-strided over
 * blocks, the vectors after them go one per lane in warp-uniform steps
 * (lanes past the end add zeros), the unaligned head and tail take the slow
 * path.  Accumulator a (0: values, 1: squares) lives in s_acc[a], in fields
 * a * GR_XSUM_FIELDS.. of s_f and of the partials, and is normalized by
 * thread 32 * a.
 */
template <typename Policy, typename T, int NB, bool SQ>
__global__ void __launch_bounds__(Policy::THREADS, Policy::MIN_BLOCKS)
gr_xsum_kernel(const T *p, int64_t n, long long *partials,
			   unsigned int *counter, GrCudaResult *result, int32_t op_tag)
{
	constexpr int THREADS = Policy::THREADS;
	constexpr int UNROLL = Policy::UNROLL;
	constexpr int N = GrVec<T>::N;
	constexpr int64_t TILE = (int64_t) THREADS * UNROLL;
	constexpr int FLUSH_STEPS = GR_XSUM_FLUSH_VALUES / (UNROLL * N);
	constexpr int G = GR_XSUM_SQ_GROUP;
	constexpr int FLUSH_SQ = GR_XSUM_FLUSH_VALUES / G;
	constexpr int NACC = SQ ? 2 : 1;
	constexpr int FIELDS = NACC * GR_XSUM_FIELDS;
	__shared__ GrXsumShared s_acc[NACC];
	long long  *s_f = reinterpret_cast<long long *>(s_acc[0].f);
	GrSplit<T>	sp(p, n);
	int64_t		gtid = (int64_t) blockIdx.x * THREADS + threadIdx.x;
	int64_t		gthreads = (int64_t) gridDim.x * THREADS;
	int64_t		full = sp.nvec / TILE;
	int			lane = threadIdx.x & 31;
	GrXsumThread<NB> st;
	GrXsumSquares<T> sq;

	/* a step of the tail loop (N values) may count as a whole group's step */
	static_assert(!SQ || ((UNROLL * N) % G == 0 && N <= G), "bad square group");
	static_assert(FIELDS * sizeof(long long) <= GR_PARTIAL_BYTES, "partials too small");

	for (int i = threadIdx.x; i < FIELDS; i += THREADS)
		s_f[i] = 0;
	__syncthreads();

	if (gtid < sp.head)
	{
		gr_xsum_add_slow(s_acc[0], (double) sp.head_ptr[gtid]);
		if constexpr (SQ)
			sq.add_slow(s_acc[1], (double) sp.head_ptr[gtid]);
	}
	if (gtid < sp.tail)
	{
		gr_xsum_add_slow(s_acc[0], (double) sp.tail_ptr[gtid]);
		if constexpr (SQ)
			sq.add_slow(s_acc[1], (double) sp.tail_ptr[gtid]);
	}

	st.init();
	if constexpr (SQ)
		sq.init();

	for (int64_t t = blockIdx.x; t < full; t += gridDim.x)
	{
		const uint4 *src = sp.vec + t * TILE + threadIdx.x;
		GrVec<T>	v[UNROLL];
		double		x[UNROLL * N];

#pragma unroll
		for (int j = 0; j < UNROLL; j++)
			v[j].u = __ldg(src + j * THREADS);
#pragma unroll
		for (int j = 0; j < UNROLL; j++)
#pragma unroll
			for (int i = 0; i < N; i++)
				x[j * N + i] = (double) v[j].e[i];
		/* squares first: the step below leaves remainders in x[] */
		if constexpr (SQ)
		{
#pragma unroll
			for (int g = 0; g < UNROLL * N; g += G)
			{
				double		xg[G];

#pragma unroll
				for (int i = 0; i < G; i++)
					xg[i] = x[g + i];
				sq.template step<G, FLUSH_SQ>(s_acc[1], xg);
			}
		}
		gr_xsum_step<NB, UNROLL * N, FLUSH_STEPS>(s_acc[0], x, st);
	}
	for (int64_t i0 = full * TILE + (gtid - lane); i0 < sp.nvec; i0 += gthreads)
	{
		GrVec<T>	v;
		double		x[N];

		v.u = i0 + lane < sp.nvec ? __ldg(sp.vec + i0 + lane) : make_uint4(0, 0, 0, 0);
#pragma unroll
		for (int i = 0; i < N; i++)
			x[i] = (double) v.e[i];
		if constexpr (SQ)
			sq.template step<N, FLUSH_SQ>(s_acc[1], x);
		gr_xsum_step<NB, N, FLUSH_STEPS>(s_acc[0], x, st);
	}
	st.flush(s_acc[0]);
	gr_xsum_counts(s_acc[0], st);
	if constexpr (SQ)
		sq.finish(s_acc[1]);
	__syncthreads();
	if ((threadIdx.x & 31) == 0 && threadIdx.x < 32 * NACC)
		gr_xsum_normalize_limbs(s_f + (threadIdx.x >> 5) * GR_XSUM_FIELDS);
	__syncthreads();

	if (gridDim.x > 1)
	{
		for (int i = threadIdx.x; i < FIELDS; i += THREADS)
			partials[(int64_t) i * gridDim.x + blockIdx.x] = s_f[i];
		__threadfence();
		__syncthreads();
		if (!gr_last_block_done(counter))
			return;
		/* one warp per field, lanes over blocks: coalesced reads */
		for (int i = threadIdx.x >> 5; i < FIELDS; i += THREADS / 32)
		{
			long long	sum = 0;

			for (int b = lane; b < (int) gridDim.x; b += 32)
				sum += __ldcg(partials + (int64_t) i * gridDim.x + b);
#pragma unroll
			for (int off = 16; off > 0; off >>= 1)
				sum += __shfl_xor_sync(GR_FULL_MASK, sum, off);
			if (lane == 0)
				s_f[i] = sum;
		}
		__syncthreads();
		if ((threadIdx.x & 31) == 0 && threadIdx.x < 32 * NACC)
			gr_xsum_normalize_limbs(s_f + (threadIdx.x >> 5) * GR_XSUM_FIELDS);
	}
	if (threadIdx.x == 0)
		gr_xsum_store(result, s_f, n, op_tag);
	if (SQ && threadIdx.x == 32)
		gr_xsum_copy_out(&result->xsum2, s_f + GR_XSUM_FIELDS);
}

/* Size the grid and launch one exact-sum kernel. */
template <typename P, typename T, int NB, bool SQ>
static cudaError_t
gr_launch_xsum_kernel(const GrScratch *s, GrCudaOp op, const void *values,
					  int64_t n, cudaStream_t stream)
{
	int			grid = gr_grid_size<P, T>(n, s->sm_count * P::MIN_BLOCKS);

	gr_xsum_kernel<P, T, NB, SQ><<<grid, P::THREADS, 0, stream>>>(
		static_cast<const T *>(values), n, static_cast<long long *>(s->partials),
		s->counter, s->result, (int32_t) op);
	return cudaGetLastError();
}

/*
 * Launch the exact sum, or sum and sum of squares, for float8 or float4
 * (bins and unroll: gr_internal.h).
 */
cudaError_t
gr_launch_xsum(const GrScratch *s, GrCudaType type, GrCudaOp op,
			   const void *values, int64_t n, cudaStream_t stream)
{
	if (op != GR_CUDA_SUM && op != GR_CUDA_SUMSQ)
		return cudaErrorInvalidValue;
	if (type == GR_CUDA_FLOAT8)
		return op == GR_CUDA_SUMSQ ?
			gr_launch_xsum_kernel<GrXsumPolicy<GR_XSUM_SQ_UNROLL8>, double, GR_XSUM_NB8, true>(
				s, op, values, n, stream) :
			gr_launch_xsum_kernel<GrXsumPolicy<GR_XSUM_UNROLL8>, double, GR_XSUM_NB8, false>(
				s, op, values, n, stream);
	if (type == GR_CUDA_FLOAT4)
		return op == GR_CUDA_SUMSQ ?
			gr_launch_xsum_kernel<GrXsumPolicy<GR_XSUM_SQ_UNROLL4>, float, GR_XSUM_NB4, true>(
				s, op, values, n, stream) :
			gr_launch_xsum_kernel<GrXsumPolicy<GR_XSUM_UNROLL4>, float, GR_XSUM_NB4, false>(
				s, op, values, n, stream);
	return cudaErrorInvalidValue;
}
