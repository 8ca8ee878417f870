/*
 * kinds.h
 *	  The table of aggregate kinds and the accumulators they keep.
 *
 * An aggregate kind (GrAggKind, one row of gr_kinds in kinds.c) is what an
 * aggregate computes: sum, avg, min, max, top-k.  Its row names, for each
 * value class of its input (integer, float, numeric), the accumulator its
 * state keeps and the final function that makes the SQL result.  An
 * accumulator (GrAccum, one entry of gr_accums) is everything a state of
 * that shape needs: its size and initial value, how the CPU folds a batch,
 * how two of it combine, its serialized fields, and the GPU operation that
 * reduces a batch of it.  The row path, the bulk scan, the page path, the
 * serializer and the GPU client all ask the table; nothing else switches on
 * the kind.  A new aggregate is a row here plus its SQL (sqlgen/matrix.txt);
 * a new fixed-width type is an entry of the type table (types.c).
 */
#ifndef GR_KINDS_H
#define GR_KINDS_H

#include "state.h"
#include "wire.h"

/* the accumulators (index into gr_accums; GrState.acc) */
typedef enum GrAccId
{
	GR_ACC_NONE = 0,			/* the kind does not take this class */
	GR_ACC_ISUM,				/* 128-bit integer sum */
	GR_ACC_XSUM,				/* exact float sum */
	GR_ACC_KEY_MIN,				/* smallest order key */
	GR_ACC_KEY_MAX,				/* largest order key */
	GR_ACC_KEY_TOPK,			/* min-heap of the k largest order keys */
	GR_ACC_NUM_SUM,				/* numeric: scaled 128-bit sum, exact slow path */
	GR_ACC_NUM_MIN,				/* numeric: a copy of the smallest value */
	GR_ACC_NUM_MAX,				/* numeric: a copy of the largest value */
	GR_ACC_NUM_TOPK,			/* numeric: min-heap of copies of the k largest */
	GR_ACC_IVAR,				/* integers: sums of the values and their squares */
	GR_ACC_FVAR,				/* floats: exact sums of the values and their squares */
	GR_ACC_NVAR,				/* numeric: exact sums of the values and their squares */
	GR_ACC_COUNT
} GrAccId;

struct GrCudaResult;

/*
 * One accumulator: a shape of partial result and every operation on it.
 * Functions a shape has no use for are NULL (a numeric accumulator has no
 * batch fold and no GPU operation: its values are never batched).
 */
typedef struct GrAccum
{
	const char *name;
	Size		size;			/* bytes of GrPartial it uses */
	bool		batches;		/* fixed-width values: batches, slots, the GPU */
	bool		row_folds;		/* the row path folds a value in place (agg.c) */
	/* empty partial result (the rest of it zeroed); k for top-k */
	void		(*init) (GrPartial *p, int32 k);
	/* the CPU reducer: fold n values of the state's type (batches only) */
	void		(*fold_batch) (GrState *st, const void *values, int32 n);
	/* fold one integer-class value in place (the row path), if it can; else NULL */
	void		(*fold_key) (GrPartial *p, int64 key);
	/* fold one value given as a Datum (numeric; scratch memory is current) */
	void		(*fold_datum) (GrPartial *p, MemoryContext mcxt, Datum value);
	/* dst += src; counts are already added */
	void		(*combine) (GrPartial *dst, MemoryContext mcxt, const GrPartial *src);
	/* the serialized fields after the common header, and their checked reader */
	void		(*send) (StringInfo buf, GrState *st);
	void		(*recv) (GrReader *r, GrState *st);
	/* the kernel operation (GrCudaOp) for top-k's k, or -1; NULL: none */
	int			(*gpu_op) (int32 k);
	/* a GPU result as a partial result (keys point into the result or topk) */
	void		(*from_gpu) (GrPartial *p, const struct GrCudaResult *r, int cuda_op, int64 *topk);
	/*
	 * the planner's estimate of the bytes it allocates beside the state, as
	 * palloc takes them, in a group of 'values' values (numeric: of 'width'
	 * bytes each, copied); NULL: none (gr_state_space)
	 */
	double		(*side_bytes) (int32 k, double values, double width);
} GrAccum;

/* What a kind does for one value class: its accumulator and its result. */
typedef struct GrKindClass
{
	uint8		acc;			/* GrAccId; GR_ACC_NONE: not offered */
	/* the SQL result of a non-empty state (*isnull is false on entry) */
	Datum		(*final) (GrState *st, bool *isnull);
} GrKindClass;

/* One aggregate kind (GrOp numbers its row; they are in serialized states). */
typedef struct GrAggKind
{
	const char *name;			/* gpu_<name>; gpu_reduce_state_info's op= */
	bool		takes_k;		/* states carry a k, the same in every row */
	const char *k_name;			/* gpu_<k_name>: the kind with k fixed (top2) */
	int32		k_of_name;		/* that k */
	bool		arith;			/* needs arithmetic: not over the time types */
	/* PostgreSQL's own aggregates of this kind (pg_catalog names), NULL-ended */
	const char *native[3];
	/*
	 * Over floats the answer is the exact one, which may differ from
	 * native's in the last bits: a native aggregate of the kind is taken
	 * over floats only under gpu_reduce.native_aggregates = exact.
	 */
	bool		float_exact;
	GrKindClass by_class[GR_CLASS_COUNT];
} GrAggKind;

extern const GrAggKind gr_kinds[GR_OP_LAST + 1];
extern const GrAccum gr_accums[GR_ACC_COUNT];

/* The row of a kind. */
static inline const GrAggKind *
gr_kind(GrOp op)
{
	return &gr_kinds[op];
}

/* The accumulator a state keeps. */
static inline const GrAccum *
gr_state_accum(const GrState *st)
{
	return &gr_accums[st->acc];
}

/* The accumulator of a kind over a type, or NULL if the kind does not take the type. */
extern const GrAccum *gr_kind_accum(GrOp op, GrType type);
extern GrAccId gr_kind_acc_id(GrOp op, GrType type);

/* The kind a gpu_* aggregate's name stands for (0 if none), and gpu_top2's k. */
extern GrOp gr_kind_of_name(const char *name, int32 *k);
/* The kind a PostgreSQL aggregate's name (in pg_catalog) stands for, or 0. */
extern GrOp gr_kind_of_native_name(const char *name);

/* The kernel operation for op over a type (and top-k's k), or -1. */
extern int	gr_kind_gpu_op(GrOp op, GrType type, int32 k);

/* The bytes a state of op over a type holds in a group of 'values' values. */
extern double gr_state_space(GrOp op, GrType type, int32 k, double values, double width);

/* dispatch through the table (kinds.c) */
extern void gr_cpu_reduce(GrState *st, const void *values, int32 n);
extern void gr_state_combine_partial(GrState *st, const GrPartial *src);

#endif							/* GR_KINDS_H */
