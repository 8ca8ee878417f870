/*
 * bulk.h
 *	  The bulk scan: a plan node (Custom Scan "GpuReduce") that reads a
 *	  table's pages itself and feeds the gpu_* aggregates' states directly,
 *	  past the executor's row-at-a-time path.
 *
 * bulk_plan.c recognizes the queries it can take and builds the node;
 * bulk_scan.c runs it.  What the planner decided travels in the plan's
 * custom_private as the lists described here (plans are copied, so plain
 * integer lists), and the constants of the WHERE comparisons and of
 * gpu_topk's k in custom_exprs.
 */
#ifndef GR_BULK_H
#define GR_BULK_H

#include "gpu_reduce.h"

#include "nodes/extensible.h"

#define GR_BULK_NAME "GpuReduce"

/* what one output column of the node computes */
typedef enum GrBulkKind
{
	GR_BULK_AGG,				/* a gpu_* aggregate */
	GR_BULK_COUNT_STAR,			/* count(*) */
	GR_BULK_COUNT_COL			/* count(col) */
} GrBulkKind;

/* custom_private: list of these, in this order */
enum
{
	GR_PRIV_PARTIAL,			/* Integer: 1 for partial states (parallel) */
	GR_PRIV_OUTPUTS,			/* List of List: kind, op, type, kexpr */
	GR_PRIV_TABLES,				/* List of GR_TABLE_* lists, in scan order */
	GR_PRIV_COUNT
};

/* one table the node reads (its query's, or a leaf of its inheritance tree) */
enum
{
	GR_TABLE_RELID,				/* Integer: the table's OID (a range table index
								 * would change when the plan is flattened) */
	GR_TABLE_ATTNOS,			/* List of Integer: 0-based attnos read */
	GR_TABLE_OUTCOLS,			/* List of Integer: each output's column, or -1 */
	GR_TABLE_QUALS,				/* List of List: col, op, kind, width, expr */
	GR_TABLE_FILTER				/* String: the WHERE clause, for EXPLAIN */
};

/* GUC */
extern bool gr_bulk_scan;

extern const CustomScanMethods gr_bulk_scan_methods;

extern void gr_bulk_plan_init(void);
extern Node *gr_bulk_create_state(CustomScan *cscan);

/* finalize and serialize a state outside an aggregate call (agg.c, serial.c) */
extern Datum gr_state_final(GrState *st, bool *isnull);
extern bytea *gr_state_serialize(GrState *st);

#endif							/* GR_BULK_H */
