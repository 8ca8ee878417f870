/*
 * agg_catalog.c
 *	  Which aggregate functions the planner's code knows: gpu_reduce's own
 *	  and PostgreSQL's of a kind in the kinds table, by OID, looked up once
 *	  per backend.  The node's planner (bulk_plan.c) and the estimate of a
 *	  state's memory (agg_space.c) both ask it.
 */
#include "postgres.h"

#include "agg_catalog.h"
#include "native_partial.h"
#include "kinds.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

/*
 * Which of our aggregates a function is (its op, and k for gpu_top2), by
 * OID: looked up once per backend, since the look-up (the extension's OID,
 * the function's membership in it) costs more than planning a small query.
 * A change to any function (the extension dropped, say) forgets it all.
 */
typedef struct AggKind
{
	Oid			fnoid;			/* hash key */
	GrOp		op;				/* 0: neither ours nor a native one we take */
	int32		k;
	bool		native;			/* one of PostgreSQL's own (pg_catalog) */
	GrPartialForm partial_form; /* a native one's partial state, if the node
								 * can make it; else GR_PARTIAL_STATE */
} AggKind;

static HTAB *agg_kinds = NULL;

/*
 * The OID of the extension in this backend's database: InvalidOid where it
 * is not installed; known once valid (ext_known).  CREATE and DROP
 * EXTENSION add and remove its functions, so pg_proc's invalidation, which
 * forgets the aggregates, forgets this too.
 */
static Oid	ext_oid = InvalidOid;
static bool ext_known = false;

/* Syscache callback: pg_proc changed. */
static void
forget_agg_kinds(Datum arg, int cacheid, uint32 hashvalue)
{
	if (agg_kinds != NULL)
	{
		hash_destroy(agg_kinds);
		agg_kinds = NULL;
	}
	ext_known = false;
}

/* gpu_reduce's extension OID in this database, or InvalidOid. */
static Oid
extension_oid(void)
{
	if (!ext_known)
	{
		ext_oid = get_extension_oid("gpu_reduce", true);
		ext_known = true;
	}
	return ext_oid;
}

/*
 * Whether CREATE EXTENSION gpu_reduce was run in this database: a library
 * preloaded for the whole server plans nothing of its own elsewhere.
 */
bool
gr_extension_installed(void)
{
	return OidIsValid(extension_oid());
}

/*
 * The partial state of a native aggregate the node can make itself: the
 * result when the transition type is the result type (min, max, sum of
 * int2/int4), avg's int8[] {count, sum}, PostgreSQL's serialized internal
 * state (sum/avg of int8 and numeric, integer and numeric variances) where
 * native_partial.c writes its layout and PostgreSQL reads it back as the
 * node's answer; else GR_PARTIAL_STATE (none: a parallel plan is not
 * offered with it).
 */
static GrPartialForm
native_partial_form(Oid fnoid, GrOp op)
{
	HeapTuple	tup = SearchSysCache1(AGGFNOID, ObjectIdGetDatum(fnoid));
	Form_pg_aggregate agg;
	Oid			transtype,
				serialfn,
				deserialfn,
				finalfn;
	Oid		   *argtypes;
	int			nargs;
	GrType		type;
	GrPartialForm form;

	if (!HeapTupleIsValid(tup))
		return GR_PARTIAL_STATE;
	agg = (Form_pg_aggregate) GETSTRUCT(tup);
	transtype = agg->aggtranstype;
	serialfn = agg->aggserialfn;
	deserialfn = agg->aggdeserialfn;
	finalfn = agg->aggfinalfn;
	ReleaseSysCache(tup);
	get_func_signature(fnoid, &argtypes, &nargs);
	type = nargs == 1 ? gr_type_of_oid(argtypes[0]) : 0;
	/*
	 * A float sum's partial state is a rounded float, which PostgreSQL's
	 * combine (float8pl) adds with another rounding: the node's exact answer
	 * is lost wherever a group's state leaves it more than once (parallel
	 * participants, group-table flushes).  None: such a query stays whole
	 * in the node (serial, no GROUP BY) or is PostgreSQL's.
	 */
	if (type != 0 && gr_kind(op)->float_exact &&
		gr_type_info(type)->value_class == GR_CLASS_FLOAT)
		return GR_PARTIAL_STATE;
	if (transtype == get_func_rettype(fnoid) && op != GR_OP_AVG)
		return GR_PARTIAL_VALUE;
	if (transtype == INT8ARRAYOID && op == GR_OP_AVG)
		return GR_PARTIAL_INT8_AVG;
	/* the check below needs a subtransaction, which a parallel worker cannot start */
	if (transtype != INTERNALOID || !OidIsValid(serialfn) || IsInParallelMode() ||
		get_func_namespace(serialfn) != PG_CATALOG_NAMESPACE || type == 0)
		return GR_PARTIAL_STATE;
	form = gr_native_partial_form(get_func_name(serialfn), gr_kind_acc_id(op, type));
	if (form != GR_PARTIAL_STATE &&
		!gr_native_partial_checked(form, op, type, deserialfn, finalfn))
		form = GR_PARTIAL_STATE;
	return form;
}

/*
 * The op of aggregate function fnoid if it is one of gpu_reduce's, or one
 * of PostgreSQL's own of a kind in the kinds table (*native), else 0; *k
 * the k its name fixes (gpu_top2), *partial_form a native one's partial
 * state.
 */
GrOp
gr_plan_aggregate(Oid fnoid, int32 *k, bool *native, GrPartialForm *partial_form)
{
	AggKind    *ak;
	bool		found;

	if (agg_kinds == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(AggKind);
		agg_kinds = hash_create("gpu_reduce aggregates", 64, &ctl,
								HASH_ELEM | HASH_BLOBS);
	}
	ak = hash_search(agg_kinds, &fnoid, HASH_FIND, &found);
	if (!found)
	{
		Oid			extoid = extension_oid();
		char	   *name = NULL;
		GrOp		op = 0;
		int32		kk = 0;
		bool		nat = false;
		GrPartialForm form = GR_PARTIAL_STATE;

		if (OidIsValid(extoid) &&
			getExtensionOfObject(ProcedureRelationId, fnoid) == extoid &&
			(name = get_func_name(fnoid)) != NULL)
			op = gr_kind_of_name(name, &kk);
		else if (get_func_namespace(fnoid) == PG_CATALOG_NAMESPACE &&
				 get_func_prokind(fnoid) == PROKIND_AGGREGATE &&
				 (name = get_func_name(fnoid)) != NULL &&
				 (op = gr_kind_of_native_name(name)) != 0)
		{
			nat = true;
			form = native_partial_form(fnoid, op);
		}
		/* entered once known, so that an error leaves no half-made entry */
		ak = hash_search(agg_kinds, &fnoid, HASH_ENTER, &found);
		ak->op = op;
		ak->k = kk;
		ak->native = nat;
		ak->partial_form = form;
	}
	*k = ak->k;
	*native = ak->native;
	*partial_form = ak->partial_form;
	return ak->op;
}

/* Forget the looked-up aggregates whenever pg_proc changes (at library load). */
void
gr_agg_catalog_init(void)
{
	CacheRegisterSyscacheCallback(PROCOID, forget_agg_kinds, (Datum) 0);
}
