/*
 * agg.c
 *	  SQL glue of the aggregates: transition, final and combine functions.
 *
 * One C function serves each role for every input type; the type is read
 * from the call's argument type when a state is created and kept in it.  The
 * final functions use FINALFUNC_EXTRA so that SQL can overload them by input
 * type and give each aggregate its PostgreSQL return type.
 */
#include "batch.h"
#include "bulk.h"

#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"

PG_FUNCTION_INFO_V1(gpu_reduce_sum_trans);
PG_FUNCTION_INFO_V1(gpu_reduce_min_trans);
PG_FUNCTION_INFO_V1(gpu_reduce_max_trans);
PG_FUNCTION_INFO_V1(gpu_reduce_avg_trans);
PG_FUNCTION_INFO_V1(gpu_reduce_top2_trans);
PG_FUNCTION_INFO_V1(gpu_reduce_topk_trans);
PG_FUNCTION_INFO_V1(gpu_reduce_trans);
PG_FUNCTION_INFO_V1(gpu_reduce_final);
PG_FUNCTION_INFO_V1(gpu_reduce_combine);

/* The GrType of a SQL type, or an error for any other type. */
static GrType
type_of_oid(Oid typid)
{
	GrType		type = gr_type_of_oid(typid);

	if (type != 0)
		return type;
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("gpu_reduce aggregates do not accept type %s",
					format_type_be(typid))));
	return 0;
}

/* The aggregate context, or an error if not called as an aggregate. */
static MemoryContext
aggregate_context(FunctionCallInfo fcinfo)
{
	MemoryContext aggcxt;

	if (!AggCheckCallContext(fcinfo, &aggcxt))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("gpu_reduce function called in non-aggregate context")));
	return aggcxt;
}

/*
 * Whether the row path folds the state's values into its partial result in
 * place, one at a time as native aggregates do, never storing them in a
 * batch nor counting them in gpu_reduce_stats(): min and max of every
 * fixed-width type (one compare) and sum and avg of the integer types (one
 * 128-bit add).  The executor spends ~46 ns on a row and these folds about
 * 1; storing the value in a batch cost ~3 ns more and counting it ~1 (CPU
 * host, 10 M rows, serial, 15 alternating runs: gpu_max(timestamptz) 0.93x
 * native batched, 0.955x folded and counted, 0.98x folded; gpu_sum(int8)
 * 0.98x batched, 1.03x folded), and no GPU can reduce a batch of them for
 * less than the store.  Exact float sums and top-k, whose reduction is worth
 * moving to the GPU, and numeric, go the other ways; values that come in
 * bulk (the bulk scan) fill batches for every aggregate.
 */
static pg_attribute_always_inline bool
row_folds(GrState *st, GrOp op)
{
	if (op == GR_OP_TOPK)
		return false;			/* decided at compile time: no state read */
	return gr_state_accum(st)->row_folds;
}

/*
 * The common transition: ignore NULL input, create the state on the first
 * value, add the value to the state (in place where row_folds() says
 * so, else to the batch).  Inlined into each aggregate's transition
 * function, so that the per-row path is compiled for its op.
 */
static pg_attribute_always_inline Datum
transition(FunctionCallInfo fcinfo, GrOp op, int32 k)
{
	GrState    *st;

	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_POINTER(PG_GETARG_POINTER(0));
	}
	if (PG_ARGISNULL(0))
	{
		/* the input type, looked up once per call site (a GROUP BY makes many states) */
		if (fcinfo->flinfo->fn_extra == NULL)
			fcinfo->flinfo->fn_extra =
				(void *) (uintptr_t) type_of_oid(get_fn_expr_argtype(fcinfo->flinfo, 1));
		st = gr_state_create(aggregate_context(fcinfo), op,
							 (GrType) (uintptr_t) fcinfo->flinfo->fn_extra, k);
	}
	else
		st = (GrState *) PG_GETARG_POINTER(0);
	if (row_folds(st, op))
		gr_fold_value(st, op, PG_GETARG_DATUM(1));
	else
		gr_state_add(st, op, PG_GETARG_DATUM(1));
	PG_RETURN_POINTER(st);
}

/*
 * The per-row path, apart from transition() so that it needs no stack
 * frame: fold a non-NULL value into the state in place where row_folds()
 * says so, else store it in the state's batch.  False when the row needs
 * more (NULL, no state yet, a small state, a full batch, numeric).
 */
static pg_attribute_always_inline bool
add_row(FunctionCallInfo fcinfo, GrOp op)
{
	GrState    *st;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		return false;
	st = (GrState *) PG_GETARG_POINTER(0);
	if (!row_folds(st, op))
		return gr_state_append(st, PG_GETARG_DATUM(1));
	gr_fold_value(st, op, PG_GETARG_DATUM(1));
	return true;
}

/* transition() for the rows add_row() leaves, compiled per op. */
static pg_noinline Datum
transition_rest(FunctionCallInfo fcinfo, GrOp op)
{
	switch (op)
	{
		case GR_OP_SUM:
			return transition(fcinfo, GR_OP_SUM, 0);
		case GR_OP_MIN:
			return transition(fcinfo, GR_OP_MIN, 0);
		case GR_OP_MAX:
			return transition(fcinfo, GR_OP_MAX, 0);
		case GR_OP_AVG:
			return transition(fcinfo, GR_OP_AVG, 0);
		case GR_OP_TOPK:
			return transition(fcinfo, GR_OP_TOPK, 2);
		default:
			break;
	}
	pg_unreachable();
}

/* gpu_sum transition */
Datum
gpu_reduce_sum_trans(PG_FUNCTION_ARGS)
{
	if (likely(add_row(fcinfo, GR_OP_SUM)))
		return PG_GETARG_DATUM(0);
	return transition_rest(fcinfo, GR_OP_SUM);
}

/* gpu_min transition */
Datum
gpu_reduce_min_trans(PG_FUNCTION_ARGS)
{
	if (likely(add_row(fcinfo, GR_OP_MIN)))
		return PG_GETARG_DATUM(0);
	return transition_rest(fcinfo, GR_OP_MIN);
}

/* gpu_max transition */
Datum
gpu_reduce_max_trans(PG_FUNCTION_ARGS)
{
	if (likely(add_row(fcinfo, GR_OP_MAX)))
		return PG_GETARG_DATUM(0);
	return transition_rest(fcinfo, GR_OP_MAX);
}

/* gpu_avg transition */
Datum
gpu_reduce_avg_trans(PG_FUNCTION_ARGS)
{
	if (likely(add_row(fcinfo, GR_OP_AVG)))
		return PG_GETARG_DATUM(0);
	return transition_rest(fcinfo, GR_OP_AVG);
}

/* gpu_top2 transition: top-k with k = 2 */
Datum
gpu_reduce_top2_trans(PG_FUNCTION_ARGS)
{
	if (likely(add_row(fcinfo, GR_OP_TOPK)))
		return PG_GETARG_DATUM(0);
	return transition_rest(fcinfo, GR_OP_TOPK);
}

/* What the shared transition knows of its aggregate, once per call site. */
typedef struct TransInfo
{
	GrOp		op;
	GrType		type;
	GrType		storage;		/* the type's storage kind */
	void		(*fold_key) (GrPartial *p, int64 key);	/* in place, or NULL */
} TransInfo;

/*
 * The transition of every kind without a function of its own (the
 * variance family): the kind from the SQL function's name, gpu_<kind>_trans,
 * looked up in the kinds table once per call site.  A kind gets a function
 * of its own only for a per-row path compiled for it.
 */
Datum
gpu_reduce_trans(PG_FUNCTION_ARGS)
{
	TransInfo  *ti = fcinfo->flinfo->fn_extra;
	GrState    *st;

	/* the common row: an integer folded in place, with no more look-ups */
	if (likely(ti != NULL && ti->fold_key != NULL && !PG_ARGISNULL(0) && !PG_ARGISNULL(1)))
	{
		st = (GrState *) PG_GETARG_POINTER(0);
		ti->fold_key(&st->partial, gr_datum_key(ti->storage, PG_GETARG_DATUM(1)));
		st->partial.count++;
		PG_RETURN_POINTER(st);
	}
	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_POINTER(PG_GETARG_POINTER(0));
	}
	if (ti == NULL)
	{
		char	   *name = get_func_name(fcinfo->flinfo->fn_oid);
		size_t		len = name != NULL ? strlen(name) : 0;
		int32		k;

		ti = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(TransInfo));
		if (len > 6 && strcmp(name + len - 6, "_trans") == 0)
		{
			name[len - 6] = '\0';
			ti->op = gr_kind_of_name(name, &k);
		}
		if (ti->op == 0 || gr_kind(ti->op)->takes_k)
			elog(ERROR, "gpu_reduce_trans: function %u is not a gpu_reduce transition",
				 fcinfo->flinfo->fn_oid);
		ti->type = type_of_oid(get_fn_expr_argtype(fcinfo->flinfo, 1));
		ti->storage = gr_type_info(ti->type)->storage;
		if (gr_kind_acc_id(ti->op, ti->type) == GR_ACC_NONE)
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("gpu_%s does not accept type %s", gr_kind(ti->op)->name,
							format_type_be(gr_type_info(ti->type)->oid))));
		if (gr_type_info(ti->type)->value_class == GR_CLASS_INT)
			ti->fold_key = gr_kind_accum(ti->op, ti->type)->fold_key;
		fcinfo->flinfo->fn_extra = ti;
	}
	if (PG_ARGISNULL(0))
		st = gr_state_create(aggregate_context(fcinfo), ti->op, ti->type, 0);
	else
		st = (GrState *) PG_GETARG_POINTER(0);
	if (gr_state_accum(st)->row_folds)
		gr_fold_value(st, ti->op, PG_GETARG_DATUM(1));
	else
		gr_state_add(st, ti->op, PG_GETARG_DATUM(1));
	PG_RETURN_POINTER(st);
}

/* The ERROR for a group whose rows (or workers' states) disagree on k. */
static void
check_same_k(int32 have, int32 got)
{
	if (have != got)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("k must be the same for every row of a group"),
				 errdetail("k changed from %d to %d.", have, got)));
}

/*
 * gpu_topk's k, checked: an ERROR if NULL or out of range.  The transition
 * function checks it on every row; the bulk scan once a row arrives.
 */
int32
gr_check_k(Datum k, bool isnull)
{
	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("k must not be null")));
	if (!gr_k_in_range(DatumGetInt32(k)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("k must be between 1 and %d", GR_TOPK_MAX),
				 errdetail("k is %d.", DatumGetInt32(k))));
	return DatumGetInt32(k);
}

/* gpu_topk transition: k is checked on every row, NULL values included. */
Datum
gpu_reduce_topk_trans(PG_FUNCTION_ARGS)
{
	int32		k = gr_check_k(PG_GETARG_DATUM(2), PG_ARGISNULL(2));

	if (!PG_ARGISNULL(0))
		check_same_k(((GrState *) PG_GETARG_POINTER(0))->partial.k, k);
	return transition(fcinfo, GR_OP_TOPK, k);
}

/*
 * The aggregate's result from its state: reduce what is left, give the
 * batch buffer back and build the PostgreSQL value.  The final function of
 * every aggregate, and the bulk scan's.
 */
Datum
gr_state_final(GrState *st, bool *isnull)
{
	GrPartial  *p = &st->partial;

	gr_state_settle(st);
	gr_state_release_buffer(st);
	*isnull = false;
	if (p->count == 0)
	{
		*isnull = true;
		return (Datum) 0;
	}

	return gr_kind(st->op)->by_class[gr_type_info(st->type)->value_class].final(st, isnull);
}

/* Final function of every aggregate; the state knows which one it is. */
Datum
gpu_reduce_final(PG_FUNCTION_ARGS)
{
	Datum		result;
	bool		isnull;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	result = gr_state_final((GrState *) PG_GETARG_POINTER(0), &isnull);
	if (isnull)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(result);
}

/*
 * Combine function: fold the second state into the first, creating the first
 * in the aggregate context if it is empty (the second may be a deserialized
 * state in a short-lived context).
 */
Datum
gpu_reduce_combine(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt = aggregate_context(fcinfo);
	GrState    *s1 = PG_ARGISNULL(0) ? NULL : (GrState *) PG_GETARG_POINTER(0);
	GrState    *s2 = PG_ARGISNULL(1) ? NULL : (GrState *) PG_GETARG_POINTER(1);

	if (s2 == NULL)
	{
		if (s1 == NULL)
			PG_RETURN_NULL();
		PG_RETURN_POINTER(s1);
	}
	gr_state_settle(s2);
	if (s1 == NULL)
		s1 = gr_state_create(aggcxt, s2->op, s2->type,
							 gr_kind(s2->op)->takes_k ? s2->partial.k : 0);
	if (s1->op != s2->op || s1->type != s2->type)
		elog(ERROR, "gpu_reduce: cannot combine states of different aggregates");
	if (gr_kind(s1->op)->takes_k)
		check_same_k(s1->partial.k, s2->partial.k);
	gr_state_combine_partial(s1, &s2->partial);
	PG_RETURN_POINTER(s1);
}
