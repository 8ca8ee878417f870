/*
 * sink.c
 *	  The GpuReduce node's sink: per-aggregate specs, per-group running
 *	  values, and how decoded rows and the GPU's results reach them.
 */
#include "sink.h"
#include "gr_cuda.h"
#include "native_partial.h"
#include "accum.h"

#include "catalog/pg_type.h"
#include "utils/array.h"

/*
 * Make a sink for the description's aggregates: one group, or none yet
 * under a GROUP BY; states and values go in cxt, which the sink resets.
 */
GrSink *
gr_sink_create(MemoryContext cxt, const GrScanDesc *d, GrSinkK k_of, void *k_arg)
{
	GrSink	   *s = palloc0(sizeof(GrSink));

	s->cxt = cxt;
	s->naggs = d->naggs;
	s->aggs = d->aggs;
	s->grouped = d->ngroupkeys > 0;
	s->k_of = k_of;
	s->k_arg = k_arg;
	gr_sink_reset(s);
	return s;
}

/* Add a group with no values yet; returns its number. */
int
gr_sink_add_group(GrSink *s)
{
	if (s->ngroups == s->cap)
	{
		size_t		per = sizeof(GrAggValue) * Max(s->naggs, 1);

		s->values = repalloc(s->values, per * s->cap * 2);
		memset((char *) s->values + per * s->cap, 0, per * s->cap);
		s->seen = repalloc(s->seen, sizeof(uint32) * s->cap * 2);
		memset(s->seen + s->cap, 0, sizeof(uint32) * s->cap);
		s->slot = repalloc(s->slot, sizeof(uint16) * s->cap * 2);
		s->cap *= 2;
	}
	return s->ngroups++;
}

/*
 * The state of aggregate agg in a group, made when its first values arrive
 * (gpu_topk's k is checked then, as the transition function would).
 */
static GrState *
value_state(GrSink *s, GrAggValue *v, int agg)
{
	if (v->st == NULL)
	{
		const GrScanAgg *ag = &s->aggs[agg];

		v->st = gr_state_create(s->cxt, ag->op, ag->type, s->k_of(s->k_arg, agg));
		/* one group with many rows: batch from the first value */
		if (!s->grouped)
			v->st->direct_left = 0;
	}
	return v->st;
}

/* Add n non-NULL values of one aggregate to its state: compiled per kind. */
static void
add_values(GrState *st, GrOp op, const uint64 *vals, int n)
{
	switch (op)
	{
		case GR_OP_SUM:
			gr_state_add_many(st, GR_OP_SUM, vals, n);
			break;
		case GR_OP_MIN:
			gr_state_add_many(st, GR_OP_MIN, vals, n);
			break;
		case GR_OP_MAX:
			gr_state_add_many(st, GR_OP_MAX, vals, n);
			break;
		case GR_OP_AVG:
			gr_state_add_many(st, GR_OP_AVG, vals, n);
			break;
		case GR_OP_TOPK:
			gr_state_add_many(st, GR_OP_TOPK, vals, n);
			break;
		default:
			gr_state_add_many(st, op, vals, n);
			break;
	}
}

/*
 * The largest display scale of the rows of column c whose value is not
 * NULL (idx, n: as add_rows takes them), where the column's numerics vary
 * in scale by row: each row's own is in column c + 1 (GrScanAgg.row_scale).
 */
static int
row_scale(const GrRowBlock *rows, int c, const uint16 *idx, int n)
{
	int			shown = 0;

	for (int i = 0; i < n; i++)
	{
		int			r = idx == NULL ? i : idx[i];

		if (!rows->nulls[c][r])
			shown = Max(shown, (int) rows->vals[c + 1][r]);
	}
	return shown;
}

/*
 * Fold rows of a block into a group's values: each aggregate takes the
 * non-NULL values of its argument's column (argcols: the block's column
 * per aggregate, -1 for count(*)).  The rows are idx[0..n-1], or all of
 * the block's if idx is NULL.
 */
static void
add_rows(GrSink *s, GrAggValue *vals, const GrRowBlock *rows, const int *argcols,
		 const uint16 *idx, int n)
{
	uint64		packed[GR_BLOCK_MAX_ROWS];

	for (int a = 0; a < s->naggs; a++)
	{
		const GrScanAgg *ag = &s->aggs[a];
		int			c = argcols[a];
		int			m = 0;

		if (ag->kind == GR_SCAN_COUNT_STAR || c < 0)
		{
			vals[a].count += n;
			continue;
		}
		/* the column's non-NULL values, packed (no branch a row) */
		if (idx == NULL)
			for (int r = 0; r < n; r++)
			{
				packed[m] = rows->vals[c][r];
				m += !rows->nulls[c][r];
			}
		else
			for (int i = 0; i < n; i++)
			{
				packed[m] = rows->vals[c][idx[i]];
				m += !rows->nulls[c][idx[i]];
			}
		if (ag->kind == GR_SCAN_COUNT_COL)
			vals[a].count += m;
		else if (m > 0 && ag->dec_scale >= 0)
		{
			/* a computed numeric: int64s times 10^dec_scale */
			GrState    *st = value_state(s, &vals[a], a);
			int			shown = ag->row_scale ? row_scale(rows, c, idx, n) : ag->dec_scale;

			gr_numeric_fold_scaled(st, gr_state_accum(st)->fold_datum, packed, m,
								   ag->dec_scale, shown);
		}
		else if (m > 0)
			add_values(value_state(s, &vals[a], a), ag->op, packed, m);
	}
}

/* Fold a block of rows into one group. */
void
gr_sink_add_rows(GrSink *s, int group, const GrRowBlock *rows, const int *argcols)
{
	if (rows->nrows > 0)
		add_rows(s, gr_sink_group(s, group), rows, argcols, NULL, rows->nrows);
}

/*
 * Fold a block of rows into their groups (groups[r]: row r's): the rows
 * are put in order of group (a counting sort over the block's groups, each
 * group's slot found through the block number it was last seen in), then
 * each group's run is folded as one.
 */
void
gr_sink_add_rows_grouped(GrSink *s, const int *groups, const GrRowBlock *rows,
						 const int *argcols)
{
	int			local[GR_BLOCK_MAX_ROWS];	/* the block's groups, by slot */
	int			start[GR_BLOCK_MAX_ROWS + 1];
	uint16		order[GR_BLOCK_MAX_ROWS];
	int			nlocal = 0;

	if (rows->nrows == 0)
		return;
	if (++s->block == 0)
	{
		/* the block number wrapped: no group may look seen */
		memset(s->seen, 0, sizeof(uint32) * s->cap);
		s->block = 1;
	}
	for (int r = 0; r < rows->nrows; r++)
	{
		int			g = groups[r];

		if (s->seen[g] != s->block)
		{
			s->seen[g] = s->block;
			s->slot[g] = nlocal;
			local[nlocal] = g;
			start[++nlocal] = 0;
		}
		start[s->slot[g] + 1]++;
	}
	start[0] = 0;
	for (int i = 1; i <= nlocal; i++)
		start[i] += start[i - 1];
	{
		int			fill[GR_BLOCK_MAX_ROWS];

		memcpy(fill, start, sizeof(int) * nlocal);
		for (int r = 0; r < rows->nrows; r++)
			order[fill[s->slot[groups[r]]]++] = r;
	}
	for (int i = 0; i < nlocal; i++)
		add_rows(s, gr_sink_group(s, local[i]), rows, argcols, order + start[i],
				 start[i + 1] - start[i]);
}

/*
 * Add one non-NULL value given as a Datum of the aggregate's argument type
 * (a row PostgreSQL evaluated for the expression program): the per-value
 * path the row path takes; a count(expression) counts it.
 */
void
gr_sink_add_datum(GrSink *s, int group, int agg, Datum value)
{
	const GrScanAgg *ag = &s->aggs[agg];
	GrAggValue *v = &gr_sink_group(s, group)[agg];

	if (ag->kind == GR_SCAN_COUNT_COL)
		v->count++;
	else
		gr_state_add(value_state(s, v, agg), ag->op, value);
}

/*
 * A computed numeric v times 10^scale brought to 10^shown (shown at most
 * scale, v a multiple of 10^(scale - shown)): exact.
 */
static int128
at_shown_scale(int128 v, int scale, int shown)
{
	for (; scale > shown; scale--)
		v /= 10;
	return v;
}

/*
 * Add one computed numeric given as an int128 times 10^scale (one past the
 * 64 bits of a computed column), whose display scale is shown (at most
 * scale; v a multiple of 10^(scale - shown)): a sum's or average's state
 * takes it as it is, any other kind as a numeric; a count(expression)
 * counts it.
 */
void
gr_sink_add_scaled(GrSink *s, int group, int agg, int128 v, int scale, int shown)
{
	GrState    *st;
	GrDatumFold fold;

	if (s->aggs[agg].kind == GR_SCAN_COUNT_COL)
	{
		gr_sink_group(s, group)[agg].count++;
		return;
	}
	st = value_state(s, &gr_sink_group(s, group)[agg], agg);
	fold = gr_state_accum(st)->fold_datum;
	v = at_shown_scale(v, scale, shown);
	scale = Min(scale, shown);
	if (fold == gr_num_sum_fold)
		gr_numeric_add_scaled_sum(st, fold, v, 1, scale);
	else
		gr_state_add(st, st->op, gr_scaled_numeric(v, scale));
}

/* Add to a count(*) or count(col) of a group. */
void
gr_sink_add_count(GrSink *s, int group, int agg, int64 n)
{
	gr_sink_group(s, group)[agg].count += n;
}

/*
 * Fold the result of n values a GPU job reduced for one aggregate of a
 * group.  A computed numeric's (int64s times 10^dec_scale) is their int128
 * sum, which a numeric sum's or average's state takes at the largest
 * display scale of the values, shown (dec_scale, or at most it where the
 * scale varies by row: each value a multiple of 10^(dec_scale - shown)).
 */
void
gr_sink_add_gpu(GrSink *s, int group, int agg, int cuda_op, const GrCudaResult *r,
				int64 n, int64 *topk, int shown)
{
	const GrScanAgg *ag = &s->aggs[agg];
	GrAggValue *v = &gr_sink_group(s, group)[agg];

	if (n == 0)
		return;
	if (ag->dec_scale >= 0)
	{
		int128		sum = (int128) (((uint128) (uint64) r->sum_hi << 64) | (uint64) r->sum_lo);
		GrState    *st = value_state(s, v, agg);

		if (shown < 0 || shown > ag->dec_scale)
			elog(ERROR, "gpu_reduce: a GPU sum's display scale %d is not within %d", shown,
				 ag->dec_scale);
		gr_numeric_add_scaled_sum(st, gr_state_accum(st)->fold_datum,
								  at_shown_scale(sum, ag->dec_scale, shown), n, shown);
		gr_stats.gpu_bytes += n * sizeof(int64);
	}
	else
	{
		gr_gpu_fold_result(value_state(s, v, agg), cuda_op, r, n, topk);
		gr_stats.gpu_bytes += n * gr_type_size(ag->type);
	}
	gr_stats.gpu_batches++;
	gr_stats.gpu_rows += n;
}

/* int8[] {count, sum}: native avg(int2/int4)'s transition value; NULL state: {0, 0}. */
static Datum
int8_avg_partial(GrState *st)
{
	Datum		d[2] = {Int64GetDatum(0), Int64GetDatum(0)};

	if (st != NULL)
	{
		int128		sum;

		gr_state_settle(st);
		sum = st->partial.isum;
		if (sum < PG_INT64_MIN || sum > PG_INT64_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("bigint out of range")));
		d[0] = Int64GetDatum(st->partial.count);
		d[1] = Int64GetDatum((int64) sum);
	}
	return PointerGetDatum(construct_array(d, 2, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

/*
 * One aggregate's answer for a group: its final value, or (partial) what
 * the Finalize Aggregate above takes (gpu_* aggregates' serialized states,
 * native aggregates' transition values); a count is a bigint either way.
 */
Datum
gr_sink_result(GrSink *s, int group, int agg, bool partial, bool *isnull)
{
	GrAggValue *v = &gr_sink_group(s, group)[agg];

	*isnull = false;
	if (s->aggs[agg].kind != GR_SCAN_AGG)
		return Int64GetDatum(v->count);
	if (v->st == NULL)
	{
		if (partial && s->aggs[agg].partial_form == GR_PARTIAL_INT8_AVG)
			return int8_avg_partial(NULL);
		*isnull = true;
		return (Datum) 0;
	}
	if (!partial)
		return gr_state_final(v->st, isnull);
	switch (s->aggs[agg].partial_form)
	{
		case GR_PARTIAL_STATE:
			break;
		case GR_PARTIAL_VALUE:
			return gr_state_final(v->st, isnull);
		case GR_PARTIAL_INT8_AVG:
			return int8_avg_partial(v->st);
		default:
			return gr_native_partial(s->aggs[agg].partial_form, v->st);
	}
	return PointerGetDatum(gr_state_serialize(v->st));
}

/*
 * Whether final value 'agg' of a group, a numeric sum, is NULL (*isnull)
 * or else how it compares with the numeric c (*cmp: -1, 0, 1), known
 * without making the value; false where it is not (gr_num_sum_cmp).
 */
bool
gr_sink_sum_cmp(GrSink *s, int group, int agg, Datum c, bool *isnull, int *cmp)
{
	GrAggValue *v = &gr_sink_group(s, group)[agg];

	if (s->aggs[agg].kind != GR_SCAN_AGG || s->aggs[agg].op != GR_OP_SUM ||
		s->aggs[agg].type != GR_NUMERIC)
		return false;
	*isnull = v->st == NULL || v->st->partial.count == 0;
	return *isnull || gr_num_sum_cmp(&v->st->partial, c, cmp);
}

/*
 * Forget every group and its values (a rescan, or the groups emitted):
 * the states' memory goes with cxt.
 */
void
gr_sink_reset(GrSink *s)
{
	MemoryContextReset(s->cxt);
	s->cap = s->grouped ? 64 : 1;
	s->ngroups = s->grouped ? 0 : 1;
	s->values = MemoryContextAllocZero(s->cxt, sizeof(GrAggValue) * s->cap * Max(s->naggs, 1));
	s->seen = s->grouped ? MemoryContextAllocZero(s->cxt, sizeof(uint32) * s->cap) : NULL;
	s->slot = s->grouped ? MemoryContextAlloc(s->cxt, sizeof(uint16) * s->cap) : NULL;
	s->block = 0;
}
