/*
 * gr_cuda.cu
 *	  The C interface of gr_cuda.h: devices, contexts (stream + scratch),
 *	  argument checks, and the queueing of copy in / reduce / copy out.
 *
 * All device memory a context uses is allocated at create, so queueing a
 * batch never allocates and never blocks.  Errors become return codes with a
 * message kept per thread; nothing here exits or throws.
 */
#include <stdio.h>
#include <string.h>

#include "gr_internal.h"

#include "page_job.h"
#include "page_group.h"		/* the layout: no row is folded here */

/* a grouping job's copies of groups in each block's shared memory: most, and their bytes */
#define GR_GCACHE_MAX	64
#define GR_GCACHE_BYTES	(12 * 1024)

static_assert((int) GR_PAGE_INT2 == (int) GR_CUDA_INT2 && (int) GR_PAGE_FLOAT8 == (int) GR_CUDA_FLOAT8,
			  "page job types are GrCudaType's");
static_assert(GR_PAGE_OP_SUM == (int) GR_CUDA_SUM && GR_PAGE_OP_MIN == (int) GR_CUDA_MIN &&
			  GR_PAGE_OP_MAX == (int) GR_CUDA_MAX, "page job ops are GrCudaOp's");

/* One device, one stream, its scratch, and the staging buffer for host input. */
struct GrCudaContext
{
	int			device;
	cudaStream_t stream;
	GrScratch	s;
	void	   *stage;			/* device copy of host input */
	int64_t		stage_values;	/* capacity in 8-byte values */
	void	   *page_cols;		/* page jobs' column values, aligned by row (gr_page.cu) */
	uint8_t    *page_nulls;		/* and their NULL flags, one byte per value */
	int64_t		page_values;	/* capacity of both in values (8 bytes apart) */
	void	   *page_dense;		/* one column's non-NULL values, gathered */
	int64_t		page_rows;		/* its capacity in values: the most rows of a job */
	void	   *page_temp;		/* CUB temporary storage of the gathering */
	size_t		page_temp_bytes;
	int64_t    *page_nout;		/* the gathering's count (the job's counts have it) */
	GrPageFallback *page_fallback;	/* rows a job's program handed back */
	int64_t		page_bytes;		/* device bytes of all the above */
	uint32_t   *group_slots;	/* a grouping job's hash slots (page_group.h) */
	uint64_t   *group_ents;		/* and its groups */
	int64_t		group_nslots;	/* capacities, grown to the largest job's */
	int64_t		group_nwords;
	int64_t		group_bytes;
	const void *pool_host;		/* the registered buffer pool ... */
	const void *pool_dev;		/* ... and its device address */
	int64_t		scratch_bytes;
};

static __thread char gr_errmsg[512];

/* Record a failure and return its code. */
static int
gr_fail(int code, const char *what, cudaError_t err)
{
	if (err != cudaSuccess)
		snprintf(gr_errmsg, sizeof(gr_errmsg), "%s: %s (%s)", what,
				 cudaGetErrorString(err), cudaGetErrorName(err));
	else
		snprintf(gr_errmsg, sizeof(gr_errmsg), "%s", what);
	return code;
}

/* Map a CUDA error to our codes; GR_CUDA_OK on success. */
static int
gr_check(cudaError_t err, const char *what)
{
	if (err == cudaSuccess)
		return GR_CUDA_OK;
	(void) cudaGetLastError();	/* clear a non-sticky error */
	if (err == cudaErrorMemoryAllocation)
		return gr_fail(GR_CUDA_ENOMEM, what, err);
	if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver ||
		err == cudaErrorInvalidDevice)
		return gr_fail(GR_CUDA_ENODEV, what, err);
	return gr_fail(GR_CUDA_ERUNTIME, what, err);
}

/* Bytes of one value of a type; 0 for an unknown type. */
static int
gr_type_bytes(GrCudaType type)
{
	switch (type)
	{
		case GR_CUDA_INT2:
			return 2;
		case GR_CUDA_INT4:
		case GR_CUDA_FLOAT4:
			return 4;
		case GR_CUDA_INT8:
		case GR_CUDA_FLOAT8:
			return 8;
	}
	return 0;
}

/* Text of this thread's last failure. */
extern "C" const char *
gr_cuda_last_error(void)
{
	return gr_errmsg;
}

/* Usable devices; no driver or no GPU counts as zero, not as an error. */
extern "C" int
gr_cuda_device_count(int *count)
{
	cudaError_t err = cudaGetDeviceCount(count);

	if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver)
	{
		(void) cudaGetLastError();
		*count = 0;
		return GR_CUDA_OK;
	}
	if (err != cudaSuccess)
		*count = 0;
	return gr_check(err, "cudaGetDeviceCount");
}

/* Name, SM count, compute capability and memory of one device. */
extern "C" int
gr_cuda_device_info(int device, GrCudaDeviceInfo *info)
{
	cudaDeviceProp prop;
	int			rc = gr_check(cudaGetDeviceProperties(&prop, device),
							  "cudaGetDeviceProperties");

	if (rc != GR_CUDA_OK)
		return rc;
	memset(info, 0, sizeof(*info));
	snprintf(info->name, sizeof(info->name), "%s", prop.name);
	info->sm_count = prop.multiProcessorCount;
	info->cc_major = prop.major;
	info->cc_minor = prop.minor;
	info->total_memory = (int64_t) prop.totalGlobalMem;
	return GR_CUDA_OK;
}

/* cudaMalloc that adds to the context's byte count. */
static int
gr_alloc(GrCudaContext *c, void **p, size_t bytes, const char *what)
{
	int			rc = gr_check(cudaMalloc(p, bytes), what);

	if (rc == GR_CUDA_OK)
		c->scratch_bytes += (int64_t) bytes;
	return rc;
}

/* Free the page path's device memory (enable_pages); safe when there is none. */
static void
gr_free_pages(GrCudaContext *c)
{
	cudaFree(c->page_cols);
	cudaFree(c->page_nulls);
	cudaFree(c->page_dense);
	cudaFree(c->page_temp);
	cudaFree(c->page_nout);
	cudaFree(c->page_fallback);
	c->page_cols = NULL;
	c->page_nulls = NULL;
	c->page_dense = NULL;
	c->page_temp = NULL;
	c->page_nout = NULL;
	c->page_fallback = NULL;
	c->page_values = c->page_rows = 0;
	c->page_temp_bytes = 0;
	c->scratch_bytes -= c->page_bytes;
	c->page_bytes = 0;
	cudaFree(c->group_slots);
	cudaFree(c->group_ents);
	c->group_slots = NULL;
	c->group_ents = NULL;
	c->group_nslots = c->group_nwords = 0;
	c->scratch_bytes -= c->group_bytes;
	c->group_bytes = 0;
}

/* One stream and all its scratch, allocated now so that queueing never allocates. */
extern "C" int
gr_cuda_context_create(int device, int64_t stage_values, int64_t topk_values,
					   GrCudaContext **ctx)
{
	GrCudaContext *c;
	cudaDeviceProp prop;
	int			rc;

	*ctx = NULL;
	if (stage_values < 0 || topk_values < 0 || stage_values > GR_CUDA_MAX_VALUES ||
		topk_values > GR_CUDA_MAX_VALUES - 1)
		return gr_fail(GR_CUDA_EINVAL, "gr_cuda_context_create: bad capacity", cudaSuccess);
	if ((rc = gr_check(cudaSetDevice(device), "cudaSetDevice")) != GR_CUDA_OK)
		return rc;
	if ((rc = gr_check(cudaGetDeviceProperties(&prop, device),
					   "cudaGetDeviceProperties")) != GR_CUDA_OK)
		return rc;
	c = (GrCudaContext *) calloc(1, sizeof(GrCudaContext));
	if (c == NULL)
		return gr_fail(GR_CUDA_ENOMEM, "gr_cuda_context_create: out of host memory",
					   cudaSuccess);
	c->device = device;
	c->s.sm_count = prop.multiProcessorCount;
	c->s.max_blocks = prop.multiProcessorCount * GR_MAX_BLOCKS_PER_SM;
	c->s.topk_values = topk_values;
	c->stage_values = stage_values;

	rc = gr_check(cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking),
				  "cudaStreamCreate");
	if (rc == GR_CUDA_OK)
		rc = gr_alloc(c, &c->s.partials, gr_partials_bytes(c->s.max_blocks), "cudaMalloc partials");
	if (rc == GR_CUDA_OK)
		rc = gr_alloc(c, (void **) &c->s.counter, sizeof(unsigned int), "cudaMalloc counter");
	if (rc == GR_CUDA_OK)
		rc = gr_check(cudaMemset(c->s.counter, 0, sizeof(unsigned int)), "cudaMemset");
	if (rc == GR_CUDA_OK)
		rc = gr_alloc(c, (void **) &c->s.result, sizeof(GrCudaResult), "cudaMalloc result");
	if (rc == GR_CUDA_OK && stage_values > 0)
		rc = gr_alloc(c, &c->stage, (size_t) stage_values * 8, "cudaMalloc staging buffer");
	if (rc == GR_CUDA_OK && topk_values > 0)
	{
		rc = gr_alloc(c, &c->s.keys_a, (size_t) topk_values * 8, "cudaMalloc top-k keys");
		if (rc == GR_CUDA_OK)
			rc = gr_alloc(c, &c->s.keys_b, (size_t) topk_values * 8, "cudaMalloc top-k keys");
		if (rc == GR_CUDA_OK)
			rc = gr_check(gr_topk_temp_bytes(topk_values, &c->s.sort_temp_bytes),
						  "top-k temporary storage size");
		if (rc == GR_CUDA_OK)
			rc = gr_alloc(c, &c->s.sort_temp, c->s.sort_temp_bytes, "cudaMalloc top-k sort");
	}
	if (rc != GR_CUDA_OK)
	{
		gr_cuda_context_destroy(c);
		return rc;
	}
	*ctx = c;
	return GR_CUDA_OK;
}

/* Wait for the stream, then free everything; safe on a half-built context. */
extern "C" void
gr_cuda_context_destroy(GrCudaContext *c)
{
	if (c == NULL)
		return;
	(void) cudaSetDevice(c->device);
	if (c->stream)
		(void) cudaStreamSynchronize(c->stream);
	cudaFree(c->s.partials);
	cudaFree(c->s.counter);
	cudaFree(c->s.result);
	cudaFree(c->stage);
	gr_free_pages(c);
	cudaFree(c->s.keys_a);
	cudaFree(c->s.keys_b);
	cudaFree(c->s.sort_temp);
	if (c->stream)
		(void) cudaStreamDestroy(c->stream);
	(void) cudaGetLastError();
	free(c);
}

/* Device bytes this context holds (for the service's memory accounting). */
extern "C" int64_t
gr_cuda_context_scratch_bytes(const GrCudaContext *c)
{
	return c->scratch_bytes;
}

/* The context's stream, for callers that time or order work around it. */
extern "C" void *
gr_cuda_context_stream(const GrCudaContext *c)
{
	return (void *) c->stream;
}

/* Check the arguments of a reduce call; GR_CUDA_OK if it may be queued. */
static int
gr_check_args(GrCudaContext *c, GrCudaType type, GrCudaOp op, int64_t k,
			  const void *values, int64_t n, const int64_t *topk)
{
	int			size = gr_type_bytes(type);

	if (c == NULL || size == 0)
		return gr_fail(GR_CUDA_EINVAL, "gr_cuda_reduce: bad context or type", cudaSuccess);
	if (n < 0 || n > GR_CUDA_MAX_VALUES)
		return gr_fail(GR_CUDA_EINVAL, "gr_cuda_reduce: n out of range", cudaSuccess);
	if (n > 0 && (values == NULL || ((uintptr_t) values % size) != 0))
		return gr_fail(GR_CUDA_EINVAL, "gr_cuda_reduce: values missing or misaligned",
					   cudaSuccess);
	switch (op)
	{
		case GR_CUDA_SUM:
		case GR_CUDA_MIN:
		case GR_CUDA_MAX:
		case GR_CUDA_TOP2:
		case GR_CUDA_SUMSQ:
			return GR_CUDA_OK;
		case GR_CUDA_TOPK:
			if (k < 1 || k > GR_CUDA_MAX_VALUES || topk == NULL)
				return gr_fail(GR_CUDA_EINVAL, "gr_cuda_reduce: top-k needs k >= 1 and topk[]",
							   cudaSuccess);
			if (k > 2 && n > c->s.topk_values)
				return gr_fail(GR_CUDA_EINVAL,
							   "gr_cuda_reduce: n exceeds the context's top-k capacity",
							   cudaSuccess);
			return GR_CUDA_OK;
	}
	return gr_fail(GR_CUDA_EINVAL, "gr_cuda_reduce: bad op", cudaSuccess);
}

/*
 * Bytes of a result the device writes and the host gets back: the header
 * (integer sums and squares, keys), the exact sum for a float sum, both
 * exact sums for a float sum of squares.
 */
static size_t
gr_result_bytes(GrCudaType type, GrCudaOp op)
{
	if (type != GR_CUDA_FLOAT4 && type != GR_CUDA_FLOAT8)
		return GR_CUDA_RESULT_HEADER_BYTES;
	if (op == GR_CUDA_SUM)
		return offsetof(GrCudaResult, xsum2);
	if (op == GR_CUDA_SUMSQ)
		return sizeof(GrCudaResult);
	return GR_CUDA_RESULT_HEADER_BYTES;
}

/* Queue the kernels and the copies back; arguments already checked. */
static int
gr_queue(GrCudaContext *c, GrCudaType type, GrCudaOp op, int64_t k,
		 const void *values, int64_t n, GrCudaResult *result, int64_t *topk)
{
	int64_t		m = k < n ? k : n;
	bool		float_sum = (op == GR_CUDA_SUM || op == GR_CUDA_SUMSQ) &&
		(type == GR_CUDA_FLOAT4 || type == GR_CUDA_FLOAT8);
	bool		big_topk = op == GR_CUDA_TOPK && k > 2;
	cudaError_t err;

	if (float_sum)
		err = gr_launch_xsum(&c->s, type, op, values, n, c->stream);
	else if (big_topk)
		err = gr_launch_topk(&c->s, type, values, n, k, c->stream);
	else
		err = gr_launch_reduce(&c->s, type, op, values, n,
							   op == GR_CUDA_TOPK ? (int) k : 2, c->stream);
	if (err != cudaSuccess)
		return gr_check(err, "gr_cuda_reduce: launch");

	if (result != NULL)
	{
		err = cudaMemcpyAsync(result, c->s.result, gr_result_bytes(type, op),
							  cudaMemcpyDeviceToHost, c->stream);
		if (err != cudaSuccess)
			return gr_check(err, "gr_cuda_reduce: copy result");
	}
	if (op == GR_CUDA_TOPK && m > 0)
	{
		const void *src = big_topk ? c->s.keys_a :
			(const void *) ((const char *) c->s.result + offsetof(GrCudaResult, key));

		err = cudaMemcpyAsync(topk, src, (size_t) m * sizeof(int64_t),
							  cudaMemcpyDeviceToHost, c->stream);
		if (err != cudaSuccess)
			return gr_check(err, "gr_cuda_reduce: copy top-k");
	}
	return GR_CUDA_OK;
}

/* Queue a reduction of values already on the device. */
extern "C" int
gr_cuda_reduce_device(GrCudaContext *c, GrCudaType type, GrCudaOp op, int64_t k,
					  const void *values, int64_t n, GrCudaResult *result,
					  int64_t *topk)
{
	int			rc = gr_check_args(c, type, op, k, values, n, topk);

	if (rc != GR_CUDA_OK)
		return rc;
	if ((rc = gr_check(cudaSetDevice(c->device), "cudaSetDevice")) != GR_CUDA_OK)
		return rc;
	return gr_queue(c, type, op, k, values, n, result, topk);
}

/* Queue copy in to the staging buffer, then the reduction, on one stream. */
extern "C" int
gr_cuda_reduce_host(GrCudaContext *c, GrCudaType type, GrCudaOp op, int64_t k,
					const void *values, int64_t n, GrCudaResult *result,
					int64_t *topk)
{
	int			rc = gr_check_args(c, type, op, k, values, n, topk);
	size_t		bytes = (size_t) n * gr_type_bytes(type);

	if (rc != GR_CUDA_OK)
		return rc;
	if ((int64_t) bytes > c->stage_values * 8)
		return gr_fail(GR_CUDA_EINVAL, "gr_cuda_reduce_host: batch exceeds the staging buffer",
					   cudaSuccess);
	if ((rc = gr_check(cudaSetDevice(c->device), "cudaSetDevice")) != GR_CUDA_OK)
		return rc;
	if (bytes > 0 &&
		(rc = gr_check(cudaMemcpyAsync(c->stage, values, bytes, cudaMemcpyHostToDevice,
									   c->stream), "gr_cuda_reduce_host: copy in")) != GR_CUDA_OK)
		return rc;
	return gr_queue(c, type, op, k, c->stage, n, result, topk);
}

/* Non-blocking: has everything queued on the context finished? */
extern "C" int
gr_cuda_poll(GrCudaContext *c, int *done)
{
	cudaError_t err = cudaStreamQuery(c->stream);

	*done = err != cudaErrorNotReady;
	if (err == cudaErrorNotReady)
		return GR_CUDA_OK;
	return gr_check(err, "cudaStreamQuery");
}

/* Block until everything queued on the context has finished. */
extern "C" int
gr_cuda_sync(GrCudaContext *c)
{
	return gr_check(cudaStreamSynchronize(c->stream), "cudaStreamSynchronize");
}

/* Pin an existing mapping (a shared-memory slot) so copies from it are async. */
extern "C" int
gr_cuda_host_register(void *ptr, size_t bytes)
{
	return gr_check(cudaHostRegister(ptr, bytes, cudaHostRegisterPortable),
					"cudaHostRegister");
}

/* Undo gr_cuda_host_register. */
extern "C" int
gr_cuda_host_unregister(void *ptr)
{
	return gr_check(cudaHostUnregister(ptr), "cudaHostUnregister");
}

/* Pinned host memory, e.g. for results. */
extern "C" int
gr_cuda_host_alloc(size_t bytes, void **ptr)
{
	return gr_check(cudaHostAlloc(ptr, bytes, cudaHostAllocPortable), "cudaHostAlloc");
}

/* Free gr_cuda_host_alloc memory; NULL is fine. */
extern "C" void
gr_cuda_host_free(void *ptr)
{
	if (ptr != NULL)
		(void) cudaFreeHost(ptr);
}

/*
 * Register the buffer pool (memory the process mapped before it forked, as
 * PostgreSQL's shared buffers are) so kernels read it in place: pinned,
 * mapped into every device's address space.
 */
extern "C" int
gr_cuda_pool_register(void *ptr, size_t bytes)
{
	return gr_check(cudaHostRegister(ptr, bytes,
									 cudaHostRegisterPortable | cudaHostRegisterMapped),
					"cudaHostRegister of the buffer pool");
}

/*
 * Give the context device room for page jobs: the row-aligned columns and
 * their NULL flags, for gathering one column's non-NULL values before a
 * reduction, room for the most rows one job can keep and CUB's storage, and
 * the list of rows a job's program hands back.
 */
extern "C" int
gr_cuda_context_enable_pages(GrCudaContext *c, int64_t page_values)
{
	int64_t		before;
	int64_t		rows = (int64_t) GR_PAGE_JOB_MAX_PAGES * GR_PAGE_MAX_TUPLES;
	int			rc;

	if (page_values <= 0 || page_values > GR_CUDA_MAX_VALUES * 8)
		return gr_fail(GR_CUDA_EINVAL, "gr_cuda_context_enable_pages: bad capacity",
					   cudaSuccess);
	if ((rc = gr_check(cudaSetDevice(c->device), "cudaSetDevice")) != GR_CUDA_OK)
		return rc;
	gr_free_pages(c);
	if (rows > page_values)
		rows = page_values;
	before = c->scratch_bytes;
	rc = gr_alloc(c, &c->page_cols, (size_t) page_values * 8, "cudaMalloc page columns");
	if (rc == GR_CUDA_OK)
		rc = gr_alloc(c, (void **) &c->page_nulls, (size_t) page_values,
					  "cudaMalloc page NULL flags");
	if (rc == GR_CUDA_OK)
		rc = gr_alloc(c, &c->page_dense, (size_t) rows * 8, "cudaMalloc page gathering");
	if (rc == GR_CUDA_OK)
		rc = gr_alloc(c, (void **) &c->page_nout, sizeof(int64_t), "cudaMalloc page gathering");
	if (rc == GR_CUDA_OK)
		rc = gr_alloc(c, (void **) &c->page_fallback,
					  sizeof(GrPageFallback) * GR_PAGE_MAX_FALLBACK_ALL,
					  "cudaMalloc page fallback list");
	if (rc == GR_CUDA_OK)
		rc = gr_check(gr_page_compact_temp_bytes(rows, &c->page_temp_bytes),
					  "page gathering temporary storage size");
	if (rc == GR_CUDA_OK)
		rc = gr_alloc(c, &c->page_temp, c->page_temp_bytes, "cudaMalloc page gathering");
	c->page_bytes = c->scratch_bytes - before;
	if (rc != GR_CUDA_OK)
	{
		gr_free_pages(c);
		return rc;
	}
	c->page_values = page_values;
	c->page_rows = rows;
	return GR_CUDA_OK;
}

/*
 * Check a page job's header against the context; GR_CUDA_OK if it may run.
 * Its columns are the decoded ones and the program's outputs: the kernel
 * keeps a row's in arrays of GR_DECODE_MAX_COLS.
 */
static int
gr_check_job(GrCudaContext *c, GrPageJob *job)
{
	const GrExprProg *prog;

	if (c->page_cols == NULL)
		return gr_fail(GR_CUDA_EINVAL, "page job: the context has no page columns", cudaSuccess);
	if (job->npages > GR_PAGE_JOB_MAX_PAGES || job->ncols > GR_PAGE_MAX_COLS ||
		job->nouts > GR_PAGE_MAX_OUTS || job->nquals > GR_MAX_QUALS ||
		job->bytes_in > job->bytes_all || job->entries_off > job->bytes_in ||
		job->desc_off > job->entries_off ||
		(job->prog_off != 0 &&
		 (job->prog_off < job->desc_off ||
		  job->prog_off + GR_PAGE_ALIGN(sizeof(GrExprProg)) > job->entries_off)) ||
		job->fallback_cap > (job->scan_id != 0 || (job->flags & GR_PAGE_JOB_LIST) ?
							 GR_PAGE_MAX_FALLBACK_ALL : GR_PAGE_MAX_FALLBACK) ||
		((job->flags & GR_PAGE_JOB_LIST) &&
		 (job->prog_off == 0 || job->nouts != 0 || job->ngkeys != 0 || job->jprog_off != 0)) ||
		(job->scan_id != 0 && (job->ngkeys == 0 || job->scan_cap == 0 ||
							   job->scan_max < job->scan_cap ||
							   job->scan_max > GR_PAGE_MAX_SCAN_GROUPS)) ||
		((job->flags & GR_PAGE_JOB_COLLECT) && (job->scan_id == 0 || job->npages != 0)) ||
		(job->fallback_cap > 0 &&
		 (job->fallback_off < job->bytes_in ||
		  job->fallback_off + sizeof(GrPageFallback) * job->fallback_cap > job->bytes_all)) ||
		((job->flags & GR_PAGE_JOB_VALUES) &&
		 (!(job->flags & GR_PAGE_JOB_LIST) || job->ncols > GR_PAGE_STORE_COLS ||
		  (int64_t) job->values_cap < gr_page_job_col_cap(job) || job->values_off < job->bytes_in ||
		  job->values_off + gr_page_values_bytes(gr_page_job_stored(job), job->values_cap) >
		  job->bytes_all)))
		return gr_fail(GR_CUDA_EINVAL, "page job: bad header", cudaSuccess);
	for (int col = 0; (job->flags & GR_PAGE_JOB_VALUES) && col < job->ncols; col++)
		if (job->col_width[col] != 0 && job->col_width[col] != 8)
			return gr_fail(GR_CUDA_EINVAL, "page job: a values job's column is not 8 bytes wide",
						   cudaSuccess);
	prog = gr_page_job_prog(job);
	if (job->njoins > 0)
	{
		const GrExprProg *jprog = gr_page_job_jprog(job);
		int			base = gr_page_job_desc(job)->ncols + (prog != NULL ? prog->nouts : 0);

		if (job->njoins > GR_PAGE_MAX_JOINS || prog == NULL ||
			(job->jprog_off != 0 &&
			 (job->jprog_off < job->prog_off ||
			  job->jprog_off + GR_PAGE_ALIGN(sizeof(GrExprProg)) > job->entries_off)) ||
			job->jbase + (jprog != NULL ? jprog->nouts : 0) != job->ncols)
			return gr_fail(GR_CUDA_EINVAL, "page job: bad join header", cudaSuccess);
		for (int j = 0; j < job->njoins; j++)
		{
			const GrPageJoin *pj = &job->joins[j];

			if (pj->type > GR_PAGE_JOIN_MARK || pj->nkeys < 1 || pj->nkeys > GR_PAGE_JOIN_KEYS ||
				pj->valpos < base || pj->valpos + pj->nvals > job->jbase)
				return gr_fail(GR_CUDA_EINVAL, "page job: bad join header", cudaSuccess);
			/* a list job's joins are semi joins, which only leave its rows out */
			if ((job->flags & GR_PAGE_JOB_LIST) && pj->type != GR_PAGE_JOIN_SEMI)
				return gr_fail(GR_CUDA_EINVAL, "page job: a list job's join is not a semi join",
							   cudaSuccess);
			for (int k = 0; k < pj->nkeys; k++)
				if (pj->keycol[k] < 0 || pj->keycol[k] >= pj->valpos)
					return gr_fail(GR_CUDA_EINVAL, "page job: bad join key", cudaSuccess);
		}
	}
	else if (gr_page_job_desc(job)->ncols + (prog != NULL ? prog->nouts : 0) != job->ncols)
		return gr_fail(GR_CUDA_EINVAL, "page job: bad header", cudaSuccess);
	if ((int64_t) job->bytes_in > c->stage_values * 8)
		return gr_fail(GR_CUDA_EINVAL, "page job: larger than the staging buffer", cudaSuccess);
	/* a grouping job stores no column */
	if (job->ngkeys == 0 && (int64_t) job->ncols * gr_page_job_col_cap(job) > c->page_values)
		return gr_fail(GR_CUDA_EINVAL, "page job: columns exceed the context's room", cudaSuccess);
	if (job->ngkeys > 0)
	{
		int			gw = GR_PG_W_FIXED;

		if (job->ngkeys > GR_PAGE_MAX_KEYS || job->gwords > GR_PAGE_MAX_GWORDS ||
			job->group_cap == 0 || job->group_cap > GR_PAGE_MAX_GROUPS ||
			job->fallback_cap == 0 || job->group_off < job->bytes_in ||
			job->group_off + (uint64_t) job->group_cap * gr_page_group_entry_words(job) * 8 >
			job->bytes_all)
			return gr_fail(GR_CUDA_EINVAL, "page job: bad grouping header", cudaSuccess);
		for (int k = 0; k < job->ngkeys; k++)
		{
			const GrPageJoin *pj = job->gkey_rel[k] > 0 && job->gkey_rel[k] <= job->njoins ?
				&job->joins[job->gkey_rel[k] - 1] : NULL;
			int			v = pj != NULL ? job->gkey_col[k] - pj->valpos : 0;

			if (job->gkey_col[k] < 0 || job->gkey_col[k] >= job->ncols ||
				(job->gkey_rel[k] > 0 &&
				 (pj == NULL || v < 0 || v >= pj->nvals || !((pj->varmask >> v) & 1))))
				return gr_fail(GR_CUDA_EINVAL, "page job: bad group key", cudaSuccess);
		}
		for (int col = 0; col < job->ncols; col++)
			if (job->col_word[col] >= job->gwords)
				return gr_fail(GR_CUDA_EINVAL, "page job: bad group word", cudaSuccess);
		for (int o = 0; o < job->nouts; o++)
		{
			const GrPageOut *out = &job->outs[o];

			if (out->col < 0 || out->col >= job->ncols ||
				out->op < GR_PAGE_OP_SUM || out->op > GR_PAGE_OP_MAX ||
				out->type < GR_PAGE_INT2 || out->type > GR_PAGE_FLOAT8 ||
				out->word + gr_page_group_out_words(out->op, out->type) > job->gwords)
				return gr_fail(GR_CUDA_EINVAL, "page job: bad grouped output", cudaSuccess);
			gw += gr_page_group_out_words(out->op, out->type);
		}
		if (gw > job->gwords)
			return gr_fail(GR_CUDA_EINVAL, "page job: bad grouping header", cudaSuccess);
	}
	return GR_CUDA_OK;
}

/* Give the context room for a grouping job's table: nslots slots, nwords words of groups. */
static int
gr_ensure_groups(GrCudaContext *c, int64_t nslots, int64_t nwords)
{
	int			rc = GR_CUDA_OK;

	if (nslots <= c->group_nslots && nwords <= c->group_nwords)
		return GR_CUDA_OK;
	cudaFree(c->group_slots);
	cudaFree(c->group_ents);
	c->group_slots = NULL;
	c->group_ents = NULL;
	c->scratch_bytes -= c->group_bytes;
	c->group_bytes = 0;
	c->group_nslots = c->group_nwords = 0;
	if (nslots < 2 * (int64_t) GR_PAGE_MAX_GROUPS)
		nslots = 2 * (int64_t) GR_PAGE_MAX_GROUPS;	/* a table fits every job's */
	rc = gr_alloc(c, (void **) &c->group_slots, sizeof(uint32_t) * nslots,
				  "cudaMalloc group slots");
	if (rc == GR_CUDA_OK)
		rc = gr_alloc(c, (void **) &c->group_ents, sizeof(uint64_t) * nwords,
					  "cudaMalloc groups");
	if (rc != GR_CUDA_OK)
		return rc;
	c->group_bytes = (int64_t) (sizeof(uint32_t) * nslots + sizeof(uint64_t) * nwords);
	c->group_nslots = nslots;
	c->group_nwords = nwords;
	return GR_CUDA_OK;
}

/*
 * The scans' group tables (GrPageJob.scan_id): one per scan and device,
 * made by the scan's first job on the device and kept across its jobs
 * until a collect job copies out its last group, or the service frees it
 * because its process has gone or has begun another scan (a scan that
 * ended in an ERROR).  One allocation each: the count of groups made,
 * the hash slots, the entries.  The service is one thread: no lock.
 */
#define GR_SCAN_TABLES	256

typedef struct GrScanTab
{
	uint64_t	scan_id;		/* 0: unused */
	int			device;
	bool		poisoned;		/* a job failed after it may have folded rows */
	uint32_t	cap;
	uint32_t	max;			/* the most groups it may grow to (GrPageJob.scan_max) */
	uint32_t	hmask;
	int			ew;				/* words of an entry */
	uint64_t	known;			/* groups it held when last counted */
	uint64_t	counted;		/* rows of the jobs queued before that count */
	uint64_t	pending;		/* rows of the jobs queued since */
	double		rate;			/* new groups a row is expected to make */
	bool		stays;			/* it could not grow (no device memory): not again */
	int64_t		kept;			/* groups a collect job's checks kept; -1: unchecked */
	uint64_t	dropped;		/* and those they dropped */
	void	   *mem;
	unsigned long long *count;	/* groups made (past cap: tries too) */
	uint32_t   *slots;
	uint64_t   *ents;
} GrScanTab;

static GrScanTab gr_scan_tabs[GR_SCAN_TABLES];

static GrScanTab *
gr_scan_tab_find(uint64_t scan_id, int device)
{
	for (int i = 0; i < GR_SCAN_TABLES; i++)
		if (gr_scan_tabs[i].scan_id == scan_id && gr_scan_tabs[i].device == device)
			return &gr_scan_tabs[i];
	return NULL;
}

/*
 * Free a table no job uses any more (stream: where the free is ordered,
 * after the copies queued on it); NULL: jobs of a gone process may still
 * run on the device, so wait for the device first.
 */
static void
gr_scan_tab_free(GrScanTab *t, cudaStream_t stream)
{
	(void) cudaSetDevice(t->device);
	if (stream == NULL)
	{
		(void) cudaDeviceSynchronize();
		(void) cudaFree(t->mem);
	}
	else
		(void) cudaFreeAsync(t->mem, stream);
	memset(t, 0, sizeof(*t));
}

/* Free every table of a process (pid), but keep_id's. */
extern "C" void
gr_cuda_scan_tables_drop(uint32_t pid, uint64_t keep_id)
{
	for (int i = 0; i < GR_SCAN_TABLES; i++)
		if (gr_scan_tabs[i].scan_id != 0 && (uint32_t) (gr_scan_tabs[i].scan_id >> 32) == pid &&
			gr_scan_tabs[i].scan_id != keep_id)
			gr_scan_tab_free(&gr_scan_tabs[i], NULL);
}

/* The processes that have tables, into pids (at most max): how many. */
extern "C" int
gr_cuda_scan_tables_owners(uint32_t *pids, int max)
{
	int			n = 0;

	for (int i = 0; i < GR_SCAN_TABLES && n < max; i++)
		if (gr_scan_tabs[i].scan_id != 0)
			pids[n++] = (uint32_t) (gr_scan_tabs[i].scan_id >> 32);
	return n;
}

/* A job of this scan failed on this device after it may have folded rows. */
extern "C" void
gr_cuda_scan_table_poison(uint64_t scan_id, int device)
{
	GrScanTab  *t = gr_scan_tab_find(scan_id, device);

	if (t != NULL)
		t->poisoned = true;
}

/*
 * Memory for t, a scan's table of cap groups of ew words: its count of
 * groups made (0), its slots (a power of two at least twice cap, each
 * empty: t->hmask), its entries (not cleared), on c's stream, waited for.
 * Sets t's memory, layout and cap alone.
 */
static int
gr_scan_tab_alloc(GrCudaContext *c, uint32_t cap, int ew, GrScanTab *t)
{
	int64_t		nslots = 1;
	size_t		slot_bytes;
	cudaError_t err;
	int			rc;

	while (nslots < 2 * (int64_t) cap)
		nslots *= 2;
	slot_bytes = GR_PAGE_ALIGN(sizeof(uint32_t) * (size_t) nslots);
	err = cudaMallocAsync(&t->mem, 256 + slot_bytes + sizeof(uint64_t) * (size_t) cap * ew,
						  c->stream);
	if (err != cudaSuccess)
	{
		t->mem = NULL;
		(void) cudaGetLastError();
		return gr_fail(GR_CUDA_ENOMEM, "page job: cudaMallocAsync of a scan's group table", err);
	}
	t->count = (unsigned long long *) t->mem;
	t->slots = (uint32_t *) ((char *) t->mem + 256);
	t->ents = (uint64_t *) ((char *) t->mem + 256 + slot_bytes);
	err = cudaMemsetAsync(t->mem, 0, 256, c->stream);
	if (err == cudaSuccess)
		err = cudaMemsetAsync(t->slots, 0xFF, sizeof(uint32_t) * (size_t) nslots, c->stream);
	if (err == cudaSuccess)
		err = cudaStreamSynchronize(c->stream);
	if ((rc = gr_check(err, "page job: clear a scan's group table")) != GR_CUDA_OK)
	{
		(void) cudaFreeAsync(t->mem, c->stream);
		t->mem = NULL;
		return rc;
	}
	t->hmask = (uint32_t) (nslots - 1);
	t->cap = cap;
	return GR_CUDA_OK;
}

/*
 * The table a job of a scan folds into on c's device: found, or made now
 * (the process's older tables freed first), its slots cleared before any
 * other stream may use it.
 */
static int
gr_scan_tab_get(GrCudaContext *c, const GrPageJob *job, GrScanTab **out)
{
	GrScanTab  *t = gr_scan_tab_find(job->scan_id, c->device);
	int			rc;

	*out = t;
	if (t != NULL)
		return t->ew == gr_page_group_entry_words(job) && t->max == job->scan_max ? GR_CUDA_OK :
			gr_fail(GR_CUDA_EINVAL, "page job: a scan's table of another layout", cudaSuccess);
	gr_cuda_scan_tables_drop((uint32_t) (job->scan_id >> 32), job->scan_id);
	t = gr_scan_tab_find(0, 0);
	if (t == NULL)
		return gr_fail(GR_CUDA_ENOMEM, "page job: too many scans' group tables", cudaSuccess);
	if ((rc = gr_scan_tab_alloc(c, job->scan_cap, gr_page_group_entry_words(job), t)) !=
		GR_CUDA_OK)
		return rc;
	t->scan_id = job->scan_id;
	t->device = c->device;
	t->max = job->scan_max;
	t->ew = gr_page_group_entry_words(job);
	t->known = 0;
	t->counted = 0;
	t->pending = 0;
	t->rate = 1;
	t->stays = false;
	t->kept = -1;
	*out = t;
	return GR_CUDA_OK;
}

/*
 * Room in a scan's table for a job's rows (each line pointer of its pages
 * a row).  While the rows queued since the table was last counted, at the
 * new groups a row is expected to make (twice the groups per row counted
 * so far, at least 1/64 of one; before a count, one each), fit the room it
 * had, nothing waits.  Else every job on the device is waited for and the
 * groups counted; where this job's rows could then pass the room, the
 * table grows, as far as scan_max: twice as large, or as large as the
 * job's rows need, the groups' entries copied and their slots made again.
 * The expectation may fall short (a join's row that matches several rows,
 * keys that change their spread) and a table that cannot grow (scan_max,
 * no device memory) stays, no longer counted: rows of new groups past its
 * room go to the host, as they always could.
 */
static int
gr_scan_tab_room(GrCudaContext *c, GrScanTab *t, const GrPageJob *job)
{
	const GrPageEntry *e = gr_page_job_entries((GrPageJob *) job);
	uint64_t	rows = 0;
	unsigned long long made;
	uint64_t	want;
	GrScanTab	grown;
	cudaError_t err;
	int			rc;

	/* (a table that cannot grow is not counted: nothing waits) */
	if (t->cap >= t->max || t->stays)
		return GR_CUDA_OK;
	for (uint32_t p = 0; p < job->npages; p++)
		rows += e[p].nlp;
	if (t->known + (double) (t->pending + rows) * t->rate <= (double) t->cap)
	{
		t->pending += rows;
		return GR_CUDA_OK;
	}
	err = cudaDeviceSynchronize();
	if (err == cudaSuccess)
		err = cudaMemcpy(&made, t->count, sizeof(made), cudaMemcpyDeviceToHost);
	if (err != cudaSuccess)
		return gr_check(err, "page job: count a scan's groups");
	t->known = made < t->cap ? made : t->cap;
	t->counted += t->pending;
	t->pending = rows;
	if (t->counted > 0)
		t->rate = fmin(1.0, fmax(2.0 * t->known / t->counted, 1.0 / 64));
	if (t->known + (double) rows * t->rate <= (double) t->cap)
		return GR_CUDA_OK;
	want = t->known + rows > 2 * (uint64_t) t->cap ? t->known + rows : 2 * (uint64_t) t->cap;
	if (want > t->max)
		want = t->max;
	grown = *t;
	rc = gr_scan_tab_alloc(c, (uint32_t) want, t->ew, &grown);
	if (rc == GR_CUDA_ENOMEM)
	{
		/* no device memory for it: the table stays as it is, and is not counted again */
		t->stays = true;
		return GR_CUDA_OK;
	}
	if (rc != GR_CUDA_OK)
		return rc;
	made = t->known;
	err = cudaMemcpyAsync(grown.count, &made, sizeof(made), cudaMemcpyHostToDevice, c->stream);
	if (err == cudaSuccess && t->known > 0)
		err = cudaMemcpyAsync(grown.ents, t->ents, sizeof(uint64_t) * t->known * t->ew,
							  cudaMemcpyDeviceToDevice, c->stream);
	if (err == cudaSuccess)
		err = gr_launch_scan_rehash(grown.slots, grown.hmask, grown.ents, t->ew, job->ngkeys,
									(uint32_t) t->known, c->stream);
	if (err == cudaSuccess)
		err = cudaStreamSynchronize(c->stream);
	(void) cudaFree(t->mem);
	*t = grown;
	return gr_check(err, "page job: grow a scan's group table");
}

/*
 * A collect job (GR_PAGE_JOB_COLLECT): queue the copy of the scan's groups
 * from collect_first on, as many as the job holds, into the job's groups;
 * the table is freed, in stream order, once the copy reaches its end.  The
 * first with checks (HAVING on the groups' words) drops the groups they
 * reject first, and every later one copies of those kept.
 */
static int
gr_scan_collect(GrCudaContext *c, GrPageJob *job)
{
	GrScanTab  *t = gr_scan_tab_find(job->scan_id, c->device);
	unsigned long long made;
	uint64_t	n;
	uint64_t	chunk = 0;
	cudaError_t err;

	if (t == NULL)
		return gr_fail(GR_CUDA_ERUNTIME, "the scan's group table on the GPU is gone", cudaSuccess);
	if (t->poisoned)
	{
		gr_scan_tab_free(t, NULL);
		return gr_fail(GR_CUDA_ERUNTIME, "a job of the scan failed on the GPU after it folded rows",
					   cudaSuccess);
	}
	if (t->ew != gr_page_group_entry_words(job))
		return gr_fail(GR_CUDA_EINVAL, "page job: a scan's table of another layout", cudaSuccess);
	err = cudaMemcpy(&made, t->count, sizeof(made), cudaMemcpyDeviceToHost);
	if (err != cudaSuccess)
		return gr_check(err, "page job: read a scan's group count");
	n = made < t->cap ? made : t->cap;
	if (job->ncheck > 0 && t->kept < 0)
	{
		/* the first collect job: the checks' groups dropped on the device, none copied */
		uint32_t	kept;
		int			rc;

		if (job->collect_first != 0 || job->ncheck > GR_PAGE_MAX_CHECKS)
			return gr_fail(GR_CUDA_EINVAL, "page job: a scan's checks after its first collect",
						   cudaSuccess);
		for (int i = 0; i < job->ncheck; i++)
			if (job->checks[i].word + (job->checks[i].wide != 0) >= job->gwords ||
				job->checks[i].nonnull >= job->gwords)
				return gr_fail(GR_CUDA_EINVAL, "page job: a check of no running word", cudaSuccess);
		rc = gr_check(gr_launch_scan_check(job, t->ents, t->ew, (uint32_t) n, &kept, c->stream),
					  "page job: check a scan's groups");
		if (rc != GR_CUDA_OK)
			return rc;
		t->kept = kept;
		t->dropped = n - kept;
	}
	if (t->kept >= 0)
		n = (uint64_t) t->kept;
	memset(job->counts, 0, sizeof(job->counts));
	job->counts[GR_PAGE_COUNT_GROUPS(job->ncols)] = n;
	job->counts[GR_PAGE_COUNT_DROPPED(job->ncols)] = t->dropped;
	if (job->collect_first < n)
	{
		chunk = n - job->collect_first;
		if (chunk > job->group_cap)
			chunk = job->group_cap;
		err = cudaMemcpyAsync((char *) job + job->group_off,
							  t->ents + (size_t) job->collect_first * t->ew,
							  sizeof(uint64_t) * chunk * t->ew, cudaMemcpyDeviceToHost, c->stream);
		if (err != cudaSuccess)
			return gr_check(err, "page job: copy a scan's groups");
	}
	if (job->collect_first + chunk >= n)
		gr_scan_tab_free(t, c->stream);
	return GR_CUDA_OK;
}

/*
 * The joins' images on the devices (GrPageJob.join_key, page_job.h): a
 * hashed relation's image per join, relation and device, uploaded in
 * chunks by upload jobs before the join's page jobs, and freed by a
 * release job, or when the process that named them has gone
 * (gr_cuda_join_images_drop).  A marked join's relation has its marks
 * beside it, which its page jobs set and marks jobs copy out.  The
 * service is one thread: no lock.
 */
#define GR_JOIN_IMAGES	256

typedef struct GrJoinTab
{
	uint64_t	key;			/* 0: unused */
	uint32_t	index;
	int			device;
	uint64_t	bytes;
	uint64_t	received;		/* the image is whole once all bytes are */
	void	   *mem;
	uint8_t    *marks;			/* a marked join's relation: a byte per row */
	uint64_t	marks_len;
} GrJoinTab;

static GrJoinTab gr_join_tabs[GR_JOIN_IMAGES];

static GrJoinTab *
gr_join_tab_find(uint64_t key, uint32_t index, int device)
{
	for (int i = 0; i < GR_JOIN_IMAGES; i++)
		if (gr_join_tabs[i].key == key && gr_join_tabs[i].index == index &&
			gr_join_tabs[i].device == device)
			return &gr_join_tabs[i];
	return NULL;
}

/* Free an image and its marks once the work queued on its device is done (a page job may read them). */
static void
gr_join_tab_free(GrJoinTab *t)
{
	(void) cudaSetDevice(t->device);
	(void) cudaDeviceSynchronize();
	(void) cudaFree(t->mem);
	if (t->marks != NULL)
		(void) cudaFree(t->marks);
	memset(t, 0, sizeof(*t));
}

/* Free every image of a process (pid) but keep_key's; of one key only, with pid 0. */
extern "C" void
gr_cuda_join_images_drop(uint32_t pid, uint64_t keep_key)
{
	for (int i = 0; i < GR_JOIN_IMAGES; i++)
	{
		GrJoinTab  *t = &gr_join_tabs[i];

		if (t->key == 0)
			continue;
		if (pid == 0 ? t->key == keep_key :
			(uint32_t) (t->key >> 32) == pid && t->key != keep_key)
			gr_join_tab_free(t);
	}
}

/* The processes that have images, into pids (at most max): how many. */
extern "C" int
gr_cuda_join_images_owners(uint32_t *pids, int max)
{
	int			n = 0;

	for (int i = 0; i < GR_JOIN_IMAGES && n < max; i++)
		if (gr_join_tabs[i].key != 0)
			pids[n++] = (uint32_t) (gr_join_tabs[i].key >> 32);
	return n;
}

/*
 * An upload job: its bytes into its image on c's device (made by the first
 * bytes, with its marks zeroed where it has some), the copy queued on c's
 * stream: the job is done, and the slot the backend's again, once it has
 * landed.  Marks are a byte for every row of the image (its header is in
 * the first bytes): a probe stores to marks[row].
 */
static int
gr_join_upload(GrCudaContext *c, GrPageJob *job)
{
	GrJoinTab  *t = gr_join_tab_find(job->join_key, job->image_index, c->device);
	cudaError_t err;

	if (job->join_key == 0 || job->image_bytes < sizeof(GrJoinImage) ||
		job->upload_off + job->upload_len > job->image_bytes ||
		GR_PAGE_ALIGN(sizeof(GrPageJob)) + (uint64_t) job->upload_len > job->bytes_all ||
		(job->upload_off == 0 && job->marks_len > 0 &&
		 (job->upload_len < sizeof(GrJoinImage) ||
		  ((const GrJoinImage *) gr_page_upload_data(job))->nrows < 0 ||
		  job->marks_len < (uint64_t) ((const GrJoinImage *) gr_page_upload_data(job))->nrows)))
		return gr_fail(GR_CUDA_EINVAL, "upload job: bad header", cudaSuccess);
	if (job->upload_off == 0)
	{
		if (t != NULL)
			gr_join_tab_free(t);
		if ((t = gr_join_tab_find(0, 0, 0)) == NULL)
			return gr_fail(GR_CUDA_ENOMEM, "upload job: too many hashed relations on the GPU",
						   cudaSuccess);
		err = cudaMalloc(&t->mem, job->image_bytes);
		if (err != cudaSuccess)
		{
			t->mem = NULL;
			(void) cudaGetLastError();
			return gr_fail(GR_CUDA_ENOMEM, "upload job: cudaMalloc of a hashed relation", err);
		}
		t->key = job->join_key;
		t->index = job->image_index;
		t->device = c->device;
		t->bytes = job->image_bytes;
		t->received = 0;
		if (job->marks_len > 0)
		{
			err = cudaMalloc((void **) &t->marks, job->marks_len);
			if (err != cudaSuccess)
			{
				t->marks = NULL;
				(void) cudaGetLastError();
				gr_join_tab_free(t);
				return gr_fail(GR_CUDA_ENOMEM, "upload job: cudaMalloc of a hashed relation's marks",
							   err);
			}
			t->marks_len = job->marks_len;
			/* on the stream of the copies: zero before the job is done */
			err = cudaMemsetAsync(t->marks, 0, job->marks_len, c->stream);
			if (err != cudaSuccess)
			{
				gr_join_tab_free(t);
				return gr_check(err, "upload job: zero a hashed relation's marks");
			}
		}
	}
	else if (t == NULL || t->bytes != job->image_bytes || t->received != job->upload_off)
		return gr_fail(GR_CUDA_EINVAL, "upload job: out of order", cudaSuccess);
	/* the job is done once the copy is (the slot is pinned memory) */
	err = cudaMemcpyAsync((char *) t->mem + job->upload_off, gr_page_upload_data(job),
						  job->upload_len, cudaMemcpyHostToDevice, c->stream);
	if (err != cudaSuccess)
	{
		gr_join_tab_free(t);
		return gr_check(err, "upload job: copy a hashed relation");
	}
	t->received += job->upload_len;
	memset(job->counts, 0, sizeof(job->counts));
	return GR_CUDA_OK;
}

/*
 * Point a join's page job at its images on c's device, and a marked join's
 * relation at its marks there; a marked join's probe goes no further (the
 * relations after it are probed by the host's walk), so it needs none of
 * theirs.
 */
static int
gr_join_bind(GrCudaContext *c, GrPageJob *job)
{
	for (int j = 0; j < job->njoins; j++)
	{
		GrJoinTab  *t = gr_join_tab_find(job->join_key, (uint32_t) j, c->device);
		bool		mark = job->joins[j].type == GR_PAGE_JOIN_MARK;

		if (t == NULL || t->received != t->bytes || (mark && t->marks == NULL))
			return gr_fail(GR_CUDA_ENOIMAGE, "page job: a hashed relation is not on this GPU",
						   cudaSuccess);
		job->joins[j].image = (uint64_t) (uintptr_t) t->mem;
		job->joins[j].marks = (uint64_t) (uintptr_t) t->marks;
		if (mark)
			break;
	}
	return GR_CUDA_OK;
}

/*
 * A marks job: its bytes of a marked join's marks on c's device, into the
 * job, the copy queued on c's stream (done once it has landed).  The page
 * jobs that set them are done: the backend asks once all of them are, and
 * a job is done only once its kernel is.
 */
static int
gr_join_marks(GrCudaContext *c, GrPageJob *job)
{
	GrJoinTab  *t = gr_join_tab_find(job->join_key, job->image_index, c->device);
	cudaError_t err;

	if (job->join_key == 0 ||
		GR_PAGE_ALIGN(sizeof(GrPageJob)) + (uint64_t) job->upload_len > job->bytes_all)
		return gr_fail(GR_CUDA_EINVAL, "marks job: bad header", cudaSuccess);
	if (t == NULL || t->marks == NULL || job->upload_off + job->upload_len > t->marks_len)
		return gr_fail(GR_CUDA_ENOIMAGE, "marks job: the marks are not on this GPU", cudaSuccess);
	err = cudaMemcpyAsync(gr_page_upload_data(job), t->marks + job->upload_off,
						  job->upload_len, cudaMemcpyDeviceToHost, c->stream);
	if (err != cudaSuccess)
		return gr_check(err, "marks job: copy the marks out");
	memset(job->counts, 0, sizeof(job->counts));
	return GR_CUDA_OK;
}

/*
 * Queue a page job's first half: copy its header, decoder description and
 * entries in, decode the pages out of the pool, and copy the counts back
 * into the job (pinned memory).  Once that has landed (gr_cuda_poll),
 * gr_cuda_pages_reduce queues the reductions.
 */
extern "C" int
gr_cuda_pages_extract(GrCudaContext *c, const void *pool, GrPageJob *job)
{
	int			rc;
	cudaError_t err;
	uint32_t   *gslots = NULL;
	uint64_t   *gents = NULL;
	unsigned long long *gcount = NULL;
	uint32_t	gcap = 0;
	uint32_t	hmask = 0;
	int			ncache = 0;

	/* an upload, release or marks job brings no pages: none of a page job's checks */
	if (job->flags & (GR_PAGE_JOB_UPLOAD | GR_PAGE_JOB_RELEASE | GR_PAGE_JOB_MARKS))
	{
		if ((rc = gr_check(cudaSetDevice(c->device), "cudaSetDevice")) != GR_CUDA_OK)
			return rc;
		if (job->flags & GR_PAGE_JOB_UPLOAD)
			return gr_join_upload(c, job);
		if (job->flags & GR_PAGE_JOB_MARKS)
			return gr_join_marks(c, job);
		gr_cuda_join_images_drop(0, job->join_key);
		memset(job->counts, 0, sizeof(job->counts));
		return GR_CUDA_OK;
	}
	if ((rc = gr_check_job(c, job)) != GR_CUDA_OK)
		return rc;
	if ((rc = gr_check(cudaSetDevice(c->device), "cudaSetDevice")) != GR_CUDA_OK)
		return rc;
	/* a collect job reads the scan's groups only: the images may be gone by then */
	if (job->njoins > 0 && !(job->flags & GR_PAGE_JOB_COLLECT) &&
		(rc = gr_join_bind(c, job)) != GR_CUDA_OK)
		return rc;
	if (c->pool_host != pool)
	{
		void	   *dev;

		if ((rc = gr_check(cudaHostGetDevicePointer(&dev, (void *) pool, 0),
						   "cudaHostGetDevicePointer of the buffer pool")) != GR_CUDA_OK)
			return rc;
		c->pool_host = pool;
		c->pool_dev = dev;
	}
	if (job->flags & GR_PAGE_JOB_COLLECT)
		return gr_scan_collect(c, job);
	if (job->scan_id != 0)
	{
		/* the scan's table, made by its first job here */
		GrScanTab  *t;

		if ((rc = gr_scan_tab_get(c, job, &t)) != GR_CUDA_OK ||
			(rc = gr_scan_tab_room(c, t, job)) != GR_CUDA_OK)
			return rc;
		gslots = t->slots;
		gents = t->ents;
		gcount = t->count;
		gcap = t->cap;
		hmask = t->hmask;
	}
	else if (job->ngkeys > 0)
	{
		/* slots: a power of two at least twice the groups */
		int64_t		nslots = 1;

		while (nslots < 2 * (int64_t) job->group_cap)
			nslots *= 2;
		hmask = (uint32_t) (nslots - 1);
		if ((rc = gr_ensure_groups(c, nslots, (int64_t) job->group_cap *
								   gr_page_group_entry_words(job))) != GR_CUDA_OK)
			return rc;
		err = cudaMemsetAsync(c->group_slots, 0xFF, sizeof(uint32_t) * nslots, c->stream);
		if (err != cudaSuccess)
			return gr_check(err, "page job: clear the group slots");
		gslots = c->group_slots;
		gents = c->group_ents;
		gcount = (unsigned long long *) ((char *) c->stage + offsetof(GrPageJob, counts)) +
			GR_PAGE_COUNT_GROUPS(job->ncols);
		gcap = job->group_cap;
	}
	if (job->ngkeys > 0)
	{
		/* the blocks' copies: a power of two that fits */
		ncache = GR_GCACHE_MAX;
		while (ncache > 0 && (size_t) ncache * job->gwords * 8 > GR_GCACHE_BYTES)
			ncache /= 2;
		if (ncache < 2)
			ncache = 0;
	}
	err = cudaMemcpyAsync(c->stage, job, job->bytes_in, cudaMemcpyHostToDevice, c->stream);
	if (err != cudaSuccess)
		return gr_check(err, "page job: copy in");
	err = gr_launch_page_extract(&c->s, c->pool_dev, c->stage, job->npages,
								 c->page_cols, c->page_nulls, gr_page_job_col_cap(job),
								 (job->flags & GR_PAGE_JOB_READ_ONLY) != 0, job->prog_off != 0,
								 c->page_fallback, job->ngkeys > 0, gslots, gents, hmask,
								 gcap, gcount, ncache, job->gwords, c->stream);
	if (err != cudaSuccess)
		return gr_check(err, "page job: launch");
	err = cudaMemcpyAsync(job->counts, (char *) c->stage + offsetof(GrPageJob, counts),
						  sizeof(job->counts), cudaMemcpyDeviceToHost, c->stream);
	return gr_check(err, "page job: copy counts");
}

/*
 * Queue a page job's second half: the list of rows its program handed back,
 * into the job, and each output's reduction of its column's values, results
 * and keys into the job, by the same entry point as any batch already on
 * the device.  The kept rows are aligned by row; where a column has NULLs
 * among them (its count is below the rows'), its values are first gathered
 * into the context's dense scratch, which then serves that column's further
 * outputs until another column needs it.  A job whose program handed back
 * more rows than its list holds is decoded by the host as a whole: nothing
 * is queued for it.
 */
extern "C" int
gr_cuda_pages_reduce(GrCudaContext *c, GrPageJob *job)
{
	int64_t		cap = gr_page_job_col_cap(job);
	int64_t		rows;
	int			dense_col = -1; /* the column page_dense holds */
	int			rc;

	if (job->flags & (GR_PAGE_JOB_UPLOAD | GR_PAGE_JOB_RELEASE | GR_PAGE_JOB_MARKS))
		return GR_CUDA_OK;		/* done at its first half */
	if ((rc = gr_check_job(c, job)) != GR_CUDA_OK)
		return rc;
	rows = (int64_t) job->counts[GR_PAGE_COUNT_ROWS(job->ncols)];
	if (rows > cap)
		return gr_fail(GR_CUDA_ERUNTIME, "page job: more rows than tuples", cudaSuccess);
	if (gr_page_fallback_overflow(job) ||
		(job->ngkeys > 0 && job->scan_id == 0 && job->counts[GR_PAGE_COUNT_GFULL(job->ncols)] > 0))
		return GR_CUDA_OK;
	if ((rc = gr_check(cudaSetDevice(c->device), "cudaSetDevice")) != GR_CUDA_OK)
		return rc;
	if (job->counts[GR_PAGE_COUNT_FALLBACK(job->ncols)] > 0)
	{
		cudaError_t err;

		err = cudaMemcpyAsync(gr_page_job_fallbacks(job), c->page_fallback,
							  sizeof(GrPageFallback) * job->counts[GR_PAGE_COUNT_FALLBACK(job->ncols)],
							  cudaMemcpyDeviceToHost, c->stream);
		if (err != cudaSuccess)
			return gr_check(err, "page job: copy the fallback list");
	}
	if (job->flags & GR_PAGE_JOB_VALUES)
	{
		/* the kept rows' stored columns, values then flags, into the job */
		uint64_t   *vals[GR_PAGE_MAX_COLS];
		uint8_t    *nulls[GR_PAGE_MAX_COLS];

		if (rows > (int64_t) job->values_cap)
			return gr_fail(GR_CUDA_ERUNTIME, "page job: more rows than its values' room",
						   cudaSuccess);
		gr_page_job_value_columns(job, vals, nulls);
		for (int col = 0; rows > 0 && col < job->ncols; col++)
		{
			cudaError_t err;

			if (vals[col] == NULL)
				continue;
			err = cudaMemcpyAsync(vals[col], (const char *) c->page_cols + (size_t) col * cap * 8,
								  (size_t) rows * 8, cudaMemcpyDeviceToHost, c->stream);
			if (err == cudaSuccess)
				err = cudaMemcpyAsync(nulls[col], c->page_nulls + (size_t) col * cap, (size_t) rows,
									  cudaMemcpyDeviceToHost, c->stream);
			if (err != cudaSuccess)
				return gr_check(err, "page job: copy the kept values");
		}
		return GR_CUDA_OK;
	}
	if (job->flags & GR_PAGE_JOB_COLLECT)
		return GR_CUDA_OK;		/* the copy is queued */
	if (job->scan_id != 0)
		return GR_CUDA_OK;		/* its groups stay in the scan's table */
	if (job->ngkeys > 0)
	{
		/* the groups made, into the job: the host folds each into its own table */
		uint64_t	ngroups = job->counts[GR_PAGE_COUNT_GROUPS(job->ncols)];
		cudaError_t err;

		if (ngroups > job->group_cap)
			return gr_fail(GR_CUDA_ERUNTIME, "page job: more groups than room", cudaSuccess);
		if (ngroups == 0)
			return GR_CUDA_OK;
		err = cudaMemcpyAsync((char *) job + job->group_off, c->group_ents,
							  sizeof(uint64_t) * ngroups * gr_page_group_entry_words(job),
							  cudaMemcpyDeviceToHost, c->stream);
		return gr_check(err, "page job: copy the groups");
	}
	for (int o = 0; o < job->nouts; o++)
	{
		const GrPageOut *out = &job->outs[o];
		int64_t		n;
		const void *values;

		if (out->col < 0 || out->col >= job->ncols ||
			gr_type_bytes((GrCudaType) out->type) != job->col_width[out->col] ||
			out->result_off + sizeof(GrCudaResult) > job->bytes_all ||
			(out->op == GR_CUDA_TOPK &&
			 out->topk_off + (int64_t) out->k * 8 > job->bytes_all))
			return gr_fail(GR_CUDA_EINVAL, "page job: bad output", cudaSuccess);
		n = (int64_t) job->counts[out->col];
		if (n > rows)
			return gr_fail(GR_CUDA_ERUNTIME, "page job: more values than rows", cudaSuccess);
		if (n == 0)
			continue;
		values = (const char *) c->page_cols + (size_t) out->col * cap * 8;
		if (n < rows)
		{
			if (dense_col != out->col)
			{
				cudaError_t err;

				if (rows > c->page_rows)
					return gr_fail(GR_CUDA_EINVAL, "page job: more rows than the context's room",
								   cudaSuccess);
				err = gr_launch_page_compact(c->page_temp, c->page_temp_bytes,
											 job->col_width[out->col], values,
											 c->page_nulls + (size_t) out->col * cap, rows,
											 c->page_dense, c->page_nout, c->stream);
				if (err != cudaSuccess)
					return gr_check(err, "page job: gather non-NULL values");
				dense_col = out->col;
			}
			values = c->page_dense;
		}
		rc = gr_cuda_reduce_device(c, (GrCudaType) out->type, (GrCudaOp) out->op, out->k,
								   values, n, (GrCudaResult *) ((char *) job + out->result_off),
								   (int64_t *) ((char *) job + out->topk_off));
		if (rc != GR_CUDA_OK)
			return rc;
	}
	return GR_CUDA_OK;
}
