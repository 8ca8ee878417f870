/*
 * stats.c
 *	  Per-backend counters of where batches were reduced, and their SQL
 *	  functions.
 */
#include "state.h"

#include "access/htup_details.h"
#include "funcapi.h"

GrStats		gr_stats;

PG_FUNCTION_INFO_V1(gpu_reduce_stats);
PG_FUNCTION_INFO_V1(gpu_reduce_stats_reset);

/* gpu_reduce_stats(): one row of this backend's counters. */
Datum
gpu_reduce_stats(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[7];
	bool		nulls[7] = {0};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = Int64GetDatum(gr_stats.gpu_batches);
	values[1] = Int64GetDatum(gr_stats.gpu_rows);
	values[2] = Int64GetDatum(gr_stats.gpu_bytes);
	values[3] = Int64GetDatum(gr_stats.gpu_fallbacks);
	values[4] = Int64GetDatum(gr_stats.cpu_batches);
	values[5] = Int64GetDatum(gr_stats.cpu_rows);
	values[6] = Int64GetDatum(gr_stats.buffer_peak_bytes);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc),
													  values, nulls)));
}

/* gpu_reduce_stats_reset(): zero the counters; the peak restarts from now. */
Datum
gpu_reduce_stats_reset(PG_FUNCTION_ARGS)
{
	int64		held = gr_stats.buffer_bytes;

	memset(&gr_stats, 0, sizeof(gr_stats));
	gr_stats.buffer_bytes = held;
	gr_stats.buffer_peak_bytes = held;
	PG_RETURN_VOID();
}
