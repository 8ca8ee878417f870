/*
 * types.c
 *	  The type table: one entry per input type of the aggregates.
 *
 * An entry says how wide a batch value is, which storage kind (one of the
 * five native types the CPU loops and the GPU kernels are compiled for) its
 * values and order keys take, its value class (which accumulators the kinds
 * table gives its aggregates), whether it has sums, the range of its order
 * keys, how a key becomes a Datum again, and gpu_sum's result type.  Nothing else in the module switches on the input type:
 * adding a type whose values are 2-, 4- or 8-byte integers or floats inside
 * is one entry here plus its line of the install script's matrix
 * (sqlgen/matrix.txt); a variable-length type (numeric) also needs its
 * own state code (numeric_state.c), named by the entry.
 */
#include "state.h"

#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/numeric.h"

/* order keys back to Datums */
static Datum
int2_from_key(int64 key)
{
	return Int16GetDatum((int16) key);
}

static Datum
int4_from_key(int64 key)
{
	return Int32GetDatum((int32) key);
}

static Datum
int8_from_key(int64 key)
{
	return Int64GetDatum(key);
}

static Datum
float4_from_key(int64 key)
{
	return Float4GetDatum(gr_float4_from_key(key));
}

static Datum
float8_from_key(int64 key)
{
	return Float8GetDatum(gr_float8_from_key(key));
}

/* classes of WHERE comparisons the bulk scan evaluates (qual_class) */
#define QUAL_INTEGER 1			/* across smallint, integer, bigint */
#define QUAL_FLOAT 2			/* across real, double precision */
#define QUAL_DATE 3				/* each time type with itself only: the */
#define QUAL_TIMESTAMP 4		/* cross-type operators convert units */
#define QUAL_TIMESTAMPTZ 5
#define QUAL_NONE 0				/* no comparisons in the bulk scan */

/* float order keys: the sign-folded bits, the canonical NaN's key the largest */
#define FLOAT4_KEY_MIN ((int64) PG_INT32_MIN)
#define FLOAT4_KEY_MAX ((int64) PG_INT32_MAX)

#define INT GR_CLASS_INT
#define FLOAT GR_CLASS_FLOAT

const GrTypeInfo gr_types[GR_TYPE_LAST + 1] = {
	[GR_INT2] = {"int2", INT2OID, 2, GR_INT2, INT, true, QUAL_INTEGER,
		PG_INT16_MIN, PG_INT16_MAX, int2_from_key, INT8OID},
	[GR_INT4] = {"int4", INT4OID, 4, GR_INT4, INT, true, QUAL_INTEGER,
		PG_INT32_MIN, PG_INT32_MAX, int4_from_key, INT8OID},
	[GR_INT8] = {"int8", INT8OID, 8, GR_INT8, INT, true, QUAL_INTEGER,
		PG_INT64_MIN, PG_INT64_MAX, int8_from_key, NUMERICOID},
	[GR_FLOAT4] = {"float4", FLOAT4OID, 4, GR_FLOAT4, FLOAT, true, QUAL_FLOAT,
		FLOAT4_KEY_MIN, FLOAT4_KEY_MAX, float4_from_key, FLOAT4OID},
	[GR_FLOAT8] = {"float8", FLOAT8OID, 8, GR_FLOAT8, FLOAT, true, QUAL_FLOAT,
		PG_INT64_MIN, PG_INT64_MAX, float8_from_key, FLOAT8OID},

	/*
	 * The time types are integers inside, and PostgreSQL orders them, their
	 * -infinity and infinity (the integer range's ends) included, as
	 * integers.  They have no sum.
	 */
	[GR_DATE] = {"date", DATEOID, 4, GR_INT4, INT, false, QUAL_DATE,
		PG_INT32_MIN, PG_INT32_MAX, int4_from_key, InvalidOid},
	[GR_TIMESTAMP] = {"timestamp", TIMESTAMPOID, 8, GR_INT8, INT, false, QUAL_TIMESTAMP,
		PG_INT64_MIN, PG_INT64_MAX, int8_from_key, InvalidOid},
	[GR_TIMESTAMPTZ] = {"timestamptz", TIMESTAMPTZOID, 8, GR_INT8, INT, false, QUAL_TIMESTAMPTZ,
		PG_INT64_MIN, PG_INT64_MAX, int8_from_key, InvalidOid},

	/*
	 * numeric is variable-length: no batch values, no order keys; its
	 * accumulators are numeric_state.c's.
	 */
	[GR_NUMERIC] = {"numeric", NUMERICOID, 0, GR_STORAGE_DATUM, GR_CLASS_NUMERIC, true, QUAL_NONE,
		0, 0, NULL, NUMERICOID},
};

#undef INT
#undef FLOAT

/* Size in bytes of one batch value of the type. */
int
gr_type_size(GrType type)
{
	if (type < 1 || type > GR_TYPE_LAST)
		elog(ERROR, "gpu_reduce: unknown type %d", (int) type);
	return gr_types[type].width;
}

/* The GrType of a SQL type, or 0 for a type the aggregates do not take. */
GrType
gr_type_of_oid(Oid typid)
{
	for (int t = 1; t <= GR_TYPE_LAST; t++)
		if (gr_types[t].oid == typid)
			return (GrType) t;
	return 0;
}
