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

#include "batch.h"

#include "nodes/extensible.h"
#include "storage/buf.h"
#include "storage/bufpage.h"
#include "storage/off.h"
#include "utils/snapshot.h"

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

/* the page path (page_path.c) */
struct GrDecodeDesc;
struct GrQual;
struct GrPageJob;
typedef struct GrPagePath GrPagePath;

/* one aggregate a page job reduces: over the desc's column col */
typedef struct GrPageOutSpec
{
	int			col;
	GrOp		op;
	GrType		type;
	int32		k;
} GrPageOutSpec;

/* how the page path gives pages back to the scan */
typedef struct GrPageCallbacks
{
	/* decode one pinned page on the CPU: these visible line pointers */
	void		(*cpu_page) (void *arg, Buffer buf, const OffsetNumber *offs, int n);
	/* fold the results of a job the GPU did */
	void		(*gpu_job) (void *arg, struct GrPageJob *job);
	void	   *arg;
} GrPageCallbacks;

extern const char *gr_page_path_unavailable(GrPagePathMode mode,
											const struct GrDecodeDesc *d,
											const GrPageOutSpec *outs, int nouts);
extern GrPagePath *gr_page_path_begin(MemoryContext cxt, GrPagePathMode mode,
									  const struct GrDecodeDesc *d,
									  const struct GrQual *quals, int nquals,
									  const GrPageOutSpec *outs, int nouts,
									  const GrPageCallbacks *cb);
extern void gr_page_path_add(GrPagePath *pp, Buffer buf, const OffsetNumber *vis, int n);
extern bool gr_page_path_all_normal(Page page, Snapshot snapshot);
extern void gr_page_path_finish(GrPagePath *pp, uint64 *gpu_pages, uint64 *wait_us);

/* finalize and serialize a state outside an aggregate call (agg.c, serial.c) */
extern Datum gr_state_final(GrState *st, bool *isnull);
extern bytea *gr_state_serialize(GrState *st);

#endif							/* GR_BULK_H */
