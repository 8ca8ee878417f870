/*
 * state.h
 *	  Shared declarations: the aggregate state, its batch and partial result,
 *	  the reducers, GUCs and statistics.
 *
 * A transition state (GrState) holds a batch of raw input values and a small
 * partial result (GrPartial).  A full batch goes to a reducer, which folds it
 * into the partial result; finalize reduces what is left.  All reducers fold
 * with the same code, so the answer does not depend on which one took a
 * batch.  The batch is only a pointer, a capacity and a fill count, so its
 * memory can be a palloc'd buffer or, later, a slot in shared memory.
 */
#ifndef GR_STATE_H
#define GR_STATE_H

#include "postgres.h"
#include "pg_compat.h"

#include "fmgr.h"
#include "port/pg_bitutils.h"
#include "utils/memutils.h"

#include "order_key.h"
#include "xsum.h"

/* the operation an aggregate performs; numbers are part of the state format */
typedef enum GrOp
{
	GR_OP_SUM = 1,
	GR_OP_MIN = 2,
	GR_OP_MAX = 3,
	GR_OP_AVG = 4,
	GR_OP_TOPK = 5,
	GR_OP_VARIANCE = 6,			/* sample variance (var_samp) */
	GR_OP_VAR_POP = 7,
	GR_OP_STDDEV = 8,			/* sample standard deviation (stddev_samp) */
	GR_OP_STDDEV_POP = 9
} GrOp;

#define GR_OP_LAST GR_OP_STDDEV_POP

/*
 * The input type; numbers are part of the state format.  Everything that
 * differs between types is in its entry of gr_types (types.c); the first
 * five are also the storage kinds every other type's batch values take
 * (GrTypeInfo.storage), which the CPU loops and the kernels know.
 */
typedef enum GrType
{
	GR_INT2 = 1,
	GR_INT4 = 2,
	GR_INT8 = 3,
	GR_FLOAT4 = 4,
	GR_FLOAT8 = 5,
	GR_DATE = 6,				/* int4 inside: days, ±infinity at the int32 ends */
	GR_TIMESTAMP = 7,			/* int8 inside: microseconds, ±infinity at the ends */
	GR_TIMESTAMPTZ = 8,
	GR_NUMERIC = 9				/* variable-length: no batches, see numeric_state.c */
} GrType;

#define GR_TYPE_LAST GR_NUMERIC

/* the value classes of the input types (GrTypeInfo.value_class) */
typedef enum GrValueClass
{
	GR_CLASS_INT = 0,			/* integers and the integer-backed time types */
	GR_CLASS_FLOAT = 1,			/* float4, float8 */
	GR_CLASS_NUMERIC = 2		/* variable-length: folded on the CPU as it arrives */
} GrValueClass;

#define GR_CLASS_COUNT 3

/*
 * storage of a type whose values are not fixed-width bits (numeric): every
 * value is folded on the CPU as it arrives, never batched or sent to the GPU
 */
#define GR_STORAGE_DATUM 0

/*
 * One input type: everything the aggregates, the reducers, the serializer
 * and the bulk scan need to know of it.  Adding a type is one entry of
 * gr_types (types.c) and its lines of the install script's matrix; which
 * accumulator each aggregate keeps for it follows from its value class
 * (the kinds table, kinds.c).
 */
typedef struct GrTypeInfo
{
	const char *name;			/* in gpu_reduce_state_info */
	Oid			oid;			/* the SQL type */
	uint8		width;			/* bytes of one batch value */
	uint8		storage;		/* GrType (1..5) whose batch layout, keys and kernels it uses */
	uint8		value_class;	/* GrValueClass */
	bool		arith;			/* has gpu_sum and gpu_avg (not the time types) */
	uint8		qual_class;		/* bulk WHERE: a column compares with constants of its class */
	int64		key_min;		/* range of its order keys (serialized states are checked) */
	int64		key_max;
	Datum		(*from_key) (int64 key);	/* an order key's value as a Datum */
	Oid			sum_type;		/* gpu_sum's result type, as native sum()'s */
} GrTypeInfo;

extern const GrTypeInfo gr_types[GR_TYPE_LAST + 1];

/* The entry of a type. */
#define gr_type_info(type) (&gr_types[(type)])

/* largest k accepted by gpu_topk */
#define GR_TOPK_MAX 100000

/* Whether gpu_topk accepts k (gr_check_k raises the error). */
static inline bool
gr_k_in_range(int32 k)
{
	return k >= 1 && k <= GR_TOPK_MAX;
}

/*
 * What a numeric's header says (numeric.c's NumericShort/NumericLong
 * layout), read once so that values compare digit by digit as numeric_cmp
 * does, without its calls (numeric_state.c).
 */
typedef struct GrNumHead
{
	uint8		kind;			/* finite, NaN, +/-Infinity (numeric_state.c) */
	bool		neg;
	int16		dscale;
	int32		weight;			/* of the first base-10000 digit */
	int32		ndigits;
	const uint8 *digits;		/* int16 each, possibly unaligned (a short varlena) */
} GrNumHead;

/*
 * Partial result of all values reduced so far.  Min, max and top-k work on
 * order keys (gr_key_*), integers that sort like PostgreSQL sorts the values.
 * Only the fields of the state's operation are in use, so they share space
 * (its accumulator's size says how much of it a kind uses, kinds.c): a GROUP BY
 * keeps one per group.
 */
typedef struct GrPartial
{
	int64		count;			/* non-NULL values folded in */
	union
	{
		int128		isum;		/* sum or avg of an integer type */
		int64		key;		/* min or max, as an order key */
		struct					/* top-k */
		{
			int32		k;		/* how many to keep */
			int32		nkeys;	/* keys held, a min-heap */
			int32		keys_cap;	/* allocated length of keys */
			union
			{
				int64	   *keys;	/* the heap */
				Datum	   *nheap;	/* numeric: copies of the values, a min-heap */
			};
		};
		struct					/* numeric min or max */
		{
			Datum		nbest;	/* a copy of the best value, or 0 */
			GrNumHead	nbest_head; /* its header, read once, to compare */
		};
		struct					/* numeric sum or avg (numeric_state.c) */
		{
			int128		nsum;	/* the fast path: the sum times 10^nscale */
			int32		nscale; /* largest display scale of its values */
			struct GrNumericSlow *nslow;	/* NULL, or what the fast path cannot take */
		};
		/*
		 * Sum or avg of a float type: the small exact accumulator while the
		 * values fit its window; then (gr_partial_is_wide) the full one,
		 * whose pointer lies over the small one's first limb.
		 */
		GrXsmall	small;
		GrXsum	   *xsum;
		struct					/* variance of an integer type (variance.c) */
		{
			int128		vsum;	/* sum of the values */
			uint128		vsq;	/* sum of their squares: low 128 bits */
			uint64		vsq_hi; /* and the bits above (int8's squares) */
		};
		struct					/* variance of a float type: exact sums of the */
		{						/* values and of their squares, NULL while empty */
			GrXsum	   *vx;
			GrXsum	   *vx2;
		};
		struct					/* variance of numeric: two numeric sums */
		{
			struct GrPartial *vn1;	/* of the values (its counts: NaN, infinities) */
			struct GrPartial *vn2;	/* of the squares of the finite values */
		};
	};
} GrPartial;

/* small.lo of a float sum that has moved to its full accumulator */
#define GR_XSMALL_WIDE (-2)

/* Whether a float sum's partial result is in a full accumulator. */
static inline bool
gr_partial_is_wide(const GrPartial *p)
{
	return p->small.lo == GR_XSMALL_WIDE;
}

/* Make x the full accumulator of a float sum's partial result. */
static inline void
gr_partial_set_xsum(GrPartial *p, GrXsum *x)
{
	p->xsum = x;
	p->small.lo = GR_XSMALL_WIDE;
}

/* Bytes of one value of the type. */
#define GR_TYPE_WIDTH(type) (gr_types[(type)].width)

/* Raw values waiting to be reduced, in the input type's own width. */
typedef struct GrBatch
{
	void	   *values;			/* a palloc'd buffer or a GPU slot's values */
	int32		n;				/* values held */
	int32		cap;			/* room for this many */
} GrBatch;

/* GPU batches one state may have in flight before it waits for the oldest */
#define GR_MAX_INFLIGHT 4

/* What only a state with a batch buffer or a GPU slot needs. */
typedef struct GrStateExt
{
	GrBatch		batch;
	int32		slot;			/* GPU slot holding the batch's values, or -1 */
	int32		ninflight;		/* slots in inflight */
	int32		inflight[GR_MAX_INFLIGHT];	/* submitted, oldest first */
	MemoryContextCallback release_cb;	/* gives back buffer budget and slots */
} GrStateExt;

/*
 * The transition state of every gpu_reduce aggregate.  A GROUP BY holds one
 * per group and touches one per row, so a state is as small as its
 * accumulator allows (GrAccum.size): at most 64 bytes, palloc's size class
 * of native sum(int8)'s state, for every operation.  What only states with
 * a batch buffer or a GPU slot need is in ext.  The state is palloc'd in
 * the aggregate context, which gr_state_mcxt() finds from its chunk header.
 */
typedef struct GrState
{
	GrStateExt *ext;			/* NULL until the state takes a buffer or slot */
	int32		direct_left;	/* values to fold one by one before a buffer */
	uint8		op;				/* GrOp: its row of the kinds table */
	uint8		type;			/* GrType */
	uint8		acc;			/* GrAccId: the accumulator its kind keeps for its type */
	GrPartial	partial;		/* last: only GrAccum.size of it exists */
} GrState;

/* GUCs (guc.c) */
extern void gr_guc_define(void);
extern bool gr_enabled;
extern int	gr_batch_rows;
extern int	gr_min_gpu_rows;
extern int	gr_buffer_memory_kb;
extern int	gr_page_path;
extern int	gr_page_pins;
extern bool gr_buffer_hints;

/* gpu_reduce.debug_buffer_hints: when a serial bulk scan makes buffer hints (buf_hints.c) */
typedef enum GrBufHintsDebug
{
	GR_BUF_HINTS_AUTO,			/* tables of 1/16 to 2 times shared_buffers,
								 * guesses first */
	GR_BUF_HINTS_ALWAYS,		/* every table, the pass first */
	GR_BUF_HINTS_GUESS,			/* every table, guesses first */
	GR_BUF_HINTS_STALE			/* every table, every guess and hint wrong */
} GrBufHintsDebug;
extern int	gr_debug_buffer_hints;
extern bool gr_debug_page_read_only;
extern int	gr_debug_job_groups;
extern int	gr_debug_scan_groups;
extern int	gr_debug_error_page;
extern int	gr_debug_wait_page;
extern bool gr_debug_buffer_manager_pins;
extern int	gr_debug_quotient_scale;
extern int	gr_group_table_memory;
extern int	gr_group_memory_kb;
extern Size gr_group_memory_bytes(void);

/* gpu_reduce.page_path */
typedef enum GrPagePathMode
{
	GR_PAGE_PATH_OFF,
	GR_PAGE_PATH_ON,
	GR_PAGE_PATH_CPU
} GrPagePathMode;

/* statistics of this backend (stats.c) */
typedef struct GrStats
{
	int64		gpu_batches;
	int64		gpu_rows;
	int64		gpu_bytes;
	int64		gpu_fallbacks;
	int64		cpu_batches;
	int64		cpu_rows;
	int64		buffer_bytes;	/* batch buffers and state extensions held now
								 * (gpu_reduce.buffer_memory, batch.c) */
	int64		buffer_peak_bytes;
} GrStats;

extern GrStats gr_stats;

/* k of gpu_topk, checked (agg.c) */
extern int32 gr_check_k(Datum k, bool isnull);

/* the type table (types.c) */
extern int	gr_type_size(GrType type);
extern GrType gr_type_of_oid(Oid typid);

/* partial results (partial.c) */
extern void gr_partial_topk_push(GrPartial *p, MemoryContext mcxt, int64 key);
extern void gr_partial_widen(GrPartial *p, MemoryContext mcxt);
extern GrXsum *gr_partial_xsum(GrPartial *p, GrXsum *tmp);
extern int	gr_partial_sorted_keys(GrPartial *p, int64 **keys);

/* numeric (numeric_state.c) */
typedef struct GrNumericSlow
{
	int64		nan;			/* NaN inputs */
	int64		pinf;			/* +Infinity inputs */
	int64		ninf;			/* -Infinity inputs */
	Datum		sum;			/* exact numeric sum of finite values off the fast path, or 0 */
} GrNumericSlow;

typedef void (*GrDatumFold) (GrPartial *p, MemoryContext mcxt, Datum value);
extern void gr_numeric_fold(GrState *st, GrDatumFold fold, const Datum *values, int32 n);
extern void gr_numeric_fold_scaled(GrState *st, GrDatumFold fold, const uint64 *vals, int32 n,
								   int scale, int shown);
extern Datum gr_scaled_numeric(int128 v, int scale);
extern void gr_numeric_head(const struct varlena *v, GrNumHead *r);
extern void gr_numeric_add_scaled_sum(GrState *st, GrDatumFold fold, int128 sum, int64 count,
									  int scale);


/* the GPU reducer as a backend sees it (gpu_client.c) */
extern bool gr_gpu_wanted(GrState *st);
extern bool gr_gpu_take_slot(GrState *st);
extern void gr_gpu_submit(GrState *st);
extern void gr_gpu_wait(GrState *st);
extern void gr_gpu_release(GrState *st);
struct GrCudaResult;
extern void gr_gpu_fold_result(GrState *st, int cuda_op, const struct GrCudaResult *r,
							   int64 n, int64 *topk);
/* page jobs of the bulk scan's page path (page_path.c) */
extern const char *gr_gpu_pages_unavailable(void);
extern int	gr_gpu_count(void);
extern int	gr_gpu_take_job_slot(void);
extern void gr_gpu_submit_job_slot(int i, int64 npages, int device);
extern int	gr_gpu_job_slot_device(int i);
extern void gr_gpu_collect_job_slot(int i, const char *lost);
extern bool gr_gpu_wait_job_slot(int i, const char **error);
extern void gr_gpu_end_job_slot(int i, bool abandon);

/*
 * Bytes palloc takes for a request of n: AllocSet's power-of-two size
 * classes up to ALLOCSET_SEPARATE_THRESHOLD, a block of its own beyond, and
 * a chunk header (16 bytes on PostgreSQL 15, 8 from 16 on; counted as 16).
 * For gpu_reduce.buffer_memory's budget and the planner's estimate of a
 * state's memory.
 */
static inline Size
gr_palloc_bytes(Size n)
{
	if (n <= ALLOCSET_SEPARATE_THRESHOLD)
		return pg_nextpower2_size_t(Max(n, 8)) + 16;
	return MAXALIGN(n) + 64;
}

/* The GPU slot a state's batch is in, or -1. */
static inline int32
gr_state_slot(const GrState *st)
{
	return st->ext != NULL ? st->ext->slot : -1;
}

/* The aggregate context holding a state. */
static inline MemoryContext
gr_state_mcxt(GrState *st)
{
	return GetMemoryChunkContext(st);
}

/*
 * Store one value of the type at position i of a batch buffer: the per-row
 * path of a large state.  Where int8 and float8 are passed by value, a
 * Datum holds every input type's bits in its low bytes, so only the width
 * matters (two predictable tests instead of a jump per row).
 */
static inline void
gr_store_value(GrType type, void *values, int32 i, Datum value)
{
#ifdef USE_FLOAT8_BYVAL
	int			width = GR_TYPE_WIDTH(type);

	if (width == 8)
		((uint64 *) values)[i] = (uint64) value;
	else if (width == 4)
		((uint32 *) values)[i] = (uint32) value;
	else
		((uint16 *) values)[i] = (uint16) value;
#else
	switch (gr_types[type].storage)
	{
		case GR_INT2:
			((int16 *) values)[i] = DatumGetInt16(value);
			break;
		case GR_INT4:
			((int32 *) values)[i] = DatumGetInt32(value);
			break;
		case GR_INT8:
			((int64 *) values)[i] = DatumGetInt64(value);
			break;
		case GR_FLOAT4:
			((float4 *) values)[i] = DatumGetFloat4(value);
			break;
		case GR_FLOAT8:
			((float8 *) values)[i] = DatumGetFloat8(value);
			break;
	}
#endif
}

/* Store n values, given as zero-extended bits, at position i of a batch. */
static inline void
gr_store_values(GrType type, void *values, int32 i, const uint64 *bits, int32 n)
{
	switch (GR_TYPE_WIDTH(type))
	{
		case 8:
			memcpy((uint64 *) values + i, bits, sizeof(uint64) * n);
			break;
		case 4:
			for (int32 j = 0; j < n; j++)
				((uint32 *) values)[i + j] = (uint32) bits[j];
			break;
		default:
			for (int32 j = 0; j < n; j++)
				((uint16 *) values)[i + j] = (uint16) bits[j];
			break;
	}
}

#endif							/* GR_STATE_H */
