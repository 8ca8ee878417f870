/*
 * gr_internal.h
 *	  What the kernel files share with the C interface (gr_cuda.cu): the
 *	  tuning policies, the per-context device scratch and the launchers.
 *
 * C++ only; never included by the PostgreSQL side.
 */
#ifndef GR_INTERNAL_H
#define GR_INTERNAL_H

#include <cuda_runtime.h>

#include "gr_cuda.h"

/*
 * Tuning policy of the one-pass reductions.  256 threads x 4 blocks per SM
 * keeps 64 KiB of 16-byte loads in flight per SM (4 per thread), well above
 * what HBM latency x per-SM bandwidth needs on Hopper.
 */
struct GrReducePolicy
{
	static constexpr int THREADS = 256;
	static constexpr int UNROLL = 4;	/* 16-byte loads in flight per thread */
	static constexpr int MIN_BLOCKS = 4;	/* blocks per SM the grid uses */
};

/*
 * The exact float sum holds 16 values and its bins per thread: at 4 blocks
 * per SM (64 registers) it spilled, at 2 it fits in about 110 registers.
 * UNROLL is 16-byte loads per thread and step: 8 for float8 (64 KiB in
 * flight per SM), 4 for float4 (whose 16 values become doubles).  The bins
 * per value (NB8, NB4) trade FP64 adds for exact range (gr_xsum.cu).  Macros
 * only so that variants can be benchmarked.
 */
#ifndef GR_XSUM_MIN_BLOCKS
#define GR_XSUM_MIN_BLOCKS 2
#endif
#ifndef GR_XSUM_UNROLL8
#define GR_XSUM_UNROLL8 8
#endif
#ifndef GR_XSUM_UNROLL4
#define GR_XSUM_UNROLL4 4
#endif
#ifndef GR_XSUM_NB8
#define GR_XSUM_NB8 4
#endif
#ifndef GR_XSUM_NB4
#define GR_XSUM_NB4 3
#endif
/*
 * The sum of squares (GR_CUDA_SUMSQ) adds bins per lane for the squares: a
 * float8 square is hi + lo, two streams of doubles with bins of their own
 * (NB8_HI, NB8_LO), a float4 square one exact double (NB4_SQ).  A square
 * spans twice its value's binades, so each stream has SQ_EXTRA bins more
 * that run only while a lane of the warp needs them (gr_xsum_step's
 * NB_FAST): three bins always take the squares of values down to about 18
 * binades (float8) or 21 (float4) below the warp's largest, five down to
 * about 50.  The two extra bins cost 8% on narrow data and made data over
 * 2^-20..2^20 20x faster (it went to the shared-memory slow path).
 * SQ_GROUP: values squared per warp step.  With the square bins 8 float8
 * loads per thread spilled registers, and 2 float4 loads were slower than 4.
 */
#ifndef GR_XSUM_NB8_HI
#define GR_XSUM_NB8_HI 3
#endif
#ifndef GR_XSUM_NB8_LO
#define GR_XSUM_NB8_LO 3
#endif
#ifndef GR_XSUM_NB4_SQ
#define GR_XSUM_NB4_SQ 3
#endif
#ifndef GR_XSUM_SQ_EXTRA
#define GR_XSUM_SQ_EXTRA 2
#endif
#ifndef GR_XSUM_SQ_GROUP
#define GR_XSUM_SQ_GROUP 4
#endif
#ifndef GR_XSUM_SQ_UNROLL8
#define GR_XSUM_SQ_UNROLL8 4
#endif
#ifndef GR_XSUM_SQ_UNROLL4
#define GR_XSUM_SQ_UNROLL4 GR_XSUM_UNROLL4
#endif
template <int UNROLL_>
struct GrXsumPolicy
{
	static constexpr int THREADS = 256;
	static constexpr int UNROLL = UNROLL_;
	static constexpr int MIN_BLOCKS = GR_XSUM_MIN_BLOCKS;
};

/* fields of one block's exact-sum partial: limbs, nan, pinf, ninf, negzero */
#define GR_XSUM_FIELDS (GR_XSUM_LIMBS + 4)

/* bytes of one block's partial: at most two exact sums (sum of squares) */
#define GR_PARTIAL_BYTES (2 * GR_XSUM_FIELDS * sizeof(long long))

/* most blocks any kernel launches per SM */
#define GR_MAX_BLOCKS_PER_SM 4

/* Device scratch of one context; the stream orders every use of it. */
struct GrScratch
{
	int			sm_count;
	int			max_blocks;		/* sm_count * GR_MAX_BLOCKS_PER_SM */
	void	   *partials;		/* per-block partial results */
	unsigned int *counter;		/* blocks done; the last block resets it */
	GrCudaResult *result;		/* the device copy of the result */
	int64_t		topk_values;	/* top-k capacity in values, 0: none */
	void	   *keys_a;			/* top-k keys, then the widened answer */
	void	   *keys_b;			/* top-k keys sorted */
	void	   *sort_temp;		/* CUB radix sort temporary storage */
	size_t		sort_temp_bytes;
};

/* bytes of per-block partials a context needs for max_blocks blocks */
static inline size_t
gr_partials_bytes(int max_blocks)
{
	return (size_t) max_blocks * GR_PARTIAL_BYTES;
}

/* sum and sum of squares (ints), min, max, top-2 of device values (gr_reduce.cu) */
cudaError_t gr_launch_reduce(const GrScratch *s, GrCudaType type, GrCudaOp op,
							 const void *values, int64_t n, int nkeys_max,
							 cudaStream_t stream);

/* exact sum, or sum and sum of squares, of float4/float8 device values (gr_xsum.cu) */
cudaError_t gr_launch_xsum(const GrScratch *s, GrCudaType type, GrCudaOp op,
						   const void *values, int64_t n, cudaStream_t stream);

/* k largest keys, descending, as int64 at s->keys_a (gr_topk.cu) */
cudaError_t gr_launch_topk(const GrScratch *s, GrCudaType type,
						   const void *values, int64_t n, int64_t k,
						   cudaStream_t stream);

/*
 * decode a page job's pages into row-aligned column arrays and NULL flags,
 * running its expression program if it has one (gr_page.cu)
 */
cudaError_t gr_launch_page_extract(const GrScratch *s, const void *pool, void *job_dev,
								   uint32_t npages, void *cols, uint8_t *nulls,
								   int64_t col_cap, bool read_only, bool prog,
								   void *fallback, bool grouped, uint32_t *gslots,
								   uint64_t *gents, uint32_t hmask, uint32_t gcap,
								   unsigned long long *gcount, int ncache,
								   int gwords, cudaStream_t stream);

/* gather a column's non-NULL values of its first rows into out (gr_page.cu) */
cudaError_t gr_launch_page_compact(void *temp, size_t temp_bytes, int width,
								   const void *col, const uint8_t *nulls, int64_t rows,
								   void *out, int64_t *nout, cudaStream_t stream);

/*
 * keep the groups of a scan's table (n entries of ew words) that a collect
 * job's checks pass, in order at its front; *kept: how many (gr_page.cu)
 */
struct GrPageJob;
cudaError_t gr_launch_scan_check(const struct GrPageJob *job, uint64_t *ents, int ew,
								 uint32_t n, uint32_t *kept, cudaStream_t stream);

/* a scan's grown table's slots filled for its n entries (gr_page.cu) */
cudaError_t gr_launch_scan_rehash(uint32_t *slots, uint32_t hmask, const uint64_t *ents, int ew,
								  int nk, uint32_t n, cudaStream_t stream);

/* CUB temporary storage gr_launch_page_compact needs for up to rows rows (gr_page.cu) */
cudaError_t gr_page_compact_temp_bytes(int64_t rows, size_t *bytes);

/* CUB temporary storage the top-k of up to n values needs (gr_topk.cu) */
cudaError_t gr_topk_temp_bytes(int64_t n, size_t *bytes);

#endif							/* GR_INTERNAL_H */
