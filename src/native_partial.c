/*
 * native_partial.c
 *	  PostgreSQL's serialized transition states for its own aggregates whose
 *	  state is internal, made from the node's states: so that in a parallel
 *	  plan the node's participants feed PostgreSQL's Finalize Aggregate as
 *	  its own Partial Aggregate would.
 *
 * The layouts are numeric.c's: a count, then sums written as NumericVars
 * (numericvar_serialize: int32 ndigits, weight, sign, dscale, then int16
 * base-10000 digits), then for NumericAggState its scale tracking and the
 * counts of NaN and infinite inputs; from PostgreSQL 19 the int128 sums of
 * Int128AggState are 16 bytes instead (GR_INT128_AGG_STATE_RAW).  Nothing
 * here trusts that blindly: gr_native_partial_checked runs PostgreSQL's own
 * deserialization and final functions over states made here from sample
 * values, once per aggregate, and the planner keeps an aggregate serial
 * where they do not give the node's answer.
 */
#include "native_partial.h"
#include "accum.h"
#include "batch.h"
#include "pg_compat.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "libpq/pqformat.h"
#include "nodes/execnodes.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/resowner.h"

/* The serialization functions (pg_catalog) whose layouts are written here. */
static const struct
{
	const char *serialfn;
	GrPartialForm form;
}			native_forms[] = {
	{"int8_avg_serialize", GR_PARTIAL_POLY_AVG},	/* sum, avg of int8 */
	{"numeric_poly_serialize", GR_PARTIAL_POLY_VAR},	/* variances of int2, int4 */
	{"numeric_avg_serialize", GR_PARTIAL_NUMERIC_AVG},	/* sum, avg of numeric */
	{"numeric_serialize", GR_PARTIAL_NUMERIC_VAR},	/* variances of int8, numeric */
};

GrPartialForm
gr_native_partial_form(const char *serialfn, GrAccId acc)
{
	for (int i = 0; i < lengthof(native_forms); i++)
	{
		GrPartialForm form = native_forms[i].form;

		if (strcmp(serialfn, native_forms[i].serialfn) != 0)
			continue;
		/* the accumulator the node keeps must hold what the layout carries */
		if ((form == GR_PARTIAL_POLY_AVG && acc == GR_ACC_ISUM) ||
			(form == GR_PARTIAL_POLY_VAR && acc == GR_ACC_IVAR) ||
			(form == GR_PARTIAL_NUMERIC_AVG && acc == GR_ACC_NUM_SUM) ||
			(form == GR_PARTIAL_NUMERIC_VAR && (acc == GR_ACC_IVAR || acc == GR_ACC_NVAR)))
			return form;
	}
	return GR_PARTIAL_STATE;
}

/* A finite numeric as numericvar_serialize writes a NumericVar. */
static void
send_numvar(StringInfo buf, Datum num)
{
	bytea	   *wire = DatumGetByteaPP(DirectFunctionCall1(numeric_send, num));
	StringInfoData in;
	int			ndigits;

	/* numeric_send's fields are the same, as 16-bit integers */
	in.data = VARDATA_ANY(wire);
	in.len = VARSIZE_ANY_EXHDR(wire);
	in.maxlen = in.len;
	in.cursor = 0;
	ndigits = (uint16) pq_getmsgint(&in, 2);
	pq_sendint32(buf, ndigits);
	pq_sendint32(buf, (int16) pq_getmsgint(&in, 2));	/* weight */
	pq_sendint32(buf, (uint16) pq_getmsgint(&in, 2));	/* sign */
	pq_sendint32(buf, (uint16) pq_getmsgint(&in, 2));	/* dscale */
	for (int i = 0; i < ndigits; i++)
		pq_sendint16(buf, (int16) pq_getmsgint(&in, 2));
}

/*
 * A sum of Int128AggState: on 19 the int128 itself, high 64 bits then low
 * (pq_sendint64 each, as numeric.c writes it); before, as a NumericVar.
 */
static void
send_int128_sum(StringInfo buf, int128 v)
{
#ifdef GR_INT128_AGG_STATE_RAW
	pq_sendint64(buf, (uint64) (v >> 64));
	pq_sendint64(buf, (uint64) v);
#else
	send_numvar(buf, NumericGetDatum(gr_int128_to_numeric(v)));
#endif
}

/* A numeric's display scale. */
static int32
numeric_dscale(Datum num)
{
	return DatumGetInt32(DirectFunctionCall1(numeric_scale, num));
}

/*
 * NumericAggState's tail: the largest input display scale (the sum's),
 * how many inputs had it, and the NaN and infinity counts.  maxScaleCount
 * serves only the inverse transitions of window frames, which never run on
 * a combined state; the node does not count it and sends the finite count.
 */
static void
send_numeric_tail(StringInfo buf, int64 n, Datum sumx, const GrNumericSlow *slow)
{
	pq_sendint32(buf, numeric_dscale(sumx));
	pq_sendint64(buf, n);
	pq_sendint64(buf, slow ? slow->nan : 0);
	pq_sendint64(buf, slow ? slow->pinf : 0);
	pq_sendint64(buf, slow ? slow->ninf : 0);
}

/* Finite values among a numeric accumulator's count. */
static int64
finite_count(int64 count, const GrNumericSlow *slow)
{
	return slow ? count - slow->nan - slow->pinf - slow->ninf : count;
}

Datum
gr_native_partial(GrPartialForm form, GrState *st)
{
	GrPartial  *p = &st->partial;
	StringInfoData buf;
	Datum		sumx,
				sumx2;
	const GrNumericSlow *slow;
	int64		n;

	gr_state_settle(st);
	pq_begintypsend(&buf);
	switch (form)
	{
		case GR_PARTIAL_POLY_AVG:
			/* Int128AggState: N, sumX */
			pq_sendint64(&buf, p->count);
			send_int128_sum(&buf, p->isum);
			break;
		case GR_PARTIAL_POLY_VAR:
			/* Int128AggState with sumX2: N, sumX, sumX2 (read back as int128) */
			if (p->vsq_hi != 0 || p->vsq >= ((uint128) 1 << 127))
				ereport(ERROR,
						(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						 errmsg("sum of squares out of range for a parallel partial state")));
			pq_sendint64(&buf, p->count);
			send_int128_sum(&buf, p->vsum);
			send_int128_sum(&buf, (int128) p->vsq);
			break;
		case GR_PARTIAL_NUMERIC_AVG:
			/* NumericAggState: N (finite inputs), sumX, the tail */
			slow = p->nslow;
			n = finite_count(p->count, slow);
			sumx = gr_num_sum_exact(p);
			pq_sendint64(&buf, n);
			send_numvar(&buf, sumx);
			send_numeric_tail(&buf, n, sumx, slow);
			break;
		case GR_PARTIAL_NUMERIC_VAR:
			/* NumericAggState with sumX2: N, sumX, sumX2, the tail */
			slow = st->acc == GR_ACC_NVAR ? p->vn1->nslow : NULL;
			n = finite_count(p->count, slow);
			gr_var_sums(st, &sumx, &sumx2);
			pq_sendint64(&buf, n);
			send_numvar(&buf, sumx);
			send_numvar(&buf, sumx2);
			send_numeric_tail(&buf, n, sumx, slow);
			break;
		default:
			elog(ERROR, "gpu_reduce: no native partial state of form %d", (int) form);
	}
	return PointerGetDatum(pq_endtypsend(&buf));
}

/*
 * Sample inputs per type for the check: sums past int64 and int128 (the
 * numeric slow path), mixed scales; and for numeric, infinities, whose
 * counts sit at fixed places in the layout.
 */
static const char *const int_samples[] = {"3", "-7", "32767", NULL};
static const char *const int8_samples[] = {"9000000000000000000", "9000000000000000000", "-5", NULL};
static const char *const numeric_samples[] = {"1.5", "-2.25", "123456789012345678901234567890123456789012.125", NULL};
static const char *const numeric_pinf[] = {"1.5", "Infinity", "Infinity", NULL};
static const char *const numeric_ninf[] = {"-Infinity", "2", NULL};

/* A value's text through the output function of its type. */
static char *
text_of(Oid type, Datum value)
{
	Oid			out;
	bool		varlena;

	getTypeOutputInfo(type, &out, &varlena);
	return OidOutputFunctionCall(out, value);
}

/*
 * Whether PostgreSQL's final function, over its deserialization of the
 * state made here from the values, gives the node's final answer.
 */
static bool
sample_agrees(GrPartialForm form, GrOp op, GrType type, const char *const *values,
			  Oid deserialfn, Oid finalfn)
{
	GrState    *st = gr_state_create(CurrentMemoryContext, op, type, 0);
	Oid			typinput,
				typioparam;
	Datum		ours,
				partial,
				theirs;
	bool		isnull = false;
	AggState   *agg = makeNode(AggState);
	FmgrInfo	flinfo;
	LOCAL_FCINFO(fcinfo, 2);

	/* folded one by one on the CPU: a probe never reaches a batch or the GPU */
	getTypeInputInfo(gr_type_info(type)->oid, &typinput, &typioparam);
	for (int i = 0; values[i] != NULL; i++)
	{
		Datum		v = OidInputFunctionCall(typinput, unconstify(char *, values[i]),
											 typioparam, -1);

		if (gr_type_info(type)->value_class == GR_CLASS_NUMERIC)
			gr_numeric_fold(st, gr_state_accum(st)->fold_datum, &v, 1);
		else
			gr_fold_value(st, op, v);
	}
	partial = gr_native_partial(form, st);
	ours = gr_state_final(st, &isnull);

	/* deserialize (it asks for an aggregate's call context) */
	fmgr_info(deserialfn, &flinfo);
	InitFunctionCallInfoData(*fcinfo, &flinfo, 2, InvalidOid, (Node *) agg, NULL);
	fcinfo->args[0].value = partial;
	fcinfo->args[0].isnull = false;
	fcinfo->args[1].value = (Datum) 0;
	fcinfo->args[1].isnull = false;
	theirs = FunctionCallInvoke(fcinfo);
	/* final */
	fmgr_info(finalfn, &flinfo);
	InitFunctionCallInfoData(*fcinfo, &flinfo, 1, InvalidOid, (Node *) agg, NULL);
	fcinfo->args[0].value = theirs;
	fcinfo->args[0].isnull = false;
	theirs = FunctionCallInvoke(fcinfo);
	if (fcinfo->isnull || isnull)
		return fcinfo->isnull && isnull;
	return strcmp(text_of(get_func_rettype(finalfn), theirs),
				  text_of(get_func_rettype(finalfn), ours)) == 0;
}

bool
gr_native_partial_checked(GrPartialForm form, GrOp op, GrType type,
						  Oid deserialfn, Oid finalfn)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;
	MemoryContext cxt;
	const char *const *samples[3] = {NULL, NULL, NULL};
	bool		ok = true;
	GrStats		stats = gr_stats;	/* the probe is not the session's work */

	if (!OidIsValid(deserialfn) || !OidIsValid(finalfn))
		return false;
	switch (type)
	{
		case GR_INT8:
			samples[0] = int8_samples;
			break;
		case GR_NUMERIC:
			samples[0] = numeric_samples;
			samples[1] = numeric_pinf;
			samples[2] = numeric_ninf;
			break;
		default:
			samples[0] = int_samples;
			break;
	}
	cxt = AllocSetContextCreate(oldcxt, "gpu_reduce native partial check",
								ALLOCSET_SMALL_SIZES);
	/*
	 * A layout PostgreSQL reads differently may make its deserialization
	 * raise an error: run the check in a subtransaction and take an error
	 * for "no".
	 */
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		for (int i = 0; i < lengthof(samples) && samples[i] != NULL && ok; i++)
			ok = sample_agrees(form, op, type, samples[i], deserialfn, finalfn);
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcxt);
		CurrentResourceOwner = oldowner;
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(oldcxt);
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcxt);
		CurrentResourceOwner = oldowner;
		ok = false;
	}
	PG_END_TRY();
	MemoryContextDelete(cxt);
	gr_stats = stats;
	if (!ok)
		elog(DEBUG1, "gpu_reduce: PostgreSQL reads the node's partial state of form %d "
			 "differently; such aggregates stay serial", (int) form);
	return ok;
}
