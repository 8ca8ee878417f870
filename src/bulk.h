/*
 * bulk.h
 *	  The bulk scan: a plan node (Custom Scan "GpuReduce") that reads a
 *	  table's pages itself and feeds the gpu_* aggregates' states directly,
 *	  past the executor's row-at-a-time path.
 *
 * bulk_plan.c recognizes the queries it can take and builds the node;
 * bulk_scan.c runs it.  What the planner decided travels in the plan's
 * custom_private as the scan description (scan_desc.h), and the constants
 * of the WHERE comparisons and of gpu_topk's k in custom_exprs; the
 * aggregates' running values are the sink's (sink.h).
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

/*
 * A hashed relation joined inner or left whose rows pass its distinct keys
 * by more than one in GR_JOIN_GPU_DUPS is probed on the CPU: a row of
 * several matches goes back from a GPU's job (bulk_scan.c's
 * keys_mostly_unique at run time; the planner costs such a join there,
 * bulk_plan.c's join_on_gpu)
 */
#define GR_JOIN_GPU_DUPS		10

/*
 * A hashed relation is fetched by the keys of the probe table's rows its
 * WHERE keeps (GrScanJoin.probe_keys) only where it has this many rows or
 * more for each key: the planner's estimate (bulk_plan.c's
 * probe_fetchable), then the keys the table's read finds (bulk_scan.c's
 * build_one, which otherwise reads the relation from its pages)
 */
#define GR_PROBE_ROWS_PER_KEY	16

/*
 * Keys of the table's rows per page of such a relation from which its
 * pages are read by list jobs that keep only the rows of those keys
 * (bulk_scan.c's keys_semi), not looked up, and the planner costs that
 * read (probe_fetch_cost): on a GPU a page filtered costs about a seventh
 * of a lookup (the H200: TPC-H Q3's 26 845 orders pages in 7.9 ms of
 * values jobs, Q12's lookups 2.1 us each), so from a key per four pages;
 * in cpu mode the host decodes every row of a page, about three lookups.
 */
#define GR_KEYS_PER_PAGE_GPU	0.25
#define GR_KEYS_PER_PAGE_CPU	3.0

/* ... the one of this session's gpu_reduce.page_path */
static inline double
gr_keys_per_page(void)
{
	return gr_page_path == GR_PAGE_PATH_CPU ? GR_KEYS_PER_PAGE_CPU : GR_KEYS_PER_PAGE_GPU;
}

/* GUCs */
extern bool gr_bulk_scan;
extern int	gr_native_aggregates;

/* gpu_reduce.native_aggregates */
typedef enum GrNativeMode
{
	GR_NATIVE_OFF,
	GR_NATIVE_ON,
	GR_NATIVE_EXACT
} GrNativeMode;

extern const CustomScanMethods gr_bulk_scan_methods;

extern void gr_bulk_plan_init(void);
extern Node *gr_bulk_create_state(CustomScan *cscan);

/* the planner's estimate of gpu_* states' memory (agg_space.c) */
extern void gr_agg_space_fix_rel(PlannerInfo *root, RelOptInfo *input_rel,
								 RelOptInfo *grouped_rel);
extern Path *gr_agg_space_fix_path(PlannerInfo *root, RelOptInfo *input_rel, Path *path);
extern double gr_agg_space_group(PlannerInfo *root, double values);

/* the page path (page_path.c) */
struct GrDecodeDesc;
struct GrQual;
struct GrExprProg;
struct GrPageJob;
typedef struct GrPagePath GrPagePath;

/*
 * one aggregate a page job reduces: over column col (a decoded one, or
 * after them a program's output), of type 'type' as the GPU reduces it
 */
typedef struct GrPageOutSpec
{
	int			col;
	GrOp		op;
	GrType		type;
	int32		k;
} GrPageOutSpec;

/*
 * A GROUP BY the page path's jobs group by (common/page_group.h), or none
 * (nkeys 0): each key's column in the row and GrKeyKind as the job
 * compares it, and the columns whose non-NULL values each group counts.
 */
#define GR_PAGE_GROUP_MAX_KEYS 8
typedef struct GrPageGroupSpec
{
	int			nkeys;
	int			keycol[GR_PAGE_GROUP_MAX_KEYS];
	uint8		keykind[GR_PAGE_GROUP_MAX_KEYS];
	/* 0, or 1 + the hashed relation whose varlena value the key is (GrPageJob.gkey_rel) */
	uint8		keyrel[GR_PAGE_GROUP_MAX_KEYS];
	uint32		count_cols;		/* bit c: column c */
	/*
	 * every key's word is its value (fixed-width bits that are not a
	 * float's, or text's bytes): the scan turns a group's words back into
	 * its keys, so the jobs may fold into one table for the scan (kept on
	 * the GPU, collected at its end) sized from 'groups', the estimate,
	 * and 'rows', the table's (the most groups it can make; 0: unknown)
	 */
	bool		by_words;
	double		groups;
	double		rows;
} GrPageGroupSpec;

/* how the page path gives pages back to the scan */
typedef struct GrPageCallbacks
{
	/* decode one pinned page on the CPU: these visible line pointers */
	void		(*cpu_page) (void *arg, Buffer buf, const OffsetNumber *offs, int n);
	/*
	 * fold the results of a job the GPU did; false, having folded nothing,
	 * when its pages must be decoded on the CPU instead
	 */
	bool		(*gpu_job) (void *arg, struct GrPageJob *job);
	/*
	 * fold n groups of the scan's table (entries as a grouping job's, the
	 * job's layout), collected at the scan's end; sole: this table is the
	 * only one the scan's jobs folded into (one GPU's, or the host's), so
	 * a group of it holds every row of its key that reached a table
	 */
	void		(*groups) (void *arg, const struct GrPageJob *job, const uint64 *ents, uint64 n,
						   bool sole);
	/*
	 * before the scan's tables are collected (sole as above): the checks
	 * (GrPageCheck) that drop a table's groups HAVING would reject, into
	 * job's; ncheck 0 where none may
	 */
	void		(*checks) (void *arg, struct GrPageJob *job, bool sole);
	void	   *arg;
} GrPageCallbacks;

/* a join's hashed relation, as the jobs probe it (page_job.h's GrPageJoin) */
#define GR_PAGE_SPEC_JOINS		8
#define GR_PAGE_SPEC_JOIN_KEYS	4
typedef struct GrPageJoinRel
{
	int			type;			/* GR_PAGE_JOIN_* */
	int			nkeys;
	int			keycol[GR_PAGE_SPEC_JOIN_KEYS]; /* the row's columns */
	int			keywidth[GR_PAGE_SPEC_JOIN_KEYS];
	int			valpos;			/* its values' first column in the row */
	int			nvals;
	uint32		varmask;		/* values that are varlenas */
	const void *image;			/* join_image.h, in this process's memory */
	uint8	   *marks;			/* GR_PAGE_JOIN_MARK: a byte per row, set to 1
								 * where a row matches it (cpu mode; a GPU
								 * sets its own copy's) */
} GrPageJoinRel;

/*
 * The join a table's rows go through: its relations, the joined-row
 * program (bound, or NULL) whose outputs are the columns from jbase on,
 * ncols columns in all, and key, the images' name on the GPUs (0: not
 * uploaded, so only cpu mode may run the jobs)
 */
typedef struct GrPageJoinSpec
{
	int			njoins;
	GrPageJoinRel rels[GR_PAGE_SPEC_JOINS];
	const struct GrExprProg *jprog;
	int			jbase;
	int			ncols;
	uint64		key;
} GrPageJoinSpec;

extern const char *gr_page_path_unavailable(GrPagePathMode mode,
											const struct GrDecodeDesc *d,
											const struct GrExprProg *prog,
											const GrPageOutSpec *outs, int nouts,
											const GrPageGroupSpec *grp,
											const GrPageJoinSpec *join);
extern GrPagePath *gr_page_path_begin(MemoryContext cxt, GrPagePathMode mode,
									  const struct GrDecodeDesc *d,
									  const struct GrQual *quals, int nquals,
									  const struct GrExprProg *prog,
									  const GrPageOutSpec *outs, int nouts,
									  const GrPageGroupSpec *grp,
									  const GrPageJoinSpec *join,
									  const GrPageCallbacks *cb);
extern GrPagePath *gr_page_path_begin_list(MemoryContext cxt, GrPagePathMode mode,
										   const struct GrDecodeDesc *d,
										   const struct GrQual *quals, int nquals,
										   const struct GrExprProg *prog, uint32 store,
										   const GrPageJoinSpec *semi,
										   const GrPageCallbacks *cb);
/*
 * a join's images onto every GPU (the page path's jobs), named by a key
 * that one process owns until it releases them or cxt goes
 */
typedef struct GrPageImages GrPageImages;
extern GrPageImages *gr_page_path_own_images(MemoryContext cxt);
extern uint64 gr_page_path_images_key(const GrPageImages *im);
extern bool gr_page_path_upload_images(uint64 key, const void *const *images,
									   const Size *bytes, const Size *marks, int n,
									   const char **why);
extern void gr_page_path_fetch_marks(uint64 key, int index, uint8 *marks, Size n);
extern void gr_page_path_release_images(GrPageImages *im);
extern void gr_page_path_add(GrPagePath *pp, Buffer buf, const OffsetNumber *vis, int n);
extern bool gr_page_path_all_normal(Page page, Snapshot snapshot);
/* what a scan's page path did, for EXPLAIN ANALYZE */
typedef struct GrPagePathTotals
{
	uint64		gpu_pages;		/* pages of jobs the GPU decoded */
	uint64		cpu_job_pages;	/* cpu mode: pages of jobs the backend ran as the GPU would */
	uint64		overflowed_jobs;	/* grouping jobs with more groups than room */
	uint64		table_groups;	/* groups collected from the scan's tables */
	uint64		table_dropped;	/* ... of them dropped by HAVING's checks */
	uint64		wait_us;		/* waiting for the GPU's jobs */
} GrPagePathTotals;

extern void gr_page_path_finish(GrPagePath *pp, GrPagePathTotals *totals);


#endif							/* GR_BULK_H */
