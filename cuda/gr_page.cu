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

/* a group's running words change by atomics: in global memory, or in a block's copy in shared memory */
#define GR_PG_ADD(p, v)		atomicAdd((unsigned long long *) (p), (unsigned long long) (v))
#define GR_PG_MIN_S(p, v)	atomicMin((long long *) (p), (long long) (v))
#define GR_PG_MAX_S(p, v)	atomicMax((long long *) (p), (long long) (v))
/* the first row is folded first most often: no atomic once a smaller one is in */
#define GR_PG_MIN_U(p, v) \
	do { \
		if ((unsigned long long) (v) < *(volatile unsigned long long *) (p)) \
			atomicMin((unsigned long long *) (p), (unsigned long long) (v)); \
	} while (0)
#define GR_PG_FN __device__ __forceinline__
#include "page_group.h"

#define GR_PAGE_THREADS 128

/* a grouping job's hash slots: free, being filled, no room left; else a group */
#define GR_GSLOT_EMPTY	0xFFFFFFFFu
#define GR_GSLOT_BUSY	0xFFFFFFFEu
#define GR_GSLOT_FULL	0xFFFFFFFDu
/* slots a block's shared copy probes before it folds a row straight into the group */
#define GR_GCACHE_PROBES 8

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

/* List a row for the host (its page index and line pointer); the count goes on past the list. */
__device__ __forceinline__ void
gr_page_hand_back(const GrPageJob *job, unsigned long long *counts, GrPageFallback *fallback,
				  uint32_t p, int off)
{
	unsigned long long i = atomicAdd(&counts[GR_PAGE_COUNT_FALLBACK(job->ncols)], 1ULL);

	if (i < job->fallback_cap)
	{
		fallback[i].page = (uint16_t) p;
		fallback[i].off = (uint16_t) off;
	}
}

/*
 * The group of a row's key words (key[0] its NULL flags) in a grouping
 * job's table: slots (hmask + 1 of them, open addressing) hold the index
 * of a group's entry in ents, made on first sight.  A slot is claimed
 * (BUSY) by one thread, which numbers the group, writes its keys and every
 * running word's identity, and only then publishes the number; a thread
 * that meets a BUSY slot waits for it (threads of a warp progress
 * independently from sm_70 on).  Entries are read through L2 (__ldcg):
 * another SM wrote them, and this one may hold a previous job's lines.
 * -1 when the table (cap groups) has no room for another group.
 */
__device__ int
gr_group_find(const GrPageJob *job, uint32_t *slots, uint64_t *ents, uint32_t hmask,
			  uint32_t cap, const uint64_t *key, unsigned long long *ngroups,
			  unsigned long long *full)
{
	int			nk = job->ngkeys;
	int			ew = gr_page_group_entry_words(job);
	uint32_t	i = (uint32_t) gr_page_group_hash(key, nk) & hmask;

	for (uint32_t probe = 0; probe <= hmask; probe++, i = (i + 1) & hmask)
	{
		uint32_t	s = *(volatile uint32_t *) &slots[i];
		const uint64_t *e;
		bool		eq = true;

		if (s == GR_GSLOT_EMPTY)
		{
			s = atomicCAS(&slots[i], GR_GSLOT_EMPTY, GR_GSLOT_BUSY);
			if (s == GR_GSLOT_EMPTY)
			{
				unsigned long long g = atomicAdd(ngroups, 1ULL);
				uint64_t   *ne;

				if (g >= cap)
				{
					atomicExch(&slots[i], GR_GSLOT_FULL);
					atomicAdd(full, 1ULL);
					return -1;
				}
				ne = ents + g * ew;
				for (int k = 0; k <= nk; k++)
					ne[k] = key[k];
				for (int w = 0; w < job->gwords; w++)
					ne[1 + nk + w] = gr_page_group_identity(job->gword_op[w]);
				__threadfence();
				atomicExch(&slots[i], (uint32_t) g);
				return (int) g;
			}
		}
		while (s == GR_GSLOT_BUSY)
			s = *(volatile uint32_t *) &slots[i];
		if (s == GR_GSLOT_FULL)
		{
			atomicAdd(full, 1ULL);
			return -1;
		}
		e = ents + (size_t) s * ew;
		for (int k = 0; k <= nk && eq; k++)
			eq = __ldcg((const unsigned long long *) &e[k]) == key[k];
		if (eq)
			return (int) s;
	}
	atomicAdd(full, 1ULL);
	return -1;
}

/*
 * The running words a row of group g folds into: the block's copy of the
 * group's, in shared memory (cgid: each of the ncache copies' group, -1
 * while free; claimed on first sight, its words already at their
 * identities), or, with no copy free near g's, the group's own.
 */
__device__ __forceinline__ uint64_t *
gr_group_words(const GrPageJob *job, int *cgid, uint64_t *cwords, int ncache,
			   uint64_t *ents, int g)
{
	if (ncache > 0)
	{
		int			i = g & (ncache - 1);

		for (int n = 0; n < GR_GCACHE_PROBES && n < ncache; n++, i = (i + 1) & (ncache - 1))
		{
			int			cur = *(volatile int *) &cgid[i];

			if (cur == -1)
				cur = atomicCAS(&cgid[i], -1, g);
			if (cur == -1 || cur == g)
				return cwords + (size_t) i * job->gwords;
		}
	}
	return ents + (size_t) g * gr_page_group_entry_words(job) + 1 + job->ngkeys;
}

/* Add a block's copies of groups' running words into the groups, word by word. */
__device__ void
gr_group_flush(const GrPageJob *job, const int *cgid, const uint64_t *cwords, int ncache,
			   uint64_t *ents)
{
	int			gw = job->gwords;
	int			ew = gr_page_group_entry_words(job);

	__syncthreads();
	for (int i = threadIdx.x; i < ncache * gw; i += blockDim.x)
	{
		int			c = i / gw;
		int			w = i - c * gw;
		int			g = cgid[c];
		int			op = job->gword_op[w];
		uint64_t	v = cwords[i];
		uint64_t   *dst;

		if (g < 0 || v == gr_page_group_identity(op))
			continue;
		dst = ents + (size_t) g * ew + 1 + job->ngkeys + w;
		switch (op)
		{
			case GR_PG_OP_ADD:
				GR_PG_ADD(dst, v);
				break;
			case GR_PG_OP_MIN_S:
				GR_PG_MIN_S(dst, v);
				break;
			case GR_PG_OP_MAX_S:
				GR_PG_MAX_S(dst, v);
				break;
			default:
				GR_PG_MIN_U(dst, v);
				break;
		}
	}
}

/*
 * A row through the job's join (page_job.h): out of line, so that the
 * kernels of jobs without one carry none of its registers.
 */
__device__ __noinline__ GrExprResult
gr_page_join_stage(const GrPageJob *job, const GrExprProg *jprog, uint64_t *vals, bool *nulls,
				   uint32_t *went)
{
	return gr_page_join_row(job, jprog, vals, nulls, went);
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
 * program does not carry the interpreter's registers.  A job with a join
 * has a program: a row it passes is probed against the hashed relations'
 * images on this device and evaluated by the joined-row program (read
 * from the job in global memory), each relation's rows that went on past
 * it counted a warp at a time.
 */
template <bool PROG, bool GROUP>
__global__ void __launch_bounds__(GR_PAGE_THREADS)
gr_page_extract_kernel(const uint8_t *pool, uint8_t *jobmem, uint8_t *cols,
					   uint8_t *nullflags, int64_t col_cap, GrPageFallback *fallback,
					   uint32_t *gslots, uint64_t *gents, uint32_t hmask, uint32_t gcap,
					   unsigned long long *gcount, int ncache)
{
	__shared__ uint4 page4[GR_PAGE_SIZE / 16];
	extern __shared__ uint4 prog4[];	/* PROG: the job's program; GROUP: then the block's copies */
	GrPageJob  *job = (GrPageJob *) jobmem;
	size_t		prog_bytes = PROG ? GR_PAGE_ALIGN(sizeof(GrExprProg)) : 0;
	int		   *cgid = (int *) ((uint8_t *) prog4 + prog_bytes);
	uint64_t   *cwords = (uint64_t *) ((uint8_t *) cgid + GR_PAGE_ALIGN(sizeof(int) * ncache));
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
	if (GROUP)
	{
		/* every copy free, every word at its identity: the first page's barrier orders it */
		for (int i = threadIdx.x; i < ncache; i += GR_PAGE_THREADS)
			cgid[i] = -1;
		for (int i = threadIdx.x; i < ncache * job->gwords; i += GR_PAGE_THREADS)
			cwords[i] = gr_page_group_identity(job->gword_op[i % job->gwords]);
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
					gr_page_hand_back(job, counts, fallback, p, off);
			}
			if (PROG && job->njoins > 0)
			{
				uint32_t	went = 0;
				bool		dropped = false;

				if (pass)
				{
					GrExprResult res = gr_page_join_stage(job, (const GrExprProg *) (job->jprog_off == 0 ? NULL :
														 jobmem + job->jprog_off),
														 vals, nulls, &went);

					pass = res == GR_EXPR_PASS;
					dropped = res == GR_EXPR_REJECT;
					if (res == GR_EXPR_FALLBACK)
					{
						went = 0;	/* the host counts the row it makes */
						gr_page_hand_back(job, counts, fallback, p, off);
					}
				}
				for (int j = 0; j < job->njoins; j++)
				{
					m = __ballot_sync(GR_FULL_MASK, (went >> j) & 1);
					if (lane == 0 && m != 0)
						atomicAdd(&counts[GR_PAGE_COUNT_MATCHES(ncols, j)],
								  (unsigned long long) __popc(m));
				}
				/* a list job's: the rows its semi joins left out */
				m = __ballot_sync(GR_FULL_MASK, dropped);
				if (lane == 0 && m != 0 && (job->flags & GR_PAGE_JOB_LIST))
					atomicAdd(&counts[GR_PAGE_COUNT_DROPPED(ncols)], (unsigned long long) __popc(m));
			}
			if (PROG && pass && (job->flags & (GR_PAGE_JOB_LIST | GR_PAGE_JOB_VALUES)) ==
				GR_PAGE_JOB_LIST)
			{
				/*
				 * a list job: the host decodes the rows the WHERE (and any
				 * semi join) may keep (a values job keeps them, their
				 * columns stored)
				 */
				gr_page_hand_back(job, counts, fallback, p, off);
				pass = false;
			}
			if (GROUP && pass)
			{
				uint64_t	key[1 + GR_PAGE_MAX_KEYS];
				int			g = -1;

				/*
				 * a key that is no word goes back to the host; no room: the
				 * job does, or (a scan's table, which earlier jobs' rows are
				 * in already) the row does
				 */
				if (!gr_page_group_key(job, vals, nulls, key))
					gr_page_hand_back(job, counts, fallback, p, off);
				else if ((g = gr_group_find(job, gslots, gents, hmask, gcap, key, gcount,
											&counts[GR_PAGE_COUNT_GFULL(ncols)])) < 0 &&
						 job->scan_id != 0)
					gr_page_hand_back(job, counts, fallback, p, off);
				if (g >= 0)
					gr_page_group_fold(job, gr_group_words(job, cgid, cwords, ncache, gents, g),
									   vals, nulls, (uint64_t) p << 16 | (uint64_t) off);
				/* folded: the rows count it, no column holds it */
				pass = g >= 0;
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
	if (GROUP && ncache > 0)
		gr_group_flush(job, cgid, cwords, ncache, gents);
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
 * has a program, and fallback is the device list of the rows it hands
 * back.  grouped: the job groups (page_group.h) into the table gslots
 * (hmask + 1 slots) and gents (room for gcap groups, *gcount of them
 * made), each block first into ncache shared copies of gwords words (a
 * power of two, or 0: none).
 */
cudaError_t
gr_launch_page_extract(const GrScratch *s, const void *pool, void *job_dev,
					   uint32_t npages, void *cols, uint8_t *nulls, int64_t col_cap,
					   bool read_only, bool prog, void *fallback, bool grouped,
					   uint32_t *gslots, uint64_t *gents, uint32_t hmask, uint32_t gcap,
					   unsigned long long *gcount, int ncache, int gwords,
					   cudaStream_t stream)
{
	/* enough blocks for every SM's share of 8 KiB reads in flight */
	int			blocks = s->sm_count * 16;
	size_t		smem = prog ? GR_PAGE_ALIGN(sizeof(GrExprProg)) : 0;

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
	if (grouped)
		smem += GR_PAGE_ALIGN(sizeof(int) * ncache) + sizeof(uint64_t) * ncache * gwords;
#define GR_PAGE_LAUNCH(P, G) \
	gr_page_extract_kernel<P, G><<<blocks, GR_PAGE_THREADS, smem, stream>>>( \
		(const uint8_t *) pool, (uint8_t *) job_dev, (uint8_t *) cols, nulls, col_cap, \
		(GrPageFallback *) fallback, gslots, gents, hmask, gcap, gcount, ncache)
	if (prog && grouped)
		GR_PAGE_LAUNCH(true, true);
	else if (prog)
		GR_PAGE_LAUNCH(true, false);
	else if (grouped)
		GR_PAGE_LAUNCH(false, true);
	else
		GR_PAGE_LAUNCH(false, false);
#undef GR_PAGE_LAUNCH
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

/* What a collect job's checks need on the device (a GrPageJob is too big for a kernel's parameters). */
struct GrScanChecks
{
	int			ngkeys;
	int			ncheck;
	uint8_t		gkey_rel[GR_PAGE_MAX_KEYS];
	GrPageCheck checks[GR_PAGE_MAX_CHECKS];
};

/* flags[i]: whether the checks pass group i (of n, ew words each); iota[i] = i */
__global__ static void
gr_scan_check_kernel(GrScanChecks k, const uint64_t *ents, int ew, uint32_t n,
					 uint8_t *flags, uint32_t *iota)
{
	uint32_t	i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
	{
		flags[i] = !gr_page_group_rejected(k.checks, k.ncheck, k.ngkeys, k.gkey_rel,
										   ents + (size_t) i * ew);
		iota[i] = i;
	}
}

/* out's entry j (ew words each, m of them) is ents' entry idx[j] */
__global__ static void
gr_scan_gather_kernel(const uint64_t *ents, int ew, const uint32_t *idx, uint32_t m,
					  uint64_t *out)
{
	size_t		i = (size_t) blockIdx.x * blockDim.x + threadIdx.x;

	if (i < (size_t) m * ew)
		out[i] = ents[(size_t) idx[i / ew] * ew + i % ew];
}

/* Each of n entries (ew words, its nk keys after their NULL flags) in its slot of slots. */
__global__ static void
gr_scan_rehash_kernel(uint32_t *slots, uint32_t hmask, const uint64_t *ents, int ew, int nk,
					  uint32_t n)
{
	uint32_t	g = blockIdx.x * blockDim.x + threadIdx.x;

	if (g >= n)
		return;
	for (uint32_t i = (uint32_t) gr_page_group_hash(ents + (size_t) g * ew, nk) & hmask;;
		 i = (i + 1) & hmask)
		if (atomicCAS(&slots[i], GR_GSLOT_EMPTY, g) == GR_GSLOT_EMPTY)
			return;
}

/*
 * A scan's table grown: its n groups' entries already copied into ents,
 * their slots (hmask + 1, cleared to empty) filled as gr_group_find finds
 * them.  Queued on the stream.
 */
cudaError_t
gr_launch_scan_rehash(uint32_t *slots, uint32_t hmask, const uint64_t *ents, int ew, int nk,
					  uint32_t n, cudaStream_t stream)
{
	if (n == 0)
		return cudaSuccess;
	gr_scan_rehash_kernel<<<(n + 255) / 256, 256, 0, stream>>>(slots, hmask, ents, ew, nk, n);
	return cudaGetLastError();
}

/*
 * The groups of a scan's table that a collect job's checks pass, moved in
 * their order to the front of the table's n entries; *kept: how many.
 * Waits for the stream to count them; the move is queued on it.
 */
cudaError_t
gr_launch_scan_check(const GrPageJob *job, uint64_t *ents, int ew, uint32_t n,
					 uint32_t *kept, cudaStream_t stream)
{
	GrScanChecks k;
	size_t		temp_bytes = 0;
	size_t		flag_bytes = GR_PAGE_ALIGN((size_t) n);
	size_t		idx_bytes = GR_PAGE_ALIGN(sizeof(uint32_t) * (size_t) n);
	char	   *mem = NULL;
	uint64_t   *out = NULL;
	int64_t		m = 0;
	cudaError_t err;

	*kept = 0;
	if (n == 0)
		return cudaSuccess;
	k.ngkeys = job->ngkeys;
	k.ncheck = job->ncheck;
	memcpy(k.gkey_rel, job->gkey_rel, sizeof(k.gkey_rel));
	memcpy(k.checks, job->checks, sizeof(k.checks));
	err = cub::DeviceSelect::Flagged(nullptr, temp_bytes, (const uint32_t *) nullptr,
									 (const uint8_t *) nullptr, (uint32_t *) nullptr,
									 (int64_t *) nullptr, (int64_t) n, stream);
	if (err == cudaSuccess)
		err = cudaMallocAsync((void **) &mem, 16 + flag_bytes + 2 * idx_bytes + temp_bytes, stream);
	if (err != cudaSuccess)
		return err;
	{
		int64_t    *num = (int64_t *) mem;
		uint8_t    *flags = (uint8_t *) (mem + 16);
		uint32_t   *iota = (uint32_t *) (mem + 16 + flag_bytes);
		uint32_t   *idx = (uint32_t *) (mem + 16 + flag_bytes + idx_bytes);
		void	   *temp = mem + 16 + flag_bytes + 2 * idx_bytes;

		gr_scan_check_kernel<<<(n + 255) / 256, 256, 0, stream>>>(k, ents, ew, n, flags, iota);
		err = cudaGetLastError();
		if (err == cudaSuccess)
			err = cub::DeviceSelect::Flagged(temp, temp_bytes, iota, flags, idx, num,
											 (int64_t) n, stream);
		if (err == cudaSuccess)
			err = cudaMemcpyAsync(&m, num, sizeof(m), cudaMemcpyDeviceToHost, stream);
		if (err == cudaSuccess)
			err = cudaStreamSynchronize(stream);
		if (err == cudaSuccess && m > 0 && m < (int64_t) n)
		{
			size_t		words = (size_t) m * ew;

			err = cudaMallocAsync((void **) &out, sizeof(uint64_t) * words, stream);
			if (err == cudaSuccess)
			{
				gr_scan_gather_kernel<<<(unsigned) ((words + 255) / 256), 256, 0, stream>>>(ents, ew, idx, (uint32_t) m, out);
				err = cudaGetLastError();
				if (err == cudaSuccess)
					err = cudaMemcpyAsync(ents, out, sizeof(uint64_t) * words,
										  cudaMemcpyDeviceToDevice, stream);
				(void) cudaFreeAsync(out, stream);
			}
		}
	}
	(void) cudaFreeAsync(mem, stream);
	*kept = (uint32_t) m;
	return err;
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
