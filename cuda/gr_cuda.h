/*
 * gr_cuda.h
 *	  The C interface of the CUDA reduction kernels: the only header the
 *	  PostgreSQL side includes from cuda/.
 *
 * Plain C99 and plain C types, so the GPU service can include it without
 * seeing any CUDA type.  One context (GrCudaContext) is one device, one CUDA
 * stream and the device scratch that stream needs, allocated once at create;
 * a service keeps several contexts per device to have several batches in
 * flight.  Work is queued asynchronously on the context's stream in stream
 * order (copy in, reduce, copy the small result out); gr_cuda_poll or
 * gr_cuda_sync says when the result has landed in host memory.  Every function
 * reports failure by its return code, with the text in gr_cuda_last_error();
 * nothing here aborts.  After a kernel fault (reported by poll/sync) the
 * device's CUDA state is broken: destroy every context of that device.
 */
#ifndef GR_CUDA_H
#define GR_CUDA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

/* xsum.h has no C++ guard of its own; its functions are C */
#include "xsum.h"

/* input type; numbers match the storage kinds (GrTypeInfo.storage, 1..5) of src/state.h */
typedef enum GrCudaType
{
	GR_CUDA_INT2 = 1,
	GR_CUDA_INT4 = 2,
	GR_CUDA_INT8 = 3,
	GR_CUDA_FLOAT4 = 4,
	GR_CUDA_FLOAT8 = 5
} GrCudaType;

/* operation; numbers of sum/min/max/topk match GrOp of src/state.h */
typedef enum GrCudaOp
{
	GR_CUDA_SUM = 1,			/* integers: 128-bit sum; floats: exact GrXsum */
	GR_CUDA_MIN = 2,			/* smallest order key */
	GR_CUDA_MAX = 3,			/* largest order key */
	GR_CUDA_TOPK = 5,			/* k largest keys, descending, into topk[] */
	GR_CUDA_TOP2 = 6,			/* 2 largest keys (duplicates count) in key[] */
	GR_CUDA_SUMSQ = 7			/* sum and sum of squares (variance): integers:
								 * 128-bit sum, unsigned 192-bit sum of squares in
								 * sq[]; floats: exact GrXsum of x in xsum and of
								 * x*x in xsum2 (each square added exactly as the
								 * two doubles of an fma two-product; a square that
								 * overflows adds +Infinity) */
} GrCudaOp;

/* return codes */
typedef enum GrCudaStatus
{
	GR_CUDA_OK = 0,
	GR_CUDA_EINVAL = 1,			/* bad argument (type, op, size, alignment, k) */
	GR_CUDA_ENODEV = 2,			/* no such device, or no usable driver */
	GR_CUDA_ENOMEM = 3,			/* device or pinned memory exhausted */
	GR_CUDA_ERUNTIME = 4,		/* any other CUDA error, kernel faults included */
	GR_CUDA_ENOIMAGE = 5		/* a page job's join images are not on its device:
								 * it ran nothing */
} GrCudaStatus;

/* largest n accepted by one reduce call */
#define GR_CUDA_MAX_VALUES	((int64_t) 1 << 31)

/*
 * The result of one reduced batch.  Min, max and top-k work on order keys:
 * integers that sort as PostgreSQL sorts the values (the value itself for
 * int2/int4/int8; for floats the bits, sign-folded, NaN canonical and above
 * +Infinity, -0.0 just below +0.0), widened to int64.
 */
typedef struct GrCudaResult
{
	int64_t		count;			/* values reduced (n) */
	int32_t		op;				/* GrCudaOp that produced this result */
	int32_t		nkeys;			/* valid entries: key[] or the topk array */
	int64_t		sum_lo;			/* integer sum, 128-bit two's complement, */
	int64_t		sum_hi;			/* low and high halves */
	int64_t		key[2];			/* min or max in key[0]; top-2 descending */
	uint64_t	sq[3];			/* integer sum of squares: unsigned 192-bit,
								 * least significant word first */
	GrXsum		xsum;			/* float sum: exact, every limb < 2^62 */
	GrXsum		xsum2;			/* float sum of squares (GR_CUDA_SUMSQ) */
} GrCudaResult;

/* bytes of a result the device writes back for ops other than a float sum or sum of squares */
#define GR_CUDA_RESULT_HEADER_BYTES offsetof(GrCudaResult, xsum)

/* what gr_cuda_device_info reports */
typedef struct GrCudaDeviceInfo
{
	char		name[256];
	int			sm_count;
	int			cc_major;
	int			cc_minor;
	int64_t		total_memory;
} GrCudaDeviceInfo;

typedef struct GrCudaContext GrCudaContext;

/* number of usable CUDA devices (0 and GR_CUDA_OK when there is no driver) */
extern int	gr_cuda_device_count(int *count);
extern int	gr_cuda_device_info(int device, GrCudaDeviceInfo *info);

/*
 * Create a context on 'device'.  stage_values: capacity in values (8 bytes
 * each) of the device staging buffer that gr_cuda_reduce_host copies into;
 * 0 for none.  topk_values: largest n for GR_CUDA_TOPK with k > 2; 0 for none.
 */
extern int	gr_cuda_context_create(int device, int64_t stage_values,
								   int64_t topk_values, GrCudaContext **ctx);
extern void gr_cuda_context_destroy(GrCudaContext *ctx);
/* device memory the context holds, in bytes */
extern int64_t gr_cuda_context_scratch_bytes(const GrCudaContext *ctx);
/* the context's cudaStream_t, as void * (benchmarks, interop) */
extern void *gr_cuda_context_stream(const GrCudaContext *ctx);

/*
 * Queue a reduction of n values of 'type' already in device memory (aligned
 * to the type's size).  The result is copied to 'result' (pinned host memory
 * for a truly asynchronous copy; NULL leaves it in device scratch, for
 * benchmarks).  For GR_CUDA_TOPK, k >= 1 and min(n, k) keys go to topk[]
 * (pinned host memory, room for k keys).  Returns at once.
 */
extern int	gr_cuda_reduce_device(GrCudaContext *ctx, GrCudaType type,
								  GrCudaOp op, int64_t k, const void *values,
								  int64_t n, GrCudaResult *result,
								  int64_t *topk);
/* the same, first copying n values from host memory (pinned: registered) */
extern int	gr_cuda_reduce_host(GrCudaContext *ctx, GrCudaType type,
								GrCudaOp op, int64_t k, const void *values,
								int64_t n, GrCudaResult *result,
								int64_t *topk);

/* *done = 1 once all work queued on ctx has finished; never blocks */
extern int	gr_cuda_poll(GrCudaContext *ctx, int *done);
/* wait for all work queued on ctx */
extern int	gr_cuda_sync(GrCudaContext *ctx);

/* pin existing host memory (a shared-memory slot) for async copies */
extern int	gr_cuda_host_register(void *ptr, size_t bytes);
extern int	gr_cuda_host_unregister(void *ptr);
/* allocate and free pinned host memory (for results) */
extern int	gr_cuda_host_alloc(size_t bytes, void **ptr);
extern void gr_cuda_host_free(void *ptr);

/*
 * The page path (page_job.h).  pool_register pins and maps the buffer pool;
 * enable_pages gives a context room for page_values 8-byte column values
 * and as many NULL flags, and for gathering one column's non-NULL values;
 * pages_extract queues a job's decoding (rows aligned) and copies its
 * counts back into the job; once they have landed, pages_reduce queues each
 * output's reduction.
 */
struct GrPageJob;
extern int	gr_cuda_pool_register(void *ptr, size_t bytes);
extern int	gr_cuda_context_enable_pages(GrCudaContext *ctx, int64_t page_values);
extern int	gr_cuda_pages_extract(GrCudaContext *ctx, const void *pool,
								  struct GrPageJob *job);
extern int	gr_cuda_pages_reduce(GrCudaContext *ctx, struct GrPageJob *job);

/*
 * The scans' group tables on the devices (GrPageJob.scan_id): a job that
 * failed after it may have folded rows makes its table refuse the collect;
 * a process's tables are dropped when it has gone.
 */
extern void gr_cuda_scan_table_poison(uint64_t scan_id, int device);
extern void gr_cuda_scan_tables_drop(uint32_t pid, uint64_t keep_id);
extern int	gr_cuda_scan_tables_owners(uint32_t *pids, int max);

/*
 * The joins' images on the devices (GrPageJob.join_key): a process's are
 * dropped when it has gone, but keep_key's (pid 0: keep_key's only).
 */
extern void gr_cuda_join_images_drop(uint32_t pid, uint64_t keep_key);
extern int	gr_cuda_join_images_owners(uint32_t *pids, int max);

/* text of the last failure in this thread */
extern const char *gr_cuda_last_error(void);

#ifdef __cplusplus
}
#endif

#endif							/* GR_CUDA_H */
