/*
 * gr_page.cu
 *	  The page path's kernels: read pinned shared buffers straight out of the
 *	  registered buffer pool, decode the visible tuples with the shared
 *	  decoder (common/tuple_decode.h), apply the WHERE comparisons and the
 *	  expression program (common/expr.h), and lay the kept rows out aligned
 *	  by row in device arrays; then, before each
 *	  output's reduction, gather its column's non-NULL values into contiguous
 *	  scratch for the ordinary reduction kernels.
 *
 * One block per page at a time: the block copies the 8 KiB page into shared
 * memory with 16-byte loads (a host-memory read over the bus, coalesced),
 * then each thread decodes line pointers of it.  Decoding from the shared
 * copy keeps every read inside the page: the decoder checks each tuple
 * against its line pointer's length, so even a page that is no longer
 * pinned (an aborted scan) cannot make the kernel fault.
 *
 * Rows are aligned as the CPU decoder's GrRowBlock (src/sink.h) aligns
 * them: each warp reserves its kept rows with one atomic, and row r's value
 * of column c lands at index r of column c's array with its NULL flag at
 * index r of column c's flags, so that a later consumer (a group key, an
 * expression over several columns) finds one row's columns together.  The
 * order of rows between warps is whatever the atomics made it; no
 * reduction depends on it.  A reduction wants its column's values without
 * holes, so gr_launch_page_compact gathers them (CUB's select by flag);
 * a column without NULLs among the kept rows needs no gathering.
 */
#include <cub/device/device_select.cuh>

#include "gr_internal.h"
#include "gr_device.cuh"

#include "page_job.h"

#define GR_PAGE_THREADS 128

static_assert(GR_PAGE_SIZE % (16 * GR_PAGE_THREADS) == 0, "page copy loop");
static_assert(GR_PAGE_MAX_COLS <= 32, "a lane per column keeps its count");

/* Store the low 'width' bytes of v at p. */
__device__ __forceinline__ void
gr_store_value(uint8_t *p, uint64_t v, int width)
{
	switch (width)
	{
		case 1:
			*p = (uint8_t) v;
			break;
		case 2:
			*(uint16_t *) p = (uint16_t) v;
			break;
		case 4:
			*(uint32_t *) p = (uint32_t) v;
			break;
		default:
			*(uint64_t *) p = v;
			break;
	}
}

/*
 * Decode every page of a job.  job is the device copy of the job's first
 * bytes_in bytes; cols holds ncols arrays of col_cap values each (8 bytes
 * apart: each value is stored in its column's own width, packed), nulls
 * ncols arrays of col_cap flags; a column of width 0 (no output reduces
 * it) is only counted.  Kept rows are reserved per warp on the rows count.
 * No position depends on a column's non-NULL count, so a warp keeps column
 * c's in lane c's register and adds it once at the end: no atomic per
 * column, and few enough registers for 16 blocks per SM.
 *
 * PROG: the job has an expression program, copied into dynamic shared
 * memory once per block (every thread reads each step); a row the
 * comparisons pass is evaluated by it, its outputs becoming the columns
 * after the decoded ones, and a row it hands back is listed in fallback
 * (which holds the job's fallback_cap rows; the count goes on past it).
 * A numeric column's value is its varlena's address in the shared copy of
 * the page, which is what the program parses.  The kernel without a
 * program does not carry the interpreter's registers.
 */
template <bool PROG>
__global__ void __launch_bounds__(GR_PAGE_THREADS)
gr_page_extract_kernel(const uint8_t *pool, uint8_t *jobmem, uint8_t *cols,
					   uint8_t *nullflags, int64_t col_cap, GrPageFallback *fallback)
{
	__shared__ uint4 page4[GR_PAGE_SIZE / 16];
	extern __shared__ uint4 prog4[];	/* PROG: the job's program */
	GrPageJob  *job = (GrPageJob *) jobmem;
	const GrDecodeDesc *d = (const GrDecodeDesc *) (jobmem + job->desc_off);
	const GrPageEntry *ents = (const GrPageEntry *) (jobmem + job->entries_off);
	const GrExprProg *prog = (const GrExprProg *) prog4;
	const uint8_t *page = (const uint8_t *) page4;
	unsigned long long *counts = (unsigned long long *) job->counts;
	int			ncols = job->ncols;
	int			dcols = d->ncols;
	int			nquals = job->nquals;
	int			lane = threadIdx.x & 31;
	unsigned	lanes_below = (1u << lane) - 1;
	unsigned long long nonnull = 0; /* lane c: column c's non-NULL rows */

	if (PROG)
	{
		const uint4 *src = (const uint4 *) (jobmem + job->prog_off);

		/* read once the first page's barrier has passed */
		for (int i = threadIdx.x; i < (int) (GR_PAGE_ALIGN(sizeof(GrExprProg)) / 16);
			 i += GR_PAGE_THREADS)
			prog4[i] = src[i];
	}
	for (uint32_t p = blockIdx.x; p < job->npages; p += gridDim.x)
	{
		const GrPageEntry *e = &ents[p];
		const uint4 *src = (const uint4 *) (pool + (size_t) e->buf * GR_PAGE_SIZE);
		int			nlp = e->nlp;

		__syncthreads();		/* the previous page is no longer read */
		for (int i = threadIdx.x; i < GR_PAGE_SIZE / 16; i += GR_PAGE_THREADS)
			page4[i] = src[i];
		__syncthreads();

		/* the trip count is the same for the whole block: warps stay full */
		for (int base = 0; base < nlp; base += GR_PAGE_THREADS)
		{
			int			off = base + threadIdx.x + 1;
			uint64_t	vals[GR_DECODE_MAX_COLS];
			bool		nulls[GR_DECODE_MAX_COLS];
			bool		pass = false;
			bool		bad = false;
			unsigned	m;
			unsigned long long row = 0;

			bool		vis = off <= nlp && gr_page_visible(e, page, off);

			if (vis)
			{
				uint32_t	len = gr_page_tuple_len(page, off, GR_PAGE_SIZE);

				if (len == 0 ||
					!gr_decode_tuple(d, gr_page_tuple(page, off), len, vals, nulls))
					bad = true;
				else
					pass = nquals == 0 || gr_quals_pass(job->quals, nquals, vals, nulls);
			}
			if (PROG && pass)
			{
				GrExprResult res = gr_expr_eval(prog, vals, nulls, vals + dcols, nulls + dcols, NULL);

				pass = res == GR_EXPR_PASS;
				if (res == GR_EXPR_FALLBACK)
				{
					unsigned long long i =
						atomicAdd(&counts[GR_PAGE_COUNT_FALLBACK(ncols)], 1ULL);

					if (i < job->fallback_cap)
					{
						fallback[i].page = (uint16_t) p;
						fallback[i].off = (uint16_t) off;
					}
				}
			}
			m = __ballot_sync(GR_FULL_MASK, pass);
			if (lane == 0 && m != 0)
				row = atomicAdd(&counts[GR_PAGE_COUNT_ROWS(ncols)], (unsigned long long) __popc(m));
			row = __shfl_sync(GR_FULL_MASK, row, 0) + __popc(m & lanes_below);
			m = __ballot_sync(GR_FULL_MASK, bad);
			if (lane == 0 && m != 0)
				atomicAdd(&counts[GR_PAGE_COUNT_BAD(ncols)], (unsigned long long) __popc(m));
			m = __ballot_sync(GR_FULL_MASK, vis);
			if (lane == 0 && m != 0)
				atomicAdd(&counts[GR_PAGE_COUNT_VIS(ncols)], (unsigned long long) __popc(m));
			for (int c = 0; c < ncols; c++)
			{
				int			w = job->col_width[c];

				if (pass && w != 0)
				{
					/* a NULL's slot gets 0, so that the arrays hold no stale bytes */
					gr_store_value(cols + (size_t) c * col_cap * 8 + row * w,
								   nulls[c] ? 0 : vals[c], w);
					nullflags[(size_t) c * col_cap + row] = nulls[c];
				}
				m = __ballot_sync(GR_FULL_MASK, pass && !nulls[c]);
				if (lane == c)
					nonnull += __popc(m);
			}
		}
	}
	if (lane < ncols && nonnull != 0)
		atomicAdd(&counts[lane], nonnull);
}

/*
 * The floor probe (GR_PAGE_JOB_READ_ONLY): read every byte of the job's
 * pages over the bus as the decoding kernel does, and decode nothing.  The
 * loads feed a value that is never true in practice, so they stay; counts
 * are left at zero (the answers are empty).
 */
__global__ void __launch_bounds__(GR_PAGE_THREADS)
gr_page_read_kernel(const uint8_t *pool, uint8_t *jobmem)
{
	GrPageJob  *job = (GrPageJob *) jobmem;
	const GrPageEntry *ents = (const GrPageEntry *) (jobmem + job->entries_off);
	unsigned	sink = 0;

	for (uint32_t p = blockIdx.x; p < job->npages; p += gridDim.x)
	{
		const uint4 *src = (const uint4 *) (pool + (size_t) ents[p].buf * GR_PAGE_SIZE);

		for (int i = threadIdx.x; i < GR_PAGE_SIZE / 16; i += GR_PAGE_THREADS)
		{
			uint4		w = src[i];

			sink ^= w.x ^ w.y ^ w.z ^ w.w;
		}
	}
	if (sink == 0x9E3779B9u)
		job->counts[GR_PAGE_COUNT_VIS(job->ncols)] = 1;
}

/*
 * Queue the kernel over a job already copied to the device; prog: the job
 * has a program, and fallback is the device list of the rows it hands back.
 */
cudaError_t
gr_launch_page_extract(const GrScratch *s, const void *pool, void *job_dev,
					   uint32_t npages, void *cols, uint8_t *nulls, int64_t col_cap,
					   bool read_only, bool prog, void *fallback, cudaStream_t stream)
{
	/* enough blocks for every SM's share of 8 KiB reads in flight */
	int			blocks = s->sm_count * 16;

	if ((int64_t) blocks > (int64_t) npages)
		blocks = (int) npages;
	if (blocks == 0)
		return cudaSuccess;
	if (read_only)
	{
		gr_page_read_kernel<<<blocks, GR_PAGE_THREADS, 0, stream>>>(
			(const uint8_t *) pool, (uint8_t *) job_dev);
		return cudaGetLastError();
	}
	if (prog)
		gr_page_extract_kernel<true><<<blocks, GR_PAGE_THREADS,
			GR_PAGE_ALIGN(sizeof(GrExprProg)), stream>>>(
			(const uint8_t *) pool, (uint8_t *) job_dev, (uint8_t *) cols, nulls, col_cap,
			(GrPageFallback *) fallback);
	else
		gr_page_extract_kernel<false><<<blocks, GR_PAGE_THREADS, 0, stream>>>(
			(const uint8_t *) pool, (uint8_t *) job_dev, (uint8_t *) cols, nulls, col_cap,
			(GrPageFallback *) fallback);
	return cudaGetLastError();
}

/* CUB's select keeps a row whose NULL flag is clear. */
struct GrNotNull
{
	__device__ __forceinline__ bool operator()(uint8_t isnull) const
	{
		return isnull == 0;
	}
};

/*
 * Gather one column's non-NULL values (T: an unsigned integer of the
 * column's width; the bits are only moved) out of its first 'rows' rows.
 * With temp NULL, only sizes the temporary storage into *temp_bytes.
 */
template <typename T>
static cudaError_t
gr_page_compact_typed(void *temp, size_t *temp_bytes, const void *col,
					  const uint8_t *nulls, int64_t rows, void *out,
					  int64_t *nout, cudaStream_t stream)
{
	return cub::DeviceSelect::FlaggedIf(temp, *temp_bytes, static_cast<const T *>(col),
										nulls, static_cast<T *>(out), nout, rows,
										GrNotNull(), stream);
}

/* Dispatch on a column's width (2, 4 or 8 bytes). */
cudaError_t
gr_launch_page_compact(void *temp, size_t temp_bytes, int width, const void *col,
					   const uint8_t *nulls, int64_t rows, void *out,
					   int64_t *nout, cudaStream_t stream)
{
	switch (width)
	{
		case 2:
			return gr_page_compact_typed<uint16_t>(temp, &temp_bytes, col, nulls, rows,
												   out, nout, stream);
		case 4:
			return gr_page_compact_typed<uint32_t>(temp, &temp_bytes, col, nulls, rows,
												   out, nout, stream);
		case 8:
			return gr_page_compact_typed<uint64_t>(temp, &temp_bytes, col, nulls, rows,
												   out, nout, stream);
	}
	return cudaErrorInvalidValue;
}

/* The temporary storage gathering up to 'rows' rows of any width needs. */
cudaError_t
gr_page_compact_temp_bytes(int64_t rows, size_t *bytes)
{
	size_t		b2 = 0,
				b4 = 0,
				b8 = 0;
	cudaError_t err;

	err = gr_page_compact_typed<uint16_t>(nullptr, &b2, nullptr, nullptr, rows,
										  nullptr, nullptr, 0);
	if (err == cudaSuccess)
		err = gr_page_compact_typed<uint32_t>(nullptr, &b4, nullptr, nullptr, rows,
											  nullptr, nullptr, 0);
	if (err == cudaSuccess)
		err = gr_page_compact_typed<uint64_t>(nullptr, &b8, nullptr, nullptr, rows,
											  nullptr, nullptr, 0);
	*bytes = b2 > b4 ? b2 : b4;
	if (b8 > *bytes)
		*bytes = b8;
	return err;
}
