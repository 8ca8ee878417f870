/*
 * page_path.c
 *	  The bulk scan's page path: the CPU only pins pages and records which of
 *	  their tuples are visible; the GPU reads the pinned shared buffers
 *	  straight out of host memory, decodes them and reduces the values.
 *
 * Pages gather into jobs (page_job.h) built in place in a GPU slot, at most
 * GR_PAGE_JOBS in flight, their held pins (held_pins.c) kept until the results
 * are folded and dropped here, on abort too.  Whatever the GPU cannot do goes
 * through the scan's CPU decoder on the same pinned pages; page_path = cpu runs
 * this path with no GPU.  The steps and why: doc/architecture.md, "Scan and
 * page path" (The page path).
 */
#include "bulk.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "lib/ilist.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "portability/instr_time.h"
#include "utils/snapshot.h"

#include "gpu_shared.h"
#include "held_pins.h"
#include "page_job.h"

/* the host's run of a grouping job folds rows with plain arithmetic */
#define GR_PG_ADD(p, v)		(*(p) += (uint64) (v))
#define GR_PG_MIN_S(p, v) \
	do { if ((int64) (v) < (int64) *(p)) *(p) = (uint64) (int64) (v); } while (0)
#define GR_PG_MAX_S(p, v) \
	do { if ((int64) (v) > (int64) *(p)) *(p) = (uint64) (int64) (v); } while (0)
#define GR_PG_MIN_U(p, v) \
	do { if ((uint64) (v) < *(p)) *(p) = (uint64) (v); } while (0)
#include "page_group.h"

StaticAssertDecl(GR_PAGE_GROUP_MAX_KEYS == GR_PAGE_MAX_KEYS, "group keys of a job");
StaticAssertDecl(GR_PAGE_MAX_COLS <= 32, "GrPageGroupSpec.count_cols has a bit per column");

/* jobs one process has in flight */
#define GR_PAGE_JOBS 4
/* grouping jobs over their groups' room after which a scan's pages go to the CPU */
#define GR_PAGE_MAX_OVERFLOWS 2
/* the smallest job worth a GPU round trip */
#define GR_PAGE_MIN_JOB_PAGES 64

StaticAssertDecl(MaxHeapTuplesPerPage <= GR_PAGE_MAX_TUPLES || BLCKSZ != GR_PAGE_SIZE,
				 "page bitmap too small");

/* One job: where it is built, and the buffers it holds pinned. */
typedef struct PageJobRef
{
	GrPageJob  *job;
	int			slot;			/* its GPU slot, or -1 (built in local memory) */
	int			npages;
	Buffer	   *bufs;			/* held pins (held_pins.c), or the buffer
								 * manager's (held_pins false) */
} PageJobRef;

struct GrPagePath
{
	GrPagePathMode mode;
	int			job_pages;		/* pages per job */
	char	   *prefix;			/* every job's header and decoder description */
	Size		prefix_bytes;
	Size		bytes_all;		/* for job_pages pages, results included */
	PageJobRef	jobs[GR_PAGE_JOBS];	/* a ring, oldest at first */
	int			first;
	int			njobs;
	bool		open;			/* the newest job still takes pages */
	GrPageCallbacks cb;
	bool		grouped;		/* the jobs group rows (page_group.h) */
	bool		list;			/* list jobs (GR_PAGE_JOB_LIST) */
	uint64		overflowed;		/* grouping jobs that met more groups than room */
	int32	   *cpu_slots;		/* cpu mode, grouped: the host's hash slots */
	int			cpu_nslots;
	/*
	 * the jobs fold into the scan's table (GrPageJob.scan_id), on each GPU
	 * that runs them (devices: bit d, GPU d ran one), or in cpu mode into
	 * the host's (cpu_ents, cpu_ngroups of job->scan_cap; cpu_slots);
	 * table_full: a job found no room, the later pages go to the CPU
	 */
	bool		scan;
	uint64		devices;
	uint64	   *cpu_ents;
	uint64		cpu_ngroups;
	Size		cpu_room;		/* entries cpu_ents has room for */
	bool		table_full;
	uint64		table_groups;	/* groups collected from the tables */
	uint64		table_dropped;	/* ... and dropped by their checks */
	/*
	 * the slot the tables' groups are collected through, taken with the
	 * scan's first GPU job and kept: the scan's own aggregate states may
	 * hold every other slot by its end (batch buffers), and its groups are
	 * on the GPUs until then
	 */
	int			collect_slot;
	uint64		gpu_pages;
	uint64		cpu_job_pages;	/* cpu mode: pages of jobs the host ran */
	instr_time	waited;			/* waiting for jobs the GPU had not finished
								 * (summed unrounded: most waits are < 1 us) */
	MemoryContextCallback reset_cb;
	bool		held_pins;		/* not gpu_reduce.debug_buffer_manager_pins */
	dlist_node	live;			/* in live_paths until its memory goes */
	SubTransactionId subid;		/* begun in this subtransaction */
};

/* the page paths whose memory has not gone: those that may hold pins */
static dlist_head live_paths = DLIST_STATIC_INIT(live_paths);
static bool callbacks_registered = false;

/* Pins one process may hold for the page path. */
static int
pin_budget(void)
{
	int			fair = NBuffers / Max(MaxBackends, 1);

	return Min(gr_page_pins, fair);
}

/*
 * Lay out the results after 'off': each output's GrCudaResult, then a
 * GPU top-k's keys.  Fills the offsets when job is not NULL; returns the end.
 */
static Size
layout_results(GrPageJob *job, const GrPageOutSpec *outs, int nouts, Size off)
{
	for (int o = 0; o < nouts; o++)
	{
		bool		keys = gr_kind_gpu_op(outs[o].op, outs[o].type, outs[o].k) == GR_CUDA_TOPK;

		if (job != NULL)
		{
			job->outs[o].result_off = off;
			job->outs[o].topk_off = keys ? off + GR_PAGE_ALIGN(sizeof(GrCudaResult)) : 0;
		}
		off += GR_PAGE_ALIGN(sizeof(GrCudaResult));
		if (keys)
			off += GR_PAGE_ALIGN(sizeof(int64) * (Size) outs[o].k);
	}
	return off;
}

/* A job's columns: decoded, the program's outputs, and a join's values and joined-row outputs. */
static int
job_ncols(const GrDecodeDesc *d, const GrExprProg *prog, const GrPageJoinSpec *join)
{
	return join != NULL ? join->ncols : d->ncols + (prog != NULL ? prog->nouts : 0);
}

/*
 * Rows a job of 'pages' pages lists as handed back: a program's and a
 * grouping job's, GR_PAGE_MAX_FALLBACK; a job that folds into its scan's
 * table (grouped < 0) or a list job (list), every row it may have.
 */
static int
fallback_rows(const GrExprProg *prog, int grouped, bool list, int pages)
{
	if (grouped < 0 || list)
		return pages * GR_PAGE_MAX_TUPLES;
	return prog != NULL || grouped > 0 ? GR_PAGE_MAX_FALLBACK : 0;
}

/*
 * The layout of a job of 'pages' pages: sets *prefix_bytes (header, decoder
 * description, program and a join's joined-row program) and *bytes_in (with the entries); returns the
 * bytes of the whole job, the fallback list and results included.
 * grouped: 0 not, 1 into a table of the job's own, -1 into the scan's.
 */
static Size
job_bytes(const GrDecodeDesc *d, const GrExprProg *prog, const GrPageJoinSpec *join,
		  const GrPageOutSpec *outs, int nouts, int grouped, bool list, int pages,
		  Size *prefix_bytes, Size *bytes_in)
{
	Size		fallback = sizeof(GrPageFallback) * fallback_rows(prog, grouped, list, pages);

	*prefix_bytes = GR_PAGE_ALIGN(sizeof(GrPageJob)) + GR_PAGE_ALIGN(GR_DECODE_DESC_SIZE(d->natts));
	if (prog != NULL)
		*prefix_bytes += GR_PAGE_ALIGN(sizeof(GrExprProg));
	if (join != NULL && join->jprog != NULL)
		*prefix_bytes += GR_PAGE_ALIGN(sizeof(GrExprProg));
	*bytes_in = *prefix_bytes + GR_PAGE_ALIGN(sizeof(GrPageEntry) * (Size) pages);
	/* a grouping job's results are its groups, after the list (group_cap) */
	if (grouped)
		return *bytes_in + GR_PAGE_ALIGN(fallback);
	return layout_results(NULL, outs, nouts, *bytes_in + GR_PAGE_ALIGN(fallback));
}

/*
 * Give the running words [w, w + n) the operator op, in job's table when job
 * is not NULL (and below the table's end); returns the next free word.
 */
static int
add_words(GrPageJob *job, int w, int n, int op)
{
	for (int i = w; job != NULL && i < w + n && i < GR_PAGE_MAX_GWORDS; i++)
		job->gword_op[i] = op;
	return w + n;
}

/*
 * Lay out a grouping job's running words (page_group.h) into job, when not
 * NULL; returns how many words a group has, or -1 when an output is none
 * a job folds per group (why says which).
 */
static int
layout_group_words(GrPageJob *job, const GrPageOutSpec *outs, int nouts,
				   const GrPageGroupSpec *grp, int ncols, const char **why)
{
	int			w;

	StaticAssertStmt(GR_PG_W_REP == 0 && GR_PG_W_ROWS == 1 && GR_PG_W_FIXED == 2,
					 "the first row, then the rows, then the rest");
	w = add_words(job, GR_PG_W_REP, 1, GR_PG_OP_MIN_U);
	w = add_words(job, w, 1, GR_PG_OP_ADD);
	for (int c = 0; c < ncols; c++)
	{
		bool		counted = (grp->count_cols & (UINT32_C(1) << c)) != 0;

		if (job != NULL)
			job->col_word[c] = counted ? w : -1;
		if (counted)
			w = add_words(job, w, 1, GR_PG_OP_ADD);
	}
	for (int o = 0; o < nouts; o++)
	{
		int			op = gr_kind_gpu_op(outs[o].op, outs[o].type, outs[o].k);
		int			type = gr_type_info(outs[o].type)->storage;

		if (op != GR_PAGE_OP_SUM && op != GR_PAGE_OP_MIN && op != GR_PAGE_OP_MAX)
		{
			*why = psprintf("GROUP BY with %s: the GPU folds sums, averages, min, max and counts per group",
							gr_kind(outs[o].op)->name);
			return -1;
		}
		if (job != NULL)
			job->outs[o].word = w;
		w = add_words(job, w, gr_page_group_out_words(op, type),
					  op == GR_PAGE_OP_MIN ? GR_PG_OP_MIN_S :
					  op == GR_PAGE_OP_MAX ? GR_PG_OP_MAX_S : GR_PG_OP_ADD);
	}
	if (w > GR_PAGE_MAX_GWORDS)
	{
		*why = "GROUP BY with too many aggregates for a group's words";
		return -1;
	}
	return w;
}

/*
 * Groups a job of this layout holds: as many as its slot has room for after
 * the rest of the job (bytes_all of it), at most GR_PAGE_MAX_GROUPS.
 */
static int
slot_groups(Size bytes_all, int entry_words)
{
	Size		slot = (Size) gr_slot_size_kb * 1024;
	Size		room = slot > bytes_all ? slot - bytes_all : 0;

	return (int) Min((Size) GR_PAGE_MAX_GROUPS, room / (sizeof(uint64) * entry_words));
}

/* The same, within gpu_reduce.debug_job_groups: what a job holds. */
static int
group_cap(Size bytes_all, int entry_words)
{
	int			cap = slot_groups(bytes_all, entry_words);

	return gr_debug_job_groups > 0 ? Min(cap, gr_debug_job_groups) : cap;
}

/* the fewest groups worth a grouping job */
#define GR_PAGE_MIN_GROUPS 64
/* the fewest groups a scan's table is made for */
#define GR_PAGE_MIN_SCAN_GROUPS 65536

/*
 * How a grouping scan's jobs group (job_bytes's 'grouped'): into the
 * scan's table (-1) when every key is a word the host turns back into its
 * value (GrPageGroupSpec.by_words) and a job that lists all its rows
 * still fits its slot with room to collect GR_PAGE_MIN_GROUPS groups;
 * else into a table of each job's own (1).  0: not grouped.
 */
static int
grouping_of(const GrDecodeDesc *d, const GrExprProg *prog, const GrPageJoinSpec *join,
			const GrPageOutSpec *outs, int nouts, const GrPageGroupSpec *grp, int pages,
			int entry_words)
{
	Size		prefix;
	Size		in;

	if (grp == NULL || grp->nkeys == 0)
		return 0;
	if (!grp->by_words)
		return 1;
	return slot_groups(job_bytes(d, prog, join, outs, nouts, -1, false, pages, &prefix, &in),
					   entry_words) >=
		GR_PAGE_MIN_GROUPS ? -1 : 1;
}

/*
 * The most groups a scan's table may grow to as its groups come (a GPU's
 * before a job that could find it full: gr_cuda.cu; the host's as it
 * goes): what gpu_reduce.group_table_memory holds, or
 * gpu_reduce.debug_job_groups.  Past that, rows of new groups go to the
 * CPU (Jobs Over Group Room).
 */
static uint32
scan_max(int entry_words)
{
	double		room = (double) gr_group_table_memory * 1024.0 * 1024.0 /
		(sizeof(uint64) * entry_words + 2 * sizeof(uint32));

	room = Min(room, (double) GR_PAGE_MAX_SCAN_GROUPS);
	if (gr_debug_job_groups > 0)
		room = Min(room, (double) gr_debug_job_groups);
	return (uint32) Max(room, 1.0);
}

/*
 * Groups of a scan's table: four times the planner's estimate, and where
 * the estimate is large, up to 64 times it as far as the table has rows
 * (PostgreSQL's estimate of a column's distinct values from its sample
 * falls further short of a key nearly unique the larger the table: TPC-H's
 * l_orderkey, 374 634 for 1.5 M at SF1, about 405 000 for 7.5 M at SF5,
 * where sixteen times it left 65 jobs without room, their rows to the CPU,
 * and the scan in ten passes past gpu_reduce.group_memory), at least
 * GR_PAGE_MIN_SCAN_GROUPS (or gpu_reduce.debug_scan_groups, which tests
 * set small), within scan_max.  A GPU's table takes its room when made (its
 * slots cleared, not its entries) and grows, where a job could find it
 * full, as far as scan_max; the host's grows as its groups come
 * (grow_cpu_slots).
 */
static uint32
scan_cap(const GrPageGroupSpec *grp, int entry_words)
{
	double		want = Max(4.0 * grp->groups, (double) GR_PAGE_MIN_SCAN_GROUPS);

	if (grp->groups >= GR_PAGE_MIN_SCAN_GROUPS / 4)
		want = Max(want, Min(64.0 * grp->groups, grp->rows));
	if (gr_debug_scan_groups > 0)
		want = gr_debug_scan_groups;
	return (uint32) Max(Min(want, (double) scan_max(entry_words)), 1.0);
}

/*
 * Why the page path cannot take this scan in the given mode, or NULL when it
 * can.  The caller has checked the relation (shared buffers, heap) and the
 * aggregates over the program's outputs.
 */
const char *
gr_page_path_unavailable(GrPagePathMode mode, const GrDecodeDesc *d,
						 const GrExprProg *prog, const GrPageOutSpec *outs, int nouts,
						 const GrPageGroupSpec *grp, const GrPageJoinSpec *join)
{
	Size		prefix;
	Size		in;
	Size		all;
	int			pages = Min(GR_PAGE_JOB_MAX_PAGES, pin_budget() / GR_PAGE_JOBS);
	bool		grouped = grp != NULL && grp->nkeys > 0;
	int			ncols = job_ncols(d, prog, join);
	int			grouping = 0;
	int			ew = 0;

	if (mode == GR_PAGE_PATH_OFF)
		return "gpu_reduce.page_path is off";
	if (!gr_enabled && mode == GR_PAGE_PATH_ON)
		return "gpu_reduce.enabled is off";
	if (BLCKSZ != GR_PAGE_SIZE)
		return "the block size is not 8 kB";
	if (ncols > (grouped ? GR_PAGE_MAX_COLS : GR_PAGE_STORE_COLS))
		return prog != NULL ? "too many columns and computed values" : "too many columns";
	if (nouts > GR_PAGE_MAX_OUTS)
		return "too many aggregates";
	if (pages < 1)
		return "gpu_reduce.page_pins or shared_buffers is too small";
	for (int o = 0; o < nouts; o++)
		if (gr_type_info(outs[o].type)->storage == GR_STORAGE_DATUM)
			return "a numeric aggregate (the kernel decodes fixed-width columns only)";
	if (grouped)
	{
		const char *why = NULL;
		int			gwords;

		if (grp->nkeys > GR_PAGE_MAX_KEYS)
			return "GROUP BY with more than 8 keys";
		for (int k = 0; k < grp->nkeys; k++)
			if (grp->keykind[k] == GR_KEY_NUMERIC && grp->keyrel[k] == 0)
				return "GROUP BY a numeric column: the GPU groups by fixed-width and short text keys and hashed relations' values";
		if ((gwords = layout_group_words(NULL, outs, nouts, grp, ncols, &why)) < 0)
			return why;
		ew = gr_page_group_words(grp->nkeys, gwords);
		grouping = grouping_of(d, prog, join, outs, nouts, grp, Max(pages, 1), ew);
	}
	all = job_bytes(d, prog, join, outs, nouts, grouping, false, Max(pages, 1), &prefix, &in);
	if (grouped && group_cap(all, ew) < Min(GR_PAGE_MIN_GROUPS, Max(gr_debug_job_groups, 1)))
		return "GROUP BY with too many aggregates for a job's slot (gpu_reduce.slot_size)";
	if (mode == GR_PAGE_PATH_CPU)
		return NULL;
	if (gr_gpu_pages_unavailable() != NULL)
		return gr_gpu_pages_unavailable();
	if (join != NULL && join->key == 0)
		return "the hashed relations are not on the GPU";
	if (pages < GR_PAGE_MIN_JOB_PAGES)
		return "gpu_reduce.page_pins or shared_buffers is too small";
	/* the program reads a varlena (numeric, text): a default's copy is in this process only */
	for (int c = 0; prog != NULL && c < d->ncols; c++)
		if (d->att[d->col_attno[c]].len == -1 && d->att[d->col_attno[c]].has_missing)
			return "a variable-length column added with a default (older rows' value is in backend memory)";
	for (int o = 0; o < nouts; o++)
		if (gr_kind_gpu_op(outs[o].op, outs[o].type, outs[o].k) < 0)
			return "an aggregate the GPU cannot reduce";
	if (all > (Size) gr_shared->slot_bytes)
		return "a job does not fit in a slot (gpu_reduce.slot_size)";
	return NULL;
}

/* Release a job's pin of BUF, as it was kept. */
static inline void
release_pin(GrPagePath *pp, Buffer buf)
{
	if (pp->held_pins)
		gr_pin_drop(buf);
	else
		ReleaseBuffer(buf);
}

/*
 * Drop the held pins of the jobs in flight, on abort or at a transaction's
 * end (the buffer manager's are the resource owner's to release then);
 * false when there were none.
 */
static bool
drop_pins(GrPagePath *pp)
{
	bool		any = false;

	for (int j = 0; j < pp->njobs; j++)
	{
		PageJobRef *ref = &pp->jobs[(pp->first + j) % GR_PAGE_JOBS];

		if (pp->held_pins)
			for (int i = 0; i < ref->npages; i++)
				gr_pin_drop(ref->bufs[i]);
		any |= ref->npages > 0;
		ref->npages = 0;
	}
	return any;
}

/* On abort (or any reset): give back the slots and the pins of the jobs in flight. */
static void
page_path_reset(void *arg)
{
	GrPagePath *pp = arg;

	for (int j = 0; j < pp->njobs; j++)
	{
		PageJobRef *ref = &pp->jobs[(pp->first + j) % GR_PAGE_JOBS];

		if (ref->slot >= 0)
			gr_gpu_end_job_slot(ref->slot, true);
		ref->slot = -1;
	}
	drop_pins(pp);
	pp->njobs = 0;
	if (pp->collect_slot >= 0)
		gr_gpu_end_job_slot(pp->collect_slot, true);
	pp->collect_slot = -1;
	dlist_delete(&pp->live);
}

/*
 * A subtransaction's abort drops the pins of the page paths begun in it or
 * in its children, as its resource owner drops its pins, even where their
 * memory outlives it.
 */
static void
page_path_subxact(SubXactEvent event, SubTransactionId mySubid,
				  SubTransactionId parentSubid, void *arg)
{
	dlist_iter	it;

	if (event != SUBXACT_EVENT_ABORT_SUB)
		return;
	dlist_foreach(it, &live_paths)
	{
		GrPagePath *pp = dlist_container(GrPagePath, live, it.cur);

		if (pp->subid >= mySubid)
			drop_pins(pp);
	}
}

/*
 * A transaction's end drops any pins left: on abort those of the failed
 * scans whose memory goes later; on commit none should be left, as every
 * scan finishes its jobs, so one is a bug, said as a WARNING.
 */
static void
page_path_xact(XactEvent event, void *arg)
{
	dlist_iter	it;
	bool		commit;

	switch (event)
	{
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_PREPARE:
			commit = true;
			break;
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
			commit = false;
			break;
		default:
			return;
	}
	dlist_foreach(it, &live_paths)
	{
		GrPagePath *pp = dlist_container(GrPagePath, live, it.cur);

		if (drop_pins(pp) && commit)
			elog(WARNING, "gpu_reduce: a page path's pins were left at the end of the transaction");
	}
	if (gr_pins_held() != 0)
		elog(WARNING, "gpu_reduce: " INT64_FORMAT " held pins without a page path at the end of the transaction",
			 gr_pins_held());
}

StaticAssertDecl(GR_PAGE_SPEC_JOINS == GR_PAGE_MAX_JOINS &&
				 GR_PAGE_SPEC_JOIN_KEYS == GR_PAGE_JOIN_KEYS, "a join's relations and keys");

/*
 * Give every job a join's relations and joined-row program (after the
 * table's, which a job with a join has); each relation's image is named by
 * the join's key on a GPU, which the service resolves, and by its address
 * here in cpu mode.
 */
static void
set_join(GrPageJob *job, const GrPageJoinSpec *join, GrPagePathMode mode)
{
	Assert(job->prog_off != 0 && join->njoins <= GR_PAGE_MAX_JOINS);
	job->njoins = join->njoins;
	job->jbase = join->jbase;
	job->join_key = join->key;
	for (int j = 0; j < join->njoins; j++)
	{
		const GrPageJoinRel *r = &join->rels[j];
		GrPageJoin *pj = &job->joins[j];

		pj->image = mode == GR_PAGE_PATH_CPU ? (uint64) (uintptr_t) r->image : 0;
		pj->marks = mode == GR_PAGE_PATH_CPU ? (uint64) (uintptr_t) r->marks : 0;
		pj->type = r->type;
		pj->nkeys = r->nkeys;
		pj->valpos = r->valpos;
		pj->nvals = r->nvals;
		pj->varmask = r->varmask;
		for (int k = 0; k < r->nkeys; k++)
		{
			pj->keycol[k] = r->keycol[k];
			pj->keywidth[k] = r->keywidth[k];
		}
	}
	if (join->jprog != NULL)
	{
		job->jprog_off = job->prog_off + GR_PAGE_ALIGN(sizeof(GrExprProg));
		memcpy(gr_page_job_jprog(job), join->jprog, sizeof(GrExprProg));
	}
}

/*
 * Start a page path (list: of list jobs, GR_PAGE_JOB_LIST), as
 * gr_page_path_begin and gr_page_path_begin_list say.
 */
static GrPagePath *
begin_path(MemoryContext cxt, GrPagePathMode mode, const GrDecodeDesc *d,
		   const GrQual *quals, int nquals, const GrExprProg *prog,
		   const GrPageOutSpec *outs, int nouts, const GrPageGroupSpec *grp,
		   const GrPageJoinSpec *join, const GrPageCallbacks *cb, bool list,
		   uint32 store)
{
	GrPagePath *pp = MemoryContextAllocZero(cxt, sizeof(GrPagePath));
	GrPageJob  *job;
	Size		bytes_in;
	int			grouping = 0;
	int			ncols = job_ncols(d, prog, join);
	int			nstored = pg_popcount32(store);

	pp->mode = mode;
	pp->list = list;
	pp->grouped = grp != NULL && grp->nkeys > 0;
	pp->job_pages = Min(GR_PAGE_JOB_MAX_PAGES, pin_budget() / GR_PAGE_JOBS);
	if (pp->grouped)
	{
		const char *why = NULL;
		int			gwords = layout_group_words(NULL, outs, nouts, grp, ncols, &why);

		if (gwords < 0)
			elog(ERROR, "gpu_reduce: a grouping job the page path refused: %s", why);
		grouping = grouping_of(d, prog, join, outs, nouts, grp, pp->job_pages,
							   gr_page_group_words(grp->nkeys, gwords));
	}
	pp->scan = grouping < 0;
	if (list)
	{
		/* every tuple of its pages may be listed: as many pages as fit a slot with them */
		Size		room = mode == GR_PAGE_PATH_ON ? (Size) gr_shared->slot_bytes :
			(Size) gr_slot_size_kb * 1024;
		Size		prefix = job_bytes(d, prog, join, outs, nouts, 0, true, 0,
									   &pp->prefix_bytes, &bytes_in);
		Size		page = GR_PAGE_ALIGN(sizeof(GrPageEntry) + sizeof(GrPageFallback) * GR_PAGE_MAX_TUPLES) +
			gr_page_values_bytes(nstored, GR_PAGE_MAX_TUPLES);

		pp->job_pages = Min(pp->job_pages, (int) ((room - Min(room, prefix + 64)) / page));
		if (pp->job_pages < 1)
			elog(ERROR, "gpu_reduce: a list job's page does not fit a slot (gpu_reduce.slot_size)");
	}
	pp->bytes_all = job_bytes(d, prog, join, outs, nouts, grouping, list, pp->job_pages,
							  &pp->prefix_bytes, &bytes_in);
	pp->cb = *cb;

	/* the part every job starts with */
	pp->prefix = MemoryContextAllocZero(cxt, pp->prefix_bytes);
	job = (GrPageJob *) pp->prefix;
	job->desc_off = GR_PAGE_ALIGN(sizeof(GrPageJob));
	job->entries_off = pp->prefix_bytes;
	job->ncols = ncols;
	job->nquals = nquals;
	job->nouts = nouts;
	job->flags = gr_debug_page_read_only && mode == GR_PAGE_PATH_ON ? GR_PAGE_JOB_READ_ONLY : 0;
	if (list)
		job->flags = GR_PAGE_JOB_LIST;
	memcpy(job->quals, quals, sizeof(GrQual) * nquals);
	memcpy(gr_page_job_desc(job), d, GR_DECODE_DESC_SIZE(d->natts));
	if (prog != NULL)
	{
		job->prog_off = job->desc_off + GR_PAGE_ALIGN(GR_DECODE_DESC_SIZE(d->natts));
		memcpy(gr_page_job_prog(job), prog, sizeof(GrExprProg));
	}
	if (join != NULL)
		set_join(job, join, mode);
	if (prog != NULL || pp->grouped)
	{
		/* the list sits after the entries of the largest job */
		job->fallback_off = bytes_in;
		job->fallback_cap = fallback_rows(prog, grouping, list, pp->job_pages);
		bytes_in += GR_PAGE_ALIGN(sizeof(GrPageFallback) * job->fallback_cap);
	}
	if (!pp->grouped)
		(void) layout_results(job, outs, nouts, bytes_in);
	for (int o = 0; o < nouts; o++)
	{
		GrPageOut  *out = &job->outs[o];

		out->col = outs[o].col;
		out->op = gr_kind_gpu_op(outs[o].op, outs[o].type, outs[o].k);
		out->type = gr_type_info(outs[o].type)->storage;	/* the kernels' type */
		out->k = outs[o].k;
	}
	/* only the aggregated columns' values are stored; every column is counted */
	for (int o = 0; o < nouts && !pp->grouped; o++)
		job->col_width[outs[o].col] = gr_type_size(outs[o].type);
	if (pp->grouped)
	{
		/* rows fold into groups: no column is stored, each group comes back after the list */
		const char *why = NULL;
		int			gwords = layout_group_words(job, outs, nouts, grp, job->ncols, &why);
		int			ew;

		if (gwords < 0)
			elog(ERROR, "gpu_reduce: a grouping job the page path refused: %s", why);
		job->ngkeys = grp->nkeys;
		job->gwords = gwords;
		for (int k = 0; k < grp->nkeys; k++)
		{
			job->gkey_col[k] = grp->keycol[k];
			job->gkey_kind[k] = grp->keykind[k];
			job->gkey_rel[k] = grp->keyrel[k];
		}
		ew = gr_page_group_entry_words(job);
		job->group_off = pp->bytes_all;
		job->group_cap = group_cap(pp->bytes_all, ew);
		pp->bytes_all += GR_PAGE_ALIGN(sizeof(uint64) * ew * (Size) job->group_cap);
		if (pp->scan)
		{
			/* this process's pid, and a number no scan of it had before */
			static uint32 scans = 0;

			job->scan_id = (uint64) (uint32) MyProcPid << 32 | ++scans;
			job->scan_cap = scan_cap(grp, ew);
			job->scan_max = scan_max(ew);
		}
		if (mode == GR_PAGE_PATH_CPU)
		{
			/*
			 * the host's table: the job's own, or (the scan's) made with the
			 * first job, its slots for the planner's groups to begin with
			 */
			uint32		cap = pp->scan ? Min(job->scan_cap, Max(4.0 * grp->groups, 1024.0)) :
				job->group_cap;

			pp->cpu_nslots = 1;
			while (pp->cpu_nslots < 2 * (int64) cap)
				pp->cpu_nslots *= 2;
			pp->cpu_slots = MemoryContextAllocHuge(cxt, sizeof(int32) * pp->cpu_nslots);
			if (pp->scan)
			{
				/* its entries grow as groups come (run_job_here) */
				pp->cpu_room = Min(cap, 1024);
				pp->cpu_ents = MemoryContextAllocHuge(cxt, sizeof(uint64) * ew * pp->cpu_room);
				memset(pp->cpu_slots, -1, sizeof(int32) * pp->cpu_nslots);
			}
		}
	}
	else
		for (int c = 0; c < GR_PAGE_MAX_COLS; c++)
			job->col_word[c] = -1;
	if (list && store != 0)
	{
		/* a values job: the stored columns' values come back after the rest */
		Assert(ncols < 32 && (store >> ncols) == 0);
		job->flags |= GR_PAGE_JOB_VALUES;
		for (int c = 0; c < ncols; c++)
			job->col_width[c] = (store >> c) & 1 ? 8 : 0;
		job->values_off = pp->bytes_all;
		job->values_cap = pp->job_pages * GR_PAGE_MAX_TUPLES;
		pp->bytes_all += gr_page_values_bytes(nstored, job->values_cap);
	}

	for (int j = 0; j < GR_PAGE_JOBS; j++)
	{
		pp->jobs[j].slot = -1;
		pp->jobs[j].bufs = MemoryContextAlloc(cxt, sizeof(Buffer) * pp->job_pages);
		if (mode == GR_PAGE_PATH_CPU)
			pp->jobs[j].job = MemoryContextAlloc(cxt, pp->bytes_all);
	}
	pp->collect_slot = -1;
	pp->held_pins = !gr_debug_buffer_manager_pins;
	pp->subid = GetCurrentSubTransactionId();
	if (!callbacks_registered)
	{
		RegisterXactCallback(page_path_xact, NULL);
		RegisterSubXactCallback(page_path_subxact, NULL);
		callbacks_registered = true;
	}
	/* in the list before the reset callback, which takes it out */
	dlist_push_tail(&live_paths, &pp->live);
	pp->reset_cb.func = page_path_reset;
	pp->reset_cb.arg = pp;
	MemoryContextRegisterResetCallback(cxt, &pp->reset_cb);
	return pp;
}

/*
 * Start the page path of one table's scan: decoder description, bound WHERE
 * comparisons, the expression program (or NULL) with its constants bound,
 * and outputs, as gr_page_path_unavailable accepted them.  An output's
 * column is a decoded one or (ncols + o) the program's output o.
 */
GrPagePath *
gr_page_path_begin(MemoryContext cxt, GrPagePathMode mode, const GrDecodeDesc *d,
				   const GrQual *quals, int nquals, const GrExprProg *prog,
				   const GrPageOutSpec *outs, int nouts, const GrPageGroupSpec *grp,
				   const GrPageJoinSpec *join, const GrPageCallbacks *cb)
{
	return begin_path(cxt, mode, d, quals, nquals, prog, outs, nouts, grp, join, cb, false, 0);
}

/*
 * Start a page path of list jobs over a hashed relation's pages (its
 * decoder, bound comparisons and program, which a list job must have: an
 * empty one where the relation has none), as gr_page_path_unavailable
 * accepted them with no output: each job lists the rows the WHERE may keep
 * (GR_PAGE_JOB_LIST), and cb's gpu_job decodes only those, each again.
 * With store (a bit per job column: decoded, then the program's outputs;
 * none of them a varlena, whose value is its address in the page), the
 * jobs are values jobs (GR_PAGE_JOB_VALUES): a row the WHERE keeps is not
 * listed, its stored columns come back in the job, and only the rows the
 * program hands back are listed.  With semi (or NULL), the rows must also
 * match each of its relations (GR_PAGE_JOIN_SEMI; its columns the jobs',
 * no joined-row program), and the jobs count those they leave out.  In
 * cpu mode the host runs the jobs as the kernel does (list_job_here).
 */
GrPagePath *
gr_page_path_begin_list(MemoryContext cxt, GrPagePathMode mode, const GrDecodeDesc *d,
						const GrQual *quals, int nquals, const GrExprProg *prog,
						uint32 store, const GrPageJoinSpec *semi, const GrPageCallbacks *cb)
{
	GrPageGroupSpec none = {0};

	Assert(prog != NULL);
	Assert(semi == NULL || semi->jprog == NULL);
	return begin_path(cxt, mode, d, quals, nquals, prog, NULL, 0, &none, semi, cb, true, store);
}

/* Decode one pinned page on the CPU: its visible line pointers, in order. */
static void
cpu_page(GrPagePath *pp, Buffer buf, const GrPageEntry *e)
{
	OffsetNumber offs[MaxHeapTuplesPerPage];
	int			n = gr_page_entry_offsets(e, (const uint8 *) BufferGetPage(buf), offs);

	pp->cb.cpu_page(pp->cb.arg, buf, offs, n);
}

/* List a row for the scan to decode again; the count goes on past the list. */
static void
hand_back(GrPageJob *job, int p, int off)
{
	uint64		i = job->counts[GR_PAGE_COUNT_FALLBACK(job->ncols)]++;

	if (i < job->fallback_cap)
	{
		gr_page_job_fallbacks(job)[i].page = (uint16) p;
		gr_page_job_fallbacks(job)[i].off = (uint16) off;
	}
}

/* The scan's host table (cpu mode): twice the slots, each group's found again by its key's hash. */
static void
grow_cpu_slots(GrPagePath *pp, int ew, int nk)
{
	int			nslots = pp->cpu_nslots * 2;
	uint32		mask = (uint32) nslots - 1;
	int32	   *slots = MemoryContextAllocHuge(GetMemoryChunkContext(pp->cpu_slots),
											   sizeof(int32) * (Size) nslots);

	memset(slots, -1, sizeof(int32) * (Size) nslots);
	for (uint64 g = 0; g < pp->cpu_ngroups; g++)
	{
		uint32		i;

		for (i = (uint32) gr_page_group_hash(pp->cpu_ents + g * ew, nk) & mask; slots[i] >= 0;
			 i = (i + 1) & mask)
			;
		slots[i] = (int32) g;
	}
	pfree(pp->cpu_slots);
	pp->cpu_slots = slots;
	pp->cpu_nslots = nslots;
}

/* A walk over the visible tuples of a job's pages (cpu mode): where it is, page and line pointer. */
typedef struct JobWalk
{
	PageJobRef *ref;
	int			p;
	int			off;
} JobWalk;

/*
 * The next visible tuple of the walk's job, decoded into vals, nulls and
 * counted as visible; its place in walk->p, walk->off.  1: one; 0: after
 * the last; -1: a tuple that did not decode (the scan decodes the pages
 * again and reports it).
 */
static int
next_job_tuple(JobWalk *walk, uint64 *vals, bool *nulls)
{
	GrPageJob  *job = walk->ref->job;
	const GrDecodeDesc *d = gr_page_job_desc(job);

	for (; walk->p < walk->ref->npages; walk->p++, walk->off = 0)
	{
		const GrPageEntry *e = &gr_page_job_entries(job)[walk->p];
		const uint8 *page = (const uint8 *) BufferGetPage(walk->ref->bufs[walk->p]);

		while (++walk->off <= e->nlp)
		{
			uint32		len;

			if (!gr_page_visible(e, page, walk->off))
				continue;
			job->counts[GR_PAGE_COUNT_VIS(job->ncols)]++;
			len = gr_page_tuple_len(page, walk->off, BLCKSZ);
			if (len == 0 || !gr_decode_tuple(d, gr_page_tuple(page, walk->off), len, vals, nulls))
				return -1;
			return 1;
		}
	}
	return 0;
}

/*
 * Run a grouping job here, as the kernel runs it (cpu mode): decode each
 * visible tuple of its pages, apply the comparisons and the program (and a
 * join's probes and joined-row program), find
 * the row's group in a table of the job's own and fold the row into it
 * (page_group.h), so that the scan folds the job's groups as it folds a
 * GPU's.  False when a tuple did not decode: the scan decodes the pages
 * again and reports it.
 */
static bool
run_job_here(GrPagePath *pp, PageJobRef *ref)
{
	GrPageJob  *job = ref->job;
	const GrDecodeDesc *d = gr_page_job_desc(job);
	const GrExprProg *prog = gr_page_job_prog(job);
	const GrExprProg *jprog = gr_page_job_jprog(job);
	uint64	   *ents = pp->scan ? pp->cpu_ents : (uint64 *) ((char *) job + job->group_off);
	uint64	   *counts = job->counts;
	uint64	   *ngroups = pp->scan ? &pp->cpu_ngroups : &counts[GR_PAGE_COUNT_GROUPS(job->ncols)];
	uint32		cap = pp->scan ? job->scan_max : job->group_cap;
	int			ncols = job->ncols;
	int			nk = job->ngkeys;
	int			ew = gr_page_group_entry_words(job);
	uint32		mask = (uint32) pp->cpu_nslots - 1;
	JobWalk		walk = {ref, 0, 0};
	uint64		vals[GR_DECODE_MAX_COLS];
	bool		nulls[GR_DECODE_MAX_COLS];
	int			r;

	/* a job's own table starts empty; the scan's goes on */
	if (!pp->scan)
		memset(pp->cpu_slots, -1, sizeof(int32) * pp->cpu_nslots);
	memset(counts, 0, sizeof(job->counts));
	while ((r = next_job_tuple(&walk, vals, nulls)) > 0)
	{
		int			p = walk.p;
		int			off = walk.off;
		uint64		key[1 + GR_PAGE_MAX_KEYS];
		uint32		i;
		int32		g;

		if (job->nquals > 0 && !gr_quals_pass(job->quals, job->nquals, vals, nulls))
			continue;
		if (prog != NULL)
		{
			GrExprResult res = gr_expr_eval(prog, vals, nulls, vals + d->ncols,
											nulls + d->ncols, NULL);

			if (res == GR_EXPR_REJECT)
				continue;
			if (res == GR_EXPR_FALLBACK)
			{
				hand_back(job, p, off);
				continue;
			}
		}
		if (job->njoins > 0)
		{
			uint32		went = 0;
			GrExprResult res = gr_page_join_row(job, jprog, vals, nulls, &went);

			if (res == GR_EXPR_FALLBACK)
			{
				hand_back(job, p, off);
				continue;
			}
			for (int j = 0; j < job->njoins; j++)
				counts[GR_PAGE_COUNT_MATCHES(ncols, j)] += (went >> j) & 1;
			if (res == GR_EXPR_REJECT)
				continue;
		}
		if (!gr_page_group_key(job, vals, nulls, key))
		{
			hand_back(job, p, off);
			continue;
		}
		if (pp->scan && 2 * (*ngroups + 1) > (uint64) pp->cpu_nslots)
		{
			/* the scan's table past half its slots: twice the slots */
			grow_cpu_slots(pp, ew, nk);
			mask = (uint32) pp->cpu_nslots - 1;
		}
		for (i = (uint32) gr_page_group_hash(key, nk) & mask;; i = (i + 1) & mask)
		{
			g = pp->cpu_slots[i];
			if (g < 0 || memcmp(ents + (Size) g * ew, key, sizeof(uint64) * (nk + 1)) == 0)
				break;
		}
		if (g < 0 && *ngroups >= cap)
		{
			/* no room: the scan decodes the job's pages itself, or (its table) the row */
			counts[GR_PAGE_COUNT_GFULL(ncols)]++;
			if (!pp->scan)
				return true;
			hand_back(job, p, off);
			continue;
		}
		if (g < 0)
		{
			uint64	   *ne;

			g = (int32) (*ngroups)++;
			if (pp->scan && (Size) g >= pp->cpu_room)
			{
				pp->cpu_room = Min(2 * pp->cpu_room, (Size) cap);
				ents = pp->cpu_ents = repalloc_huge(pp->cpu_ents,
													sizeof(uint64) * ew * pp->cpu_room);
			}
			pp->cpu_slots[i] = g;
			ne = ents + (Size) g * ew;
			memcpy(ne, key, sizeof(uint64) * (nk + 1));
			for (int w = 0; w < job->gwords; w++)
				ne[1 + nk + w] = gr_page_group_identity(job->gword_op[w]);
		}
		gr_page_group_fold(job, ents + (Size) g * ew + 1 + nk, vals, nulls,
						   (uint64) p << 16 | (uint64) off);
		counts[GR_PAGE_COUNT_ROWS(ncols)]++;
		for (int c = 0; c < ncols; c++)
			counts[c] += !nulls[c];
	}
	return r == 0;
}

/*
 * Run a list job here, as the kernel runs it (cpu mode): list each visible
 * tuple of its pages that passes the comparisons, the program and the
 * semi joins, or that the program hands back; a values job keeps the first
 * instead, storing its columns.  False when a tuple did not decode: the
 * scan decodes the pages again and reports it.
 */
static bool
list_job_here(PageJobRef *ref)
{
	GrPageJob  *job = ref->job;
	const GrDecodeDesc *d = gr_page_job_desc(job);
	const GrExprProg *prog = gr_page_job_prog(job);
	JobWalk		walk = {ref, 0, 0};
	uint64		vals[GR_DECODE_MAX_COLS];
	bool		nulls[GR_DECODE_MAX_COLS];
	uint64	   *kept[GR_PAGE_MAX_COLS];		/* a values job's stored columns */
	uint8	   *kept_nulls[GR_PAGE_MAX_COLS];
	int			r;

	memset(job->counts, 0, sizeof(job->counts));
	if (job->flags & GR_PAGE_JOB_VALUES)
		gr_page_job_value_columns(job, kept, kept_nulls);
	while ((r = next_job_tuple(&walk, vals, nulls)) > 0)
	{
		GrExprResult res;

		if (job->nquals > 0 && !gr_quals_pass(job->quals, job->nquals, vals, nulls))
			continue;
		res = gr_expr_eval(prog, vals, nulls, vals + d->ncols, nulls + d->ncols, NULL);
		if (res == GR_EXPR_REJECT)
			continue;
		if (res == GR_EXPR_PASS && job->njoins > 0)
		{
			uint32		went = 0;

			/* the semi joins (a list job's only join) */
			res = gr_page_join_row(job, gr_page_job_jprog(job), vals, nulls, &went);
			for (int j = 0; j < job->njoins; j++)
				job->counts[GR_PAGE_COUNT_MATCHES(job->ncols, j)] += (went >> j) & 1;
			if (res == GR_EXPR_REJECT)
			{
				job->counts[GR_PAGE_COUNT_DROPPED(job->ncols)]++;
				continue;
			}
		}
		if (res == GR_EXPR_PASS && (job->flags & GR_PAGE_JOB_VALUES))
		{
			/* kept: its stored columns, as the kernel stores them */
			uint64		row = job->counts[GR_PAGE_COUNT_ROWS(job->ncols)]++;

			for (int c = 0; c < job->ncols; c++)
			{
				if (kept[c] != NULL)
				{
					kept[c][row] = nulls[c] ? 0 : vals[c];
					kept_nulls[c][row] = nulls[c];
				}
				job->counts[c] += !nulls[c];
			}
			continue;
		}
		hand_back(job, walk.p, walk.off);
	}
	return r == 0;
}

/* Finish the oldest job: fold what the GPU found, or decode it here. */
static void
complete_oldest(GrPagePath *pp)
{
	PageJobRef *ref = &pp->jobs[pp->first];
	GrPageEntry *entries = gr_page_job_entries(ref->job);
	const char *error = NULL;
	bool		done = false;
	bool		here = false;

	if (ref->slot >= 0)
	{
		instr_time	start,
					end;

		INSTR_TIME_SET_CURRENT(start);
		done = gr_gpu_wait_job_slot(ref->slot, &error);
		INSTR_TIME_SET_CURRENT(end);
		INSTR_TIME_ACCUM_DIFF(pp->waited, end, start);
	}
	else if (pp->mode == GR_PAGE_PATH_CPU && pp->list)
		done = here = list_job_here(ref);
	else if (pp->mode == GR_PAGE_PATH_CPU && pp->grouped)
		done = here = run_job_here(pp, ref);
	if (done && !here && pp->scan)
		pp->devices |= UINT64CONST(1) << gr_gpu_job_slot_device(ref->slot);
	/*
	 * a grouping job that had no room for its groups brings nothing back:
	 * decode here; one that folds into the scan's table handed back the rows
	 * that found none, and the table is full: later pages go to the CPU
	 */
	if (done && pp->grouped && ref->job->counts[GR_PAGE_COUNT_GFULL(ref->job->ncols)] > 0)
	{
		pp->overflowed++;
		if (pp->scan)
			pp->table_full = true;
		else
			done = false;
	}
	/* the scan may refuse the results (too many rows for PostgreSQL): decode here */
	if (done && pp->cb.gpu_job(pp->cb.arg, ref->job))
	{
		if (here)
			pp->cpu_job_pages += ref->npages;
		else
			pp->gpu_pages += ref->npages;
	}
	else
	{
		for (int i = 0; i < ref->npages; i++)
			cpu_page(pp, ref->bufs[i], &entries[i]);
	}
	for (int i = 0; i < ref->npages; i++)
		release_pin(pp, ref->bufs[i]);
	ref->npages = 0;
	if (ref->slot >= 0)
		gr_gpu_end_job_slot(ref->slot, false);
	ref->slot = -1;
	pp->first = (pp->first + 1) % GR_PAGE_JOBS;
	pp->njobs--;
}

/* Hand the open job over: to the GPU, or (cpu mode) to be decoded when due. */
static void
close_job(GrPagePath *pp)
{
	PageJobRef *ref = &pp->jobs[(pp->first + pp->njobs - 1) % GR_PAGE_JOBS];
	GrPageJob  *job = ref->job;

	pp->open = false;
	job->npages = ref->npages;
	job->bytes_in = job->entries_off + GR_PAGE_ALIGN(sizeof(GrPageEntry) * (Size) ref->npages);
	job->bytes_all = pp->bytes_all;
	if (ref->slot >= 0)
		gr_gpu_submit_job_slot(ref->slot, ref->npages, -1);
}

/* Open a new job, making room first; false when no slot is free for it. */
static bool
open_job(GrPagePath *pp)
{
	PageJobRef *ref;
	int			slot = -1;

	if (pp->njobs == GR_PAGE_JOBS)
		complete_oldest(pp);
	if (pp->mode == GR_PAGE_PATH_ON)
	{
		if (pp->scan && pp->collect_slot < 0 &&
			(pp->collect_slot = gr_gpu_take_job_slot()) < 0)
			return false;
		slot = gr_gpu_take_job_slot();
		if (slot < 0)
			return false;
	}
	ref = &pp->jobs[(pp->first + pp->njobs) % GR_PAGE_JOBS];
	ref->slot = slot;
	if (slot >= 0)
		ref->job = (GrPageJob *) gr_slot_values(slot);
	ref->npages = 0;
	memcpy(ref->job, pp->prefix, pp->prefix_bytes);
	pp->njobs++;
	pp->open = true;
	return true;
}

/*
 * Take over one page: its pinned buffer (the pin is the page path's now, held
 * in the buffer's header alone: held_pins.c) and
 * its visible line pointers, 'n' of them in increasing order; or, with vis
 * NULL, every normal line pointer up to n (an all-visible page whose unused
 * line pointers are not reused while it is pinned: gr_page_path_all_normal).
 */
void
gr_page_path_add(GrPagePath *pp, Buffer buf, const OffsetNumber *vis, int n)
{
	PageJobRef *ref;
	GrPageEntry *e;
	GrPageEntry local;

	Assert(n > 0 && !BufferIsLocal(buf));
	/*
	 * Grouping jobs that keep meeting more groups than they hold are each
	 * decoded by the CPU after the round trip: past GR_PAGE_MAX_OVERFLOWS
	 * of them, the scan's later pages go to the CPU at once, once the jobs
	 * before them are done (so groups still meet their rows in page order)
	 */
	if (pp->overflowed >= GR_PAGE_MAX_OVERFLOWS || pp->table_full)
	{
		if (pp->open)
			close_job(pp);
		while (pp->njobs > 0)
			complete_oldest(pp);
		e = &local;
		ref = NULL;
	}
	else if (!pp->open && !open_job(pp))
	{
		/* no slot free: this page goes through the CPU now */
		e = &local;
		ref = NULL;
	}
	else
	{
		ref = &pp->jobs[(pp->first + pp->njobs - 1) % GR_PAGE_JOBS];
		e = &gr_page_job_entries(ref->job)[ref->npages];
	}
	e->buf = buf - 1;
	if (vis == NULL)
	{
		e->nlp = n;
		e->flags = GR_PAGE_ALL_NORMAL;
	}
	else
	{
		e->nlp = vis[n - 1];
		e->flags = 0;
		memset(e->vis, 0, sizeof(e->vis));
		for (int i = 0; i < n; i++)
			e->vis[(vis[i] - 1) >> 6] |= UINT64CONST(1) << ((vis[i] - 1) & 63);
	}
	if (ref == NULL)
	{
		cpu_page(pp, buf, e);
		ReleaseBuffer(buf);
		return;
	}
	if (pp->held_pins)
		gr_pin_hold(buf);
	ref->bufs[ref->npages++] = buf;
	if (ref->npages == pp->job_pages)
		close_job(pp);
}

/*
 * Whether a page locked in share mode may be handed over as "every normal
 * line pointer up to its max offset": all-visible (and the snapshot not
 * taken on a standby, where that bit cannot be trusted), not serializable
 * (heapgetpage's per-tuple conflict checks), and no unused line pointer
 * that an insert could reuse while we hold only the pin (PageAddItem reuses
 * one only when PD_HAS_FREE_LINES is set).  Normal line pointers stay
 * normal under a pin: pruning and defragmenting need the cleanup lock.
 */
bool
gr_page_path_all_normal(Page page, Snapshot snapshot)
{
	return PageIsAllVisible(page) && !snapshot->takenDuringRecovery &&
		!PageHasFreeLinePointers(page) && !IsolationIsSerializable();
}

/*
 * The groups of the scan's table on GPU 'device': copied out by collect
 * jobs, as many a time as a job holds, each batch given to the scan; the
 * service frees the table with the last.  Its groups are the scan's
 * answer, so a failure here is an ERROR, not a fallback.
 */
static void
collect_device(GrPagePath *pp, int device, bool sole)
{
	uint64		first = 0;
	uint64		total;

	do
	{
		int			slot = pp->collect_slot;
		GrPageJob  *job;
		uint64		n;

		if (slot < 0)
			elog(ERROR, "gpu_reduce: a scan's GPU group table without its collect slot");
		job = (GrPageJob *) gr_slot_values(slot);
		memcpy(job, pp->prefix, pp->prefix_bytes);
		job->flags |= GR_PAGE_JOB_COLLECT;
		job->npages = 0;
		job->bytes_in = job->entries_off;
		job->bytes_all = pp->bytes_all;
		job->collect_first = (uint32) first;
		gr_gpu_submit_job_slot(slot, 0, device);
		gr_gpu_collect_job_slot(slot, "the groups of this scan");
		total = job->counts[GR_PAGE_COUNT_GROUPS(job->ncols)];
		/* the groups the table held: those the checks dropped on the device too */
		if (first == 0)
		{
			pp->table_groups += job->counts[GR_PAGE_COUNT_DROPPED(job->ncols)];
			pp->table_dropped += job->counts[GR_PAGE_COUNT_DROPPED(job->ncols)];
		}
		n = first < total ? Min(total - first, (uint64) job->group_cap) : 0;
		if (n > 0)
			pp->cb.groups(pp->cb.arg, job, (const uint64 *) ((char *) job + job->group_off), n,
						  sole);
		pp->table_groups += n;
		first += n;
	} while (first < total);
}

/*
 * What a GPU's first collect job does with its checks (job->checks), on
 * cpu mode's table: the groups they reject dropped, the rest kept in order
 * at its front.  Returns how many went.
 */
static uint64
drop_rejected(GrPagePath *pp, const GrPageJob *job, int ew)
{
	uint64		kept = 0;
	uint64		n = pp->cpu_ngroups;

	if (job->ncheck == 0)
		return 0;
	for (uint64 g = 0; g < n; g++)
	{
		const uint64 *e = pp->cpu_ents + g * ew;

		if (gr_page_group_rejected(job->checks, job->ncheck, job->ngkeys, job->gkey_rel, e))
			continue;
		if (kept < g)
			memmove(pp->cpu_ents + kept * ew, e, sizeof(uint64) * ew);
		kept++;
	}
	pp->cpu_ngroups = kept;
	return n - kept;
}

/* The scan is over: finish every job and drop every pin; then collect the scan's tables. */
void
gr_page_path_finish(GrPagePath *pp, GrPagePathTotals *totals)
{
	bool		sole;

	if (pp->open)
		close_job(pp);
	while (pp->njobs > 0)
		complete_oldest(pp);
	/* the tables the jobs folded into: the host's (cpu mode) or each GPU's */
	sole = (pp->cpu_ents != NULL) + pg_popcount64(pp->devices) == 1;
	if (pp->scan)
		pp->cb.checks(pp->cb.arg, (GrPageJob *) pp->prefix, sole);
	if (pp->scan && pp->cpu_ents != NULL)
	{
		/* cpu mode: the host's table, in the same batches a GPU's comes in */
		GrPageJob  *job = (GrPageJob *) pp->prefix;
		int			ew = gr_page_group_entry_words(job);
		uint64		dropped = drop_rejected(pp, job, ew);

		pp->table_groups += dropped;
		pp->table_dropped += dropped;
		/* what a GPU's collect job says: the table's groups, and the batch's first */
		job->counts[GR_PAGE_COUNT_GROUPS(job->ncols)] = pp->cpu_ngroups;
		for (uint64 first = 0; first < pp->cpu_ngroups; first += job->group_cap)
		{
			job->collect_first = (uint32) first;
			pp->cb.groups(pp->cb.arg, job, pp->cpu_ents + first * ew,
						  Min(pp->cpu_ngroups - first, (uint64) job->group_cap), sole);
		}
		pp->table_groups += pp->cpu_ngroups;
		job->counts[GR_PAGE_COUNT_GROUPS(job->ncols)] = 0;
		job->collect_first = 0;
		pp->cpu_ngroups = 0;
	}
	for (int dev = 0; pp->scan && dev < 64; dev++)
		if (pp->devices & (UINT64CONST(1) << dev))
		{
			pp->devices &= ~(UINT64CONST(1) << dev);
			collect_device(pp, dev, sole);
		}
	if (pp->collect_slot >= 0)
		gr_gpu_end_job_slot(pp->collect_slot, false);
	pp->collect_slot = -1;
	totals->table_groups = pp->table_groups;
	totals->table_dropped = pp->table_dropped;
	totals->gpu_pages = pp->gpu_pages;
	totals->cpu_job_pages = pp->cpu_job_pages;
	totals->overflowed_jobs = pp->overflowed;
	totals->wait_us = INSTR_TIME_GET_MICROSEC(pp->waited);
}

/*
 * A free slot for a join's upload or release job: the scan's jobs are not
 * in flight, so one frees soon unless other sessions hold them all; -1
 * after 'ms' milliseconds without one.
 */
static int
image_slot(int ms)
{
	for (int tries = 0; tries < ms; tries++)
	{
		int			slot = gr_gpu_take_job_slot();

		if (slot >= 0)
			return slot;
		CHECK_FOR_INTERRUPTS();
		pg_usleep(1000L);
	}
	return -1;
}

/* Send one upload or release job through slot to device; true when it is done there. */
static bool
image_job(int slot, int device, const char **why)
{
	bool		done = false;

	PG_TRY();
	{
		gr_gpu_submit_job_slot(slot, 0, device);
		done = gr_gpu_wait_job_slot(slot, why);
	}
	PG_CATCH();
	{
		gr_gpu_end_job_slot(slot, true);
		PG_RE_THROW();
	}
	PG_END_TRY();
	return done;
}

/*
 * A join's images on the GPUs, owned by the process that named them: freed
 * by gr_page_path_release_images, or, where the query's memory went first
 * (an ERROR) or no slot was free to free them, listed here and freed by
 * this process's next upload or release.
 */
struct GrPageImages
{
	MemoryContextCallback cb;
	uint64		key;			/* 0: freed */
};

#define GR_STALE_KEYS 16
static uint64 stale_keys[GR_STALE_KEYS];
static int	nstale = 0;

static void
images_gone(void *arg)
{
	GrPageImages *im = arg;

	if (im->key != 0 && nstale < GR_STALE_KEYS)
		stale_keys[nstale++] = im->key;
	im->key = 0;
}

/* Own the images a new key names, for as long as cxt lives. */
GrPageImages *
gr_page_path_own_images(MemoryContext cxt)
{
	static uint32 joins = 0;
	GrPageImages *im = MemoryContextAllocZero(cxt, sizeof(GrPageImages));

	im->key = (uint64) (uint32) MyProcPid << 32 | ++joins;
	im->cb.func = images_gone;
	im->cb.arg = im;
	MemoryContextRegisterResetCallback(cxt, &im->cb);
	return im;
}

/* The key that names them on the GPUs (the page jobs' join_key). */
uint64
gr_page_path_images_key(const GrPageImages *im)
{
	return im->key;
}

/* Free one key's images on every GPU; false where no slot was free for it. */
static bool
release_key(uint64 key)
{
	int			slot = image_slot(10);
	const char *why;

	for (int e = 0; slot >= 0 && e < gr_shared->ndevices; e++)
	{
		GrPageJob  *job = (GrPageJob *) gr_slot_values(slot);

		memset(job, 0, sizeof(GrPageJob));
		job->flags = GR_PAGE_JOB_RELEASE;
		job->join_key = key;
		job->bytes_in = job->bytes_all = GR_PAGE_ALIGN(sizeof(GrPageJob));
		(void) image_job(slot, gr_shared->devices[e].ordinal, &why);
	}
	if (slot >= 0)
		gr_gpu_end_job_slot(slot, false);
	return slot >= 0;
}

/* Free the images of queries that ended in an ERROR (or found no slot to free them). */
static void
release_stale(void)
{
	while (nstale > 0 && gr_gpu_pages_unavailable() == NULL && release_key(stale_keys[nstale - 1]))
		nstale--;
}

/* Free owned images on every GPU (as gr_page_path_upload_images put them there). */
void
gr_page_path_release_images(GrPageImages *im)
{
	release_stale();
	if (im == NULL || im->key == 0)
		return;
	if (gr_gpu_pages_unavailable() == NULL && !release_key(im->key) && nstale < GR_STALE_KEYS)
		stale_keys[nstale++] = im->key;
	im->key = 0;
}

/*
 * Copy a join's images (join_image.h: n of them, bytes[j] each) onto every
 * GPU the service runs on, slot by slot, as the join's key names them
 * there (the images' owner frees them); a marked join's relation (marks[j]
 * not 0) with that many bytes of marks beside it, zeroed.  False, with
 * why, where one could not be: the scan probes on the CPU then.
 */
bool
gr_page_path_upload_images(uint64 key, const void *const *images, const Size *bytes,
						   const Size *marks, int n, const char **why)
{
	Size		room = (Size) gr_shared->slot_bytes - GR_PAGE_ALIGN(sizeof(GrPageJob));
	int			slot;
	bool		ok;

	release_stale();
	slot = image_slot(1000);
	ok = slot >= 0;
	*why = ok ? NULL : "no GPU slot was free for the hashed relations";
	for (int e = 0; ok && e < gr_shared->ndevices; e++)
		for (int j = 0; ok && j < n; j++)
			for (Size off = 0; ok && (off == 0 || off < bytes[j]); off += room)
			{
				GrPageJob  *job = (GrPageJob *) gr_slot_values(slot);
				Size		len = Min(room, bytes[j] - off);

				memset(job, 0, sizeof(GrPageJob));
				job->flags = GR_PAGE_JOB_UPLOAD;
				job->join_key = key;
				job->image_index = (uint32) j;
				job->image_bytes = bytes[j];
				job->upload_off = off;
				job->upload_len = (uint32) len;
				job->marks_len = marks[j];
				job->bytes_in = job->bytes_all = GR_PAGE_ALIGN(sizeof(GrPageJob)) + len;
				memcpy(gr_page_upload_data(job), (const char *) images[j] + off, len);
				ok = image_job(slot, gr_shared->devices[e].ordinal, why);
			}
	if (slot >= 0)
		gr_gpu_end_job_slot(slot, false);
	return ok;
}

/*
 * OR the marks every GPU's page jobs set in relation index's copy (key's,
 * n bytes, as uploaded) into marks, slot-sized chunks at a time.  Call it
 * once every page job that may have marked is done: a job is done only
 * once its kernel is.  The marks are part of the answer and only the GPUs
 * have them, so a failure is an ERROR (gr_gpu_collect_job_slot), and a
 * free slot is waited for as long as it takes (interruptibly).
 */
void
gr_page_path_fetch_marks(uint64 key, int index, uint8 *marks, Size n)
{
	Size		room = (Size) gr_shared->slot_bytes - GR_PAGE_ALIGN(sizeof(GrPageJob));
	int			slot;

	while ((slot = image_slot(1000)) < 0)
		continue;
	PG_TRY();
	{
		for (int e = 0; e < gr_shared->ndevices; e++)
			for (Size off = 0; off < n; off += room)
			{
				GrPageJob  *job = (GrPageJob *) gr_slot_values(slot);
				Size		len = Min(room, n - off);
				const uint8 *got = gr_page_upload_data(job);

				memset(job, 0, sizeof(GrPageJob));
				job->flags = GR_PAGE_JOB_MARKS;
				job->join_key = key;
				job->image_index = (uint32) index;
				job->upload_off = off;
				job->upload_len = (uint32) len;
				job->bytes_in = job->bytes_all = GR_PAGE_ALIGN(sizeof(GrPageJob)) + len;
				gr_gpu_submit_job_slot(slot, 0, gr_shared->devices[e].ordinal);
				gr_gpu_collect_job_slot(slot, "a marked join's marks");
				for (Size i = 0; i < len; i++)
					marks[off + i] |= got[i];
			}
	}
	PG_CATCH();
	{
		gr_gpu_end_job_slot(slot, true);
		PG_RE_THROW();
	}
	PG_END_TRY();
	gr_gpu_end_job_slot(slot, false);
}
