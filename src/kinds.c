/*
 * kinds.c
 *	  The table of aggregate kinds and the table of accumulators.
 *
 * Every decision that differs between aggregates is read from here: which
 * accumulator a state keeps (by its kind and its type's value class), its
 * size, how it starts, folds a CPU batch, combines, serializes, which
 * kernel reduces its batches and how the kernel's result becomes a partial
 * result, what it allocates beside the state (the planner's estimate), and
 * the final function that builds the SQL value.  To add an
 * aggregate: its accumulator's functions (if no existing one fits), one row
 * of gr_kinds, and its lines of sqlgen/matrix.txt.
 */
#include "kinds.h"
#include "accum.h"
#include "gpu_shared.h"

/* the kernel operations of the accumulators (GrAccum.gpu_op), by k */
static int
gpu_op_sum(int32 k)
{
	return GR_CUDA_SUM;
}

static int
gpu_op_min(int32 k)
{
	return GR_CUDA_MIN;
}

static int
gpu_op_max(int32 k)
{
	return GR_CUDA_MAX;
}

static int
gpu_op_sumsq(int32 k)
{
	return GR_CUDA_SUMSQ;
}

/* top-2 in registers; a larger k sorts the batch, within the service's room */
static int
gpu_op_topk(int32 k)
{
	if (k == 2)
		return GR_CUDA_TOP2;
	return gr_shared != NULL && k <= gr_shared->topk_keys ? GR_CUDA_TOPK : -1;
}

/* Bytes of a GrPartial up to and including a field. */
#define UPTO(field, type) (offsetof(GrPartial, field) + sizeof(type))

const GrAccum gr_accums[GR_ACC_COUNT] = {
	[GR_ACC_NONE] = {"none"},
	[GR_ACC_ISUM] = {
		.name = "isum", .size = UPTO(isum, int128), .batches = true, .row_folds = true,
		.fold_batch = gr_cpu_isum,
		.combine = gr_isum_combine, .send = gr_isum_send, .recv = gr_isum_recv,
		.gpu_op = gpu_op_sum, .from_gpu = gr_isum_from_gpu,
	},
	[GR_ACC_XSUM] = {
		.name = "xsum", .size = sizeof(GrPartial), .batches = true,
		.init = gr_xsum_acc_init, .fold_batch = gr_cpu_xsum,
		.combine = gr_xsum_acc_combine, .send = gr_xsum_acc_send, .recv = gr_xsum_acc_recv,
		.gpu_op = gpu_op_sum, .from_gpu = gr_xsum_acc_from_gpu, .side_bytes = gr_xsum_acc_side,
	},
	[GR_ACC_KEY_MIN] = {
		.name = "key_min", .size = UPTO(key, int64), .batches = true, .row_folds = true,
		.init = gr_key_min_init, .fold_batch = gr_cpu_key_min,
		.combine = gr_key_min_combine, .send = gr_key_send, .recv = gr_key_recv,
		.gpu_op = gpu_op_min, .from_gpu = gr_key_from_gpu,
	},
	[GR_ACC_KEY_MAX] = {
		.name = "key_max", .size = UPTO(key, int64), .batches = true, .row_folds = true,
		.init = gr_key_max_init, .fold_batch = gr_cpu_key_max,
		.combine = gr_key_max_combine, .send = gr_key_send, .recv = gr_key_recv,
		.gpu_op = gpu_op_max, .from_gpu = gr_key_from_gpu,
	},
	[GR_ACC_KEY_TOPK] = {
		.name = "key_topk", .size = sizeof(GrPartial), .batches = true,
		.init = gr_topk_init, .fold_batch = gr_cpu_key_topk,
		.combine = gr_topk_combine, .send = gr_topk_send, .recv = gr_topk_recv,
		.gpu_op = gpu_op_topk, .from_gpu = gr_topk_from_gpu, .side_bytes = gr_topk_side,
	},
	/* numeric: zeroed is empty; values are folded one by one as they arrive */
	[GR_ACC_NUM_SUM] = {
		.name = "num_sum", .size = UPTO(nslow, GrNumericSlow *),
		.fold_datum = gr_num_sum_fold, .combine = gr_num_sum_combine,
		.send = gr_num_sum_send, .recv = gr_num_sum_recv,
	},
	[GR_ACC_NUM_MIN] = {
		.name = "num_min", .size = UPTO(nbest_head, GrNumHead),
		.fold_datum = gr_num_min_fold, .combine = gr_num_min_combine,
		.send = gr_num_best_send, .recv = gr_num_min_recv, .side_bytes = gr_num_best_side,
	},
	[GR_ACC_NUM_MAX] = {
		.name = "num_max", .size = UPTO(nbest_head, GrNumHead),
		.fold_datum = gr_num_max_fold, .combine = gr_num_max_combine,
		.send = gr_num_best_send, .recv = gr_num_max_recv, .side_bytes = gr_num_best_side,
	},
	[GR_ACC_NUM_TOPK] = {
		.name = "num_topk", .size = sizeof(GrPartial), .init = gr_topk_init,
		.fold_datum = gr_num_topk_fold, .combine = gr_num_topk_combine,
		.send = gr_num_topk_send, .recv = gr_num_topk_recv, .side_bytes = gr_num_topk_side,
	},
	/* the variance family (variance.c) */
	[GR_ACC_IVAR] = {
		.name = "ivar", .size = UPTO(vsq_hi, uint64), .batches = true, .row_folds = true,
		.fold_batch = gr_ivar_fold, .fold_key = gr_ivar_fold_key, .combine = gr_ivar_combine,
		.send = gr_ivar_send, .recv = gr_ivar_recv,
		.gpu_op = gpu_op_sumsq, .from_gpu = gr_ivar_from_gpu,
	},
	[GR_ACC_FVAR] = {
		.name = "fvar", .size = UPTO(vx2, GrXsum *), .batches = true,
		.fold_batch = gr_fvar_fold, .combine = gr_fvar_combine,
		.send = gr_fvar_send, .recv = gr_fvar_recv,
		.gpu_op = gpu_op_sumsq, .from_gpu = gr_fvar_from_gpu, .side_bytes = gr_fvar_side,
	},
	[GR_ACC_NVAR] = {
		.name = "nvar", .size = UPTO(vn2, GrPartial *),
		.fold_datum = gr_nvar_fold, .combine = gr_nvar_combine,
		.send = gr_nvar_send, .recv = gr_nvar_recv, .side_bytes = gr_nvar_side,
	},
};

/* what a kind keeps and returns for each value class */
#define BY_CLASS(i, f, n) {[GR_CLASS_INT] = i, [GR_CLASS_FLOAT] = f, [GR_CLASS_NUMERIC] = n}
#define CLASS(acc, final) {acc, final}

const GrAggKind gr_kinds[GR_OP_LAST + 1] = {
	[GR_OP_SUM] = {
		.name = "sum", .arith = true, .native = {"sum"}, .float_exact = true,
		.by_class = BY_CLASS(CLASS(GR_ACC_ISUM, gr_final_sum_int),
							 CLASS(GR_ACC_XSUM, gr_final_sum_float),
							 CLASS(GR_ACC_NUM_SUM, gr_numeric_sum_final)),
	},
	[GR_OP_MIN] = {
		.name = "min", .native = {"min"},
		.by_class = BY_CLASS(CLASS(GR_ACC_KEY_MIN, gr_final_key),
							 CLASS(GR_ACC_KEY_MIN, gr_final_key),
							 CLASS(GR_ACC_NUM_MIN, gr_numeric_best_final)),
	},
	[GR_OP_MAX] = {
		.name = "max", .native = {"max"},
		.by_class = BY_CLASS(CLASS(GR_ACC_KEY_MAX, gr_final_key),
							 CLASS(GR_ACC_KEY_MAX, gr_final_key),
							 CLASS(GR_ACC_NUM_MAX, gr_numeric_best_final)),
	},
	[GR_OP_AVG] = {
		.name = "avg", .arith = true, .native = {"avg"}, .float_exact = true,
		.by_class = BY_CLASS(CLASS(GR_ACC_ISUM, gr_final_avg_int),
							 CLASS(GR_ACC_XSUM, gr_final_avg_float),
							 CLASS(GR_ACC_NUM_SUM, gr_numeric_avg_final)),
	},
	[GR_OP_TOPK] = {
		.name = "topk", .takes_k = true, .k_name = "top2", .k_of_name = 2,
		.by_class = BY_CLASS(CLASS(GR_ACC_KEY_TOPK, gr_final_key_array),
							 CLASS(GR_ACC_KEY_TOPK, gr_final_key_array),
							 CLASS(GR_ACC_NUM_TOPK, gr_numeric_array_final)),
	},
#define VAR_KIND(nm, ...) \
	.name = #nm, .arith = true, .native = {__VA_ARGS__}, .float_exact = true, \
	.by_class = BY_CLASS(CLASS(GR_ACC_IVAR, gr_final_##nm##_int), \
						 CLASS(GR_ACC_FVAR, gr_final_##nm##_float), \
						 CLASS(GR_ACC_NVAR, gr_final_##nm##_numeric))
	[GR_OP_VARIANCE] = {VAR_KIND(variance, "variance", "var_samp")},
	[GR_OP_VAR_POP] = {VAR_KIND(var_pop, "var_pop")},
	[GR_OP_STDDEV] = {VAR_KIND(stddev, "stddev", "stddev_samp")},
	[GR_OP_STDDEV_POP] = {VAR_KIND(stddev_pop, "stddev_pop")},
};

/* The accumulator id of a kind over a type; GR_ACC_NONE if not offered. */
GrAccId
gr_kind_acc_id(GrOp op, GrType type)
{
	const GrTypeInfo *ti;

	if (op < 1 || op > GR_OP_LAST || type < 1 || type > GR_TYPE_LAST)
		return GR_ACC_NONE;
	ti = gr_type_info(type);
	if (gr_kinds[op].arith && !ti->arith)
		return GR_ACC_NONE;
	return (GrAccId) gr_kinds[op].by_class[ti->value_class].acc;
}

/* The accumulator of a kind over a type, or NULL. */
const GrAccum *
gr_kind_accum(GrOp op, GrType type)
{
	GrAccId		id = gr_kind_acc_id(op, type);

	return id == GR_ACC_NONE ? NULL : &gr_accums[id];
}

/*
 * The kind a gpu_* aggregate's name stands for, or 0; *k is the k its name
 * fixes (gpu_top2), else 0.
 */
GrOp
gr_kind_of_name(const char *name, int32 *k)
{
	*k = 0;
	if (strncmp(name, "gpu_", 4) != 0)
		return 0;
	name += 4;
	for (int op = 1; op <= GR_OP_LAST; op++)
	{
		if (strcmp(name, gr_kinds[op].name) == 0)
			return (GrOp) op;
		if (gr_kinds[op].k_name != NULL && strcmp(name, gr_kinds[op].k_name) == 0)
		{
			*k = gr_kinds[op].k_of_name;
			return (GrOp) op;
		}
	}
	return 0;
}

/* The kind a PostgreSQL aggregate's name stands for, or 0. */
GrOp
gr_kind_of_native_name(const char *name)
{
	for (int op = 1; op <= GR_OP_LAST; op++)
		for (int i = 0; i < lengthof(gr_kinds[op].native) && gr_kinds[op].native[i] != NULL; i++)
			if (strcmp(name, gr_kinds[op].native[i]) == 0)
				return (GrOp) op;
	return 0;
}

/* The kernel operation for op over a type (and top-k's k), or -1. */
int
gr_kind_gpu_op(GrOp op, GrType type, int32 k)
{
	const GrAccum *acc = gr_kind_accum(op, type);

	return acc == NULL || acc->gpu_op == NULL ? -1 : acc->gpu_op(k);
}

/*
 * The bytes a state of op over a type holds in a group of 'values' values
 * (of 'width' bytes each, numeric), as palloc takes them: the planner's
 * estimate of an aggregate's transition space (agg_space.c), and the
 * node's of its groups.  The state and what its accumulator allocates
 * beside it; not a batch buffer or extension, which gpu_reduce.buffer_memory
 * bounds for all states together (batch.c).
 */
double
gr_state_space(GrOp op, GrType type, int32 k, double values, double width)
{
	const GrAccum *acc = gr_kind_accum(op, type);

	if (acc == NULL)
		return 0;
	return gr_palloc_bytes(offsetof(GrState, partial) + acc->size) +
		(acc->side_bytes != NULL ? acc->side_bytes(k, values, width) : 0);
}

/*
 * st's partial result += src, for a src of the same kind and type: a GPU
 * result, a worker's state, another group's.
 */
void
gr_state_combine_partial(GrState *st, const GrPartial *src)
{
	if (src->count == 0)
		return;
	st->partial.count += src->count;
	gr_state_accum(st)->combine(&st->partial, gr_state_mcxt(st), src);
}

/* Fold n values into the state's partial result with its accumulator's fold. */
void
gr_cpu_reduce(GrState *st, const void *values, int32 n)
{
	if (n <= 0)
		return;
	gr_state_accum(st)->fold_batch(st, values, n);
	st->partial.count += n;
	gr_stats.cpu_batches++;
	gr_stats.cpu_rows += n;
}

