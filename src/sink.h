/*
 * sink.h
 *	  Where the GpuReduce node's decoded rows go: per-aggregate specs kept
 *	  apart from per-group running values, as nodeAgg.c keeps
 *	  AggStatePerAgg apart from AggStatePerGroup.
 *
 * A sink is made from a scan description's aggregates.  It holds, for each
 * group and each aggregate, a GrAggValue (the aggregate's state, made on its
 * first value, or its count); the whole-table case is one group (group 0),
 * and under a GROUP BY the group table (group_table.h) numbers the groups.
 * Rows arrive row-aligned (GrRowBlock: every column of row r at index r,
 * with its NULL flag), so that an aggregate, and later a group key or an
 * expression, sees one row's values together; results of the GPU's page
 * jobs arrive per aggregate.
 */
#ifndef GR_SINK_H
#define GR_SINK_H

#include "batch.h"
#include "scan_desc.h"
#include "tuple_decode.h"

struct GrCudaResult;

/* most rows of one block: a heap page's tuples (MaxHeapTuplesPerPage) */
#define GR_BLOCK_MAX_ROWS 291

/* Decoded rows, aligned by row: column c of row r is vals[c][r] (NULL if nulls[c][r]). */
typedef struct GrRowBlock
{
	int			nrows;
	int			ncols;
	uint64		vals[GR_DECODE_MAX_COLS][GR_BLOCK_MAX_ROWS];
	bool		nulls[GR_DECODE_MAX_COLS][GR_BLOCK_MAX_ROWS];
} GrRowBlock;

/* One aggregate's running value in one group. */
typedef struct GrAggValue
{
	GrState    *st;				/* a gpu_* aggregate's state; NULL until a value */
	int64		count;			/* count(*), count(col) */
} GrAggValue;

/*
 * The k of aggregate agg (gpu_topk's, checked as its transition function
 * checks it), asked once the aggregate's first value has arrived.
 */
typedef int32 (*GrSinkK) (void *arg, int agg);

typedef struct GrSink
{
	MemoryContext cxt;			/* values and states; reset by gr_sink_reset */
	int			naggs;
	const GrScanAgg *aggs;		/* per aggregate: what it computes */
	bool		grouped;		/* a GROUP BY: groups are added */
	int			ngroups;
	int			cap;			/* groups the arrays have room for */
	GrAggValue *values;			/* ngroups x naggs, group-major */
	/* gr_sink_add_rows_grouped: per group, the last block it was seen in */
	uint32	   *seen;			/* and its slot in that block */
	uint16	   *slot;
	uint32		block;
	GrSinkK		k_of;
	void	   *k_arg;
} GrSink;

extern GrSink *gr_sink_create(MemoryContext cxt, const GrScanDesc *d, GrSinkK k_of,
							  void *k_arg);
extern int	gr_sink_add_group(GrSink *s);
extern void gr_sink_add_rows(GrSink *s, int group, const GrRowBlock *rows,
							 const int *argcols);
extern void gr_sink_add_rows_grouped(GrSink *s, const int *groups, const GrRowBlock *rows,
									 const int *argcols);
extern void gr_sink_add_gpu(GrSink *s, int group, int agg, int cuda_op,
							const struct GrCudaResult *r, int64 n, int64 *topk, int shown);
extern void gr_sink_add_count(GrSink *s, int group, int agg, int64 n);
extern void gr_sink_add_datum(GrSink *s, int group, int agg, Datum value);
extern void gr_sink_add_scaled(GrSink *s, int group, int agg, int128 v, int scale, int shown);
extern Datum gr_sink_result(GrSink *s, int group, int agg, bool partial, bool *isnull);
extern bool gr_sink_sum_cmp(GrSink *s, int group, int agg, Datum c, bool *isnull, int *cmp);
extern void gr_sink_reset(GrSink *s);

/* The running values of one group, one per aggregate. */
static inline GrAggValue *
gr_sink_group(GrSink *s, int group)
{
	return &s->values[(size_t) group * s->naggs];
}

#endif							/* GR_SINK_H */
