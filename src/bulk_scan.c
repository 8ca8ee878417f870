/*
 * bulk_scan.c
 *	  Running the bulk scan: read the table's pages, decide visibility a page
 *	  at a time, decode the aggregated columns of the visible rows that pass
 *	  the WHERE comparisons, and feed them to the same states, reducers and
 *	  finalize as the per-row aggregate path.
 *
 * Pages are read as a sequential scan reads them: a heap scan descriptor
 * with the bulk-read ring, heap page-mode visibility (heapgetpage, or
 * heap_prepare_pagescan from PostgreSQL 17 on: no per-tuple check on an
 * all-visible page, except on a hot standby; serializable conflict checks;
 * on-access pruning) and the relation's predicate lock.  Visible tuples
 * stay valid while their buffer is pinned, which the scan does until it
 * moves to the next page.  A parallel plan shares the table's parallel
 * block scan; each participant emits its partial states, serialized.
 * Under a GROUP BY each row's keys find its group in the group table
 * (group_table.c), and the node emits one row of partial states per group
 * for PostgreSQL's Finalize Aggregate; when the groups outgrow the hash
 * memory limit (work_mem x hash_mem_multiplier) they are emitted into a
 * tuplestore, which spills to disk as PostgreSQL's do, and the table starts
 * afresh: a group may then come more than once, which the Finalize
 * Aggregate combines.  In final mode (a serial plan the planner chose it
 * for) the node returns each group's final row itself, HAVING applied, and
 * holds every group within gpu_reduce.group_memory: where more come, it
 * reads the tables again in passes, each keeping the groups whose key hash
 * lies in its share of the hash space (run_pass).
 */
#include "bulk.h"
#include "buf_hints.h"
#include "held_pins.h"
#include "scan_desc.h"
#include "sink.h"
#include "accum.h"
#include "group_table.h"
#include "join_hash.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/relscan.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_index.h"
#include "catalog/pg_opfamily_d.h"
#include "catalog/pg_statistic.h"
#include "commands/explain.h"
#include GR_EXPLAIN_FORMAT_H
#include "executor/executor.h"
#include "executor/nodeHash.h"
#include "executor/instrument.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "port/atomics.h"
#include "storage/bufmgr.h"
#include "storage/barrier.h"
#include "storage/bufpage.h"
#include "utils/array.h"
#include "utils/datum.h"
#include "utils/dsa.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"
#include "utils/wait_event.h"
#include "tuple_decode.h"
#include "time_range.h"
#include "expr.h"
#include "expr_compile.h"
#include "gr_cuda.h"
#include "page_job.h"
#include "page_group.h"		/* the layout of a grouping job's groups */

StaticAssertDecl(GR_PAGE_LINP_OFFSET == SizeOfPageHeaderData, "page header size");
StaticAssertDecl(GR_TUP_INFOMASK2_OFFSET == offsetof(HeapTupleHeaderData, t_infomask2),
				 "t_infomask2 offset");
StaticAssertDecl(GR_TUP_INFOMASK_OFFSET == offsetof(HeapTupleHeaderData, t_infomask),
				 "t_infomask offset");
StaticAssertDecl(GR_TUP_HOFF_OFFSET == offsetof(HeapTupleHeaderData, t_hoff),
				 "t_hoff offset");
StaticAssertDecl(GR_TUP_BITS_OFFSET == offsetof(HeapTupleHeaderData, t_bits),
				 "t_bits offset");
StaticAssertDecl(GR_HEAP_HASNULL == HEAP_HASNULL && GR_HEAP_HASVARWIDTH == HEAP_HASVARWIDTH &&
				 GR_HEAP_NATTS_MASK == HEAP_NATTS_MASK, "infomask bits");

/* tuples ahead of the one being decoded whose memory is requested early */
#define GR_PREFETCH_TUPLES 16
/* a page's header and line pointers: its first cache lines, fetched first */
#define GR_PAGE_HEAD_LINES 4
/* most lines of the next page fetched a tuple */
#define GR_NEXT_PAGE_LINES_MAX 8

/* One table the node reads. */
typedef struct BulkTable
{
	Relation	rel;
	GrDecodeDesc *desc;
	const int  *argcols;		/* each aggregate's column index, or -1 */
	int		   *keyrow;			/* each group key's column in the row: decoded,
								 * or computed (after the decoded ones) */
	int			nquals;
	GrQual		quals[GR_MAX_QUALS];	/* as bound for this scan */
	uint8		qual_ops[GR_MAX_QUALS]; /* each comparison's operator as planned */
	Oid			qual_times[GR_MAX_QUALS];	/* a time column's type where its constant
											 * is another time type's, else 0 */
	ExprState **qual_exprs;		/* each comparison's constant */
	char	   *filter;
	/* the expression program (common/expr.h), its constants bound per scan */
	GrExprProg *prog;
	ExprState **binds;			/* per constant: its run-time expression, or NULL */
	const int  *argouts;		/* per aggregate: the program output it reads, or -1 */
	int		   *rowcols;		/* per aggregate: its column in the row block (a
								 * computed one after the decoded ones), or -1 */
	ExprState  *xqual;			/* PostgreSQL's evaluation of a row the program */
	ExprState **xouts;			/* hands back: its conjuncts, its outputs */
	TupleTableSlot *xslot;
	HeapTupleData xtuple;		/* the tuple xslot holds (a slot keeps a pointer
								 * to it: it must outlive fallback_quals) */
	TableScanDesc scan;
	ParallelBlockTableScanDesc pscan;	/* in the shared memory, or NULL */
	GrBufHints *hints;			/* where its blocks sit in shared_buffers, or NULL */
} BulkTable;

/* A relation the node hashes and probes (a join). */
typedef struct BulkJoin
{
	const GrScanJoin *desc;
	PlanState  *child;			/* PostgreSQL's plan for it, or NULL: */
	BulkTable  *pages;			/* the node reads its pages (GrScanJoin.pages) */
	GrJoinHash *hash;			/* built (or attached) at the scan's start, or NULL */
	int			keypos[GR_JOIN_MAX_KEYS];	/* each key's other side in the row */
	int			valpos;			/* its first value's place in the row */
	/* for EXPLAIN ANALYZE: the build's rows, bytes and time, and rows matched */
	bool		built;
	int64		hashed_rows;
	Size		hash_bytes;
	double		build_ms;
	uint64		matches;
	int64		left_out;		/* rows a later relation's keys left out (ReducedRows), or -1 */
	char	   *index;			/* ... its rows fetched by this index (IndexRows), or NULL */
	int64		lookups;
	int64		probe_pages;	/* ... for the table's keys (probe_keys): the
								 * table's pages its list jobs read; or -1 */
	int64		job_pages;		/* ... its pages filtered by list jobs (PageRows.pp), or -1 */
	int64		job_rows;		/* ... the rows whose values they brought back
								 * (values jobs), or -1 */
	double		job_ms;			/* ... the time spent feeding them pages and
								 * taking what they kept, or -1 */
	const GrPageJoinSpec *semi; /* ... the semi joins its list jobs filter its
								 * rows by while it is built (semi_joins,
								 * keys_semi), or NULL */
	int64		filter_keys;	/* ... where that is the table's keys' (which
								 * plain list jobs take too): the keys; else
								 * -1 */
	/* a marked join (GrScanJoin.marked): per hashed row, 1 once a probe matched it */
	uint8	   *marks;
	uint64		marked_rows;	/* for EXPLAIN ANALYZE: rows marked */
} BulkJoin;

/* Counters of one scan, for EXPLAIN ANALYZE; summed over participants. */
enum
{
	C_PAGES,
	C_ALLVISIBLE,
	C_TUPLES,					/* visible tuples */
	C_ROWS,						/* those passing the WHERE comparisons */
	C_GPU_BATCHES,
	C_CPU_BATCHES,
	C_GPU_PAGES,				/* pages the GPU decoded (page path) */
	C_CPU_PAGES,				/* pages the CPU decoded */
	C_FALLBACK,					/* rows the expression program handed to PostgreSQL */
	C_GROUPS,					/* rows of partial states emitted (GROUP BY) */
	C_GROUP_FLUSHES,			/* times the group table was emitted early */
	C_GROUP_PASSES,				/* final mode: passes whose groups were returned */
	C_PASSES_OVER,				/* final mode: passes whose groups outgrew the
								 * budget, discarded (shown when any) */
	C_JOBS_OVERFLOWED,			/* grouping page jobs with more groups than room:
								 * decoded by the CPU (shown when any) */
	C_TABLE_GROUPS,				/* groups collected at the end from the scan's
								 * tables (on the GPUs, or cpu mode's on the
								 * host; shown when any) */
	C_TABLE_DROPPED,			/* ... of them, those HAVING rejected before
								 * they were made (shown when any) */
	C_HINTED,					/* pages pinned by their buffer hint
								 * (buf_hints.c; shown when any) */
	C_GPU_WAIT_US,				/* page path: waiting for the GPU's jobs (last:
								 * a time, shown apart) */
	C_COUNT
};
StaticAssertDecl(C_GPU_WAIT_US == C_COUNT - 1, "bulk_explain prints the counters before C_GPU_WAIT_US");

static const char *const counter_names[C_COUNT] = {
	"Pages Read", "All-Visible Pages", "Visible Tuples", "Rows Aggregated",
	"GPU Batches", "CPU Batches", "GPU Decoded Pages", "CPU Decoded Pages",
	"Rows Evaluated by PostgreSQL", "Groups Emitted", "Group Table Flushes",
	"Group Passes", "Group Passes Discarded",
	"Jobs Over Group Room", "Groups Collected", "Groups Collected and Rejected by HAVING",
	"Pages Found by Hint", "GPU Wait Time"
};

/* BulkShared.building's phases: a parallel join's hashed relations */
#define BUILD_READING	0		/* each participant attached reads its shares */
#define BUILD_LAYING	1		/* the one elected lays the images out */
#define BUILD_DONE		2

/*
 * The node's shared memory in a parallel plan: the counters, a join's
 * hashed relations (built once into the query's dynamic shared memory,
 * join_hash.h's images, by the participants that start before the build
 * is over: build_shared), then each table's parallel block scan (of
 * variable size) at its offset.
 */
typedef struct BulkShared
{
	pg_atomic_uint64 counters[C_COUNT];
	pg_atomic_uint64 matches[GR_JOIN_MAX_RELS];	/* a join's rows matched */
	/*
	 * The build: its barrier, the participants' shares of each relation's
	 * rows (under mutex), whether a relation whose child is not partial has
	 * been taken by the one participant that runs it, and the images
	 */
	Barrier		building;
	slock_t		mutex;
	dsa_pointer shares[GR_JOIN_MAX_RELS];
	pg_atomic_uint32 taken[GR_JOIN_MAX_RELS];
	pg_atomic_uint32 blocks[GR_JOIN_MAX_RELS];	/* a relation read from its pages:
												 * the blocks taken so far */
	int64		job_pages[GR_JOIN_MAX_RELS];	/* ... and what its participants' list
												 * jobs did (under mutex; -1: none) */
	int64		job_rows[GR_JOIN_MAX_RELS];
	bool		built;
	dsa_pointer images[GR_JOIN_MAX_RELS];
	/*
	 * A marked join: its marks (a byte per hashed row, which participants
	 * only ever set to 1), the participants probing (attached in phase 0;
	 * the last to leave emits the marked rows, once), whether any
	 * participant's jobs marked on a GPU (its copy of the marks must come
	 * back first), and the rows marked
	 */
	dsa_pointer marks;
	Barrier		probing;
	pg_atomic_uint32 gpu_marked;
	pg_atomic_uint64 marked_rows;
	int64		hashed_rows[GR_JOIN_MAX_RELS];	/* for EXPLAIN ANALYZE */
	Size		hash_bytes[GR_JOIN_MAX_RELS];
	double		build_ms[GR_JOIN_MAX_RELS];	/* the longest read of a share (under
											 * mutex), then plus the layout */
	double		job_ms[GR_JOIN_MAX_RELS];	/* the longest time in its jobs, or -1 */
	uint64		image_key;		/* the leader's name for the images on the GPUs */
	bool		on_gpu;			/* the elected participant put them there */
	int			ntables;
	Size		offsets[FLEXIBLE_ARRAY_MEMBER];
} BulkShared;

typedef struct BulkScanState
{
	CustomScanState css;
	GrScanDesc *desc;			/* what the planner decided */
	ExprState **kexprs;			/* per aggregate: gpu_topk's k, or NULL */
	GrSink	   *sink;			/* the aggregates' running values */
	MemoryContext sinkcxt;		/* the sink's values and states */
	GrGroupTable *groups;		/* a GROUP BY's group table, or NULL */
	MemoryContext keycxt;		/* a row's computed numeric keys */
	Size		group_budget;	/* bytes the groups may hold before emitted */
	bool		final;			/* a GROUP BY's final rows, not partial states */
	uint64		share_lo;		/* final mode: the pass's share of the hash */
	uint64		share_hi;		/* space (group_table.h) */
	bool		pass_over;		/* ... its groups outgrew the budget: discarded */
	uint64		pass_pages;		/* C_PAGES when the pass began */
	double		total_pages;	/* the tables' pages, as the first pass began */
	Size		peak_bytes;		/* for EXPLAIN ANALYZE: the most a returned
								 * pass's groups held */
	Tuplestorestate *emitted;	/* groups emitted early, or NULL */
	TupleTableSlot *emitslot;	/* reads them back */
	int			next_group;		/* the group the next row is made of */
	/* final mode: HAVING conjuncts decided before a group's row is made (having_checks) */
	int			nchecks;
	struct HavingCheck *checks;
	bool		word_checks;	/* ... some of them on a table's words too */
	bool		scanned;
	int			ntables;
	BulkTable  *tables;
	int			njoins;			/* relations joined to the one table */
	BulkJoin   *joins;
	MemoryContext joincxt;		/* their hash tables; reset on rescan */
	dsa_area   *area;			/* the query's shared memory, where a parallel
								 * plan's hash tables lie, or NULL */
	GrPageImages *images;		/* their copies on the GPUs, this process's to
								 * free (a serial plan's, or the leader's) */
	uint64		image_key;		/* what names them there, or 0: not there */
	/* a join's joined-row program (scan_desc.h), its constants bound per scan */
	GrExprProg *jprog;
	ExprState **jbinds;
	int			jbase;			/* its outputs' first column in the row */
	ExprState  *jxqual;			/* PostgreSQL's evaluation of a row it hands */
	ExprState **jxouts;			/* back: its conjuncts, its outputs, over */
	TupleTableSlot *jslot;		/* the row's columns in a slot */
	MemoryContext statecxt;		/* states and results; reset on rescan */
	BulkShared *shared;			/* parallel plans */
	bool		done;
	const char *page_path;		/* how the last table's pages were decoded */
	char	   *table_index;	/* the index the table's rows were fetched by
								 * (scan_by_index), or NULL; and its lookups */
	int64		table_lookups;
	uint64		counters[C_COUNT];	/* this process's; after a parallel run,
									 * the leader's hold every participant's */
} BulkScanState;

/*
 * A hashed relation read from its pages (BulkJoin.pages) as a row source
 * (GrJoinNextRow): its scan by the query's snapshot, read a page at a time
 * as the table's (pin_whole_page or read_page: pruning, page-mode
 * visibility, serializable checks), and the next visible tuple of the page
 * read.
 */
typedef struct PageRows
{
	BulkScanState *bs;
	BulkJoin   *bj;
	pg_atomic_uint32 *taken;	/* a parallel plan's block counter (each
								 * participant reads the blocks it takes), or
								 * NULL: every block */
	BlockNumber blk;			/* the page read, or InvalidBlockNumber */
	const uint8 *page;
	Buffer		buf;			/* its pin, where all of it is visible (else
								 * the scan's: read_page) */
	const OffsetNumber *vis;	/* its visible tuples */
	int			nvis;
	int			next;			/* the next of them */
	OffsetNumber offs[MaxHeapTuplesPerPage];
	Datum		values[GR_JOIN_MAX_KEYS + GR_DECODE_MAX_COLS];
	bool		isnull[GR_JOIN_MAX_KEYS + GR_DECODE_MAX_COLS];
	/*
	 * A read whose WHERE the page path's list jobs apply first (on a GPU,
	 * or in cpu mode the host's run of them): pp takes the pages (in a
	 * parallel plan, those this participant takes),
	 * and the rows its jobs list that pass again here are kept, keys and
	 * values (a varlena copied into listcxt), until page_row hands them on;
	 * fed: every page went to pp, which is finished
	 */
	GrPagePath *pp;
	bool		fed;
	/*
	 * visible tuples of the pages done and rows listed of them: past a
	 * quarter listed, the later pages are read as without list jobs
	 * (switched), where decoding the listed rows again costs more than
	 * decoding every row once (TPC-H Q3's orders, 48 % listed: 265 ms
	 * against 187 on the H200; Q5's, 15 %: 96 against 142)
	 */
	int64		vis_seen;
	int64		listed_seen;
	bool		switched;
	int64		left_by_jobs;	/* rows the jobs' semi joins left out */
	MemoryContext listcxt;
	Datum	   *lvalues;		/* nlisted rows of width values each */
	bool	   *lnulls;
	int64		nlisted;
	int64		lnext;
	int64		lroom;
} PageRows;

static int	fallback_cmp(const void *a, const void *b);
static uint32 job_stored_columns(const BulkJoin *bj);

static void bulk_begin(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *bulk_exec(CustomScanState *node);
static void bulk_end(CustomScanState *node);
static void bulk_rescan(CustomScanState *node);
static Size bulk_estimate_dsm(CustomScanState *node, ParallelContext *pcxt);
static void bulk_init_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate);
static void bulk_reinit_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate);
static void bulk_init_worker(CustomScanState *node, shm_toc *toc, void *coordinate);
static void bulk_shutdown(CustomScanState *node);
static void bulk_explain(CustomScanState *node, List *ancestors, ExplainState *es);
static int32 agg_k(void *arg, int agg);
static Datum eval_const(BulkScanState *bs, ExprState *es, bool *isnull);
static void bind_program(BulkScanState *bs, GrExprProg *prog, ExprState **binds);
static void emit_groups(BulkScanState *bs);
static void having_checks(BulkScanState *bs, List *qual);
static int	word_check_out(const GrScanDesc *d, int agg, Datum c, int128 *scaled);
static GrJoinNextRow row_source(BulkScanState *bs, BulkJoin *bj, pg_atomic_uint32 *taken,
								PageRows *pr, void **arg);
static void end_row_source(BulkJoin *bj, PageRows *pr);
static void bind_quals(BulkScanState *bs, BulkTable *t);
static void decode_tuple(BulkTable *t, const uint8 *page, BlockNumber blk, OffsetNumber off,
						 uint32 len, uint64 *tv, bool *tn);
static bool page_row_passes(BulkScanState *bs, BulkTable *t, const uint8 *page, BlockNumber blk,
							OffsetNumber off, uint32 len, uint64 *tv, bool *tn);

static const CustomExecMethods bulk_exec_methods = {
	.CustomName = GR_BULK_NAME,
	.BeginCustomScan = bulk_begin,
	.ExecCustomScan = bulk_exec,
	.EndCustomScan = bulk_end,
	.ReScanCustomScan = bulk_rescan,
	.EstimateDSMCustomScan = bulk_estimate_dsm,
	.InitializeDSMCustomScan = bulk_init_dsm,
	.ReInitializeDSMCustomScan = bulk_reinit_dsm,
	.InitializeWorkerCustomScan = bulk_init_worker,
	.ShutdownCustomScan = bulk_shutdown,
	.ExplainCustomScan = bulk_explain,
};

/* CreateCustomScanState: the node's executor state. */
Node *
gr_bulk_create_state(CustomScan *cscan)
{
	BulkScanState *bs = (BulkScanState *) newNode(sizeof(BulkScanState),
												  T_CustomScanState);

	bs->css.methods = &bulk_exec_methods;
	return (Node *) bs;
}

/* Alignment in bytes of a typalign code. */
static uint8
align_bytes(char typalign)
{
	switch (typalign)
	{
		case TYPALIGN_SHORT:
			return ALIGNOF_SHORT;
		case TYPALIGN_INT:
			return ALIGNOF_INT;
		case TYPALIGN_DOUBLE:
			return ALIGNOF_DOUBLE;
	}
	return 1;
}

/*
 * The decoder's description of the table's attributes up to the last
 * column read, with cached offsets and the defaults of attributes added
 * after rows were written.
 */
static GrDecodeDesc *
make_decode_desc(Relation rel, const int *attnos, int ncols)
{
	TupleDesc	td = RelationGetDescr(rel);
	int			last = ncols > 0 ? attnos[ncols - 1] : -1;
	GrDecodeDesc *d;
	uint32		off = 0;
	bool		fixed = true;

	if (last >= td->natts)
		elog(ERROR, "gpu_reduce: scan description reads a column the table does not have");
	d = palloc0(GR_DECODE_DESC_SIZE(last + 1));
	for (int c = 0; c < ncols; c++)
		d->col_attno[d->ncols++] = attnos[c];
	d->natts = last + 1;
	for (int a = 0; a < d->natts; a++)
	{
		Form_pg_attribute att = TupleDescAttr(td, a);
		GrAttr	   *ga = &d->att[a];

		ga->len = att->attlen;
		ga->align = align_bytes(att->attalign);
		ga->dropped = att->attisdropped;
		if (att->atthasmissing)
		{
			bool		isnull;
			Datum		def = getmissingattr(td, a + 1, &isnull);

			ga->has_missing = !isnull;
			if (!isnull && att->attbyval)
			{
				uint64		bits = (uint64) def;

				if (att->attlen < 8)
					bits &= (UINT64CONST(1) << (8 * att->attlen)) - 1;
				ga->missing = bits;
			}
			else if (!isnull && att->attlen == -1)
			{
				/* a varlena's value is its address: a copy of the default that lasts the scan */
				ga->missing = (uint64) (uintptr_t) DatumGetPointer(datumCopy(def, false, -1));
			}
		}
		if (fixed && att->attlen > 0)
		{
			off = gr_align(off, ga->align);
			ga->cacheoff = off;
			off += att->attlen;
			/* a tuple without NULLs may skip this one: it lies before the first column */
			if (ncols > 0 && a < attnos[0])
			{
				d->walk_att = a + 1;
				d->walk_off = off;
			}
		}
		else
		{
			fixed = false;
			ga->cacheoff = -1;
		}
	}
	return d;
}

/*
 * A program of the scan description's, as a scan runs it: a copy whose
 * constants each scan binds (binds[k]: the custom_exprs one it takes, or
 * -1), and PostgreSQL's own evaluation of its conjuncts and outputs for the
 * rows it hands back.  Those are initialized without a parent: they read a
 * slot of the rows' own, not the node's scan slot.
 */
static GrExprProg *
init_any_program(BulkScanState *bs, const GrExprProg *src, const int *binds,
				 List *xquals, List *xouts, ExprState ***pbinds, ExprState **xqual,
				 ExprState ***pxouts)
{
	CustomScan *cs = (CustomScan *) bs->css.ss.ps.plan;
	GrExprProg *prog = palloc(sizeof(GrExprProg));
	List	   *quals = copyObject(xquals);
	List	   *outs = copyObject(xouts);
	ListCell   *lc;

	memcpy(prog, src, sizeof(GrExprProg));
	*pbinds = palloc0(sizeof(ExprState *) * Max(prog->nconsts, 1));
	for (int k = 0; k < prog->nconsts; k++)
		if (binds[k] >= 0)
			(*pbinds)[k] = ExecInitExpr(list_nth(cs->custom_exprs, binds[k]), &bs->css.ss.ps);
	fix_opfuncids((Node *) quals);
	fix_opfuncids((Node *) outs);
	*xqual = ExecInitQual(quals, NULL);
	*pxouts = palloc0(sizeof(ExprState *) * Max(list_length(outs), 1));
	foreach(lc, outs)
		(*pxouts)[foreach_current_index(lc)] = ExecInitExpr(lfirst(lc), NULL);
	return prog;
}

/*
 * Set up a table's expression program, the computed columns its aggregates
 * read, and the heap tuple slot PostgreSQL's evaluation of a row it hands
 * back reads.
 */
static void
init_program(BulkScanState *bs, BulkTable *t, const GrScanTable *st)
{
	t->prog = init_any_program(bs, st->prog, st->binds, st->xquals, st->xouts,
							   &t->binds, &t->xqual, &t->xouts);
	t->argouts = st->argouts;
	for (int a = 0; a < bs->desc->naggs; a++)
		if (st->argouts[a] >= 0)
			t->rowcols[a] = st->ncols + st->argouts[a];
	/* in the executor's tuple table, which releases it with the plan */
	t->xslot = gr_alloc_table_slot(&bs->css.ss.ps.state->es_tupleTable,
								   RelationGetDescr(t->rel), &TTSOpsHeapTuple);
}

/*
 * Set up one table: its relation, decoder, output columns and comparisons.
 * The leaves of an inheritance tree are opened here; the executor holds
 * their locks already (they are in the range table), and this lock is the
 * same.
 */
static void
init_table(BulkScanState *bs, BulkTable *t, const GrScanTable *st)
{
	CustomScan *cs = (CustomScan *) bs->css.ss.ps.plan;

	if (st->nquals > GR_MAX_QUALS || st->ncols > GR_DECODE_MAX_COLS)
		elog(ERROR, "gpu_reduce: scan description has too many columns or comparisons");
	t->rel = cs->scan.scanrelid > 0 && st == bs->desc->tables ?
		bs->css.ss.ss_currentRelation : table_open(st->relid, AccessShareLock);
	t->desc = make_decode_desc(t->rel, st->attnos, st->ncols);
	t->filter = st->filter;
	t->argcols = st->argcols;
	t->keyrow = palloc(sizeof(int) * Max(bs->desc->ngroupkeys, 1));
	for (int k = 0; k < bs->desc->ngroupkeys; k++)
		t->keyrow[k] = st->keycols[k] >= 0 ? st->keycols[k] :
			st->keyouts != NULL && st->keyouts[k] >= 0 ? st->ncols + st->keyouts[k] : -1;
	t->nquals = st->nquals;
	t->qual_exprs = palloc0(sizeof(ExprState *) * Max(t->nquals, 1));
	for (int i = 0; i < st->nquals; i++)
	{
		const GrScanQual *q = &st->quals[i];

		t->quals[i].col = q->col;
		t->quals[i].op = t->qual_ops[i] = q->op;
		t->qual_times[i] = q->timetype;
		t->quals[i].kind = q->kind;
		t->quals[i].width = q->width;
		if (q->expr >= 0)
			t->qual_exprs[i] = ExecInitExpr(list_nth(cs->custom_exprs, q->expr),
											&bs->css.ss.ps);
	}
	t->rowcols = palloc(sizeof(int) * Max(bs->desc->naggs, 1));
	for (int a = 0; a < bs->desc->naggs; a++)
		t->rowcols[a] = st->argcols[a];
	if (st->prog != NULL)
		init_program(bs, t, st);
	/* a join's values, after the decoded and computed columns */
	for (int a = 0; a < bs->desc->naggs; a++)
		if (st->argjoins[a] >= 0)
			t->rowcols[a] = st->ncols + (t->prog ? t->prog->nouts : 0) + st->argjoins[a];
	for (int k = 0; k < bs->desc->ngroupkeys; k++)
		if (st->keyjoins[k] >= 0)
			t->keyrow[k] = st->ncols + (t->prog ? t->prog->nouts : 0) + st->keyjoins[k];
}

/*
 * Set up a join's joined-row program, the columns its outputs are, and the
 * slot of the row's columns PostgreSQL's evaluation of a row it hands back
 * reads.
 */
static void
init_joined_row(BulkScanState *bs, EState *estate)
{
	const GrScanDesc *d = bs->desc;
	BulkTable  *t = &bs->tables[0];
	TupleDesc	desc = CreateTemplateTupleDesc(d->jncols);

	bs->jprog = init_any_program(bs, d->jprog, d->jbinds, d->jxquals, d->jxouts,
								 &bs->jbinds, &bs->jxqual, &bs->jxouts);
	bs->jbase = d->jncols;
	if (bs->jbase + bs->jprog->nouts > GR_DECODE_MAX_COLS)
		elog(ERROR, "gpu_reduce: a joined row has too many columns");
	for (int a = 0; a < d->naggs; a++)
		if (d->jargouts[a] >= 0)
			t->rowcols[a] = bs->jbase + d->jargouts[a];
	for (int k = 0; k < d->ngroupkeys; k++)
		if (d->jkeyouts[k] >= 0)
			t->keyrow[k] = bs->jbase + d->jkeyouts[k];
	for (int c = 0; c < d->jncols; c++)
	{
		TupleDescInitEntry(desc, c + 1, NULL, d->jtypes[c], d->jtypmods[c], 0);
		TupleDescInitEntryCollation(desc, c + 1, d->jcolls[c]);
	}
	bs->jslot = gr_alloc_table_slot(&estate->es_tupleTable, desc, &TTSOpsVirtual);
}

/* Bind a program's run-time constants (binds: each one's expression, or NULL) for this scan. */
static void
bind_program(BulkScanState *bs, GrExprProg *prog, ExprState **binds)
{
	for (int k = 0; k < prog->nconsts; k++)
	{
		Datum		v;
		bool		isnull;

		if (binds[k] == NULL)
			continue;
		v = eval_const(bs, binds[k], &isnull);
		gr_expr_bind(prog, k, v, isnull, exprType((Node *) binds[k]->expr));
	}
	/* the session's zone as this scan runs (a plan may outlive a SET TimeZone) */
	gr_time_zone_bind(&prog->zone);
}

/*
 * Set up the relations a join hashes: their plans, and where each key's
 * other side and each value lie in a joined row.
 */
static void
init_joins(BulkScanState *bs, EState *estate, int eflags)
{
	CustomScan *cs = (CustomScan *) bs->css.ss.ps.plan;
	const GrScanDesc *d = bs->desc;
	int			vbase;
	int			nchildren = 0;

	bs->njoins = d->njoins;
	if (d->njoins == 0)
		return;
	vbase = d->tables[0].ncols + (bs->tables[0].prog ? bs->tables[0].prog->nouts : 0);
	for (int j = 0; j < d->njoins; j++)
		nchildren += d->joins[j].pages == NULL;
	if (list_length(cs->custom_plans) != nchildren || vbase + d->njoinvals > GR_DECODE_MAX_COLS)
		elog(ERROR, "gpu_reduce: scan description and plans of a join disagree");
	bs->joins = palloc0(sizeof(BulkJoin) * d->njoins);
	nchildren = 0;
	for (int j = 0; j < d->njoins; j++)
	{
		BulkJoin   *bj = &bs->joins[j];

		bj->desc = &d->joins[j];
		bj->filter_keys = -1;
		if (bj->desc->pages != NULL)
		{
			/* its program's outputs are its computed values (GrScanJoin.pagecols) */
			bj->pages = palloc0(sizeof(BulkTable));
			init_table(bs, bj->pages, bj->desc->pages);
		}
		else
		{
			bj->child = ExecInitNode(list_nth(cs->custom_plans, nchildren++), estate, eflags);
			bs->css.custom_ps = lappend(bs->css.custom_ps, bj->child);
		}
		for (int k = 0; k < bj->desc->nkeys; k++)
			bj->keypos[k] = bj->desc->src[k] >= 0 ? bj->desc->src[k] :
				vbase + (-1 - bj->desc->src[k]);
		bj->valpos = vbase + bj->desc->vstart;
		bj->left_out = -1;
	}
	bs->joincxt = AllocSetContextCreate(estate->es_query_cxt, "gpu_reduce join hash tables",
										ALLOCSET_DEFAULT_SIZES);
	if (d->jprog != NULL)
		init_joined_row(bs, estate);
}

/* Where a parallel plan's image goes: the query's shared memory. */
typedef struct SharedImage
{
	dsa_area   *area;
	dsa_pointer dp;
} SharedImage;

static void *
shared_image_alloc(Size size, void *arg)
{
	SharedImage *si = arg;

	si->dp = dsa_allocate_extended(si->area, size, DSA_ALLOC_HUGE);
	return dsa_get_address(si->area, si->dp);
}

/* What EXPLAIN ANALYZE shows of a relation hashed here, serially. */
static void
note_build(BulkJoin *bj, double ms)
{
	bj->built = true;
	bj->hashed_rows = bj->hash->nrows;
	bj->hash_bytes = bj->hash->image->bytes;
	bj->build_ms = ms;
}

/*
 * ... and in a parallel plan, relation j's as lay_out_shares noted it in
 * the shared memory, with what all participants' list jobs did
 * (read_shares).
 */
static void
shared_build(BulkJoin *bj, const BulkShared *shared, int j)
{
	bj->built = true;
	bj->hashed_rows = shared->hashed_rows[j];
	bj->hash_bytes = shared->hash_bytes[j];
	bj->build_ms = shared->build_ms[j];
	bj->job_pages = shared->job_pages[j];
	bj->job_rows = shared->job_rows[j];
	bj->job_ms = shared->job_ms[j];
	bj->filter_keys = -1;
}

/* Whether the scan's join is a marked one (its first relation's probes mark: GrScanJoin.marked). */
static inline bool
marked_join(const BulkScanState *bs)
{
	return bs->njoins > 0 && bs->desc->joins[0].marked != 0;
}

/*
 * Copy the hashed relations' images onto the GPUs, where the page path's
 * jobs will probe them (bs->image_key names them there; 0: they stay on
 * the CPU).  The key is the leader's in a parallel plan, else this
 * process's own, made now.  A marked join's jobs probe its first relation
 * alone, which has its marks on each GPU (emit_marked brings them back);
 * the relations after it are probed by the walk, here.
 */
static void
upload_images(BulkScanState *bs)
{
	const void *images[GR_JOIN_MAX_RELS];
	Size		bytes[GR_JOIN_MAX_RELS];
	Size		marks[GR_JOIN_MAX_RELS];
	int			n = marked_join(bs) ? 1 : bs->njoins;
	uint64		key;
	const char *why;

	bs->image_key = 0;
	if ((GrPagePathMode) gr_page_path != GR_PAGE_PATH_ON || gr_gpu_pages_unavailable() != NULL ||
		RelationUsesLocalBuffers(bs->tables[0].rel))
		return;
	if (bs->shared == NULL && (bs->images == NULL || gr_page_path_images_key(bs->images) == 0))
		bs->images = gr_page_path_own_images(bs->css.ss.ps.state->es_query_cxt);
	key = bs->shared != NULL ? bs->shared->image_key : gr_page_path_images_key(bs->images);
	for (int j = 0; j < n; j++)
	{
		images[j] = bs->joins[j].hash->image;
		bytes[j] = bs->joins[j].hash->image->bytes;
		marks[j] = bs->joins[j].desc->marked != 0 ? Max(bs->joins[j].hashed_rows, 1) : 0;
	}
	if (key != 0 && gr_page_path_upload_images(key, images, bytes, marks, n, &why))
		bs->image_key = key;
}

/*
 * Read this participant's share of each relation's rows into the shared
 * memory (build_shared): all its copy of a partial child produces, or all
 * of a child that is not partial, which the first participant to come to
 * it runs alone, or the rows of the pages it takes of a relation read from
 * its pages.  A relation's build time is its longest read so far.
 */
static void
read_shares(BulkScanState *bs)
{
	BulkShared *shared = bs->shared;

	for (int j = 0; j < bs->njoins; j++)
	{
		BulkJoin   *bj = &bs->joins[j];
		PageRows	pr;
		void	   *arg;
		GrJoinNextRow next;
		instr_time	start;
		instr_time	took;

		if (!bj->desc->partial && bj->pages == NULL &&
			pg_atomic_exchange_u32(&shared->taken[j], 1) != 0)
			continue;
		INSTR_TIME_SET_CURRENT(start);
		next = row_source(bs, bj, &shared->blocks[j], &pr, &arg);
		gr_join_hash_share(next, arg, bj->desc, bs->joincxt, bs->area, &shared->mutex,
						   &shared->shares[j]);
		end_row_source(bj, &pr);
		INSTR_TIME_SET_CURRENT(took);
		INSTR_TIME_SUBTRACT(took, start);
		SpinLockAcquire(&shared->mutex);
		shared->build_ms[j] = Max(shared->build_ms[j], INSTR_TIME_GET_MILLISEC(took));
		if (bj->pages != NULL && bj->job_pages >= 0)
			shared->job_pages[j] = Max(shared->job_pages[j], 0) + bj->job_pages;
		if (bj->pages != NULL && bj->job_rows >= 0)
			shared->job_rows[j] = Max(shared->job_rows[j], 0) + bj->job_rows;
		if (bj->pages != NULL)
			shared->job_ms[j] = Max(shared->job_ms[j], bj->job_ms);
		SpinLockRelease(&shared->mutex);
	}
}

/*
 * The participant elected by build_shared lays each relation's image out
 * from all the shares into the shared memory (its build time: the longest
 * read plus this), makes a marked join's marks, and puts the images on the
 * GPUs.
 */
static void
lay_out_shares(BulkScanState *bs)
{
	BulkShared *shared = bs->shared;

	for (int j = 0; j < bs->njoins; j++)
	{
		BulkJoin   *bj = &bs->joins[j];
		SharedImage si = {bs->area, InvalidDsaPointer};
		instr_time	start;
		instr_time	took;

		INSTR_TIME_SET_CURRENT(start);
		bj->hash = gr_join_hash_build_shares(bs->area, &shared->shares[j], bj->desc,
											 bs->joincxt, shared_image_alloc, &si);
		INSTR_TIME_SET_CURRENT(took);
		INSTR_TIME_SUBTRACT(took, start);
		shared->images[j] = si.dp;
		shared->hashed_rows[j] = bj->hash->nrows;
		shared->hash_bytes[j] = bj->hash->image->bytes;
		shared->build_ms[j] += INSTR_TIME_GET_MILLISEC(took);
		shared_build(bj, shared, j);
		if (bj->desc->marked != 0)
		{
			shared->marks = dsa_allocate_extended(bs->area, Max(bj->hashed_rows, 1),
												  DSA_ALLOC_HUGE | DSA_ALLOC_ZERO);
			bj->marks = dsa_get_address(bs->area, shared->marks);
		}
	}
	upload_images(bs);
	shared->on_gpu = bs->image_key != 0;
	shared->built = true;
}

/*
 * A parallel plan's build, as PostgreSQL's Parallel Hash builds: each
 * participant that comes before the build is over reads its shares
 * (read_shares); the one elected as all have arrived lays the images out
 * from them; then each reads the images where they lie, as one that comes
 * later does (a build by one participant, the others waiting, left TPC-H
 * Q3, Q10 and Q12 to PostgreSQL's Parallel Hash Join with 8 workers).
 * No participant waiting here waits for the leader to drain a tuple queue
 * (a worker emits its rows only after the build), so the leader building
 * holds up no worker that waits for it.
 */
static void
build_shared(BulkScanState *bs)
{
	BulkShared *shared = bs->shared;
	int			phase = BarrierAttach(&shared->building);

	if (phase == BUILD_READING)
	{
		read_shares(bs);
		if (BarrierArriveAndWait(&shared->building, PG_WAIT_EXTENSION))
			lay_out_shares(bs);
		phase = BUILD_LAYING;
	}
	if (phase == BUILD_LAYING)
		BarrierArriveAndWait(&shared->building, PG_WAIT_EXTENSION);
	BarrierDetach(&shared->building);
	if (bs->joins[0].hash != NULL)
		return;
	for (int j = 0; j < bs->njoins; j++)
	{
		BulkJoin   *bj = &bs->joins[j];

		bj->hash = gr_join_hash_attach(dsa_get_address(bs->area, shared->images[j]),
									   bj->desc, bs->joincxt);
		shared_build(bj, shared, j);
		if (bj->desc->marked != 0)
			bj->marks = dsa_get_address(bs->area, shared->marks);
	}
	bs->image_key = shared->on_gpu ? shared->image_key : 0;
}

/*
 * A relation's rows that no joined row could keep, left out of its image (a
 * semi-join reduction: TPC-H Q18 hashes orders' 57 rows that its IN
 * subquery names, not 1.5 M).  Relation k, later in the probe order, leaves
 * out relation j's rows where k is an inner or semi join (not marked) whose
 * every key is a value of j, an inner or left join (not marked): a probe
 * row that takes such a row of j takes its values as k's keys, which find
 * no row of k, so k rejects it (and where j then finds no row, a left
 * join's NULL values find none in k either).  Built in order, k first.
 */
typedef struct ReducedRows
{
	GrJoinNextRow next;			/* the relation's own source */
	void	   *arg;
	const GrScanJoin *desc;
	int			nby;
	const BulkJoin *by[GR_JOIN_MAX_RELS];	/* the later relations, built */
	GrJoinKeyBits *bits[GR_JOIN_MAX_RELS];	/* ... the bitmap of each one's keys, or NULL */
	int64		left_out;
} ReducedRows;

/* Whether relation k may leave relation j's rows out (ReducedRows). */
static bool
reduces(const GrScanJoin *j, const GrScanJoin *k)
{
	if (j->marked != 0 || (j->jointype != JOIN_INNER && j->jointype != JOIN_LEFT) ||
		k->marked != 0 || (k->jointype != JOIN_INNER && k->jointype != JOIN_SEMI))
		return false;
	for (int i = 0; i < k->nkeys; i++)
		if (k->src[i] >= 0 || -1 - k->src[i] < j->vstart || -1 - k->src[i] >= j->vstart + j->nvals)
			return false;
	return true;
}

/* A row source (GrJoinNextRow) of the rows of a relation that its later relations keep. */
static bool
reduced_row(void *arg, const Datum **values, const bool **isnull)
{
	ReducedRows *rr = arg;

	while (rr->next(rr->arg, values, isnull))
	{
		bool		keep = true;

		for (int b = 0; b < rr->nby && keep; b++)
		{
			const GrScanJoin *k = rr->by[b]->desc;
			int64		key[GR_JOIN_MAX_KEYS];

			for (int i = 0; i < k->nkeys && keep; i++)
			{
				/* the relation's row: its keys, then its values */
				int			a = rr->desc->nkeys + (-1 - k->src[i]) - rr->desc->vstart;

				keep = !(*isnull)[a];
				if (keep)
					key[i] = gr_join_key_value((*values)[a], k->srcwidth[i]);
			}
			/* (most rows left out are so by the bitmap: TPC-H Q3's orders, 580 179 of 727 305) */
			keep = keep && (rr->bits[b] == NULL || gr_join_key_bits_may(rr->bits[b], key[0])) &&
				gr_join_hash_first(rr->by[b]->hash, key) >= 0;
		}
		if (keep)
			return true;
		rr->left_out++;
		CHECK_FOR_INTERRUPTS();
	}
	return false;
}

/*
 * A relation read from its pages whose rows few keys name, fetched by a
 * btree index on the column they equal, a lookup per distinct key, in place
 * of a read of every page: a relation left out by a later one of few keys
 * (TPC-H Q18's orders: 57 of 1.5 M, by its IN subquery's keys), or one
 * keyed by a relation hashed before it that has few rows (Q18's customer,
 * by those 57 orders' o_custkey).  The index scan sees what the query's
 * snapshot sees, as PostgreSQL's own index scan would (its visibility, HOT
 * chains, serializable predicate locks); each row then passes the
 * relation's WHERE as a row of its pages does, and any reductions.
 */
typedef struct IndexRows
{
	BulkScanState *bs;
	BulkJoin   *bj;
	int64	   *keys;			/* the keys, sorted, each once */
	int64		nkeys;
	Oid			index;
	AttrNumber	attno;			/* the column the keys equal */
	Oid			type;			/* its type: int2, int4 or int8 */
	RegProcedure eq;			/* its equality */
	/* the lookups, one index scan of them all (lookups_begin) */
	Relation	irel;
	IndexScanDesc scan;
	TupleTableSlot *slot;		/* the tuple found */
	bool		under_way;		/* tuples yet to come */
	int64		lookups;		/* the keys looked up */
	Datum		values[GR_JOIN_MAX_KEYS + GR_DECODE_MAX_COLS];
	bool		isnull[GR_JOIN_MAX_KEYS + GR_DECODE_MAX_COLS];
} IndexRows;

/* keys fewer than this share of a relation's rows are looked up */
#define GR_INDEX_ROWS_PER_KEY 64

/*
 * The index a table's rows may be fetched by, for keys equal to its
 * decoded column col: a valid btree index of the integer operators with no
 * predicate whose first column it is, and the column's attribute number,
 * type and equality into ir; InvalidOid where there is none.
 */
static Oid
key_index(const BulkTable *t, int col, IndexRows *ir)
{
	Relation	rel = t->rel;
	List	   *indexes;
	ListCell   *lc;

	ir->index = InvalidOid;
	ir->attno = t->desc->col_attno[col] + 1;
	ir->type = TupleDescAttr(RelationGetDescr(rel), ir->attno - 1)->atttypid;
	ir->eq = ir->type == INT2OID ? F_INT2EQ : ir->type == INT4OID ? F_INT4EQ :
		ir->type == INT8OID ? F_INT8EQ : InvalidOid;
	if (ir->eq == InvalidOid)
		return InvalidOid;
	indexes = RelationGetIndexList(rel);
	foreach(lc, indexes)
	{
		Relation	irel = index_open(lfirst_oid(lc), AccessShareLock);
		bool		fits = irel->rd_rel->relam == BTREE_AM_OID && irel->rd_index->indisvalid &&
			irel->rd_index->indkey.values[0] == ir->attno &&
			irel->rd_opfamily[0] == INTEGER_BTREE_FAM_OID &&
			heap_attisnull(irel->rd_indextuple, Anum_pg_index_indpred, NULL);

		index_close(irel, NoLock);
		if (fits)
		{
			ir->index = lfirst_oid(lc);
			break;
		}
	}
	list_free(indexes);
	return ir->index;
}

/*
 * The distinct values of column attno of rel as ANALYZE counted them
 * (pg_statistic's stadistinct, a share of the rows where negative); 0
 * without statistics.
 */
static double
column_distinct(Relation rel, AttrNumber attno)
{
	HeapTuple	stat = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(RelationGetRelid(rel)),
									   Int16GetDatum(attno), BoolGetDatum(false));
	double		distinct = 0;

	if (HeapTupleIsValid(stat))
	{
		float4		nd = ((Form_pg_statistic) GETSTRUCT(stat))->stadistinct;

		distinct = nd >= 0 ? nd : -nd * Max(RelationGetForm(rel)->reltuples, 0);
		ReleaseSysCache(stat);
	}
	return distinct;
}

/* qsort comparator: ascending int64s */
static int
int64_cmp(const void *a, const void *b)
{
	int64		x = *(const int64 *) a;
	int64		y = *(const int64 *) b;

	return (x > y) - (x < y);
}

/* Sort the n keys and keep each once; how many are left. */
static int64
unique_keys(int64 *keys, int64 n)
{
	int64		m = 0;

	qsort(keys, n, sizeof(int64), int64_cmp);
	for (int64 i = 0; i < n; i++)
		if (m == 0 || keys[i] != keys[m - 1])
			keys[m++] = keys[i];
	return m;
}

/* A key as a Datum of the looked-up column's type; false where no value of it is the key. */
static bool
index_key(const IndexRows *ir, int64 key, Datum *d)
{
	if (ir->type == INT2OID && key >= PG_INT16_MIN && key <= PG_INT16_MAX)
		*d = Int16GetDatum((int16) key);
	else if (ir->type == INT4OID && key >= PG_INT32_MIN && key <= PG_INT32_MAX)
		*d = Int32GetDatum((int32) key);
	else if (ir->type == INT8OID)
		*d = Int64GetDatum(key);
	else
		return false;
	return true;
}

/*
 * Begin the lookups of ir's keys (sorted, each once) in its index of rel,
 * under the query's snapshot: one index scan of them all, the column
 * = ANY (the keys), as PostgreSQL's own index scan of an IN list.  Its
 * heap page stays pinned from one key's tuple to the next's, and from 17
 * on the btree steps from a key to the next one on its leaf.  (A scan per
 * key took about 2 us a key: TPC-H Q12's 29 099 orders, 61 ms of the
 * query's 116 on the H200.)  ir->lookups: the keys looked up.
 */
static void
lookups_begin(BulkScanState *bs, IndexRows *ir, Relation rel)
{
	Datum	   *elems = palloc(sizeof(Datum) * Max(ir->nkeys, 1));
	int16		typlen;
	bool		typbyval;
	char		typalign;
	ArrayType  *keys;
	ScanKeyData sk;

	ir->lookups = 0;
	for (int64 i = 0; i < ir->nkeys; i++)
		if (index_key(ir, ir->keys[i], &elems[ir->lookups]))
			ir->lookups++;
	ir->irel = index_open(ir->index, AccessShareLock);
	ir->slot = table_slot_create(rel, NULL);
	ir->scan = gr_index_beginscan(rel, ir->irel, bs->css.ss.ps.state->es_snapshot, 1);
	get_typlenbyvalalign(ir->type, &typlen, &typbyval, &typalign);
	keys = construct_array(elems, (int) ir->lookups, ir->type, typlen, typbyval, typalign);
	pfree(elems);
	/* (the keys' column leads the index: key_index) */
	ScanKeyEntryInitialize(&sk, SK_SEARCHARRAY, 1, BTEqualStrategyNumber, InvalidOid,
						   InvalidOid, ir->eq, PointerGetDatum(keys));
	ir->under_way = ir->lookups > 0;
	/* (the scan copies the key; the array stays, in this memory) */
	if (ir->under_way)
		index_rescan(ir->scan, &sk, 1, NULL, 0);
}

/* The next visible tuple of the keys, into ir->slot; false after the last. */
static bool
lookup_next(IndexRows *ir)
{
	CHECK_FOR_INTERRUPTS();
	if (ir->under_way && index_getnext_slot(ir->scan, ForwardScanDirection, ir->slot))
		return true;
	ir->under_way = false;
	return false;
}

/* End ir's lookups (begun or not). */
static void
lookups_end(IndexRows *ir)
{
	if (ir->scan == NULL)
		return;
	index_endscan(ir->scan);
	ExecDropSingleTupleTableSlot(ir->slot);
	index_close(ir->irel, NoLock);
	ir->scan = NULL;
}

/*
 * Whether relation bj's rows are fetched by an index for the n keys (in
 * memory the caller frees): few enough for its rows, an index on its
 * decoded column col (key_index).  Fills ir, the keys sorted and each once.
 */
static bool
index_rows(BulkScanState *bs, BulkJoin *bj, int col, int64 *keys, int64 n, double per_key,
		   IndexRows *ir)
{
	memset(ir, 0, sizeof(*ir));
	if (bj->pages == NULL ||
		(double) n * per_key > RelationGetForm(bj->pages->rel)->reltuples ||
		!OidIsValid(key_index(bj->pages, col, ir)) ||
		(double) n * per_key > column_distinct(bj->pages->rel, ir->attno))
		return false;
	ir->bs = bs;
	ir->bj = bj;
	ir->keys = keys;
	ir->nkeys = unique_keys(keys, n);
	bind_quals(bs, bj->pages);
	lookups_begin(bs, ir, bj->pages->rel);
	return true;
}

/*
 * A row of a relation read from its pages, from its decoded columns tv, tn:
 * its keys, then its values (GrScanJoin.pagecols), into values, isnull.
 */
static inline void
pages_row(const GrScanJoin *j, const uint64 *tv, const bool *tn, Datum *values, bool *isnull)
{
	for (int c = 0; c < j->nkeys + j->nvals; c++)
	{
		values[c] = (Datum) tv[j->pagecols[c]];
		isnull[c] = tn[j->pagecols[c]];
	}
}

/* A row source (GrJoinNextRow) of the rows an index fetches for the keys (IndexRows). */
static bool
index_row(void *arg, const Datum **values, const bool **isnull)
{
	IndexRows  *ir = arg;
	BulkTable  *t = ir->bj->pages;
	const GrScanJoin *j = ir->bj->desc;

	for (;;)
	{
		uint64		tv[GR_DECODE_MAX_COLS];
		bool		tn[GR_DECODE_MAX_COLS];
		Buffer		buf;
		const uint8 *page;
		BlockNumber blk;
		OffsetNumber off;
		uint32		len;

		if (!lookup_next(ir))
			return false;
		/* the tuple in its pinned page, read as a page's row is (until the next fetch) */
		buf = ((BufferHeapTupleTableSlot *) ir->slot)->buffer;
		page = (const uint8 *) BufferGetPage(buf);
		blk = ItemPointerGetBlockNumber(&ir->slot->tts_tid);
		off = ItemPointerGetOffsetNumber(&ir->slot->tts_tid);
		len = gr_page_tuple_len(page, off, BLCKSZ);
		decode_tuple(t, page, blk, off, len, tv, tn);
		if (!page_row_passes(ir->bs, t, page, blk, off, len, tv, tn))
			continue;
		pages_row(j, tv, tn, ir->values, ir->isnull);
		*values = ir->values;
		*isnull = ir->isnull;
		return true;
	}
}

/*
 * The keys of a later relation by that reduces bj (reduces(): one key, a
 * value of bj) and bj's decoded column they equal: its rows' keys (each
 * row has one: only a marked anti join's image keeps a NULL key's row,
 * and no such join reduces), repeated where its rows repeat them
 * (index_rows takes each once).
 */
static int64 *
reducer_keys(const BulkJoin *bj, const BulkJoin *by, int *col, int64 *n)
{
	const GrScanJoin *j = bj->desc;
	int64	   *keys = palloc(sizeof(int64) * Max(by->hash->nrows, 1));

	*n = by->hash->nrows;
	*col = j->pagecols[j->nkeys + (-1 - by->desc->src[0]) - j->vstart];
	memcpy(keys, by->hash->keys, sizeof(int64) * by->hash->nrows);
	return keys;
}

/*
 * The values of relation from (built) that a later relation bj's one key
 * equals, the non-NULL ones, as that key's integers.
 */
static int64 *
value_keys(const BulkJoin *bj, const BulkJoin *from, int64 *n)
{
	const GrScanJoin *f = from->desc;
	int			v = -1 - bj->desc->src[0] - f->vstart;
	int64	   *keys = palloc(sizeof(int64) * Max(from->hash->nrows, 1));

	*n = 0;
	for (int64 e = 0; e < from->hash->nrows; e++)
	{
		uint64		vals[GR_DECODE_MAX_COLS];
		bool		nulls[GR_DECODE_MAX_COLS];

		gr_join_hash_values(from->hash, e, vals, nulls);
		if (!nulls[v])
			keys[(*n)++] = gr_join_key_value((Datum) vals[v], f->vallen[v]);
	}
	return keys;
}

/* Whether relation k, not built yet, may be fetched by an index on its one key. */
static bool
key_fetchable(BulkScanState *bs, int k)
{
	BulkJoin   *bk = &bs->joins[k];
	IndexRows	ir;

	return bk->hash == NULL && bk->pages != NULL && bk->desc->nkeys == 1 &&
		OidIsValid(key_index(bk->pages, bk->desc->pagecols[0], &ir));
}

/*
 * Whether a later relation k that reduces relation j (reduces()) is better
 * built after it, from j's values (build_one's 'from'): k may be fetched
 * by an index on its key, and another relation that may not reduces j
 * (TPC-H Q18: customer after orders, which its IN subquery reduces to 57
 * rows).  k then leaves none of j's rows out.
 */
static bool
defer_reducer(BulkScanState *bs, int j, int k)
{
	if (!key_fetchable(bs, k))
		return false;
	for (int o = j + 1; o < bs->njoins; o++)
		if (o != k && reduces(bs->joins[j].desc, bs->joins[o].desc) && !key_fetchable(bs, o))
			return true;
	return false;
}

/*
 * The keys relation bj's one key takes from the table (GrScanJoin.
 * probe_keys): its column's values, but NULLs, in the table's rows that
 * its WHERE keeps, read from its pages as a hashed relation's are (so on
 * a GPU its list jobs apply the WHERE and bring the column back: values
 * jobs), *n of them, repeated where rows repeat them; *pages the pages the
 * jobs read, or -1, and *job_ms the time spent in them.
 */
static int64 *
probe_keys(BulkScanState *bs, const BulkJoin *bj, int64 *n, int64 *pages, double *job_ms)
{
	BulkTable  *t = &bs->tables[0];
	int			col = bj->desc->src[0];
	GrScanJoin	kd = {0};
	BulkJoin	probe = {.filter_keys = -1};
	PageRows	pr;
	void	   *arg;
	GrJoinNextRow next;
	const Datum *values;
	const bool *isnull;
	int64		room = 1024;
	int64	   *keys = palloc(sizeof(int64) * room);

	/* the table as a relation of one key, its column, and no value */
	kd.nkeys = 1;
	kd.src[0] = col;
	kd.keywidth[0] = bj->desc->srcwidth[0];
	kd.jointype = JOIN_INNER;
	kd.name = bj->desc->name;
	kd.pagecols = &col;
	probe.desc = &kd;
	probe.pages = t;
	*n = 0;
	next = row_source(bs, &probe, NULL, &pr, &arg);
	while (next(arg, &values, &isnull))
	{
		if (isnull[0])
			continue;
		if (*n == room)
		{
			room *= 2;
			keys = repalloc_huge(keys, sizeof(int64) * room);
		}
		keys[(*n)++] = gr_join_key_value(values[0], kd.keywidth[0]);
	}
	end_row_source(&probe, &pr);
	*pages = probe.job_pages;
	*job_ms = probe.job_ms;
	return keys;
}

/*
 * Whether list jobs may read relation bj's pages with semi joins (its
 * own build: semi_joins, keys_semi): a relation read from its pages, a GPU
 * for its jobs or cpu mode.
 */
static bool
semi_possible(const BulkJoin *bj)
{
	GrPagePathMode mode = (GrPagePathMode) gr_page_path;

	return bj->pages != NULL && !RelationUsesLocalBuffers(bj->pages->rel) &&
		(mode == GR_PAGE_PATH_CPU ||
		 (mode == GR_PAGE_PATH_ON && gr_gpu_pages_unavailable() == NULL));
}

/* No semi join yet of relation bj's jobs, whose columns they are. */
static void
semi_begin(const BulkJoin *bj, GrPageJoinSpec *semi)
{
	memset(semi, 0, sizeof(*semi));
	semi->ncols = bj->pages->desc->ncols + (bj->pages->prog != NULL ? bj->pages->prog->nouts : 0);
	semi->jbase = semi->ncols;
}

/*
 * Put semi's images where relation bj's jobs read them: on a GPU, uploaded
 * under a key of their own (the images returned, to release once bj is
 * built); in cpu mode, where they are.  bj->semi: semi, or NULL where the
 * images did not go.
 */
static GrPageImages *
semi_place(BulkScanState *bs, BulkJoin *bj, GrPageJoinSpec *semi)
{
	const void *images[GR_PAGE_SPEC_JOINS];
	Size		bytes[GR_PAGE_SPEC_JOINS];
	Size		marks[GR_PAGE_SPEC_JOINS] = {0};
	GrPageImages *im = NULL;
	const char *why;

	bj->semi = NULL;
	if ((GrPagePathMode) gr_page_path == GR_PAGE_PATH_ON)
	{
		for (int r = 0; r < semi->njoins; r++)
		{
			images[r] = semi->rels[r].image;
			bytes[r] = ((const GrJoinImage *) semi->rels[r].image)->bytes;
		}
		im = gr_page_path_own_images(bs->joincxt);
		semi->key = gr_page_path_images_key(im);
		if (!gr_page_path_upload_images(semi->key, images, bytes, marks, semi->njoins, &why))
		{
			gr_page_path_release_images(im);
			return NULL;
		}
	}
	bj->semi = semi;
	return im;
}

/*
 * The semi joins the list jobs of relation bj, read from its pages, filter
 * its rows by, into semi: the later relations that leave its rows out
 * (rr), each probed by its keys, values of bj's, so that those rows stay
 * where the jobs run (TPC-H Q3's orders: 580 179 of the 727 305 its WHERE
 * keeps on the H200 came back to be left out here), their images placed
 * by semi_place.  bj->semi: semi, or NULL where there are none or the
 * images did not go (reduced_row leaves the rows out, as it does any row
 * the jobs hand back).
 */
static GrPageImages *
semi_joins(BulkScanState *bs, BulkJoin *bj, const ReducedRows *rr, GrPageJoinSpec *semi)
{
	const GrScanJoin *j = bj->desc;

	bj->semi = NULL;
	/* (list_pages: with no WHERE, values jobs alone filter) */
	if (rr->nby == 0 || !semi_possible(bj) ||
		(bj->pages->nquals == 0 && bj->pages->xqual == NULL && job_stored_columns(bj) == 0))
		return NULL;
	semi_begin(bj, semi);
	for (int b = 0; b < rr->nby; b++)
	{
		const GrScanJoin *k = rr->by[b]->desc;
		GrPageJoinRel *r = &semi->rels[semi->njoins];

		r->type = GR_PAGE_JOIN_SEMI;
		r->nkeys = k->nkeys;
		for (int i = 0; i < k->nkeys; i++)
		{
			/* (reduces(): each key a value of bj's, a column of its jobs) */
			r->keycol[i] = j->pagecols[j->nkeys + (-1 - k->src[i]) - j->vstart];
			r->keywidth[i] = k->srcwidth[i];
		}
		r->valpos = semi->ncols;
		r->image = rr->by[b]->hash->image;
		semi->njoins++;
	}
	return semi_place(bs, bj, semi);
}

/* A row source (GrJoinNextRow) of an array of keys (KeyRows): each key, as an int8. */
typedef struct KeyRows
{
	const int64 *keys;
	int64		n;
	int64		next;
	Datum		value;
	bool		isnull;
} KeyRows;

static bool
key_row(void *arg, const Datum **values, const bool **isnull)
{
	KeyRows    *kr = arg;

	if (kr->next >= kr->n)
		return false;
	kr->value = Int64GetDatum(kr->keys[kr->next++]);
	kr->isnull = false;
	*values = &kr->value;
	*isnull = &kr->isnull;
	return true;
}

/*
 * Where the table's keys (probe_keys: n of them, sorted, each once) are
 * many for relation bj's pages (GR_KEYS_PER_PAGE_*), the semi join of
 * bj's jobs that keeps its rows of those keys, into semi: an image of the
 * keys alone, probed by bj's one key (its pages' column), so that the
 * jobs read every page and only the rows of those keys come back (TPC-H
 * Q12's orders: 29 099 keys for its 26 845 pages, 61 ms of lookups on the
 * H200); its images as semi_place returns them.  bj->semi: NULL where the
 * lookups are cheaper or the jobs cannot take it.  A row the jobs hand
 * back, or of pages they leave to the CPU, is hashed though no key names
 * it: no probe finds it.
 */
static GrPageImages *
keys_semi(BulkScanState *bs, BulkJoin *bj, const int64 *keys, int64 n, GrPageJoinSpec *semi)
{
	GrScanJoin	kd = {0};
	KeyRows		kr = {keys, n, 0};
	GrPageJoinRel *r = &semi->rels[0];
	GrJoinHash *image;

	bj->semi = NULL;
	if (!semi_possible(bj) ||
		(double) n < gr_keys_per_page() * RelationGetNumberOfBlocks(bj->pages->rel))
		return NULL;
	/* the keys as a relation of one int8 key and no value */
	kd.nkeys = 1;
	kd.keywidth[0] = 8;
	kd.jointype = JOIN_SEMI;
	kd.name = bj->desc->name;
	image = gr_join_hash_build(key_row, &kr, &kd, bs->joincxt);
	semi_begin(bj, semi);
	r->type = GR_PAGE_JOIN_SEMI;
	r->nkeys = 1;
	r->keycol[0] = bj->desc->pagecols[0];
	r->keywidth[0] = bj->desc->keywidth[0];
	r->valpos = semi->ncols;
	r->image = image->image;
	semi->njoins = 1;
	return semi_place(bs, bj, semi);
}

/*
 * Hash relation j into this process's memory, after the later relations
 * that leave its rows out (ReducedRows); from: NULL, or a relation hashed
 * before j whose values j's one key equals, and which has few rows, whose
 * values' rows alone j then hashes.  Rows are fetched by an index where the
 * keys that name them are few (IndexRows): from's values, or a reducing
 * relation's keys.
 */
static void
build_one(BulkScanState *bs, int j, const BulkJoin *from)
{
	BulkJoin   *bj = &bs->joins[j];
	ReducedRows rr = {0};
	PageRows	pr;
	IndexRows	ir;
	GrPageJoinSpec semi;
	GrPageImages *semi_images = NULL;
	bool		by_index = false;
	bool		deferred[GR_JOIN_MAX_RELS] = {0};
	instr_time	start;
	instr_time	took;

	if (bj->hash != NULL)
		return;
	bj->index = NULL;			/* (a rescan's build: the last one's name went with joincxt) */
	bj->lookups = 0;
	bj->probe_pages = -1;
	bj->job_pages = -1;
	bj->job_rows = -1;
	bj->job_ms = -1;
	bj->filter_keys = -1;
	for (int k = j + 1; k < bs->njoins; k++)
		if (reduces(bj->desc, bs->joins[k].desc))
		{
			int			b;

			if ((deferred[k] = defer_reducer(bs, j, k)))
				continue;
			b = rr.nby++;
			build_one(bs, k, NULL);
			/* the smallest first: most rows are left out by one look in its cache */
			for (; b > 0 && rr.by[b - 1]->hashed_rows > bs->joins[k].hashed_rows; b--)
				rr.by[b] = rr.by[b - 1];
			rr.by[b] = &bs->joins[k];
		}
	INSTR_TIME_SET_CURRENT(start);
	rr.desc = bj->desc;
	for (int b = 0; b < rr.nby; b++)
		rr.bits[b] = gr_join_key_bits(rr.by[b]->hash, CurrentMemoryContext);
	if (from != NULL)
	{
		int64		n;
		int64	   *keys = value_keys(bj, from, &n);

		by_index = index_rows(bs, bj, bj->desc->pagecols[0], keys, n, GR_INDEX_ROWS_PER_KEY, &ir);
		if (!by_index)
			pfree(keys);
	}
	for (int b = 0; b < rr.nby && !by_index; b++)
	{
		int64		n;
		int			col;
		int64	   *keys;

		if (rr.by[b]->desc->nkeys != 1 || bj->pages == NULL)
			continue;
		keys = reducer_keys(bj, rr.by[b], &col, &n);
		/* (a value the program computes is no column an index has) */
		if (col >= bj->pages->desc->ncols)
		{
			pfree(keys);
			continue;
		}
		by_index = index_rows(bs, bj, col, keys, n, GR_INDEX_ROWS_PER_KEY, &ir);
		if (!by_index)
			pfree(keys);
	}
	/*
	 * (a key list from the table that turns out long: its pages, as without
	 * one; many keys for its pages: its pages, the jobs keeping the rows of
	 * the keys)
	 */
	if (!by_index && bj->desc->probe_keys && bs->ntables == 1)
	{
		int64		n;
		int64	   *keys = probe_keys(bs, bj, &n, &bj->probe_pages, &bj->job_ms);

		n = unique_keys(keys, n);
		semi_images = keys_semi(bs, bj, keys, n, &semi);
		if (bj->semi != NULL)
			bj->filter_keys = n;
		else
			by_index = index_rows(bs, bj, bj->desc->pagecols[0], keys, n, GR_PROBE_ROWS_PER_KEY,
								  &ir);
		if (!by_index)
		{
			pfree(keys);
			if (bj->filter_keys < 0)
			{
				bj->probe_pages = -1;
				bj->job_ms = -1;
			}
		}
	}
	if (by_index)
	{
		rr.next = index_row;
		rr.arg = &ir;
	}
	else
	{
		if (bj->filter_keys < 0)
			semi_images = semi_joins(bs, bj, &rr, &semi);
		rr.next = row_source(bs, bj, NULL, &pr, &rr.arg);
	}
	if (rr.nby > 0)
		bj->hash = gr_join_hash_build(reduced_row, &rr, bj->desc, bs->joincxt);
	else
		bj->hash = gr_join_hash_build(rr.next, rr.arg, bj->desc, bs->joincxt);
	if (by_index)
	{
		char	   *name = get_rel_name(ir.index);

		/* for EXPLAIN ANALYZE, beside the image (a rescan builds it again) */
		bj->index = MemoryContextStrdup(bs->joincxt, name != NULL ? name : "?");
		bj->lookups = ir.lookups;
		lookups_end(&ir);
		pfree(ir.keys);
	}
	else
	{
		end_row_source(bj, &pr);
		bj->semi = NULL;
		gr_page_path_release_images(semi_images);
		rr.left_out += pr.left_by_jobs;
		if (bj->filter_keys >= 0 && pr.pp == NULL && pr.left_by_jobs == 0)
			bj->filter_keys = -1;	/* (the jobs did not take it) */
	}
	INSTR_TIME_SET_CURRENT(took);
	INSTR_TIME_SUBTRACT(took, start);
	note_build(bj, INSTR_TIME_GET_MILLISEC(took));
	bj->left_out = rr.nby > 0 || bj->filter_keys >= 0 ? rr.left_out : -1;
	for (int b = 0; b < rr.nby; b++)
		if (rr.bits[b] != NULL)
		{
			pfree(rr.bits[b]->words);
			pfree(rr.bits[b]);
		}
	if (bj->desc->marked != 0)
		bj->marks = MemoryContextAllocExtended(bs->joincxt, Max(bj->hashed_rows, 1),
											   MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	/* the relations keyed by j's values alone, now j's rows are known */
	for (int k = j + 1; k < bs->njoins; k++)
		if (deferred[k])
			build_one(bs, k, bj);
}

/*
 * Hash each relation of a join from its plan's rows (once a scan): a
 * parallel plan's into the query's shared memory (build_shared), else here
 * (a parallel plan with no shared memory has no workers).
 */
static void
build_joins(BulkScanState *bs)
{
	if (bs->njoins == 0 || bs->joins[0].hash != NULL)
		return;
	bs->area = bs->shared != NULL ? bs->css.ss.ps.state->es_query_dsa : NULL;
	if (bs->area != NULL)
	{
		build_shared(bs);
		return;
	}
	for (int j = 0; j < bs->njoins; j++)
		build_one(bs, j, NULL);
	upload_images(bs);
}

/* BeginCustomScan: set up outputs, tables, comparisons and decoders. */
static void
bulk_begin(CustomScanState *node, EState *estate, int eflags)
{
	BulkScanState *bs = (BulkScanState *) node;
	CustomScan *cs = (CustomScan *) node->ss.ps.plan;
	GrScanDesc *d = gr_scan_desc_from_list(cs->custom_private);

	bs->desc = d;
	bs->kexprs = palloc0(sizeof(ExprState *) * Max(d->naggs, 1));
	for (int a = 0; a < d->naggs; a++)
		if (d->aggs[a].kexpr >= 0)
			bs->kexprs[a] = ExecInitExpr(list_nth(cs->custom_exprs, d->aggs[a].kexpr),
										 &node->ss.ps);
	bs->ntables = d->ntables;
	bs->tables = palloc0(sizeof(BulkTable) * Max(bs->ntables, 1));
	for (int t = 0; t < d->ntables; t++)
		init_table(bs, &bs->tables[t], &d->tables[t]);
	init_joins(bs, estate, eflags);
	bs->statecxt = AllocSetContextCreate(estate->es_query_cxt,
										 "gpu_reduce bulk scan",
										 ALLOCSET_DEFAULT_SIZES);
	/*
	 * under a GROUP BY the values count against the groups' budget: blocks
	 * to match; in final mode gpu_reduce.group_memory, which holds them all
	 */
	bs->final = !d->partial && d->ngroupkeys > 0;
	if (bs->final)
		having_checks(bs, cs->scan.plan.qual);
	bs->group_budget = bs->final ? gr_group_memory_bytes() : get_hash_memory_limit();
	bs->share_lo = 0;
	bs->share_hi = GR_GROUP_HASH_SPACE;
	bs->sinkcxt = AllocSetContextCreate(estate->es_query_cxt,
										"gpu_reduce aggregate values",
										ALLOCSET_DEFAULT_MINSIZE, ALLOCSET_DEFAULT_INITSIZE,
										d->ngroupkeys > 0 ? gr_group_block_size(bs->group_budget) :
										ALLOCSET_DEFAULT_MAXSIZE);
	bs->sink = gr_sink_create(bs->sinkcxt, d, agg_k, bs);
	if (d->ngroupkeys > 0)
	{
		bs->groups = gr_group_create(estate->es_query_cxt, d->ngroupkeys, d->keys,
									 bs->group_budget);
		bs->keycxt = AllocSetContextCreate(estate->es_query_cxt, "gpu_reduce computed keys",
										   ALLOCSET_SMALL_SIZES);
		bs->emitslot = gr_alloc_table_slot(&estate->es_tupleTable,
										   node->ss.ss_ScanTupleSlot->tts_tupleDescriptor,
										   &TTSOpsMinimalTuple);
	}
}

/*
 * The group of a row whose decoded and computed columns are tv (NULL if
 * tn), added to the sink if new; 0 without a GROUP BY; -1 where the group
 * is not this final-mode pass's (the row goes nowhere).  A numeric key the
 * program computed (int64s times 10^scale, or past 64 bits wide's) is
 * made a numeric first, unless PostgreSQL computed the row's outputs
 * (evaluated: fallback_outputs gives a numeric's address).
 */
static int
row_group(BulkScanState *bs, BulkTable *t, const uint64 *tv, const bool *tn,
		  const gr_int128 *wide, bool evaluated, bool jevaluated)
{
	uint64		kv[GR_DECODE_MAX_COLS];
	bool		kn[GR_DECODE_MAX_COLS];
	bool		added;
	bool		made = false;
	int			g;

	if (bs->groups == NULL)
		return 0;
	for (int k = 0; k < bs->desc->ngroupkeys; k++)
	{
		int			c = t->keyrow[k];
		int			scale = bs->desc->keys[k].scale;
		MemoryContext old;
		Datum		num;

		kv[k] = tv[c];
		kn[k] = tn[c];
		if (scale < 0 || (bs->jprog != NULL && c >= bs->jbase ? jevaluated : evaluated) ||
			(kn[k] && (wide == NULL || tv[c] != 1)))
			continue;
		if (!made)
			MemoryContextReset(bs->keycxt);
		made = true;
		old = MemoryContextSwitchTo(bs->keycxt);
		num = gr_scaled_numeric(kn[k] ? wide[c - t->desc->ncols] : (int64) tv[c], scale);
		MemoryContextSwitchTo(old);
		kv[k] = (uint64) (uintptr_t) DatumGetPointer(num);
		kn[k] = false;
	}
	g = gr_group_of(bs->groups, kv, kn, &added);
	if (g < 0)
		return -1;
	if (added && gr_sink_add_group(bs->sink) != g)
		elog(ERROR, "gpu_reduce: group table and aggregate values disagree");
	return g;
}

/* Evaluate one run-time constant (a Const or a Param). */
static Datum
eval_const(BulkScanState *bs, ExprState *es, bool *isnull)
{
	return ExecEvalExprSwitchContext(es, bs->css.ss.ps.ps_ExprContext, isnull);
}

/*
 * A time column's comparison with a constant of another time type, as the
 * column's own values (the planner took only ranges certain and at most
 * one value wide: time_range.c).
 */
static void
bind_time_qual(GrQual *q, const GrTimeRange *r)
{
	if (r->unsure || r->hi > r->lo)
		elog(ERROR, "gpu_reduce: a time comparison of the bulk scan is not certain");
	switch (q->op)
	{
		case GR_QUAL_LT:
		case GR_QUAL_GE:
			q->ival = r->lo;
			break;
		case GR_QUAL_LE:
		case GR_QUAL_GT:
			q->ival = r->hi;
			break;
		case GR_QUAL_EQ:
			/* no value equals a constant between two of them */
			if (r->hi < r->lo)
				q->op = GR_QUAL_FALSE;
			q->ival = r->lo;
			break;
		case GR_QUAL_NE:
			if (r->hi < r->lo)
				q->op = GR_QUAL_NOTNULL;
			q->ival = r->lo;
			break;
	}
}

/* Give a table's comparisons their constants (parameters may change). */
static void
bind_quals(BulkScanState *bs, BulkTable *t)
{
	for (int i = 0; i < t->nquals; i++)
	{
		GrQual	   *q = &t->quals[i];
		ExprState  *es = t->qual_exprs[i];
		Oid			type;
		Datum		v;
		bool		isnull;

		if (es == NULL)
			continue;
		/* a rescan binds again: a NULL last time says nothing of this one */
		q->op = t->qual_ops[i];
		v = eval_const(bs, es, &isnull);
		if (isnull)
		{
			/* a strict comparison with NULL is never true */
			q->op = GR_QUAL_FALSE;
			continue;
		}
		/* the constant's storage kind: its type's entry (the planner checked its class) */
		type = exprType((Node *) es->expr);
		if (OidIsValid(t->qual_times[i]))
		{
			GrTimeRange r;

			gr_time_range(t->qual_times[i], type, v, &r);
			bind_time_qual(q, &r);
			continue;
		}
		switch (gr_type_info(gr_type_of_oid(type))->storage)
		{
			case GR_INT2:
				q->ival = DatumGetInt16(v);
				break;
			case GR_INT4:
				q->ival = DatumGetInt32(v);
				break;
			case GR_INT8:
				q->ival = DatumGetInt64(v);
				break;
			case GR_FLOAT4:
				q->fval = DatumGetFloat4(v);
				break;
			case GR_FLOAT8:
				q->fval = DatumGetFloat8(v);
				break;
		}
	}
	if (t->prog != NULL)
		bind_program(bs, t->prog, t->binds);
}

/*
 * The k of aggregate agg (GrSinkK): the one its name fixes, or gpu_topk's,
 * checked as its transition function checks it; only asked once a row has
 * arrived, as the transition would be.
 */
static int32
agg_k(void *arg, int agg)
{
	BulkScanState *bs = arg;
	Datum		v;
	bool		isnull;

	if (bs->kexprs[agg] == NULL)
		return bs->desc->aggs[agg].kind == GR_SCAN_AGG ?
			gr_kind(bs->desc->aggs[agg].op)->k_of_name : 0;
	v = eval_const(bs, bs->kexprs[agg], &isnull);
	return gr_check_k(v, isnull);
}

/*
 * Read one page into the scan descriptor: pin it, prune it if possible, and
 * list its visible tuples as a page-mode sequential scan does.
 */
static void
read_page(HeapScanDesc scan, BlockNumber blk)
{
#if PG_VERSION_NUM >= 170000
	if (BufferIsValid(scan->rs_cbuf))
		ReleaseBuffer(scan->rs_cbuf);
	scan->rs_cbuf = InvalidBuffer;
	CHECK_FOR_INTERRUPTS();
	scan->rs_cbuf = ReadBufferExtended(scan->rs_base.rs_rd, MAIN_FORKNUM, blk,
									   RBM_NORMAL, scan->rs_strategy);
	scan->rs_cblock = blk;
	heap_prepare_pagescan((TableScanDesc) scan);
#else
	heapgetpage((TableScanDesc) scan, blk);
#endif
}

/*
 * Pin block blk of the scan's relation where every line pointer of it is
 * a normal tuple the snapshot sees (gr_page_path_all_normal), having
 * pruned and looked as heapgetpage would (hints: where its buffer may be,
 * or NULL); *maxoff its line pointers.  False, holding nothing, for any
 * other page, or an empty one.
 */
static bool
pin_whole_page(GrBufHints *hints, HeapScanDesc scan, BlockNumber blk, Buffer *pbuf,
			   OffsetNumber *maxoff)
{
	Relation	rel = scan->rs_base.rs_rd;
	Snapshot	snapshot = scan->rs_base.rs_snapshot;
	Buffer		buf;
	Page		page;
	bool		whole;

	CHECK_FOR_INTERRUPTS();
	buf = gr_buf_hints_read(hints, rel, blk, scan->rs_strategy);
	/* as heapgetpage: prune if worth it, then look under the share lock */
	gr_heap_page_prune_opt(scan, buf);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	gr_test_old_snapshot(snapshot, rel, page);
	*maxoff = PageGetMaxOffsetNumber(page);
	whole = gr_page_path_all_normal(page, snapshot);
	LockBuffer(buf, BUFFER_LOCK_UNLOCK);
	if (!whole || *maxoff == 0)
	{
		ReleaseBuffer(buf);
		return false;
	}
	*pbuf = buf;
	return true;
}

/*
 * A row's computed numerics past 64 bits (the program flags them, their
 * columns NULL): each goes to its aggregates as it is, a sum's or average's
 * straight into the numeric sum at its scale (one that varies by row: the
 * row's own, in the next output).
 */
static void
wide_outputs(BulkScanState *bs, BulkTable *t, int group, const uint64 *outvals,
			 const bool *outnulls, const gr_int128 *wide)
{
	for (int o = 0; o < t->prog->nouts; o++)
	{
		if (t->prog->out_kind[o] != GR_XO_DEC || !outnulls[o] || outvals[o] != 1)
			continue;
		for (int a = 0; a < bs->desc->naggs; a++)
			if (t->argouts[a] == o)
			{
				const GrScanAgg *ag = &bs->desc->aggs[a];

				gr_sink_add_scaled(bs->sink, group, a, wide[o], ag->dec_scale,
								   ag->row_scale ? (int) outvals[o + 1] : ag->dec_scale);
			}
	}
}

/*
 * A row the expression program handed back: PostgreSQL evaluates its
 * conjuncts, as its own scan would (raising its errors).  False if they
 * reject the row.  The tuple stays in the table's slot for its outputs
 * (fallback_outputs) until the caller clears it.
 */
static bool
fallback_quals(BulkScanState *bs, BulkTable *t, const uint8 *page, BlockNumber blk,
			   OffsetNumber off, uint32 len)
{
	ExprContext *econtext = bs->css.ss.ps.ps_ExprContext;
	HeapTuple	tuple = &t->xtuple;

	tuple->t_len = len;
	ItemPointerSet(&tuple->t_self, blk, off);
	tuple->t_tableOid = RelationGetRelid(t->rel);
	tuple->t_data = (HeapTupleHeader) gr_page_tuple(page, off);
	ExecStoreHeapTuple(tuple, t->xslot, false);
	econtext->ecxt_scantuple = t->xslot;
	return t->xqual == NULL || ExecQual(t->xqual, econtext);
}

/*
 * The outputs of a handed-back row that passed (fallback_quals), evaluated
 * by PostgreSQL: into xv and xn as values, and into tv and tn (after the
 * decoded columns) as a group key reads them: bits in the width, or an
 * address.
 */
static void
fallback_outputs(BulkScanState *bs, BulkTable *t, uint64 *tv, bool *tn, Datum *xv, bool *xn)
{
	int			ncols = t->desc->ncols;
	ExprContext *econtext = bs->css.ss.ps.ps_ExprContext;

	for (int o = 0; o < t->prog->nouts; o++)
	{
		int			w = t->prog->out_w[o];

		xv[o] = ExecEvalExprSwitchContext(t->xouts[o], econtext, &xn[o]);
		tv[ncols + o] = t->prog->out_kind[o] == GR_XO_DEC || w == 8 ? (uint64) xv[o] :
			(uint64) xv[o] & ((UINT64_C(1) << (8 * w)) - 1);
		tn[ncols + o] = xn[o];
	}
}

/*
 * Fetch a tuple's first two cache lines ahead of decoding it: the columns a
 * query reads mostly lie past the first (TPC-H lineitem's l_shipdate at
 * about 90 bytes), and a second line the hardware does not fetch stalled
 * the decoder as long as the first.
 */
static inline void
prefetch_tuple(const uint8 *page, OffsetNumber off)
{
	const uint8 *t = gr_page_tuple(page, off);

	__builtin_prefetch(t);
	__builtin_prefetch(t + 64);
}

/* Decode a visible tuple of a table's page into tv, tn: an error where it does not decode. */
static inline void
decode_tuple(BulkTable *t, const uint8 *page, BlockNumber blk, OffsetNumber off, uint32 len,
			 uint64 *tv, bool *tn)
{
	if (len == 0 || !gr_decode_tuple(t->desc, gr_page_tuple(page, off), len, tv, tn))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("could not decode tuple (%u,%u) of relation \"%s\"",
						blk, off, RelationGetRelationName(t->rel))));
}

/*
 * Whether a decoded tuple of a relation read from its pages passes its
 * WHERE: the comparisons, then the program; a row the program hands back
 * is PostgreSQL's to evaluate (raising its errors), as its plan would.
 */
static bool
page_row_passes(BulkScanState *bs, BulkTable *t, const uint8 *page, BlockNumber blk,
				OffsetNumber off, uint32 len, uint64 *tv, bool *tn)
{
	gr_int128	wide[GR_EXPR_MAX_OUTS];
	GrExprResult res;
	bool		pass;

	if (t->nquals > 0 && !gr_quals_pass(t->quals, t->nquals, tv, tn))
		return false;
	if (t->prog == NULL)
		return true;
	res = gr_expr_eval(t->prog, tv, tn, tv + t->desc->ncols, tn + t->desc->ncols, wide);
	if (res != GR_EXPR_FALLBACK)
		return res == GR_EXPR_PASS;
	pass = fallback_quals(bs, t, page, blk, off, len);
	if (pass && t->prog->nouts > 0)
	{
		/* its computed values (page_value: fixed-width, their bits are their Datums) */
		Datum		xv[GR_EXPR_MAX_OUTS];
		bool		xn[GR_EXPR_MAX_OUTS];

		fallback_outputs(bs, t, tv, tn, xv, xn);
	}
	ExecClearTuple(t->xslot);
	ResetExprContext(bs->css.ss.ps.ps_ExprContext);
	return pass;
}

/*
 * Read the next page of a relation read from its pages (the next block, or
 * in a parallel plan the next one taken) and list its visible tuples: one
 * all visible as the table's scan_page_whole reads it, any other as
 * read_page does.  False after the last.
 */
static bool
next_page(PageRows *pr, HeapScanDesc scan)
{
	OffsetNumber maxoff;

	if (BufferIsValid(pr->buf))
		ReleaseBuffer(pr->buf);
	pr->buf = InvalidBuffer;
	if (pr->taken != NULL)
		pr->blk = pg_atomic_fetch_add_u32(pr->taken, 1);
	else
		pr->blk = pr->blk == InvalidBlockNumber ? 0 : pr->blk + 1;
	if (pr->blk >= scan->rs_nblocks)
		return false;
	pr->next = 0;
	if (pin_whole_page(pr->bj->pages->hints, scan, pr->blk, &pr->buf, &maxoff))
	{
		GrPageEntry e = {.nlp = maxoff, .flags = GR_PAGE_ALL_NORMAL};

		pr->page = (const uint8 *) BufferGetPage(pr->buf);
		pr->nvis = gr_page_entry_offsets(&e, pr->page, pr->offs);
		pr->vis = pr->offs;
	}
	else
	{
		read_page(scan, pr->blk);
		pr->page = (const uint8 *) BufferGetPage(scan->rs_cbuf);
		pr->vis = scan->rs_vistuples;
		pr->nvis = scan->rs_ntuples;
	}
	/* the tuples' first touch is the loop's cost: fetch ahead (page_row goes on) */
	for (int i = 0; i < Min(pr->nvis, GR_PREFETCH_TUPLES); i++)
		prefetch_tuple(pr->page, pr->vis[i]);
	return true;
}

/*
 * Keep a row the list jobs listed and its WHERE passed again (tv, tn: its
 * decoded columns): its keys and values, a varlena copied (the page is
 * unpinned before page_row hands the row on).
 */
static void
keep_listed(PageRows *pr, const uint64 *tv, const bool *tn)
{
	const GrScanJoin *j = pr->bj->desc;
	int			w = j->nkeys + j->nvals;
	uint32		varmask = gr_join_varmask(j);
	Datum	   *v;
	bool	   *n;

	if (pr->nlisted == pr->lroom)
	{
		pr->lroom = Max(2 * pr->lroom, 1024);
		pr->lvalues = repalloc_huge(pr->lvalues, sizeof(Datum) * w * pr->lroom);
		pr->lnulls = repalloc_huge(pr->lnulls, sizeof(bool) * w * pr->lroom);
	}
	v = pr->lvalues + pr->nlisted * w;
	n = pr->lnulls + pr->nlisted * w;
	pages_row(j, tv, tn, v, n);
	for (int i = 0; i < j->nvals; i++)
		if ((varmask & (UINT32_C(1) << i)) && !n[j->nkeys + i])
			v[j->nkeys + i] = datumCopy(v[j->nkeys + i], false, -1);
	pr->nlisted++;
}

/*
 * Keep the rows a values job (GR_PAGE_JOB_VALUES) kept: their stored
 * columns, as the job brought them back, are the columns the relation's
 * keys and values are (list_pages stores those), bit for bit as the
 * decoder and the program give them.  The WHERE passed them there.
 */
static void
keep_job_values(PageRows *pr, GrPageJob *job)
{
	int64		rows = (int64) job->counts[GR_PAGE_COUNT_ROWS(job->ncols)];
	uint64	   *vals[GR_PAGE_MAX_COLS];
	uint8	   *nulls[GR_PAGE_MAX_COLS];
	MemoryContext old;

	if (rows > (int64) job->values_cap)
		elog(ERROR, "gpu_reduce: a values job kept more rows than it has room for");
	gr_page_job_value_columns(job, vals, nulls);
	old = MemoryContextSwitchTo(pr->listcxt);
	for (int64 r = 0; r < rows; r++)
	{
		uint64		tv[GR_DECODE_MAX_COLS];
		bool		tn[GR_DECODE_MAX_COLS];

		for (int c = 0; c < job->ncols; c++)
		{
			tn[c] = vals[c] == NULL || nulls[c][r] != 0;
			tv[c] = vals[c] == NULL ? 0 : vals[c][r];
		}
		keep_listed(pr, tv, tn);
	}
	MemoryContextSwitchTo(old);
	pr->bj->job_rows += rows;
}

/*
 * ListedPage of a list jobs' read (PageRows): the listed rows of one pinned
 * page, decoded, passed again, kept.
 */
static void
list_page_rows(void *arg, const uint8 *page, BlockNumber blk, const OffsetNumber *offs, int k)
{
	PageRows   *pr = arg;
	BulkTable  *t = pr->bj->pages;
	MemoryContext old = MemoryContextSwitchTo(pr->listcxt);

	pr->listed_seen += k;

	for (int i = 0; i < k; i++)
	{
		uint64		tv[GR_DECODE_MAX_COLS];
		bool		tn[GR_DECODE_MAX_COLS];
		uint32		len = gr_page_tuple_len(page, offs[i], BLCKSZ);

		decode_tuple(t, page, blk, offs[i], len, tv, tn);
		if (page_row_passes(pr->bs, t, page, blk, offs[i], len, tv, tn))
			keep_listed(pr, tv, tn);
	}
	MemoryContextSwitchTo(old);
}

/* GrPageCallbacks.cpu_page of a list jobs' read: every visible row of the page, as listed. */
static void
list_cpu_page(void *arg, Buffer buf, const OffsetNumber *offs, int n)
{
	((PageRows *) arg)->vis_seen += n;
	list_page_rows(arg, (const uint8 *) BufferGetPage(buf), gr_pin_block(buf), offs, n);
}

/* the rows of one page a job listed (handed back): offs, k of them in order */
typedef void (*ListedPage) (void *arg, const uint8 *page, BlockNumber blk,
							const OffsetNumber *offs, int k);

/*
 * The rows a page job listed as handed back (those a list job's WHERE may
 * keep, or those a program or a group table could not take), by page, then
 * line pointer, each page's to fn: the job's pages are still pinned.
 */
static void
each_listed_page(GrPageJob *job, ListedPage fn, void *arg)
{
	GrPageFallback *fb = gr_page_job_fallbacks(job);
	GrPageEntry *entries = gr_page_job_entries(job);
	int64		n = (int64) job->counts[GR_PAGE_COUNT_FALLBACK(job->ncols)];

	qsort(fb, n, sizeof(GrPageFallback), fallback_cmp);
	for (int64 i = 0; i < n;)
	{
		OffsetNumber offs[MaxHeapTuplesPerPage];
		int			k = 0;
		int			p = fb[i].page;
		const GrPageEntry *e;
		Buffer		buf;
		const uint8 *page;

		if (p >= (int) job->npages)
			elog(ERROR, "gpu_reduce: a page job handed back a row of a page it does not have");
		e = &entries[p];
		buf = (Buffer) e->buf + 1;
		page = (const uint8 *) BufferGetPage(buf);
		for (; i < n && fb[i].page == p; i++)
		{
			if (fb[i].off < 1 || fb[i].off > e->nlp || !gr_page_visible(e, page, fb[i].off) ||
				(k > 0 && fb[i].off == offs[k - 1]))
				elog(ERROR, "gpu_reduce: a page job handed back a tuple that is not visible");
			offs[k++] = fb[i].off;
		}
		fn(arg, page, gr_pin_block(buf), offs, k);
	}
}

/*
 * GrPageCallbacks.gpu_job of a list jobs' read: the rows the job listed;
 * false (its pages decoded here whole) where it listed more than it holds
 * or a tuple did not decode.
 */
static bool
list_gpu_job(void *arg, GrPageJob *job)
{
	PageRows   *pr = arg;

	if (gr_page_fallback_overflow(job) || job->counts[GR_PAGE_COUNT_BAD(job->ncols)] > 0)
		return false;
	pr->vis_seen += (int64) job->counts[GR_PAGE_COUNT_VIS(job->ncols)];
	if (job->njoins > 0)
		pr->left_by_jobs += (int64) job->counts[GR_PAGE_COUNT_DROPPED(job->ncols)];
	if (job->flags & GR_PAGE_JOB_VALUES)
		keep_job_values(pr, job);
	each_listed_page(job, list_page_rows, arg);
	return true;
}

/* GrPageCallbacks.groups and .checks: a list job has neither */
static void
list_no_groups(void *arg, const GrPageJob *job, const uint64 *ents, uint64 n, bool sole)
{
	elog(ERROR, "gpu_reduce: a list job made groups");
}

static void
list_no_checks(void *arg, GrPageJob *job, bool sole)
{
	job->ncheck = 0;
}

/*
 * Hand the next page of a relation read through list jobs (the next one
 * this participant takes, in a parallel plan) to them, as the table's
 * scan_page does (one all visible whole, any other's visible
 * tuples); after the last, or once they list more than a quarter of the
 * rows (switched: page_row reads the rest), finish them (their last rows
 * listed).
 */
static void
feed_page(PageRows *pr, HeapScanDesc scan)
{
	OffsetNumber maxoff;
	Buffer		buf;
	BlockNumber next = InvalidBlockNumber;

	pr->switched = pr->vis_seen > 0 && 4 * pr->listed_seen > pr->vis_seen;
	if (!pr->switched)
		next = pr->taken != NULL ? pg_atomic_fetch_add_u32(pr->taken, 1) :
			pr->blk == InvalidBlockNumber ? 0 : pr->blk + 1;
	if (pr->switched || next >= scan->rs_nblocks)
	{
		GrPagePathTotals totals;

		gr_page_path_finish(pr->pp, &totals);
		pr->bj->job_pages = (int64) (totals.gpu_pages + totals.cpu_job_pages);
		pr->fed = true;
		return;
	}
	pr->blk = next;
	if (pin_whole_page(pr->bj->pages->hints, scan, pr->blk, &buf, &maxoff))
	{
		gr_page_path_add(pr->pp, buf, NULL, maxoff);
		return;
	}
	read_page(scan, pr->blk);
	if (scan->rs_ntuples > 0)
	{
		buf = scan->rs_cbuf;
		scan->rs_cbuf = InvalidBuffer;
		gr_page_path_add(pr->pp, buf, scan->rs_vistuples, scan->rs_ntuples);
	}
}

/*
 * page_row of a relation read through list jobs: the rows they listed and
 * its WHERE passed again, pages fed to them until some come back.
 */
static bool
listed_row(PageRows *pr, const Datum **values, const bool **isnull)
{
	const GrScanJoin *j = pr->bj->desc;
	int			w = j->nkeys + j->nvals;
	HeapScanDesc scan = (HeapScanDesc) pr->bj->pages->scan;

	while (pr->lnext == pr->nlisted)
	{
		instr_time	start;
		instr_time	took;

		if (pr->fed)
			return false;
		/* the rows handed on are the appender's now */
		pr->nlisted = pr->lnext = 0;
		MemoryContextReset(pr->listcxt);
		INSTR_TIME_SET_CURRENT(start);
		while (pr->nlisted == 0 && !pr->fed)
		{
			CHECK_FOR_INTERRUPTS();
			feed_page(pr, scan);
		}
		INSTR_TIME_SET_CURRENT(took);
		INSTR_TIME_SUBTRACT(took, start);
		pr->bj->job_ms += INSTR_TIME_GET_MILLISEC(took);
	}
	*values = pr->lvalues + pr->lnext * w;
	*isnull = pr->lnulls + pr->lnext * w;
	pr->lnext++;
	return true;
}

/*
 * The job columns a values job brings back for relation bj (a bit each):
 * its keys' and values' columns, decoded or computed; 0 where one is a
 * varlena, whose decoded value is its address in the page.
 */
static uint32
job_stored_columns(const BulkJoin *bj)
{
	const GrScanJoin *j = bj->desc;
	const GrDecodeDesc *d = bj->pages->desc;
	uint32		store = 0;

	for (int c = 0; c < j->nkeys + j->nvals; c++)
	{
		int			col = j->pagecols[c];

		if (col >= 32 || (col < d->ncols && d->att[d->col_attno[col]].len < 0))
			return 0;
		store |= UINT32_C(1) << col;
	}
	return store;
}

/*
 * Whether a read of relation bj's pages (a participant's share, in a
 * parallel plan) goes through list jobs (gpu_reduce.page_path, a GPU for
 * it or cpu mode): where it has a WHERE to apply there, or values to
 * compute, or semi joins to filter its rows by (BulkJoin.semi), and the
 * jobs take its decoder and program.  Where its keys and values are no
 * varlenas, they are values jobs: the rows they keep come back as values,
 * decoded and computed there.
 */
static void
list_pages(BulkScanState *bs, BulkJoin *bj, PageRows *pr)
{
	BulkTable  *t = bj->pages;
	GrPagePathMode mode = (GrPagePathMode) gr_page_path;
	const GrExprProg *prog = t->prog;
	GrPageCallbacks cb = {list_cpu_page, list_gpu_job, list_no_groups, list_no_checks, pr};
	GrPageGroupSpec none = {0};
	uint32		store = job_stored_columns(bj);

	pr->pp = NULL;
	/*
	 * (a program of computed values alone, or semi joins alone, may leave
	 * no row out, but a values job decodes and computes them; a plain list
	 * job would list every row, to be decoded again here; but the table's
	 * keys leave most out: keys_semi)
	 */
	if ((t->nquals == 0 && t->xqual == NULL && bj->filter_keys < 0 &&
		 (store == 0 || ((prog == NULL || prog->nouts == 0) && bj->semi == NULL))) ||
		RelationUsesLocalBuffers(t->rel))
		return;
	if (prog == NULL)
		prog = palloc0(sizeof(GrExprProg));
	if (gr_page_path_unavailable(mode, t->desc, prog, NULL, 0, &none, bj->semi) != NULL)
		return;
	bj->job_rows = store != 0 ? 0 : -1;
	bj->job_ms = 0;
	pr->listcxt = AllocSetContextCreate(bs->joincxt, "gpu_reduce listed rows",
										ALLOCSET_DEFAULT_SIZES);
	pr->lroom = 1024;
	pr->lvalues = MemoryContextAllocHuge(bs->joincxt, sizeof(Datum) * (bj->desc->nkeys +
																	  bj->desc->nvals) * pr->lroom);
	pr->lnulls = MemoryContextAllocHuge(bs->joincxt, sizeof(bool) * (bj->desc->nkeys +
																   bj->desc->nvals) * pr->lroom);
	pr->nlisted = pr->lnext = 0;
	pr->fed = false;
	pr->vis_seen = pr->listed_seen = 0;
	pr->switched = false;
	pr->pp = gr_page_path_begin_list(bs->joincxt, mode, t->desc, t->quals, t->nquals, prog, store,
									 bj->semi, &cb);
}

/*
 * The next row of a relation read from its pages that its WHERE keeps: its
 * keys, then its values, as Datums (a varlena's in the page, pinned until
 * the next page is read).
 */
static bool
page_row(void *arg, const Datum **values, const bool **isnull)
{
	PageRows   *pr = arg;
	BulkTable  *t = pr->bj->pages;
	const GrScanJoin *j = pr->bj->desc;
	HeapScanDesc scan = (HeapScanDesc) t->scan;

	if (pr->pp != NULL)
	{
		if (listed_row(pr, values, isnull))
			return true;
		if (!pr->switched)
			return false;
		/* the pages after those the jobs had, as without them */
		pr->pp = NULL;
		pr->next = pr->nvis = 0;
	}
	for (;;)
	{
		uint64		tv[GR_DECODE_MAX_COLS];
		bool		tn[GR_DECODE_MAX_COLS];
		const uint8 *page = pr->page;
		OffsetNumber off;
		uint32		len;

		if (pr->blk == InvalidBlockNumber || pr->next >= pr->nvis)
		{
			if (!next_page(pr, scan))
				return false;
			continue;
		}
		off = pr->vis[pr->next++];
		if (pr->next + GR_PREFETCH_TUPLES <= pr->nvis)
			prefetch_tuple(page, pr->vis[pr->next + GR_PREFETCH_TUPLES - 1]);
		len = gr_page_tuple_len(page, off, BLCKSZ);
		decode_tuple(t, page, pr->blk, off, len, tv, tn);
		if (!page_row_passes(pr->bs, t, page, pr->blk, off, len, tv, tn))
			continue;
		pages_row(j, tv, tn, pr->values, pr->isnull);
		*values = pr->values;
		*isnull = pr->isnull;
		return true;
	}
}

/*
 * Where a relation's rows come from for its build: its child plan, or its
 * pages, whose scan starts (again) here with this scan's constants; in a
 * parallel plan (taken: the shared block counter), this participant's
 * share of them.  A participant's scan may count blocks added since
 * another's began: they hold no row the query's snapshot sees.
 */
static GrJoinNextRow
row_source(BulkScanState *bs, BulkJoin *bj, pg_atomic_uint32 *taken, PageRows *pr,
		   void **arg)
{
	BulkTable  *t = bj->pages;

	if (t == NULL)
	{
		*arg = bj->child;
		return gr_join_child_row;
	}
	if (t->scan == NULL)
		t->scan = table_beginscan_strat(t->rel, bs->css.ss.ps.state->es_snapshot, 0, NULL,
										true, false);
	else
		table_rescan(t->scan, NULL);
	bind_quals(bs, t);
	/* a serial read finds a large relation's buffers by one pass over them, as the table's */
	if (taken == NULL)
		t->hints = gr_buf_hints_make(bs->joincxt, t->rel, ((HeapScanDesc) t->scan)->rs_nblocks);
	pr->bs = bs;
	pr->bj = bj;
	pr->taken = taken;
	pr->blk = InvalidBlockNumber;
	pr->buf = InvalidBuffer;
	pr->next = 0;
	pr->pp = NULL;
	pr->left_by_jobs = 0;
	bj->job_pages = -1;
	bj->job_rows = -1;
	bj->job_ms = -1;
	list_pages(bs, bj, pr);
	*arg = pr;
	return page_row;
}

/* After a build: a relation read from its pages keeps no page pinned. */
static void
end_row_source(BulkJoin *bj, PageRows *pr)
{
	HeapScanDesc scan;

	if (bj->pages == NULL)
		return;
	scan = (HeapScanDesc) bj->pages->scan;
	if (BufferIsValid(pr->buf))
		ReleaseBuffer(pr->buf);
	gr_buf_hints_free(bj->pages->hints);
	bj->pages->hints = NULL;
	if (BufferIsValid(scan->rs_cbuf))
	{
		ReleaseBuffer(scan->rs_cbuf);
		scan->rs_cbuf = InvalidBuffer;
	}
}

/*
 * Rows kept from one page (or a joined row's matches): aligned in a block
 * for the sink, with each row's group.
 */
typedef struct KeptRows
{
	GrRowBlock	rows;
	int			groups[GR_BLOCK_MAX_ROWS];
	int			n;
	int			ncols;
	/* the table's row being kept */
	const gr_int128 *wide;		/* its computed numerics past 64 bits */
	bool		fallback;		/* handed back: PostgreSQL evaluates it */
	bool		evaluated;		/* ... and has evaluated its outputs, */
	Datum		xv[GR_EXPR_MAX_OUTS];	/* these */
	bool		xn[GR_EXPR_MAX_OUTS];
	uint64		xtv[GR_EXPR_MAX_OUTS];	/* and as a group key reads them */
	bool		xtn[GR_EXPR_MAX_OUTS];
} KeptRows;

/* Bytes the groups hold: the table's and their aggregates' values and states. */
static Size
groups_memory(BulkScanState *bs)
{
	return MemoryContextMemAllocated(bs->sinkcxt, true) + gr_group_memory(bs->groups);
}

/*
 * Of the groups' memory budget, what a final-mode pass's share is sized to
 * fill, from what the groups seen so far took: half, since the group
 * table's and the sink's arrays double as they grow (a share expected at
 * four fifths may pass the budget at its last doubling), and the groups of
 * a share are extrapolated from the part of the table read.
 */
#define GR_PASS_FILL 0.5

/*
 * A final-mode pass's groups have outgrown the budget: discard them, let
 * no more in until the scan ends (run_scan stops reading), and narrow the
 * share to what should fit, supposing the groups keep coming as they came
 * (those met in the part of the tables read), to at most half.  A share of
 * one hash value cannot be split, nor one group: they are kept past the
 * budget.
 */
static void
pass_over(BulkScanState *bs)
{
	uint64		width = bs->share_hi - bs->share_lo;
	double		read = bs->total_pages > 0 ?
		(bs->counters[C_PAGES] - bs->pass_pages) / bs->total_pages : 1;
	uint64		narrow;

	if (width <= 1 || bs->groups->ngroups <= 1)
		return;
	read = Min(Max(read, 1.0 / (double) GR_GROUP_HASH_SPACE), 1.0);
	narrow = (uint64) ((double) width * GR_PASS_FILL * read);
	bs->share_hi = bs->share_lo + Min(Max(narrow, 1), width / 2);
	bs->pass_over = true;
	bs->counters[C_PASSES_OVER]++;
	gr_sink_reset(bs->sink);
	gr_group_reset(bs->groups);
	gr_group_set_share(bs->groups, 0, 0);
}

/*
 * Past the groups' memory budget: emit every group, and start the table
 * afresh (partial states), or end this final-mode pass (pass_over).
 */
static void
check_group_budget(BulkScanState *bs)
{
	if (groups_memory(bs) <= bs->group_budget)
		return;
	if (bs->final)
		pass_over(bs);
	else
		emit_groups(bs);
}

/*
 * The j-th of a page's cache lines in the order a scan first touches them:
 * the header and line pointers, then the tuples, laid out from the page's
 * end backwards (the first line pointers' tuples lie last).
 */
static inline int
page_line(int j)
{
	return j < GR_PAGE_HEAD_LINES ? j : BLCKSZ / 64 - 1 - (j - GR_PAGE_HEAD_LINES);
}

/* The block's rows to the sink; past the groups' budget, the groups emitted. */
static void
flush_kept(BulkScanState *bs, BulkTable *t, KeptRows *kr)
{
	bs->counters[C_ROWS] += kr->n;
	kr->rows.nrows = kr->n;
	kr->rows.ncols = kr->ncols;
	if (bs->groups == NULL)
		gr_sink_add_rows(bs->sink, 0, &kr->rows, t->rowcols);
	else
	{
		gr_sink_add_rows_grouped(bs->sink, kr->groups, &kr->rows, t->rowcols);
		check_group_budget(bs);
	}
	kr->n = 0;
}

/*
 * A joined row the joined-row program handed back: PostgreSQL evaluates its
 * conjuncts, then its outputs into jxv and jxn, and into tv and tn as a
 * group key reads them (bits in the width, or an address), over the row's
 * columns in a slot.  False if the conjuncts reject the row.
 */
static bool
joined_row_fallback(BulkScanState *bs, uint64 *tv, bool *tn, Datum *jxv, bool *jxn)
{
	ExprContext *econtext = bs->css.ss.ps.ps_ExprContext;
	TupleTableSlot *slot = bs->jslot;
	TupleDesc	desc = slot->tts_tupleDescriptor;
	bool		pass;

	bs->counters[C_FALLBACK]++;
	ExecClearTuple(slot);
	for (int c = 0; c < desc->natts; c++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, c);

		slot->tts_isnull[c] = tn[c];
		/* a by-value column's bits, or a varlena's address */
		slot->tts_values[c] = tn[c] ? (Datum) 0 : att->attbyval ?
			gr_bits_datum(tv[c], att->attlen) : PointerGetDatum((const void *) (uintptr_t) tv[c]);
	}
	ExecStoreVirtualTuple(slot);
	econtext->ecxt_scantuple = slot;
	pass = bs->jxqual == NULL || ExecQual(bs->jxqual, econtext);
	for (int o = 0; pass && o < bs->jprog->nouts; o++)
	{
		int			w = bs->jprog->out_w[o];

		jxv[o] = ExecEvalExprSwitchContext(bs->jxouts[o], econtext, &jxn[o]);
		tv[bs->jbase + o] = bs->jprog->out_kind[o] == GR_XO_DEC || w == 8 ? (uint64) jxv[o] :
			(uint64) jxv[o] & ((UINT64_C(1) << (8 * w)) - 1);
		tn[bs->jbase + o] = jxn[o];
	}
	return pass;
}

/* The first row of a join's relation the row's keys match, or -1 (a NULL key matches none). */
static int64
first_match(const BulkJoin *bj, const uint64 *tv, const bool *tn)
{
	int64		key[GR_JOIN_MAX_KEYS];

	for (int k = 0; k < bj->desc->nkeys; k++)
	{
		int			p = bj->keypos[k];

		if (tn[p])
			return -1;
		key[k] = gr_value_int(tv[p], bj->desc->srcwidth[k]);
	}
	return gr_join_hash_first(bj->hash, key);
}

/* A left join's row with no match: the relation's values NULL. */
static void
no_match(const BulkJoin *bj, uint64 *tv, bool *tn)
{
	for (int v = 0; v < bj->desc->nvals; v++)
	{
		tv[bj->valpos + v] = 0;
		tn[bj->valpos + v] = true;
	}
}

/*
 * Keep a row that passed the WHERE clauses (its decoded and computed
 * columns tv, tn): joined to the matches of each hashed relation from
 * 'level' on (every match, a row each; none, no row), then into its group
 * and the block.  A handed-back row's outputs are evaluated by PostgreSQL
 * at its first joined row, so that a row the join drops raises no error,
 * as in PostgreSQL's join, where aggregates read joined rows only.
 */
static void
keep_row(BulkScanState *bs, BulkTable *t, KeptRows *kr, uint64 *tv, bool *tn, int level)
{
	int			ncols = t->desc->ncols;
	int			g;
	bool		jevaluated = false;
	Datum		jxv[GR_EXPR_MAX_OUTS];
	bool		jxn[GR_EXPR_MAX_OUTS];

	if (level < bs->njoins)
	{
		BulkJoin   *bj = &bs->joins[level];
		const GrJoinHash *h = bj->hash;
		int64		first = first_match(bj, tv, tn);

		/* a marked join's row marks its matches and goes no further (emit_marked) */
		if (bj->desc->marked != 0)
		{
			if (first >= 0)
				bj->matches++;
			gr_join_image_mark((const uint8 *) h->image, first, bj->marks);
			return;
		}
		/* a semi join's row goes on once where a row matches, an anti join's where none does */
		if (bj->desc->jointype == JOIN_SEMI || bj->desc->jointype == JOIN_ANTI)
		{
			if ((first >= 0) == (bj->desc->jointype == JOIN_SEMI))
			{
				bj->matches++;
				keep_row(bs, t, kr, tv, tn, level + 1);
			}
			return;
		}
		/* a left join's row with no match goes on once, the relation's values NULL */
		if (first < 0 && bj->desc->jointype == JOIN_LEFT)
		{
			no_match(bj, tv, tn);
			keep_row(bs, t, kr, tv, tn, level + 1);
			return;
		}
		for (int64 e = first; e >= 0; e = gr_join_hash_next(h, e))
		{
			bj->matches++;
			gr_join_hash_values(h, e, tv + bj->valpos, tn + bj->valpos);
			keep_row(bs, t, kr, tv, tn, level + 1);
		}
		return;
	}
	/* every match made: the joined row's conjuncts and outputs */
	if (bs->jprog != NULL)
	{
		gr_int128	jwide[GR_EXPR_MAX_OUTS];
		GrExprResult res = gr_expr_eval(bs->jprog, tv, tn, tv + bs->jbase, tn + bs->jbase, jwide);

		if (res == GR_EXPR_REJECT)
			return;
		/* a computed numeric past 64 bits too is PostgreSQL's to compute */
		for (int o = 0; o < bs->jprog->nouts && res == GR_EXPR_PASS; o++)
			if (bs->jprog->out_kind[o] == GR_XO_DEC && tn[bs->jbase + o] && tv[bs->jbase + o] == 1)
				res = GR_EXPR_FALLBACK;
		if (res == GR_EXPR_FALLBACK)
		{
			if (!joined_row_fallback(bs, tv, tn, jxv, jxn))
				return;
			jevaluated = true;
		}
	}
	if (kr->fallback)
	{
		int			nouts = t->prog->nouts;

		if (!kr->evaluated)
		{
			fallback_outputs(bs, t, tv, tn, kr->xv, kr->xn);
			memcpy(kr->xtv, tv + ncols, sizeof(uint64) * nouts);
			memcpy(kr->xtn, tn + ncols, sizeof(bool) * nouts);
			kr->evaluated = true;
		}
		memcpy(tv + ncols, kr->xtv, sizeof(uint64) * nouts);
		memcpy(tn + ncols, kr->xtn, sizeof(bool) * nouts);
		g = row_group(bs, t, tv, tn, NULL, true, jevaluated);
		if (g < 0)
			return;
		/* the outputs go to their aggregates as values; in the block, NULL */
		for (int o = 0; o < nouts; o++)
		{
			tn[ncols + o] = true;
			for (int a = 0; a < bs->desc->naggs && !kr->xn[o]; a++)
				if (t->argouts[a] == o)
					gr_sink_add_datum(bs->sink, g, a, kr->xv[o]);
		}
	}
	else
	{
		g = row_group(bs, t, tv, tn, kr->wide, false, jevaluated);
		if (g < 0)
			return;
		if (t->prog != NULL)
			wide_outputs(bs, t, g, tv + ncols, tn + ncols, kr->wide);
	}
	/* the joined row's outputs PostgreSQL evaluated go to their aggregates as values */
	for (int o = 0; jevaluated && o < bs->jprog->nouts; o++)
	{
		tn[bs->jbase + o] = true;
		for (int a = 0; a < bs->desc->naggs && !jxn[o]; a++)
			if (bs->desc->jargouts[a] == o)
				gr_sink_add_datum(bs->sink, g, a, jxv[o]);
	}
	/* the row's columns at its index: aligned, NULLs flagged */
	kr->groups[kr->n] = g;
	for (int c = 0; c < kr->ncols; c++)
	{
		kr->rows.vals[c][kr->n] = tv[c];
		kr->rows.nulls[c][kr->n] = tn[c];
	}
	if (++kr->n == GR_BLOCK_MAX_ROWS)
		flush_kept(bs, t, kr);
}

/*
 * A kept row's columns: the table's, its program's outputs, the join's
 * values, the joined row's program's outputs.
 */
static int
row_ncols(const BulkScanState *bs, const BulkTable *t)
{
	return t->desc->ncols + (t->prog != NULL ? t->prog->nouts : 0) + bs->desc->njoinvals +
		(bs->jprog != NULL ? bs->jprog->nouts : 0);
}

/*
 * Decode and filter the tuples 'offs' of a pinned page, and feed each
 * column's non-NULL values of the rows kept to the outputs.  Counts the rows
 * kept, not the tuples or the page (the rows a GPU job handed back come
 * here one by one, their page and tuples counted with the job).  'next' is
 * where the scan's next page probably lies (or NULL): its lines are fetched
 * a few a tuple, so that its first tuples do not wait for memory as the
 * fetches ahead within this page cannot hide them.
 */
static void
decode_rows(BulkScanState *bs, BulkTable *t, const uint8 *page, BlockNumber blk,
			const OffsetNumber *offs, int n, const uint8 *next)
{
	KeptRows	kr;
	const GrDecodeDesc *d = t->desc;
	int			next_line = 0;
	int			next_per = next == NULL || n == 0 ? 0 :
		Min((BLCKSZ / 64 + n - 1) / n, GR_NEXT_PAGE_LINES_MAX);

	StaticAssertStmt(GR_BLOCK_MAX_ROWS >= MaxHeapTuplesPerPage, "a block holds a page's rows");

	kr.n = 0;
	kr.ncols = row_ncols(bs, t);
	/* the tuples' first touch is the page loop's cost: fetch ahead */
	for (int i = 0; i < Min(n, GR_PREFETCH_TUPLES); i++)
		prefetch_tuple(page, offs[i]);
	for (int i = 0; i < n; i++)
	{
		uint64		tv[GR_DECODE_MAX_COLS];
		bool		tn[GR_DECODE_MAX_COLS];
		gr_int128	wide[GR_EXPR_MAX_OUTS];
		uint32		len = gr_page_tuple_len(page, offs[i], BLCKSZ);

		if (i + GR_PREFETCH_TUPLES < n)
			prefetch_tuple(page, offs[i + GR_PREFETCH_TUPLES]);
		for (int k = 0; k < next_per && next_line < BLCKSZ / 64; k++)
			__builtin_prefetch(next + 64 * page_line(next_line++));

		decode_tuple(t, page, blk, offs[i], len, tv, tn);
		if (t->nquals > 0 && !gr_quals_pass(t->quals, t->nquals, tv, tn))
			continue;
		kr.wide = NULL;
		kr.fallback = false;
		if (t->prog != NULL)
		{
			GrExprResult res = gr_expr_eval(t->prog, tv, tn, tv + d->ncols, tn + d->ncols, wide);

			if (res == GR_EXPR_REJECT)
				continue;
			kr.wide = wide;
			if (res == GR_EXPR_FALLBACK)
			{
				kr.fallback = true;
				kr.evaluated = false;
				bs->counters[C_FALLBACK]++;
				if (fallback_quals(bs, t, page, blk, offs[i], len))
					keep_row(bs, t, &kr, tv, tn, 0);
				ExecClearTuple(t->xslot);
				ResetExprContext(bs->css.ss.ps.ps_ExprContext);
				continue;
			}
		}
		keep_row(bs, t, &kr, tv, tn, 0);
	}
	flush_kept(bs, t, &kr);
}

/*
 * After a marked join's probes (every participant's): its relation's
 * marked rows (a semi join's) or unmarked ones (an anti join's, a NULL
 * key's too) go on from the next relation, as joined rows of their values,
 * the table's columns and program outputs NULL (no aggregate, key or
 * clause reads them).  A row each, whatever the probes that marked it.
 * from_gpu: some of the probes were a GPU's page jobs, whose marks are on
 * the GPUs: the marks are the union of those and the backends'.
 */
static void
emit_marked(BulkScanState *bs, bool from_gpu)
{
	BulkTable  *t = &bs->tables[0];
	BulkJoin   *bj = &bs->joins[0];
	const GrJoinHash *h = bj->hash;
	bool		semi = bj->desc->marked == JOIN_SEMI;
	KeptRows	kr;
	uint64		tv[GR_DECODE_MAX_COLS];
	bool		tn[GR_DECODE_MAX_COLS];

	kr.n = 0;
	kr.ncols = row_ncols(bs, t);
	kr.wide = NULL;
	kr.fallback = false;
	kr.evaluated = false;
	memset(tv, 0, sizeof(tv));
	memset(tn, true, sizeof(tn));
	/*
	 * every participant's jobs are done (each finished its page path before
	 * the barrier), and they marked each GPU's one copy of the marks
	 */
	if (from_gpu)
		gr_page_path_fetch_marks(bs->image_key, 0, bj->marks, Max(h->nrows, 1));
	bj->marked_rows = 0;
	for (int64 e = 0; e < h->nrows; e++)
	{
		if ((e & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
		bj->marked_rows += bj->marks[e];
		if ((bj->marks[e] != 0) != semi)
			continue;
		gr_join_hash_values(h, e, tv + bj->valpos, tn + bj->valpos);
		keep_row(bs, t, &kr, tv, tn, 1);
	}
	flush_kept(bs, t, &kr);
}

/* Decode the visible tuples 'offs' of a pinned page on the CPU. */
static void
decode_page(BulkScanState *bs, BulkTable *t, const uint8 *page, BlockNumber blk,
			const OffsetNumber *offs, int n, const uint8 *next)
{
	bs->counters[C_CPU_PAGES]++;
	bs->counters[C_TUPLES] += n;
	decode_rows(bs, t, page, blk, offs, n, next);
}

/* What the page path's callbacks need. */
typedef struct PageArg
{
	BulkScanState *bs;
	BulkTable  *t;
} PageArg;

/* The page path gives a pinned page back to the CPU decoder. */
static void
page_cpu(void *arg, Buffer buf, const OffsetNumber *offs, int n)
{
	PageArg    *pa = arg;

	decode_page(pa->bs, pa->t, (const uint8 *) BufferGetPage(buf),
				gr_pin_block(buf), offs, n, NULL);
}

/* qsort: the rows a job handed back by page, then line pointer. */
static int
fallback_cmp(const void *a, const void *b)
{
	const GrPageFallback *x = a;
	const GrPageFallback *y = b;

	if (x->page != y->page)
		return x->page < y->page ? -1 : 1;
	return (int) x->off - (int) y->off;
}

/* ListedPage of a table's scan: the rows decoded as a page's are */
static void
decode_listed_page(void *arg, const uint8 *page, BlockNumber blk, const OffsetNumber *offs, int k)
{
	PageArg    *pa = arg;

	decode_rows(pa->bs, pa->t, page, blk, offs, k, NULL);
}

/*
 * The rows a GPU job's program handed back: decoded and evaluated again on
 * the CPU, page by page, from the pages the job still holds pinned (the
 * program hands them back again, and PostgreSQL evaluates them:
 * fallback_quals, fallback_outputs).
 */
static void
page_gpu_fallbacks(BulkScanState *bs, BulkTable *t, GrPageJob *job)
{
	PageArg		pa = {bs, t};

	each_listed_page(job, decode_listed_page, &pa);
}

/* The running word of count aggregate a (count(*): the group's rows; count(col): col's values). */
static inline int
count_word(const BulkScanState *bs, const BulkTable *t, const GrPageJob *job, int a)
{
	return bs->desc->aggs[a].kind == GR_SCAN_COUNT_STAR ? GR_PG_W_ROWS :
		job->col_word[t->rowcols[a]];
}

/*
 * The page job output that holds the largest display scale of aggregate
 * agg's rows, where it is a sum or average of numerics whose scale varies
 * by row (GrScanAgg.row_scale): the max of the row's scale, the column
 * after its argument's, an output after start_page_path's one per
 * GR_SCAN_AGG, in the aggregates' order; else -1.
 */
static int
scale_out(const GrScanDesc *d, int agg)
{
	int			out = 0;

	if (d->aggs[agg].kind != GR_SCAN_AGG || !d->aggs[agg].row_scale)
		return -1;
	for (int a = 0; a < d->naggs; a++)
		out += d->aggs[a].kind == GR_SCAN_AGG;
	for (int a = 0; a < agg; a++)
		out += d->aggs[a].kind == GR_SCAN_AGG && d->aggs[a].row_scale;
	return out;
}

/*
 * Fold a group's running words w (page_group.h; job: the layout) into
 * group g: its counts, and each output's running value as a GPU result.
 */
static void
fold_group_words(BulkScanState *bs, BulkTable *t, const GrPageJob *job, int g,
				 const uint64 *w, GrCudaResult *r)
{
	int			o = 0;

	for (int a = 0; a < bs->desc->naggs; a++)
	{
		const GrScanAgg *ag = &bs->desc->aggs[a];
		const GrPageOut *po;
		const uint64 *x;
		int64		n;
		int			so;

		if (ag->kind == GR_SCAN_COUNT_STAR || ag->kind == GR_SCAN_COUNT_COL)
			gr_sink_add_count(bs->sink, g, a, (int64) w[count_word(bs, t, job, a)]);
		if (ag->kind != GR_SCAN_AGG)
			continue;
		po = &job->outs[o++];
		n = (int64) w[job->col_word[po->col]];
		x = &w[po->word];
		r->op = po->op;
		r->count = n;
		if (po->op != GR_PAGE_OP_SUM)
			r->key[0] = (int64) x[0];
		else if (po->type == GR_PAGE_FLOAT4 || po->type == GR_PAGE_FLOAT8)
		{
			for (int i = 0; i < GR_XSUM_LIMBS; i++)
				r->xsum.limb[i] = (int64) x[i];
			r->xsum.nan = (int64) x[GR_XSUM_LIMBS];
			r->xsum.pinf = (int64) x[GR_XSUM_LIMBS + 1];
			r->xsum.ninf = (int64) x[GR_XSUM_LIMBS + 2];
			r->xsum.negzero = (int64) x[GR_XSUM_LIMBS + 3];
			r->xsum.pending = 0;
		}
		else
		{
			int128		sum = gr_page_group_int_sum(x);

			r->sum_lo = (int64) (uint64) sum;
			r->sum_hi = (int64) (sum >> 64);
		}
		so = scale_out(bs->desc, a);
		gr_sink_add_gpu(bs->sink, g, a, po->op, r, n, NULL,
						so < 0 ? ag->dec_scale : (int) (int64) w[job->outs[so].word]);
	}
}

/*
 * A job group's first row (page_gpu_groups), decoded again, joined again
 * here: its keys may be a hashed relation's values or the joined row's
 * program's outputs.  The job took it with one match in each relation at
 * most (a row of more it hands back), so this is its one joined row; false
 * if the join or the program drops it here.
 */
static bool
join_first_row(BulkScanState *bs, uint64 *tv, bool *tn)
{
	for (int j = 0; j < bs->njoins; j++)
	{
		const BulkJoin *bj = &bs->joins[j];
		int64		e = first_match(bj, tv, tn);
		int			type = bj->desc->jointype;

		if (type == JOIN_SEMI || type == JOIN_ANTI)
		{
			if ((e >= 0) != (type == JOIN_SEMI))
				return false;
			continue;
		}
		if (e < 0 && type != JOIN_LEFT)
			return false;
		if (e < 0)
			no_match(bj, tv, tn);
		else
			gr_join_hash_values(bj->hash, e, tv + bj->valpos, tn + bj->valpos);
	}
	return bs->jprog == NULL ||
		gr_expr_eval(bs->jprog, tv, tn, tv + bs->jbase, tn + bs->jbase, NULL) == GR_EXPR_PASS;
}

/*
 * The groups a grouping job made (page_group.h): each one's keys are read
 * from its first row, decoded, evaluated and joined here from the page the
 * job still holds pinned, as the CPU's grouping reads a row's (so the output
 * key is that row's value, and a computed key is made as for any row); the
 * group found or made in the group table gets the job group's counts and
 * each output's running value as a GPU result.
 */
static void
page_gpu_groups(BulkScanState *bs, BulkTable *t, GrPageJob *job)
{
	const GrDecodeDesc *d = t->desc;
	const GrPageEntry *entries = gr_page_job_entries(job);
	const uint64 *ents = (const uint64 *) ((char *) job + job->group_off);
	uint64		ngroups = job->counts[GR_PAGE_COUNT_GROUPS(job->ncols)];
	int			ew = gr_page_group_entry_words(job);
	GrCudaResult *r = palloc0(sizeof(GrCudaResult));

	for (uint64 j = 0; j < ngroups; j++)
	{
		const uint64 *w = ents + j * ew + 1 + job->ngkeys;
		uint32		p = (uint32) (w[GR_PG_W_REP] >> 16);
		int			off = (int) (w[GR_PG_W_REP] & 0xFFFF);
		uint64		tv[GR_DECODE_MAX_COLS];
		bool		tn[GR_DECODE_MAX_COLS];
		gr_int128	wide[GR_EXPR_MAX_OUTS];
		const uint8 *page;
		uint32		len;
		int			g;

		if (p >= job->npages || off < 1 || off > entries[p].nlp ||
			!gr_page_visible(&entries[p], (page = (const uint8 *) BufferGetPage(entries[p].buf + 1)),
							 off))
			elog(ERROR, "gpu_reduce: a page job's group names a row it does not have");
		len = gr_page_tuple_len(page, off, BLCKSZ);
		if (len == 0 || !gr_decode_tuple(d, gr_page_tuple(page, off), len, tv, tn) ||
			(t->prog != NULL &&
			 gr_expr_eval(t->prog, tv, tn, tv + d->ncols, tn + d->ncols, wide) != GR_EXPR_PASS) ||
			(bs->njoins > 0 && !join_first_row(bs, tv, tn)))
			elog(ERROR, "gpu_reduce: a page job's group has a first row the CPU reads otherwise");
		g = row_group(bs, t, tv, tn, wide, false, false);
		if (g >= 0)
			fold_group_words(bs, t, job, g, w, r);
		if ((j & 255) == 255)
			check_group_budget(bs);
	}
	pfree(r);
}

/* The address of the varlena at offset off of hashed relation j's image (a GR_PG_KEY_REF word's). */
static uint64
image_value(BulkScanState *bs, int j, uint64 off)
{
	const GrJoinImage *im = bs->joins[j].hash->image;

	if (off < im->nulls || off >= im->bytes)
		elog(ERROR, "gpu_reduce: a GPU group's key is not in its hashed relation");
	return (uint64) (uintptr_t) im + off;
}

/* groups ahead whose group table slots page_table_groups asks for */
#define GR_COLLECT_AHEAD 8

/*
 * A HAVING conjunct 'sum(numeric) op constant', 'count op integer' or
 * 'min or max of integers op integer' (or 'constant op aggregate'): the
 * groups it rejects are skipped before their rows are made, most of TPC-H
 * Q18's subquery's 1.5 M (a numeric made for each, and PostgreSQL's filter
 * run over it, took a quarter of its time).  PostgreSQL's filter still runs
 * on every row made: a check only rejects, where the aggregate is NULL or
 * compares with the constant as the operator says no.  A numeric sum is
 * checked on a made group's state and on a scan table's words, the others
 * on the words only.
 */
typedef struct HavingCheck
{
	int			agg;
	bool		count;			/* a count(*) or count(col): scaled is the integer
								 * (having_checks: an integer comparison) */
	Datum		value;			/* a sum's numeric */
	bool		pass[3];		/* by the aggregate's comparison with value, -1, 0, 1 */
	/*
	 * to check a scan table's group on its words (page_table_checks): a
	 * sum's job output 'out' (its integer words: computed numerics as
	 * int64s times 10^scale, or integers) and the constant as such an
	 * integer, or a count's constant; out -1: not a sum so checked
	 */
	int			out;
	int128		scaled;
} HavingCheck;

/*
 * The checks a scan's table drops the groups HAVING rejects by
 * (page_group.h's gr_page_group_rejected), before any is collected, where
 * the table holds its groups whole: no row of the pass went anywhere else.
 * That is the only table the jobs folded into, of the scan's last table,
 * nothing folded on the host yet (no page decoded there, no row handed
 * back), one process's (final mode), no later rows (a marked join's), and
 * a pass of every group (of a share, a group rejected here may be another
 * pass's).
 */
static void
page_table_checks(void *arg, GrPageJob *job, bool sole)
{
	PageArg    *pa = arg;
	BulkScanState *bs = pa->bs;
	BulkTable  *t = pa->t;

	job->ncheck = 0;
	if (!bs->word_checks || !sole || t != &bs->tables[bs->ntables - 1] ||
		bs->sink->ngroups != 0 || bs->emitted != NULL || bs->shared != NULL ||
		marked_join(bs) || bs->share_lo != 0 || bs->share_hi != GR_GROUP_HASH_SPACE ||
		bs->pass_over)
		return;
	for (int i = 0; i < bs->nchecks && job->ncheck < GR_PAGE_MAX_CHECKS; i++)
	{
		const HavingCheck *c = &bs->checks[i];
		GrPageCheck *pc = &job->checks[job->ncheck];

		if (c->count)
		{
			pc->word = count_word(bs, t, job, c->agg);
			pc->nonnull = -1;
			pc->wide = 0;
		}
		else
		{
			const GrPageOut *po;

			if (c->out < 0 || c->out >= job->nouts)
				continue;
			po = &job->outs[c->out];
			if (po->type == GR_PAGE_FLOAT4 || po->type == GR_PAGE_FLOAT8 ||
				job->col_word[po->col] < 0)
				continue;
			pc->word = po->word;
			pc->nonnull = job->col_word[po->col];
			pc->wide = po->op == GR_PAGE_OP_SUM;
		}
		pc->pass = c->pass[0] | c->pass[1] << 1 | c->pass[2] << 2;
		pc->klo = (uint64) c->scaled;
		pc->khi = (int64) (c->scaled >> 64);
		job->ncheck++;
	}
}

/*
 * Groups collected from the scan's table (GrPageGroupSpec.by_words), those
 * HAVING's checks rejected already dropped: each
 * key's value is its word, a fixed-width key's bits (a computed numeric's
 * int64, which row_group makes a numeric) or a short text's bytes, made a
 * varlena here (the group table copies it), or a hashed relation's value
 * where the word says it lies in the image.  Every row of the group had
 * those very bytes, so the output key is what any of them gives.
 */
static void
page_table_groups(void *arg, const GrPageJob *job, const uint64 *ents, uint64 n, bool sole)
{
	PageArg    *pa = arg;
	BulkScanState *bs = pa->bs;
	BulkTable  *t = pa->t;
	int			ew = gr_page_group_entry_words(job);
	GrCudaResult *r = palloc0(sizeof(GrCudaResult));

	/* the table's first batch: room for all its groups at once */
	if (job->collect_first == 0)
		gr_group_reserve(bs->groups, (int64) job->counts[GR_PAGE_COUNT_GROUPS(job->ncols)]);
	for (uint64 j = 0; j < n; j++)
	{
		const uint64 *e = ents + j * ew;
		uint64		tv[GR_DECODE_MAX_COLS];
		bool		tn[GR_DECODE_MAX_COLS];
		char		text[GR_PAGE_MAX_KEYS][VARHDRSZ_SHORT + 8];
		int			g;

		if (j + GR_COLLECT_AHEAD < n)
		{
			/* the group table's slot of a group some ahead: its words, where they are its keys */
			const uint64 *ahead = e + GR_COLLECT_AHEAD * ew;

			for (int k = 0; k < job->ngkeys; k++)
			{
				tn[k] = (ahead[0] >> k) & 1;
				tv[k] = tn[k] ? 0 : ahead[1 + k];
			}
			gr_group_prefetch(bs->groups, tv, tn);
		}

		memset(tn, true, sizeof(tn));
		for (int k = 0; k < job->ngkeys; k++)
		{
			int			c = job->gkey_col[k];
			uint64		word = e[1 + k];

			tn[c] = (e[0] >> k) & 1;
			tv[c] = word;
			if (tn[c])
				tv[c] = 0;
			else if (job->gkey_rel[k] > 0 && (word & GR_PG_KEY_REF) != 0)
				tv[c] = image_value(bs, job->gkey_rel[k] - 1, word & ~GR_PG_KEY_REF);
			else if (job->gkey_kind[k] == GR_KEY_TEXT)
			{
				int			len = gr_page_group_text(word, (uint8 *) text[k] + VARHDRSZ_SHORT);

				if (len < 0)
					elog(ERROR, "gpu_reduce: a GPU group's text key is longer than a word");
				SET_VARSIZE_SHORT(text[k], VARHDRSZ_SHORT + len);
				tv[c] = (uint64) (uintptr_t) text[k];
			}
			else if (job->gkey_kind[k] != GR_KEY_BITS)
				elog(ERROR, "gpu_reduce: a GPU group's key is not its word");
		}
		g = row_group(bs, t, tv, tn, NULL, false, false);
		if (g >= 0)
			fold_group_words(bs, t, job, g, e + 1 + job->ngkeys, r);
		if ((j & 255) == 255 || j + 1 == n)
			check_group_budget(bs);
	}
	pfree(r);
}

/*
 * Fold what the GPU found in one page job into the outputs (or, for a
 * grouping job, its groups), then the rows its program handed back; false,
 * having folded nothing, when it handed back more than its list holds (the
 * page path decodes the job's pages on the CPU then, as it does a grouping
 * job that had no room for its groups).
 */
static bool
page_gpu(void *arg, struct GrPageJob *job)
{
	PageArg    *pa = arg;
	BulkScanState *bs = pa->bs;
	BulkTable  *t = pa->t;
	uint64		rows = job->counts[GR_PAGE_COUNT_ROWS(job->ncols)];
	int			j = 0;

	if (gr_page_fallback_overflow(job))
		return false;
	for (int jn = 0; jn < job->njoins; jn++)
		bs->joins[jn].matches += job->counts[GR_PAGE_COUNT_MATCHES(job->ncols, jn)];
	bs->counters[C_ROWS] += rows;
	bs->counters[C_TUPLES] += job->counts[GR_PAGE_COUNT_VIS(job->ncols)];
	/* a marked join's job made no row and has no output: its marks are what it did */
	if (job->ngkeys == 0 && job->njoins > 0 && job->joins[0].type == GR_PAGE_JOIN_MARK)
	{
		if (job->counts[GR_PAGE_COUNT_FALLBACK(job->ncols)] > 0)
			page_gpu_fallbacks(bs, t, job);
		return true;
	}
	if (job->ngkeys > 0)
	{
		/* a job that folds into the scan's table brings no groups back */
		if (job->scan_id == 0)
			page_gpu_groups(bs, t, job);
		if (job->counts[GR_PAGE_COUNT_FALLBACK(job->ncols)] > 0)
			page_gpu_fallbacks(bs, t, job);
		check_group_budget(bs);
		return true;
	}
	for (int a = 0; a < bs->desc->naggs; a++)
	{
		const GrScanAgg *ag = &bs->desc->aggs[a];
		const GrPageOut *po;
		int			so;

		if (ag->kind == GR_SCAN_COUNT_STAR)
			gr_sink_add_count(bs->sink, 0, a, rows);
		else if (ag->kind == GR_SCAN_COUNT_COL)
			gr_sink_add_count(bs->sink, 0, a, job->counts[t->rowcols[a]]);
		if (ag->kind != GR_SCAN_AGG)
			continue;
		po = &job->outs[j++];
		so = scale_out(bs->desc, a);
		gr_sink_add_gpu(bs->sink, 0, a, po->op,
						(const GrCudaResult *) ((char *) job + po->result_off),
						(int64) job->counts[po->col],
						(int64 *) ((char *) job + po->topk_off),
						so < 0 ? ag->dec_scale :
						(int) ((const GrCudaResult *) ((char *) job + job->outs[so].result_off))->key[0]);
	}
	if (job->counts[GR_PAGE_COUNT_FALLBACK(job->ncols)] > 0)
		page_gpu_fallbacks(bs, t, job);
	return true;
}

/*
 * Whether the GPU's jobs can make most rows: a row whose key matches
 * several rows of a relation (inner or left) goes back to the CPU, and past
 * a job's list (GR_PAGE_MAX_FALLBACK rows) the CPU decodes the whole job
 * again; a relation with a tenth more rows than keys is probed on the CPU.
 * A marked join's probe marks every row of its key, however many, and goes
 * no further: no row goes back for its keys.
 */
static bool
keys_mostly_unique(const BulkScanState *bs)
{
	if (marked_join(bs))
		return true;
	for (int j = 0; j < bs->njoins; j++)
	{
		const GrJoinImage *im = bs->joins[j].hash->image;
		int			type = bs->joins[j].desc->jointype;

		if ((type == JOIN_INNER || type == JOIN_LEFT) && im->nrows > im->nkeyed + im->nkeyed / GR_JOIN_GPU_DUPS)
			return false;
	}
	return true;
}

/*
 * 1 + the hashed relation whose varlena value is the row's column col, or
 * 0: a key of that column may be grouped as its place in the relation's
 * image (page_group.h's GR_PG_KEY_REF).
 */
static uint8
key_relation(BulkScanState *bs, int col)
{
	for (int j = 0; j < bs->njoins; j++)
	{
		const BulkJoin *bj = &bs->joins[j];

		if (col >= bj->valpos && col < bj->valpos + bj->desc->nvals)
			return (gr_join_varmask(bj->desc) >> (col - bj->valpos)) & 1 ? j + 1 : 0;
	}
	return 0;
}

/*
 * The join the page path's jobs run (page_job.h's GrPageJoin): each hashed
 * relation's keys and values where keep_row finds them in a row, and the
 * joined-row program, whose outputs end the row.
 */
static void
page_join_spec(BulkScanState *bs, BulkTable *t, GrPageJoinSpec *join)
{
	int			vbase = t->desc->ncols + (t->prog != NULL ? t->prog->nouts : 0);

	StaticAssertStmt(GR_JOIN_MAX_RELS <= GR_PAGE_SPEC_JOINS &&
					 GR_JOIN_MAX_KEYS <= GR_PAGE_SPEC_JOIN_KEYS, "a join's relations and keys");
	join->njoins = bs->njoins;
	join->jprog = bs->jprog;
	join->jbase = vbase + bs->desc->njoinvals;
	if (bs->jprog != NULL && bs->jbase != join->jbase)
		elog(ERROR, "gpu_reduce: a joined row's columns and its program disagree");
	join->ncols = join->jbase + (bs->jprog != NULL ? bs->jprog->nouts : 0);
	join->key = bs->image_key;
	for (int j = 0; j < bs->njoins; j++)
	{
		const BulkJoin *bj = &bs->joins[j];
		GrPageJoinRel *r = &join->rels[j];

		r->type = bj->desc->marked != 0 ? GR_PAGE_JOIN_MARK :
			bj->desc->jointype == JOIN_LEFT ? GR_PAGE_JOIN_LEFT :
			bj->desc->jointype == JOIN_SEMI ? GR_PAGE_JOIN_SEMI :
			bj->desc->jointype == JOIN_ANTI ? GR_PAGE_JOIN_ANTI : GR_PAGE_JOIN_INNER;
		r->nkeys = bj->desc->nkeys;
		for (int k = 0; k < r->nkeys; k++)
		{
			r->keycol[k] = bj->keypos[k];
			r->keywidth[k] = bj->desc->srcwidth[k];
		}
		r->valpos = bj->valpos;
		r->nvals = bj->desc->nvals;
		r->varmask = gr_join_varmask(bj->desc);
		r->image = bj->hash->image;
		r->marks = bj->marks;
	}
}

/* Whether one of the page path's outputs is a sum of floats (its running words: GR_PG_XSUM_WORDS). */
static bool
float_sums(const GrPageOutSpec *outs, int nouts)
{
	for (int o = 0; o < nouts; o++)
		if (outs[o].op == GR_OP_SUM && (outs[o].type == GR_FLOAT4 || outs[o].type == GR_FLOAT8))
			return true;
	return false;
}

/*
 * Start the page path for a table's scan, or return NULL (with the reason
 * in bs->page_path) when its pages are decoded on the CPU as they are read.
 */
static GrPagePath *
start_page_path(BulkScanState *bs, BulkTable *t, PageArg *arg)
{
	GrPageOutSpec outs[GR_PAGE_MAX_OUTS];
	GrPageCallbacks cb = {page_cpu, page_gpu, page_table_groups, page_table_checks, arg};
	GrPageGroupSpec grp = {0};
	GrPagePathMode mode = (GrPagePathMode) gr_page_path;
	GrPageJoinSpec *join = NULL;
	const GrExprProg *prog = t->prog;
	int			nouts = 0;
	bool		marked = marked_join(bs);
	const char *why;

	if (mode != GR_PAGE_PATH_OFF && RelationUsesLocalBuffers(t->rel))
	{
		bs->page_path = "off (a temporary table)";
		return NULL;
	}
	/*
	 * (a marked join's jobs make no row, their probes only mark: no output
	 * to reduce, so none that the GPU cannot, such as a numeric column's sum)
	 */
	for (int a = 0; a < bs->desc->naggs && mode != GR_PAGE_PATH_OFF && !marked; a++)
	{
		const GrScanAgg *ag = &bs->desc->aggs[a];

		if (ag->kind != GR_SCAN_AGG)
			continue;
		if (nouts == GR_PAGE_MAX_OUTS)
		{
			bs->page_path = "off (too many aggregates)";
			return NULL;
		}
		outs[nouts].col = t->rowcols[a];
		outs[nouts].op = ag->op;
		outs[nouts].type = ag->type;
		outs[nouts].k = gr_kind(ag->op)->k_of_name;
		if (ag->dec_scale >= 0)
		{
			/*
			 * a computed numeric's int64s: their int128 sum is a sum's or
			 * average's (of several scales, at the largest, which the max of
			 * the rows' own, an output below, brings to the one shown)
			 */
			if (ag->op != GR_OP_SUM && ag->op != GR_OP_AVG)
			{
				bs->page_path = psprintf("off (%s of a computed numeric: the GPU only sums them)",
										 gr_kind(ag->op)->name);
				return NULL;
			}
			outs[nouts].op = GR_OP_SUM;
			outs[nouts].type = GR_INT8;
		}
		if (bs->kexprs[a] != NULL)
		{
			bool		isnull;
			Datum		k = eval_const(bs, bs->kexprs[a], &isnull);

			/* a bad k is an error only once a row arrives: leave it to the CPU */
			if (isnull || !gr_k_in_range(DatumGetInt32(k)))
			{
				bs->page_path = "off (gpu_topk's k is out of range)";
				return NULL;
			}
			outs[nouts].k = DatumGetInt32(k);
		}
		nouts++;
	}
	for (int a = 0; a < bs->desc->naggs && mode != GR_PAGE_PATH_OFF && !marked; a++)
	{
		if (scale_out(bs->desc, a) < 0)
			continue;
		if (nouts == GR_PAGE_MAX_OUTS)
		{
			bs->page_path = "off (too many aggregates)";
			return NULL;
		}
		Assert(scale_out(bs->desc, a) == nouts);
		/* the row's display scale: an int4, NULL where the value is */
		outs[nouts].col = t->rowcols[a] + 1;
		outs[nouts].op = GR_OP_MAX;
		outs[nouts].type = GR_INT4;
		outs[nouts].k = gr_kind(GR_OP_MAX)->k_of_name;
		nouts++;
	}
	if (bs->groups != NULL)
	{
		/* the jobs group: each key's column, compared as the group table does */
		grp.nkeys = bs->desc->ngroupkeys;
		grp.by_words = true;
		for (int k = 0; k < grp.nkeys && k < GR_PAGE_GROUP_MAX_KEYS; k++)
		{
			grp.keycol[k] = t->keyrow[k];
			/* a computed numeric is its int64 at a fixed scale: equal bits, equal values */
			grp.keykind[k] = bs->desc->keys[k].scale >= 0 ? GR_KEY_BITS : bs->desc->keys[k].kind;
			grp.keyrel[k] = key_relation(bs, t->keyrow[k]);
			/* a numeric's word names its image row, whose value the host reads */
			grp.by_words &= grp.keykind[k] == GR_KEY_BITS || grp.keykind[k] == GR_KEY_TEXT ||
				(grp.keykind[k] == GR_KEY_NUMERIC && grp.keyrel[k] > 0);
		}
		/* the planner's groups (final rows: before HAVING, which the plan's rows are after) */
		grp.groups = bs->desc->groups;
		grp.rows = Max(RelationGetForm(t->rel)->reltuples, 0);
		for (int a = 0; a < bs->desc->naggs; a++)
			if (bs->desc->aggs[a].kind != GR_SCAN_COUNT_STAR)
				grp.count_cols |= UINT32_C(1) << t->rowcols[a];
	}
	/*
	 * Without a GPU, a GROUP BY whose HAVING the scan table's words decide
	 * is grouped in the host's table for the scan, as cpu mode does: only
	 * the groups HAVING keeps are made (TPC-H Q18's subquery on a host
	 * without a GPU: 57 of 1.5 M, in one pass; decoded on the CPU it made
	 * them all, past gpu_reduce.group_memory, in three passes).  Not with a
	 * float sum: its 71 running words a group, folded into each group that
	 * is made, cost more than the groups the checks spare (10^6 groups of
	 * three sums, HAVING keeping all: 3.4 s, 0.80x PostgreSQL's plan, where
	 * decoded on the CPU they take about 1.3 s).
	 */
	if (mode == GR_PAGE_PATH_ON && bs->word_checks && grp.by_words && !marked &&
		!float_sums(outs, nouts) && gr_gpu_pages_unavailable() != NULL)
		mode = GR_PAGE_PATH_CPU;
	if (bs->njoins > 0 && mode == GR_PAGE_PATH_ON && !keys_mostly_unique(bs))
	{
		bs->page_path = "off (a hashed relation's keys repeat: a row of several matches is joined on the CPU)";
		return NULL;
	}
	if (bs->njoins > 0)
	{
		join = palloc0(sizeof(GrPageJoinSpec));
		page_join_spec(bs, t, join);
		/* a job with a join has a program: the table's, or one that does nothing */
		if (prog == NULL)
			prog = palloc0(sizeof(GrExprProg));
	}
	why = gr_page_path_unavailable(mode, t->desc, prog, outs, nouts, &grp, join);
	if (why != NULL)
	{
		bs->page_path = psprintf("off (%s)", why);
		return NULL;
	}
	bs->page_path = mode == GR_PAGE_PATH_CPU ? "cpu" : "gpu";
	/* the program's constants are bound (bind_quals): the jobs carry them */
	return gr_page_path_begin(bs->statecxt, mode, t->desc, t->quals, t->nquals, prog,
							  outs, nouts, &grp, join, &cb);
}

/*
 * Read one page and, if every normal line pointer of it is visible and
 * stays so under the pin (gr_page_path_all_normal), take it whole: hand it
 * to the page path without looking at its line pointers, which is all the
 * CPU does for such a page, or (no page path) decode its normal line
 * pointers here, without heapgetpage's per-tuple work.  False, holding
 * nothing, for any other page: the caller reads it as a sequential scan does.
 */
static bool
scan_page_whole(BulkScanState *bs, BulkTable *t, HeapScanDesc scan, BlockNumber blk,
				GrPagePath *pp)
{
	Buffer		buf;
	Page		page;
	OffsetNumber maxoff;

	if (!pin_whole_page(t->hints, scan, blk, &buf, &maxoff))
		return false;
	page = BufferGetPage(buf);
	bs->counters[C_PAGES]++;
	bs->counters[C_ALLVISIBLE]++;
	if (pp != NULL)
		gr_page_path_add(pp, buf, NULL, maxoff);
	else
	{
		GrPageEntry e = {.nlp = maxoff, .flags = GR_PAGE_ALL_NORMAL};
		OffsetNumber offs[MaxHeapTuplesPerPage];
		int			n = gr_page_entry_offsets(&e, (const uint8 *) page, offs);

		decode_page(bs, t, (const uint8 *) page, blk, offs, n,
					gr_buf_hints_peek(t->hints, blk + 1));
		ReleaseBuffer(buf);
	}
	return true;
}

/*
 * Read one page and decode it, or hand it to the page path: then its pin
 * and visible line pointers are the page path's.
 */
static void
scan_page(BulkScanState *bs, BulkTable *t, HeapScanDesc scan, BlockNumber blk,
		  GrPagePath *pp)
{
	Page		page;

	if (gr_debug_error_page > 0 && blk == (BlockNumber) gr_debug_error_page - 1)
		elog(ERROR, "gpu_reduce: the scan of \"%s\" stops at page %d (gpu_reduce.debug_error_page)",
			 RelationGetRelationName(scan->rs_base.rs_rd), gr_debug_error_page);
	if (gr_debug_wait_page > 0 && blk == (BlockNumber) gr_debug_wait_page - 1)
	{
		Datum		key = Int64GetDatum((int64) RelationGetRelid(scan->rs_base.rs_rd));

		DirectFunctionCall1(pg_advisory_lock_shared_int8, key);
		DirectFunctionCall1(pg_advisory_unlock_shared_int8, key);
	}
	if (scan_page_whole(bs, t, scan, blk, pp))
		return;
	read_page(scan, blk);
	page = BufferGetPage(scan->rs_cbuf);
	bs->counters[C_PAGES]++;
	bs->counters[C_ALLVISIBLE] += PageIsAllVisible(page) ? 1 : 0;
	if (pp != NULL && scan->rs_ntuples > 0)
	{
		Buffer		buf = scan->rs_cbuf;

		scan->rs_cbuf = InvalidBuffer;
		gr_page_path_add(pp, buf, scan->rs_vistuples, scan->rs_ntuples);
	}
	else
		decode_page(bs, t, (const uint8 *) page, blk, scan->rs_vistuples,
					scan->rs_ntuples, NULL);
}

/*
 * The scan's table read by an index in place of its pages, where a hashed
 * relation its rows must match (an inner or semi join on one of its
 * columns) holds few keys: TPC-H Q18's lineitem, whose rows must be among
 * the 57 orders its IN subquery left, is then 57 lookups in lineitem_pkey
 * for its 399 rows, not 6 M rows read.  Few: at most a 64th of the
 * column's distinct values (ANALYZE's), so that about that share of the
 * table is fetched.  Serial scans of one table, no marked join.  The
 * lookups see what the query's snapshot sees (PostgreSQL's index scan: its
 * visibility, HOT chains, predicate locks); the tuples found are then
 * decoded page by page, as the scan decodes a page's visible tuples.
 * False, having read nothing: the pages are read.
 */
static bool
scan_by_index(BulkScanState *bs, BulkTable *t)
{
	const BulkJoin *by = NULL;
	IndexRows	ir;
	double		distinct;
	int64		n;
	int64	   *keys;
	ItemPointerData *tids;
	int64		ntids = 0;
	int64		room = 64;

	if (bs->shared != NULL || t->pscan != NULL || bs->ntables != 1 || marked_join(bs))
		return false;
	for (int j = 0; j < bs->njoins; j++)
	{
		const BulkJoin *bj = &bs->joins[j];
		const GrScanJoin *d = bj->desc;

		if (d->marked == 0 && (d->jointype == JOIN_INNER || d->jointype == JOIN_SEMI) &&
			d->nkeys == 1 && d->src[0] >= 0 && bj->hash != NULL &&
			(by == NULL || bj->hash->nrows < by->hash->nrows))
			by = bj;
	}
	if (by == NULL)
		return false;
	memset(&ir, 0, sizeof(ir));
	if (!OidIsValid(key_index(t, by->desc->src[0], &ir)))
		return false;
	/* (the image's distinct keys first: sorting TPC-H Q12's 1.5 M orders took 100 ms) */
	distinct = column_distinct(t->rel, ir.attno);
	if ((double) by->hash->image->nkeyed * GR_INDEX_ROWS_PER_KEY > distinct)
		return false;
	keys = palloc(sizeof(int64) * Max(by->hash->nrows, 1));
	memcpy(keys, by->hash->keys, sizeof(int64) * by->hash->nrows);
	n = unique_keys(keys, by->hash->nrows);
	if ((double) n * GR_INDEX_ROWS_PER_KEY > distinct)
	{
		pfree(keys);
		return false;
	}

	/* the visible tuples of each key, as PostgreSQL's index scan finds them */
	tids = palloc(sizeof(ItemPointerData) * room);
	ir.keys = keys;
	ir.nkeys = n;
	lookups_begin(bs, &ir, t->rel);
	bs->table_lookups += ir.lookups;
	while (lookup_next(&ir))
	{
		if (ntids == room)
		{
			room *= 2;
			tids = repalloc_huge(tids, sizeof(ItemPointerData) * room);
		}
		tids[ntids++] = ir.slot->tts_tid;
	}
	lookups_end(&ir);
	pfree(keys);

	/* then page by page, in the table's order */
	qsort(tids, ntids, sizeof(ItemPointerData), (int (*) (const void *, const void *)) ItemPointerCompare);
	for (int64 i = 0; i < ntids;)
	{
		BlockNumber blk = ItemPointerGetBlockNumber(&tids[i]);
		OffsetNumber offs[MaxHeapTuplesPerPage];
		int			k = 0;
		Buffer		buf;

		for (; i < ntids && ItemPointerGetBlockNumber(&tids[i]) == blk; i++)
			if (k == 0 || offs[k - 1] != ItemPointerGetOffsetNumber(&tids[i]))
				offs[k++] = ItemPointerGetOffsetNumber(&tids[i]);
		CHECK_FOR_INTERRUPTS();
		buf = ReadBuffer(t->rel, blk);
		bs->counters[C_PAGES]++;
		bs->counters[C_ALLVISIBLE] += PageIsAllVisible(BufferGetPage(buf)) ? 1 : 0;
		decode_page(bs, t, (const uint8 *) BufferGetPage(buf), blk, offs, k, NULL);
		ReleaseBuffer(buf);
	}
	pfree(tids);
	if (bs->table_index == NULL)
	{
		char	   *name = get_rel_name(ir.index);

		bs->table_index = MemoryContextStrdup(bs->css.ss.ps.state->es_query_cxt,
											  name != NULL ? name : "?");
	}
	bs->page_path = "off (the table's rows are fetched by an index)";
	return true;
}

/* A table's parallel block scan in the shared memory. */
static ParallelBlockTableScanDesc
shared_pscan(BulkShared *shared, int i)
{
	return (ParallelBlockTableScanDesc) ((char *) shared + shared->offsets[i]);
}

/* Scan every page of this participant's share of one table. */
static void
scan_table(BulkScanState *bs, BulkTable *t)
{
	EState	   *estate = bs->css.ss.ps.state;
	Relation	rel = t->rel;
	HeapScanDesc scan;
	GrPagePath *pp;
	PageArg		arg = {bs, t};

	if (t->scan == NULL)
	{
		if (t->pscan != NULL)
			t->scan = gr_beginscan_parallel(rel, (ParallelTableScanDesc) t->pscan);
		else
			t->scan = table_beginscan_strat(rel, estate->es_snapshot, 0, NULL,
											true, false);
	}
	scan = (HeapScanDesc) t->scan;
	bind_quals(bs, t);
	if (scan_by_index(bs, t))
		return;
	pp = start_page_path(bs, t, &arg);

	if (t->pscan != NULL)
	{
		BlockNumber blk;

		gr_parallelscan_startblock_init(rel, scan->rs_parallelworkerdata, t->pscan);
		while ((blk = table_block_parallelscan_nextpage(rel, scan->rs_parallelworkerdata,
														t->pscan)) != InvalidBlockNumber)
			scan_page(bs, t, scan, blk, pp);
	}
	else
	{
		/* a serial scan of a large table finds its buffers by one pass over them */
		t->hints = gr_buf_hints_make(bs->statecxt, rel, scan->rs_nblocks);
		for (BlockNumber blk = 0; blk < scan->rs_nblocks && !bs->pass_over; blk++)
			scan_page(bs, t, scan, blk, pp);
		bs->counters[C_HINTED] += gr_buf_hints_found(t->hints);
		gr_buf_hints_free(t->hints);
		t->hints = NULL;
	}
	if (BufferIsValid(scan->rs_cbuf))
	{
		ReleaseBuffer(scan->rs_cbuf);
		scan->rs_cbuf = InvalidBuffer;
	}
	if (pp != NULL)
	{
		GrPagePathTotals totals;

		gr_page_path_finish(pp, &totals);
		bs->counters[C_GPU_PAGES] += totals.gpu_pages;
		bs->counters[C_CPU_PAGES] += totals.cpu_job_pages;
		bs->counters[C_JOBS_OVERFLOWED] += totals.overflowed_jobs;
		bs->counters[C_TABLE_GROUPS] += totals.table_groups;
		bs->counters[C_GPU_WAIT_US] += totals.wait_us;
		/* as PostgreSQL's filter would have counted them (unless the pass is repeated) */
		if (!bs->pass_over)
		{
			bs->counters[C_TABLE_DROPPED] += totals.table_dropped;
			InstrCountFiltered1(&bs->css.ss.ps, totals.table_dropped);
		}
	}
}

/* Count the batches reduced since the statistics were 'before'. */
static void
count_batches(BulkScanState *bs, const GrStats *before)
{
	bs->counters[C_GPU_BATCHES] += gr_stats.gpu_batches - before->gpu_batches;
	bs->counters[C_CPU_BATCHES] += gr_stats.cpu_batches - before->cpu_batches;
}

/* Scan this participant's share of every table. */
static void
run_scan(BulkScanState *bs)
{
	GrStats		before = gr_stats;

	bool		marked = marked_join(bs);
	Barrier    *probing = bs->shared != NULL && marked ? &bs->shared->probing : NULL;

	build_joins(bs);
	if (bs->jprog != NULL)
		bind_program(bs, bs->jprog, bs->jbinds);
	/*
	 * A marked join in a parallel plan: a participant that comes once the
	 * others have all probed (and emitted) has nothing to do; the last to
	 * finish probing emits.
	 */
	if (probing != NULL && BarrierAttach(probing) > 0)
	{
		BarrierDetach(probing);
		return;
	}
	for (int i = 0; i < bs->ntables && !bs->pass_over; i++)
		scan_table(bs, &bs->tables[i]);
	/*
	 * a job the GPU ran marked there (one it did not, or whose rows it
	 * handed back, marked here): scan_table has waited for every job of
	 * this participant, so the last to arrive knows of every GPU's job; a
	 * final-mode pass that outgrew its budget emits nothing (run_pass)
	 */
	if (marked && probing == NULL)
	{
		if (!bs->pass_over)
			emit_marked(bs, bs->counters[C_GPU_PAGES] > 0);
	}
	else if (marked)
	{
		if (bs->counters[C_GPU_PAGES] > 0)
			pg_atomic_write_u32(&bs->shared->gpu_marked, 1);
		if (BarrierArriveAndDetach(probing))
			emit_marked(bs, pg_atomic_read_u32(&bs->shared->gpu_marked) != 0);
	}
	count_batches(bs, &before);
}

/* Start each table's (serial) scan again, for a final-mode pass. */
static void
rescan_tables(BulkScanState *bs)
{
	for (int i = 0; i < bs->ntables; i++)
		if (bs->tables[i].scan != NULL)
			table_rescan(bs->tables[i].scan, NULL);
}

/*
 * Final mode: scan every table for the groups of the share [share_lo,
 * share_hi), again with a narrower share each time they outgrow the budget
 * (pass_over).  The scans read the same rows: the snapshot is the query's,
 * pages added since the first hold none it sees, and the hashed relations
 * of a join stay as built; a marked join's rows, marked again by the same
 * probes, are emitted once a pass, through the same share.
 */
static void
run_pass(BulkScanState *bs)
{
	if (bs->total_pages == 0)
		for (int i = 0; i < bs->ntables; i++)
			bs->total_pages += RelationGetNumberOfBlocks(bs->tables[i].rel);
	for (;;)
	{
		bs->pass_over = false;
		bs->pass_pages = bs->counters[C_PAGES];
		gr_group_set_share(bs->groups, bs->share_lo, bs->share_hi);
		run_scan(bs);
		if (!bs->pass_over)
			break;
		rescan_tables(bs);
	}
	bs->counters[C_GROUP_PASSES]++;
	bs->peak_bytes = Max(bs->peak_bytes, groups_memory(bs));
}

/*
 * Final mode, a pass's groups returned: the next share, sized from the
 * memory this one's took (GR_PASS_FILL of the budget, the rest of the
 * space at most), the groups forgotten, the tables' scans started again.
 */
static void
next_pass(BulkScanState *bs)
{
	uint64		width = bs->share_hi - bs->share_lo;
	double		used = (double) Max(groups_memory(bs), 1);
	double		wide = (double) width * GR_PASS_FILL * bs->group_budget / used;
	uint64		rest = GR_GROUP_HASH_SPACE - bs->share_hi;

	width = wide >= (double) rest ? rest : Max((uint64) wide, 1);
	bs->share_lo = bs->share_hi;
	bs->share_hi = bs->share_lo + width;
	gr_sink_reset(bs->sink);
	gr_group_reset(bs->groups);
	bs->next_group = 0;
	rescan_tables(bs);
	run_pass(bs);
}

/* After the last row: add this process's counters to the shared ones (a parallel plan). */
static void
share_counters(BulkScanState *bs)
{
	if (bs->shared == NULL)
		return;
	for (int c = 0; c < C_COUNT; c++)
		pg_atomic_fetch_add_u64(&bs->shared->counters[c], bs->counters[c]);
	for (int j = 0; j < bs->njoins; j++)
		pg_atomic_fetch_add_u64(&bs->shared->matches[j], bs->joins[j].matches);
	if (bs->njoins > 0)
		pg_atomic_fetch_add_u64(&bs->shared->marked_rows, bs->joins[0].marked_rows);
}

/* Build the node's one row (no GROUP BY): final results or partial states. */
static TupleTableSlot *
result_row(BulkScanState *bs)
{
	TupleTableSlot *slot = bs->css.ss.ss_ScanTupleSlot;
	MemoryContext old = MemoryContextSwitchTo(bs->statecxt);
	GrStats		before = gr_stats;

	ExecClearTuple(slot);
	for (int a = 0; a < bs->desc->naggs; a++)
		slot->tts_values[a] = gr_sink_result(bs->sink, 0, a, bs->desc->partial,
											 &slot->tts_isnull[a]);
	MemoryContextSwitchTo(old);
	/* the batches finalize reduced count too */
	count_batches(bs, &before);
	share_counters(bs);
	return ExecStoreVirtualTuple(slot);
}

/*
 * Build the row of group g in slot: its keys, then its aggregates' partial
 * states, or final values in final mode (in the current memory context).
 */
static TupleTableSlot *
group_row(BulkScanState *bs, int g, TupleTableSlot *slot)
{
	int			nkeys = bs->desc->ngroupkeys;

	ExecClearTuple(slot);
	for (int k = 0; k < nkeys; k++)
		slot->tts_values[k] = gr_group_key(bs->groups, g, k, &slot->tts_isnull[k]);
	for (int a = 0; a < bs->desc->naggs; a++)
		slot->tts_values[nkeys + a] = gr_sink_result(bs->sink, g, a, bs->desc->partial,
													 &slot->tts_isnull[nkeys + a]);
	bs->counters[C_GROUPS]++;
	return ExecStoreVirtualTuple(slot);
}

/*
 * The groups have outgrown their memory: emit every one into the
 * tuplestore (which keeps work_mem and spills the rest to a file), and
 * start the table afresh.
 */
static void
emit_groups(BulkScanState *bs)
{
	EState	   *estate = bs->css.ss.ps.state;
	TupleTableSlot *slot = bs->css.ss.ss_ScanTupleSlot;
	MemoryContext rowcxt = bs->css.ss.ps.ps_ExprContext->ecxt_per_tuple_memory;
	MemoryContext old;

	if (bs->emitted == NULL)
	{
		old = MemoryContextSwitchTo(estate->es_query_cxt);
		bs->emitted = tuplestore_begin_heap(false, false, work_mem);
		MemoryContextSwitchTo(old);
	}
	for (int g = 0; g < bs->sink->ngroups; g++)
	{
		old = MemoryContextSwitchTo(rowcxt);
		tuplestore_puttupleslot(bs->emitted, group_row(bs, g, slot));
		MemoryContextSwitchTo(old);
		ExecClearTuple(slot);
		MemoryContextReset(rowcxt);
	}
	bs->counters[C_GROUP_FLUSHES]++;
	gr_sink_reset(bs->sink);
	gr_group_reset(bs->groups);
}


/*
 * The checks in the plan's HAVING (final mode: the scan's qual, over the
 * row group_row makes: keys, then aggregates).
 */
static void
having_checks(BulkScanState *bs, List *qual)
{
	/*
	 * numeric's comparisons (a sum's), bigint's with an integer (a
	 * count's), and whether each passes an aggregate below, equal to or
	 * above the constant
	 */
#define GR_CMP_OPS(lt, le, eq, ge, gt, count) \
		{lt, count, {true, false, false}}, {le, count, {true, true, false}}, \
		{eq, count, {false, true, false}}, {ge, count, {false, true, true}}, \
		{gt, count, {false, false, true}}
	static const struct
	{
		Oid			fn;
		bool		count;
		bool		pass[3];
	}			ops[] = {
		GR_CMP_OPS(F_NUMERIC_LT, F_NUMERIC_LE, F_NUMERIC_EQ, F_NUMERIC_GE, F_NUMERIC_GT, false),
		GR_CMP_OPS(F_INT8LT, F_INT8LE, F_INT8EQ, F_INT8GE, F_INT8GT, true),
		GR_CMP_OPS(F_INT84LT, F_INT84LE, F_INT84EQ, F_INT84GE, F_INT84GT, true),
		GR_CMP_OPS(F_INT82LT, F_INT82LE, F_INT82EQ, F_INT82GE, F_INT82GT, true),
		GR_CMP_OPS(F_INT48LT, F_INT48LE, F_INT48EQ, F_INT48GE, F_INT48GT, true),
		GR_CMP_OPS(F_INT28LT, F_INT28LE, F_INT28EQ, F_INT28GE, F_INT28GT, true),
		GR_CMP_OPS(F_INT4LT, F_INT4LE, F_INT4EQ, F_INT4GE, F_INT4GT, true),
		GR_CMP_OPS(F_INT2LT, F_INT2LE, F_INT2EQ, F_INT2GE, F_INT2GT, true),
		GR_CMP_OPS(F_INT24LT, F_INT24LE, F_INT24EQ, F_INT24GE, F_INT24GT, true),
		GR_CMP_OPS(F_INT42LT, F_INT42LE, F_INT42EQ, F_INT42GE, F_INT42GT, true),
	};
#undef GR_CMP_OPS
	ListCell   *lc;

	bs->checks = palloc0(sizeof(HavingCheck) * Max(list_length(qual), 1));
	foreach(lc, qual)
	{
		OpExpr	   *op = lfirst(lc);
		HavingCheck *c = &bs->checks[bs->nchecks];
		Var		   *var;
		Const	   *k;
		bool		flip;
		int			o = 0;

		if (!IsA(op, OpExpr) || list_length(op->args) != 2)
			continue;
		flip = IsA(linitial(op->args), Const);
		var = flip ? lsecond(op->args) : linitial(op->args);
		k = flip ? linitial(op->args) : lsecond(op->args);
		if (!IsA(var, Var) || !IsA(k, Const) || k->constisnull ||
			var->varattno <= bs->desc->ngroupkeys ||
			var->varattno > bs->desc->ngroupkeys + bs->desc->naggs)
			continue;
		while (o < lengthof(ops) && ops[o].fn != op->opfuncid)
			o++;
		if (o == lengthof(ops))
			continue;
		c->agg = var->varattno - 1 - bs->desc->ngroupkeys;
		c->count = ops[o].count;
		/* 'constant op aggregate' is 'aggregate op constant' with below and above swapped */
		for (int i = 0; i < 3; i++)
			c->pass[i] = ops[o].pass[flip ? 2 - i : i];
		if (c->count)
		{
			GrScanAggKind kind = bs->desc->aggs[c->agg].kind;

			if (k->consttype != INT2OID && k->consttype != INT4OID && k->consttype != INT8OID)
				continue;
			c->scaled = k->consttype == INT2OID ? DatumGetInt16(k->constvalue) :
				k->consttype == INT4OID ? DatumGetInt32(k->constvalue) : DatumGetInt64(k->constvalue);
			c->value = (Datum) 0;	/* checked on the words only */
			c->out = -1;
			/* an integer compared with one: a count, a sum of smallints or integers, a min or max of integers */
			if (kind == GR_SCAN_AGG)
			{
				c->count = false;
				c->out = word_check_out(bs->desc, c->agg, (Datum) 0, NULL);
				if (c->out < 0)
					continue;
			}
			else if (kind != GR_SCAN_COUNT_STAR && kind != GR_SCAN_COUNT_COL)
				continue;
			bs->word_checks = true;
		}
		else
		{
			if (k->consttype != NUMERICOID)
				continue;
			c->value = k->constvalue;
			c->out = word_check_out(bs->desc, c->agg, c->value, &c->scaled);
			bs->word_checks |= c->out >= 0;
		}
		bs->nchecks++;
	}
}

/*
 * The page job output whose words hold aggregate agg's sum, min or max
 * (start_page_path's outputs: one per GR_SCAN_AGG, in order), or -1: a sum
 * of computed numerics of one scale, c (numeric) that scale's integer into
 * *scaled; or with scaled NULL (c an integer the caller has), a sum of
 * smallints or integers (a bigint), or a min or max of integers (its
 * value); with scaled, a sum of bigints (numeric), c an integer.
 */
static int
word_check_out(const GrScanDesc *d, int agg, Datum c, int128 *scaled)
{
	const GrScanAgg *ag = &d->aggs[agg];
	int			out = 0;
	bool		integers = ag->dec_scale < 0 &&
		(ag->type == GR_INT2 || ag->type == GR_INT4 || ag->type == GR_INT8);
	bool		fits;

	if (ag->kind != GR_SCAN_AGG || ag->row_scale)
		return -1;
	if (ag->op == GR_OP_MIN || ag->op == GR_OP_MAX)
		fits = scaled == NULL && integers;	/* its value, an integer of its type */
	else if (ag->op != GR_OP_SUM)
		return -1;
	else if (scaled == NULL)
		fits = integers && ag->type != GR_INT8;		/* a bigint sum */
	else if (integers)
		fits = ag->type == GR_INT8 && gr_num_scaled_const(c, 0, scaled);	/* a numeric sum */
	else
		fits = ag->type == GR_NUMERIC && ag->dec_scale >= 0 &&
			gr_num_scaled_const(c, ag->dec_scale, scaled);
	if (!fits)
		return -1;
	for (int a = 0; a < agg; a++)
		out += d->aggs[a].kind == GR_SCAN_AGG;
	return out;
}

/* Whether a HAVING check rejects group g (having_checks). */
static bool
having_fails(BulkScanState *bs, int g)
{
	for (int i = 0; i < bs->nchecks; i++)
	{
		const HavingCheck *c = &bs->checks[i];
		bool		isnull;
		int			cmp;

		if (c->value != (Datum) 0 &&
			gr_sink_sum_cmp(bs->sink, g, c->agg, c->value, &isnull, &cmp) &&
			(isnull || !c->pass[cmp + 1]))
			return true;
	}
	return false;
}

/*
 * The next row of a GROUP BY (the scan done): the groups emitted early,
 * then those in the table, in final mode each pass's in turn; an empty
 * slot after the last.
 */
static TupleTableSlot *
next_group_row(BulkScanState *bs)
{
	TupleTableSlot *slot = bs->css.ss.ss_ScanTupleSlot;

	if (bs->emitted != NULL &&
		tuplestore_gettupleslot(bs->emitted, true, false, bs->emitslot))
		return ExecCopySlot(slot, bs->emitslot);
	for (;;)
	{
		while (bs->final && bs->next_group >= bs->sink->ngroups &&
			   bs->share_hi < GR_GROUP_HASH_SPACE)
			next_pass(bs);
		if (bs->next_group >= bs->sink->ngroups || !having_fails(bs, bs->next_group))
			break;
		/* as PostgreSQL's filter would have counted it */
		bs->next_group++;
		bs->counters[C_GROUPS]++;
		InstrCountFiltered1(&bs->css.ss.ps, 1);
		if ((bs->next_group & 4095) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	if (bs->next_group < bs->sink->ngroups)
	{
		/* in the per-tuple memory, which ExecScan resets a row */
		MemoryContext old = MemoryContextSwitchTo(bs->css.ss.ps.ps_ExprContext->ecxt_per_tuple_memory);
		GrStats		before = gr_stats;

		group_row(bs, bs->next_group++, slot);
		MemoryContextSwitchTo(old);
		/* the batches each group's finalize reduced count too */
		count_batches(bs, &before);
		return slot;
	}
	if (!bs->done)
		share_counters(bs);
	bs->done = true;
	return ExecClearTuple(slot);
}

/* The access method for ExecScan: the whole scan on the first call. */
static TupleTableSlot *
bulk_next(ScanState *ss)
{
	BulkScanState *bs = (BulkScanState *) ss;

	if (!bs->scanned)
	{
		bs->scanned = true;
		if (bs->final)
			run_pass(bs);
		else
			run_scan(bs);
		/* gpu_topk's k: checked, as its transition function checks it, once any row arrived */
		for (int a = 0; a < bs->desc->naggs && bs->counters[C_ROWS] > 0; a++)
			if (bs->kexprs[a] != NULL)
				(void) agg_k(bs, a);
	}
	if (bs->groups != NULL)
		return next_group_row(bs);
	if (bs->done)
		return ExecClearTuple(ss->ss_ScanTupleSlot);
	bs->done = true;
	return result_row(bs);
}

/* Rows are never re-checked (no EvalPlanQual over an aggregate). */
static bool
bulk_recheck(ScanState *ss, TupleTableSlot *slot)
{
	return true;
}

/* ExecCustomScan: one row, then none. */
static TupleTableSlot *
bulk_exec(CustomScanState *node)
{
	return ExecScan(&node->ss, bulk_next, bulk_recheck);
}

/* Forget this scan's groups, states and counters. */
static void
reset_states(BulkScanState *bs)
{
	gr_sink_reset(bs->sink);
	MemoryContextReset(bs->statecxt);
	if (bs->groups != NULL)
		gr_group_reset(bs->groups);
	if (bs->emitted != NULL)
		tuplestore_end(bs->emitted);
	bs->emitted = NULL;
	bs->next_group = 0;
	bs->share_lo = 0;
	bs->share_hi = GR_GROUP_HASH_SPACE;
	bs->pass_over = false;
	bs->peak_bytes = 0;
	memset(bs->counters, 0, sizeof(bs->counters));
	bs->scanned = false;
	bs->done = false;
	for (int j = 0; j < bs->njoins; j++)
	{
		bs->joins[j].hash = NULL;
		bs->joins[j].built = false;
		bs->joins[j].matches = 0;
		bs->joins[j].marks = NULL;
		bs->joins[j].marked_rows = 0;
		bs->joins[j].index = NULL;
	}
	if (bs->joincxt != NULL)
		MemoryContextReset(bs->joincxt);
}

/* EndCustomScan */
static void
bulk_end(CustomScanState *node)
{
	BulkScanState *bs = (BulkScanState *) node;

	for (int i = 0; i < bs->ntables; i++)
	{
		if (bs->tables[i].scan != NULL)
			table_endscan(bs->tables[i].scan);
		bs->tables[i].scan = NULL;
		if (bs->tables[i].rel != node->ss.ss_currentRelation)
			table_close(bs->tables[i].rel, NoLock);
	}
	for (int j = 0; j < bs->njoins; j++)
	{
		BulkTable  *t = bs->joins[j].pages;

		if (t == NULL)
		{
			ExecEndNode(bs->joins[j].child);
			continue;
		}
		if (t->scan != NULL)
			table_endscan(t->scan);
		table_close(t->rel, NoLock);
	}
	/* the images on the GPUs, if this process named them */
	gr_page_path_release_images(bs->images);
	/* gives back GPU slots and buffer budget (the states' callbacks) */
	MemoryContextDelete(bs->sinkcxt);
	MemoryContextDelete(bs->statecxt);
	if (bs->emitted != NULL)
		tuplestore_end(bs->emitted);
}

/* ReScanCustomScan: start over, with the parameters as they are now. */
static void
bulk_rescan(CustomScanState *node)
{
	BulkScanState *bs = (BulkScanState *) node;

	reset_states(bs);
	/* a serial plan's images on the GPUs (a parallel one's go with reinit) */
	if (bs->shared == NULL)
		gr_page_path_release_images(bs->images);
	/* the hashed relations' plans: rescanned as nodeAppend rescans its children */
	for (int j = 0; j < bs->njoins; j++)
	{
		PlanState  *child = bs->joins[j].child;

		/* a relation read from its pages starts its scan again as it is built */
		if (child == NULL)
			continue;
		if (node->ss.ps.chgParam != NULL)
			UpdateChangedParamSet(child, node->ss.ps.chgParam);
		if (child->chgParam == NULL)
			ExecReScan(child);
	}
	for (int i = 0; i < bs->ntables; i++)
	{
		BulkTable  *t = &bs->tables[i];

		if (t->scan != NULL && t->pscan == NULL)
			table_rescan(t->scan, NULL);
		else if (t->scan != NULL)
		{
			/* a parallel scan restarts from a reinitialized shared state */
			table_endscan(t->scan);
			t->scan = NULL;
		}
	}
}

/* Where each table's parallel scan goes in the shared memory, and the size. */
static Size
shared_layout(BulkScanState *bs, Size *offsets)
{
	Snapshot	snapshot = bs->css.ss.ps.state->es_snapshot;
	Size		size = MAXALIGN(add_size(offsetof(BulkShared, offsets),
										 mul_size(sizeof(Size), bs->ntables)));

	for (int i = 0; i < bs->ntables; i++)
	{
		if (offsets != NULL)
			offsets[i] = size;
		size = add_size(size, MAXALIGN(table_parallelscan_estimate(bs->tables[i].rel,
																   snapshot)));
	}
	return size;
}

/* EstimateDSMCustomScan */
static Size
bulk_estimate_dsm(CustomScanState *node, ParallelContext *pcxt)
{
	return shared_layout((BulkScanState *) node, NULL);
}

/* Zero the shared counters; no relation hashed yet, nor read. */
static void
init_counters(BulkShared *shared)
{
	for (int c = 0; c < C_COUNT; c++)
		pg_atomic_init_u64(&shared->counters[c], 0);
	for (int j = 0; j < GR_JOIN_MAX_RELS; j++)
	{
		pg_atomic_init_u64(&shared->matches[j], 0);
		shared->images[j] = InvalidDsaPointer;
		shared->build_ms[j] = 0;
	}
	BarrierInit(&shared->building, 0);
	SpinLockInit(&shared->mutex);
	for (int j = 0; j < GR_JOIN_MAX_RELS; j++)
	{
		shared->shares[j] = InvalidDsaPointer;
		pg_atomic_init_u32(&shared->taken[j], 0);
		pg_atomic_init_u32(&shared->blocks[j], 0);
		shared->job_pages[j] = shared->job_rows[j] = -1;
		shared->job_ms[j] = -1;
	}
	shared->built = false;
	shared->marks = InvalidDsaPointer;
	BarrierInit(&shared->probing, 0);
	pg_atomic_init_u32(&shared->gpu_marked, 0);
	pg_atomic_init_u64(&shared->marked_rows, 0);
}

/* Point each table at its parallel block scan in the shared memory. */
static void
attach_shared(BulkScanState *bs, BulkShared *shared)
{
	bs->shared = shared;
	for (int i = 0; i < bs->ntables; i++)
		bs->tables[i].pscan = shared_pscan(shared, i);
}

/*
 * The leader names the images the builder will put on the GPUs, and frees
 * the last scan's there (every participant is done with them).
 */
static void
name_images(BulkScanState *bs, BulkShared *shared)
{
	shared->image_key = 0;
	shared->on_gpu = false;
	if (bs->njoins == 0)
		return;
	gr_page_path_release_images(bs->images);
	bs->images = gr_page_path_own_images(bs->css.ss.ps.state->es_query_cxt);
	shared->image_key = gr_page_path_images_key(bs->images);
}

/* InitializeDSMCustomScan: the shared block scans and counters. */
static void
bulk_init_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	BulkScanState *bs = (BulkScanState *) node;
	BulkShared *shared = coordinate;

	init_counters(shared);
	name_images(bs, shared);
	shared->ntables = bs->ntables;
	shared_layout(bs, shared->offsets);
	for (int i = 0; i < bs->ntables; i++)
		table_parallelscan_initialize(bs->tables[i].rel,
									  (ParallelTableScanDesc) shared_pscan(shared, i),
									  node->ss.ps.state->es_snapshot);
	attach_shared(bs, shared);
}

/* ReInitializeDSMCustomScan: a rescan of the Gather above. */
static void
bulk_reinit_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	BulkScanState *bs = (BulkScanState *) node;
	BulkShared *shared = coordinate;

	/* the last scan's hash tables (no participant reads them now) */
	for (int j = 0; j < bs->njoins && bs->area != NULL; j++)
	{
		if (DsaPointerIsValid(shared->images[j]))
			dsa_free(bs->area, shared->images[j]);
		gr_join_hash_free_shares(bs->area, &shared->shares[j]);
	}
	if (bs->area != NULL && DsaPointerIsValid(shared->marks))
		dsa_free(bs->area, shared->marks);
	init_counters(shared);
	name_images(bs, shared);
	for (int i = 0; i < bs->ntables; i++)
		table_parallelscan_reinitialize(bs->tables[i].rel,
										(ParallelTableScanDesc) shared_pscan(shared, i));
	attach_shared(bs, shared);
}

/* InitializeWorkerCustomScan */
static void
bulk_init_worker(CustomScanState *node, shm_toc *toc, void *coordinate)
{
	attach_shared((BulkScanState *) node, coordinate);
}

/*
 * ShutdownCustomScan: the leader keeps every participant's counters before
 * the shared memory goes away.
 */
static void
bulk_shutdown(CustomScanState *node)
{
	BulkScanState *bs = (BulkScanState *) node;

	if (bs->shared != NULL && !IsParallelWorker())
	{
		for (int c = 0; c < C_COUNT; c++)
			bs->counters[c] = pg_atomic_read_u64(&bs->shared->counters[c]);
		for (int j = 0; j < bs->njoins; j++)
		{
			BulkJoin   *bj = &bs->joins[j];

			bj->matches = pg_atomic_read_u64(&bs->shared->matches[j]);
			if (j == 0)
				bj->marked_rows = pg_atomic_read_u64(&bs->shared->marked_rows);
			/* the build, wherever it ran (the leader may not have scanned) */
			if (bs->shared->built)
				shared_build(bj, bs->shared, j);
		}
	}
	/* a parallel plan's hash tables go with its shared memory */
	for (int j = 0; j < bs->njoins && bs->area != NULL; j++)
	{
		bs->joins[j].hash = NULL;
		bs->joins[j].marks = NULL;
	}
}

/*
 * A join's hashed relations, in probe order, each with its equalities; with
 * ANALYZE, the rows hashed (in a parallel plan, once for all participants),
 * the memory and the time it took, and the rows that matched in all
 * participants.
 */
static void
explain_joins(BulkScanState *bs, ExplainState *es)
{
	List	   *names = NIL;
	List	   *rows = NIL;
	List	   *memory = NIL;
	List	   *times = NIL;
	List	   *matches = NIL;
	List	   *marked = NIL;
	List	   *left_out = NIL;
	List	   *fetched = NIL;
	List	   *listed = NIL;
	List	   *job_rows = NIL;
	List	   *job_times = NIL;
	List	   *filtered = NIL;
	bool		by_keys = false;
	bool		reduced = false;
	bool		indexed = false;
	bool		jobs = false;
	bool		timed_jobs = false;
	bool		kept_by_jobs = false;

	for (int j = 0; j < bs->njoins; j++)
	{
		BulkJoin   *bj = &bs->joins[j];

		names = lappend(names, bj->desc->name);
		if (!bj->built)
			continue;
		reduced |= bj->left_out >= 0;
		left_out = lappend(left_out, bj->left_out >= 0 ? psprintf(INT64_FORMAT, bj->left_out) : "-");
		indexed |= bj->index != NULL;
		fetched = lappend(fetched, bj->index == NULL ? "-" : bj->probe_pages < 0 ?
						  psprintf("%s (" INT64_FORMAT " lookups)", bj->index, bj->lookups) :
						  psprintf("%s (" INT64_FORMAT " lookups of the keys of %s's rows its WHERE keeps, "
								   INT64_FORMAT " pages filtered by jobs)", bj->index, bj->lookups,
								   RelationGetRelationName(bs->tables[0].rel), bj->probe_pages));
		by_keys |= bj->filter_keys >= 0;
		filtered = lappend(filtered, bj->filter_keys < 0 ? "-" :
						   psprintf(INT64_FORMAT " keys of %s's rows its WHERE keeps, " INT64_FORMAT
									" pages filtered by jobs", bj->filter_keys,
									RelationGetRelationName(bs->tables[0].rel), bj->probe_pages));
		jobs |= bj->job_pages >= 0;
		timed_jobs |= bj->job_ms >= 0;
		listed = lappend(listed, bj->job_pages >= 0 ? psprintf(INT64_FORMAT, bj->job_pages) : "-");
		kept_by_jobs |= bj->job_rows >= 0;
		job_rows = lappend(job_rows, bj->job_rows >= 0 ? psprintf(INT64_FORMAT, bj->job_rows) : "-");
		job_times = lappend(job_times, bj->job_ms >= 0 ? psprintf("%.3f ms", bj->job_ms) : "-");
		rows = lappend(rows, psprintf(INT64_FORMAT, bj->hashed_rows));
		memory = lappend(memory, psprintf("%zu kB", (bj->hash_bytes + 1023) / 1024));
		times = lappend(times, psprintf("%.3f ms", bj->build_ms));
		matches = lappend(matches, psprintf(UINT64_FORMAT, bj->matches));
		if (bj->desc->marked != 0)
			marked = lappend(marked, psprintf(UINT64_FORMAT, bj->marked_rows));
	}
	ExplainPropertyList("Hashed", names, es);
	if (bs->desc->jprog != NULL && bs->desc->jfilter[0] != '\0')
		ExplainPropertyText("Join Filter", bs->desc->jfilter, es);
	if (!es->analyze || rows == NIL)
		return;
	ExplainPropertyList("Hashed Rows", rows, es);
	if (reduced)
		ExplainPropertyList("Rows Left Out", left_out, es);
	if (indexed)
		ExplainPropertyList("Fetched by Index", fetched, es);
	if (by_keys)
		ExplainPropertyList("Filtered by Keys", filtered, es);
	if (jobs)
		ExplainPropertyList("Pages Filtered by Jobs", listed, es);
	if (kept_by_jobs)
		ExplainPropertyList("Rows Kept by Jobs", job_rows, es);
	ExplainPropertyList("Hash Memory", memory, es);
	if (es->timing)
		ExplainPropertyList("Hash Build Time", times, es);
	if (es->timing && timed_jobs)
		ExplainPropertyList("Build Time in Jobs", job_times, es);
	ExplainPropertyList("Rows Matched", matches, es);
	if (marked != NIL)
		ExplainPropertyList("Rows Marked", marked, es);
}

/*
 * ExplainCustomScan: the tables of an inheritance tree, the WHERE
 * comparisons, and with ANALYZE the counters.
 */
static void
bulk_explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	BulkScanState *bs = (BulkScanState *) node;

	if (((CustomScan *) node->ss.ps.plan)->scan.scanrelid == 0)
	{
		List	   *names = NIL;

		for (int i = 0; i < bs->ntables; i++)
			names = lappend(names, RelationGetRelationName(bs->tables[i].rel));
		ExplainPropertyList("Tables", names, es);
	}
	/* a tree's tables share the clauses, translated: the first one's shows */
	if (bs->ntables > 0 && bs->tables[0].filter[0] != '\0')
		ExplainPropertyText("Bulk Filter", bs->tables[0].filter, es);
	if (bs->njoins > 0)
		explain_joins(bs, es);
	if (!es->analyze)
		return;
	if (es->verbose && bs->page_path != NULL)
		ExplainPropertyText("Page Path", bs->page_path, es);
	if (bs->table_index != NULL)
		ExplainPropertyText("Table Fetched by Index",
							psprintf("%s (" INT64_FORMAT " lookups)", bs->table_index,
									 bs->table_lookups), es);
	for (int c = 0; c < C_GPU_WAIT_US; c++)
	{
		if (c == C_FALLBACK && (bs->ntables == 0 || bs->tables[0].prog == NULL) &&
			bs->jprog == NULL)
			continue;
		if ((c == C_GROUPS || c == C_GROUP_FLUSHES) && bs->groups == NULL)
			continue;
		if ((c == C_GROUP_FLUSHES && bs->final) || (c == C_GROUP_PASSES && !bs->final) ||
			(c == C_PASSES_OVER && (!bs->final || bs->counters[c] == 0)))
			continue;
		if ((c == C_JOBS_OVERFLOWED || c == C_TABLE_GROUPS || c == C_TABLE_DROPPED ||
			 c == C_HINTED) && bs->counters[c] == 0)
			continue;
		ExplainPropertyInteger(counter_names[c], NULL, bs->counters[c], es);
	}
	if (bs->final)
		ExplainPropertyInteger("Group Memory", "kB", (bs->peak_bytes + 1023) / 1024, es);
	/* a time, summed over the processes: where timing is on and jobs ran */
	if (es->timing && bs->counters[C_GPU_PAGES] > 0)
		ExplainPropertyFloat(counter_names[C_GPU_WAIT_US], "ms",
							 bs->counters[C_GPU_WAIT_US] / 1000.0, 3, es);
}
