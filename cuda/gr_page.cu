/*
 * gr_page.cu
 *	  The page path's kernel: read pinned shared buffers straight out of the
 *	  registered buffer pool, decode the visible tuples with the shared
 *	  decoder (src/tuple_decode.h), apply the WHERE comparisons, and compact
 *	  each column's kept non-NULL values into a device array, which the
 *	  ordinary reduction kernels then reduce.
 *
 * One block per page at a time: the block copies the 8 KiB page into shared
 * memory with 16-byte loads (a host-memory read over the bus, coalesced),
 * then each thread decodes line pointers of it.  Decoding from the shared
 * copy keeps every read inside the page: the decoder checks each tuple
 * against its line pointer's length, so even a page that is no longer
 * pinned (an aborted scan) cannot make the kernel fault.  Values are
 * appended per warp (one atomic per warp and column); their order does not
 * matter to any reduction.
 */
#include "gr_internal.h"
#include "gr_device.cuh"

#include "page_job.h"

#define GR_PAGE_THREADS 128

static_assert(GR_PAGE_SIZE % (16 * GR_PAGE_THREADS) == 0, "page copy loop");

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
 * apart: each value is stored in its column's own width, packed).
 */
__global__ void __launch_bounds__(GR_PAGE_THREADS)
gr_page_extract_kernel(const uint8_t *pool, uint8_t *jobmem, uint8_t *cols,
					   int64_t col_cap)
{
	__shared__ uint4 page4[GR_PAGE_SIZE / 16];
	GrPageJob  *job = (GrPageJob *) jobmem;
	const GrDecodeDesc *d = (const GrDecodeDesc *) (jobmem + job->desc_off);
	const GrPageEntry *ents = (const GrPageEntry *) (jobmem + job->entries_off);
	const uint8_t *page = (const uint8_t *) page4;
	unsigned long long *counts = (unsigned long long *) job->counts;
	int			ncols = job->ncols;
	int			nquals = job->nquals;
	int			lane = threadIdx.x & 31;
	unsigned	lanes_below = (1u << lane) - 1;

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
			m = __ballot_sync(GR_FULL_MASK, pass);
			if (lane == 0 && m != 0)
				atomicAdd(&counts[GR_PAGE_COUNT_ROWS(ncols)], (unsigned long long) __popc(m));
			m = __ballot_sync(GR_FULL_MASK, bad);
			if (lane == 0 && m != 0)
				atomicAdd(&counts[GR_PAGE_COUNT_BAD(ncols)], (unsigned long long) __popc(m));
			m = __ballot_sync(GR_FULL_MASK, vis);
			if (lane == 0 && m != 0)
				atomicAdd(&counts[GR_PAGE_COUNT_VIS(ncols)], (unsigned long long) __popc(m));
			for (int c = 0; c < ncols; c++)
			{
				bool		keep = pass && !nulls[c];
				unsigned long long at = 0;

				m = __ballot_sync(GR_FULL_MASK, keep);
				if (m == 0)
					continue;
				if (lane == 0)
					at = atomicAdd(&counts[c], (unsigned long long) __popc(m));
				at = __shfl_sync(GR_FULL_MASK, at, 0);
				if (keep)
				{
					int			w = job->col_width[c];

					gr_store_value(cols + (size_t) c * col_cap * 8 +
								   (at + __popc(m & lanes_below)) * w, vals[c], w);
				}
			}
		}
	}
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

/* Queue the kernel over a job already copied to the device. */
cudaError_t
gr_launch_page_extract(const GrScratch *s, const void *pool, void *job_dev,
					   uint32_t npages, void *cols, int64_t col_cap,
					   bool read_only, cudaStream_t stream)
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
	gr_page_extract_kernel<<<blocks, GR_PAGE_THREADS, 0, stream>>>(
		(const uint8_t *) pool, (uint8_t *) job_dev, (uint8_t *) cols, col_cap);
	return cudaGetLastError();
}
