/*
 * finals.c
 *	  The results of the integer and float classes' aggregates: sums and
 *	  averages as native sum() and avg() type them, and min/max/top-k as
 *	  values of the input type (numeric's are numeric_state.c's).
 */
#include "accum.h"

#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"

/*
 * An int128 as a numeric: directly when it fits in int64 (the common case,
 * and a GROUP BY finalizes one per group), else through its decimal text.
 */
Numeric
gr_int128_to_numeric(int128 v)
{
	char		buf[48];
	char	   *p = buf + sizeof(buf) - 1;
	uint128		mag = v < 0 ? -(uint128) v : (uint128) v;

	if (v >= PG_INT64_MIN && v <= PG_INT64_MAX)
		return int64_to_numeric((int64) v);
	*p = '\0';
	do
	{
		*--p = '0' + (int) (mag % 10);
		mag /= 10;
	} while (mag != 0);
	if (v < 0)
		*--p = '-';
	return DatumGetNumeric(DirectFunctionCall3(numeric_in, CStringGetDatum(p),
											   ObjectIdGetDatum(InvalidOid),
											   Int32GetDatum(-1)));
}

/*
 * The exact float sum rounded once to float8 (single: to float4, returned
 * exactly as a double), with PostgreSQL's overflow error.
 */
static double
rounded_float_sum(GrPartial *p, bool single)
{
	double		r;
	float		f;
	GrXsum		tmp;
	GrXsum	   *x;

	if (!gr_partial_is_wide(p) && gr_xsmall_round(&p->small, single, &r))
		return r;
	x = gr_partial_xsum(p, &tmp);
	if (!single)
	{
		if (gr_xsum_to_double(x, p->count, &r) == GR_XSUM_OVERFLOW)
			float_overflow_error();
		return r;
	}
	if (gr_xsum_to_float(x, p->count, &f) == GR_XSUM_OVERFLOW)
		float_overflow_error();
	return f;
}

/*
 * gpu_sum of an integer type: as native sum(), bigint for smallint and
 * integer (with int8's overflow error), numeric for bigint.
 */
Datum
gr_final_sum_int(GrState *st, bool *isnull)
{
	int128		sum = st->partial.isum;

	if (gr_type_info(st->type)->sum_type == NUMERICOID)
		return NumericGetDatum(gr_int128_to_numeric(sum));
	if (sum < PG_INT64_MIN || sum > PG_INT64_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("bigint out of range")));
	return Int64GetDatum((int64) sum);
}

/* gpu_avg of an integer type: numeric, as numeric.c's int8_avg builds it. */
Datum
gr_final_avg_int(GrState *st, bool *isnull)
{
	return DirectFunctionCall2(numeric_div,
							   NumericGetDatum(gr_int128_to_numeric(st->partial.isum)),
							   NumericGetDatum(int64_to_numeric(st->partial.count)));
}

/* gpu_sum of a float type: the exact sum rounded once to the input type. */
Datum
gr_final_sum_float(GrState *st, bool *isnull)
{
	if (gr_type_info(st->type)->sum_type == FLOAT4OID)
		return Float4GetDatum((float4) rounded_float_sum(&st->partial, true));
	return Float8GetDatum(rounded_float_sum(&st->partial, false));
}

/*
 * gpu_avg of a float type: the rounded exact sum over the count, plus +0
 * so that an average of negative zeros is 0, as avg()'s (its running sum
 * starts at +0); no other value changes.
 */
Datum
gr_final_avg_float(GrState *st, bool *isnull)
{
	return Float8GetDatum(rounded_float_sum(&st->partial, false) /
						  (float8) st->partial.count + 0.0);
}

/* gpu_min/gpu_max of a fixed-width type: the value of the kept key. */
Datum
gr_final_key(GrState *st, bool *isnull)
{
	return gr_type_info(st->type)->from_key(st->partial.key);
}

/* gpu_top2/gpu_topk of a fixed-width type: an array of it, largest first. */
Datum
gr_final_key_array(GrState *st, bool *isnull)
{
	int64	   *keys;
	int			n = gr_partial_sorted_keys(&st->partial, &keys);
	Datum	   *elems = palloc(sizeof(Datum) * n);
	int16		typlen;
	bool		typbyval;
	char		typalign;
	const GrTypeInfo *ti = gr_type_info(st->type);
	Oid			elemtype = ti->oid;

	for (int i = 0; i < n; i++)
		elems[i] = ti->from_key(keys[i]);
	get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
	return PointerGetDatum(construct_array(elems, n, elemtype,
										   typlen, typbyval, typalign));
}

