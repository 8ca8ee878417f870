/*
 * agg_space.c
 *	  The planner's estimate of a gpu_* aggregate's memory: the transition
 *	  space hash aggregation plans its groups with, from the kinds table
 *	  instead of the aggregate's SSPACE.
 *
 * PostgreSQL plans a HashAggregate's groups into work_mem (times
 * hash_mem_multiplier) by each aggregate's SSPACE, and at run time caps the
 * number of groups it holds by that estimate, looking at their real memory
 * only when it adds a group.  One SSPACE per aggregate cannot say what a
 * state holds: gpu_topk(x, 100000) keeps up to 100 000 keys, which grow
 * after its group came in (1024 bytes were planned; issue 27 saw 80 MB in
 * one batch under work_mem = 4MB), a float variance two exact sums (2 kB,
 * 256 planned), an integer sum 80 bytes (256 planned).
 *
 * So create_upper_paths_hook, for the grouping rel, gives every Agg of its
 * paths -- with a parallel plan's partial Agg under Gather, and a
 * partitionwise plan's under Append -- the transition space its gpu_*
 * states take (gr_state_space: the state, a top-k heap of min(k, rows per
 * group) keys, numeric copies of the column's average width, ...), and a
 * hashed one the cost cost_agg gives it for that space, its ancestors'
 * costs moved by as much; the node's Finalize Aggregate gets the same
 * (bulk_plan.c).  Hash aggregation then spills as its states grow, and the
 * planner weighs that against sorting.
 */
#include "bulk.h"
#include "agg_catalog.h"
#include "kinds.h"

#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/prep.h"
#include "parser/parsetree.h"
#include "utils/lsyscache.h"

/* What one gpu_* aggregate's state holds, as planned. */
typedef struct SpaceAgg
{
	GrOp		op;
	GrType		type;
	int32		k;				/* top-k's k: a constant, else the largest */
	double		width;			/* numeric: bytes of a value's copy */
	double		planned;		/* what PostgreSQL counted for it: its SSPACE */
} SpaceAgg;

/* A path walked, and how much its cost changed (its inputs' included). */
typedef struct SpaceSeen
{
	Path	   *path;
	Cost		startup;
	Cost		total;
} SpaceSeen;

/* One walk over a grouping's paths. */
typedef struct SpaceWalk
{
	PlannerInfo *root;
	double		input_rows;		/* rows the grouping reads */
	List	   *aggs;			/* SpaceAgg of each gpu_* transition */
	uint64		planned;		/* transition space PostgreSQL counted */
	List	   *seen;			/* SpaceSeen */
} SpaceWalk;

/* top-k's k as planned: a constant, or one the planner can fold; else the largest. */
static int32
planned_k(PlannerInfo *root, Aggref *agg)
{
	Node	   *k;

	if (list_length(agg->args) < 2)
		return GR_TOPK_MAX;
	k = estimate_expression_value(root, (Node *) lsecond_node(TargetEntry, agg->args)->expr);
	if (IsA(k, Const) && !((Const *) k)->constisnull &&
		gr_k_in_range(DatumGetInt32(((Const *) k)->constvalue)))
		return DatumGetInt32(((Const *) k)->constvalue);
	return GR_TOPK_MAX;
}

/*
 * Bytes of a copy of a numeric value of expr: a table column's average
 * stored width (ANALYZE's), else the type's guess, with the 4-byte header
 * a copy has where the page mostly has a 1-byte one.
 */
static double
copy_width(PlannerInfo *root, Expr *expr)
{
	int32		width = 0;

	if (IsA(expr, Var) && ((Var *) expr)->varlevelsup == 0 &&
		((Var *) expr)->varattno > 0 && ((Var *) expr)->varno >= 1 &&
		((Var *) expr)->varno < root->simple_rel_array_size)
	{
		Var		   *var = (Var *) expr;
		RangeTblEntry *rte = planner_rt_fetch(var->varno, root);

		if (rte != NULL && rte->rtekind == RTE_RELATION)
			width = get_attavgwidth(rte->relid, var->varattno);
	}
	if (width <= 0)
		width = get_typavgwidth(exprType((Node *) expr), exprTypmod((Node *) expr));
	return (double) width + VARHDRSZ - 1;
}

/* What the state of gpu_* aggregate agg holds; false if agg is not one. */
static bool
describe(PlannerInfo *root, Aggref *agg, SpaceAgg *a)
{
	TargetEntry *arg;
	bool		native;
	GrPartialForm form;

	a->op = gr_plan_aggregate(agg->aggfnoid, &a->k, &native, &form);
	if (a->op == 0 || native || agg->args == NIL)
		return false;
	arg = linitial_node(TargetEntry, agg->args);
	a->type = gr_type_of_oid(exprType((Node *) arg->expr));
	if (a->type == 0 || gr_kind_acc_id(a->op, a->type) == GR_ACC_NONE)
		return false;
	if (gr_kind(a->op)->takes_k && a->k == 0)
		a->k = planned_k(root, agg);
	a->width = gr_type_info(a->type)->value_class == GR_CLASS_NUMERIC
		? copy_width(root, arg->expr) : 0;
	a->planned = 0;
	return true;
}

/*
 * The query's gpu_* transitions (a transition two aggregates share, once),
 * with what get_agg_clause_costs counted for each: an internal state's
 * SSPACE.  Only transition functions named gpu_* are looked at further.
 */
static List *
gpu_aggs(PlannerInfo *root)
{
	List	   *aggs = NIL;
	Bitmapset  *seen = NULL;
	ListCell   *lc;

	foreach(lc, root->agginfos)
	{
		AggInfo    *ai = lfirst(lc);
		AggTransInfo *ti = list_nth(root->aggtransinfos, ai->transno);
		char	   *transfn;
		SpaceAgg	a;

		if (bms_is_member(ai->transno, seen) || ti->aggtranstype != INTERNALOID ||
			(transfn = get_func_name(ti->transfn_oid)) == NULL ||
			strncmp(transfn, "gpu_", 4) != 0 ||
			!describe(root, gr_agginfo_aggref(ai), &a))
			continue;
		seen = bms_add_member(seen, ai->transno);
		a.planned = ti->aggtransspace > 0 ? ti->aggtransspace : ALLOCSET_DEFAULT_INITSIZE;
		aggs = lappend(aggs, memcpy(palloc(sizeof(a)), &a, sizeof(a)));
	}
	return aggs;
}

/* The transition space of the grouping in groups of 'values' values. */
static uint64
space_for(const SpaceWalk *w, double values)
{
	double		space = (double) w->planned;
	ListCell   *lc;

	foreach(lc, w->aggs)
	{
		SpaceAgg   *a = lfirst(lc);

		space += gr_state_space(a->op, a->type, a->k, Max(values, 1.0), a->width) - a->planned;
	}
	return (uint64) Max(space, 0.0);
}

/*
 * Bytes the query's gpu_* states take in one group of 'values' values (a
 * top-k heap, numeric copies, ...): what a GpuReduce node returning final
 * rows holds per group beside its keys and running values (bulk_plan.c).
 */
double
gr_agg_space_group(PlannerInfo *root, double values)
{
	double		space = 0;
	ListCell   *lc;

	foreach(lc, gpu_aggs(root))
	{
		SpaceAgg   *a = lfirst(lc);

		space += gr_state_space(a->op, a->type, a->k, Max(values, 1.0), a->width);
	}
	return space;
}

/*
 * Add to *startup and *total how a hashed Agg's cost (strategy AGG_HASHED
 * or AGG_MIXED, over input) changes when its transition space goes from
 * 'from' to 'to': cost_agg's cost of spilling, the rest being the same.
 */
static void
spill_change(PlannerInfo *root, AggStrategy strategy, double groups, Path *input,
			 uint64 from, uint64 to, Cost *startup, Cost *total)
{
	AggClauseCosts costs;
	Path		before;
	Path		after;

	MemSet(&costs, 0, sizeof(costs));
	costs.transitionSpace = from;
	gr_cost_agg(&before, root, strategy, &costs, 0, groups, NIL, 0.0, 0.0,
				input->rows, input->pathtarget->width);
	costs.transitionSpace = to;
	gr_cost_agg(&after, root, strategy, &costs, 0, groups, NIL, 0.0, 0.0,
				input->rows, input->pathtarget->width);
	*startup += after.startup_cost - before.startup_cost;
	*total += after.total_cost - before.total_cost;
}

/*
 * An Agg's transition space, from the rows per group it reads: its input's
 * (rows of the table), or the grouping's input rows for one that combines
 * partial states (Finalize Aggregate).  A path whose space is not what
 * PostgreSQL counted is left: a partitionwise child's, done in its own
 * grouping.
 */
static void
fix_agg(SpaceWalk *w, AggPath *ap, Cost *startup, Cost *total)
{
	double		rows = DO_AGGSPLIT_COMBINE(ap->aggsplit) ? w->input_rows : ap->subpath->rows;
	uint64		space;

	if (ap->transitionSpace != w->planned)
		return;
	space = space_for(w, rows / Max(ap->numGroups, 1.0));
	if (ap->aggstrategy == AGG_HASHED || ap->aggstrategy == AGG_MIXED)
		spill_change(w->root, ap->aggstrategy, ap->numGroups, ap->subpath,
					 ap->transitionSpace, space, startup, total);
	ap->transitionSpace = space;
}

/*
 * A grouping sets Agg's: one space for its hash tables, that of its
 * hashed rollup with the most rows per group, and the spilling of each
 * hashed one costed as create_groupingsets_path costs it (the first at
 * startup, the others after).
 */
static void
fix_grouping_sets(SpaceWalk *w, GroupingSetsPath *gp, Cost *startup, Cost *total)
{
	bool		hashes = gp->aggstrategy == AGG_HASHED || gp->aggstrategy == AGG_MIXED;
	uint64		space = 0;
	bool		first = true;
	ListCell   *lc;

	if (gp->transitionSpace != w->planned)
		return;
	foreach(lc, gp->rollups)
	{
		RollupData *r = lfirst(lc);

		if (r->is_hashed || !hashes)
			space = Max(space, space_for(w, gp->subpath->rows / Max(r->numGroups, 1.0)));
	}
	foreach(lc, gp->rollups)
	{
		RollupData *r = lfirst(lc);
		AggStrategy s = first ? gp->aggstrategy : r->is_hashed ? AGG_HASHED : AGG_SORTED;
		Cost		first_startup = 0;

		if (s == AGG_HASHED || s == AGG_MIXED)
			spill_change(w->root, s, r->numGroups, gp->subpath, gp->transitionSpace, space,
						 &first_startup, total);
		if (first)
			*startup += first_startup;
		first = false;
	}
	gp->transitionSpace = space;
}

/*
 * Correct the Aggs of a path and of the paths under it that the same
 * grouping made, and move each one's cost by its inputs' change; add the
 * path's change to *startup and *total.  A path met again (under two
 * parents) is corrected once and adds its change to each.
 */
static void
fix_path(SpaceWalk *w, Path *path, Cost *startup, Cost *total)
{
	Cost		in_startup = 0;
	Cost		in_total = 0;
	Cost		own_startup = 0;
	Cost		own_total = 0;
	bool		reads_all = false;	/* its startup includes its input's total */
	SpaceSeen  *seen;
	ListCell   *lc;

	foreach(lc, w->seen)
	{
		seen = lfirst(lc);
		if (seen->path == path)
		{
			*startup += seen->startup;
			*total += seen->total;
			return;
		}
	}
	switch (nodeTag(path))
	{
		case T_AggPath:
			fix_path(w, ((AggPath *) path)->subpath, &in_startup, &in_total);
			fix_agg(w, (AggPath *) path, &own_startup, &own_total);
			reads_all = ((AggPath *) path)->aggstrategy == AGG_HASHED ||
				((AggPath *) path)->aggstrategy == AGG_PLAIN;
			break;
		case T_GroupingSetsPath:
			fix_path(w, ((GroupingSetsPath *) path)->subpath, &in_startup, &in_total);
			fix_grouping_sets(w, (GroupingSetsPath *) path, &own_startup, &own_total);
			reads_all = ((GroupingSetsPath *) path)->aggstrategy == AGG_HASHED ||
				((GroupingSetsPath *) path)->aggstrategy == AGG_PLAIN;
			break;
		case T_SortPath:
			fix_path(w, ((SortPath *) path)->subpath, &in_startup, &in_total);
			reads_all = true;
			break;
		case T_IncrementalSortPath:
			fix_path(w, ((IncrementalSortPath *) path)->spath.subpath, &in_startup, &in_total);
			break;
		case T_GatherPath:
			fix_path(w, ((GatherPath *) path)->subpath, &in_startup, &in_total);
			break;
		case T_GatherMergePath:
			fix_path(w, ((GatherMergePath *) path)->subpath, &in_startup, &in_total);
			break;
		case T_ProjectionPath:
			fix_path(w, ((ProjectionPath *) path)->subpath, &in_startup, &in_total);
			break;
		case T_AppendPath:
			foreach(lc, ((AppendPath *) path)->subpaths)
				fix_path(w, lfirst(lc), &in_startup, &in_total);
			break;
		case T_MergeAppendPath:
			foreach(lc, ((MergeAppendPath *) path)->subpaths)
				fix_path(w, lfirst(lc), &in_startup, &in_total);
			break;
		default:
			break;				/* below the grouping: nothing of it */
	}
	own_startup += reads_all ? in_total : in_startup;
	own_total += in_total;
	path->startup_cost += own_startup;
	path->total_cost += own_total;
	seen = palloc(sizeof(SpaceSeen));
	seen->path = path;
	seen->startup = own_startup;
	seen->total = own_total;
	w->seen = lappend(w->seen, seen);
	*startup += own_startup;
	*total += own_total;
}

/* Begin a walk over the grouping of input_rel; false if it has no gpu_* state. */
static bool
walk_begin(SpaceWalk *w, PlannerInfo *root, RelOptInfo *input_rel)
{
	AggClauseCosts costs;

	w->root = root;
	w->input_rows = input_rel->rows;
	w->seen = NIL;
	w->aggs = gpu_aggs(root);
	if (w->aggs == NIL)
		return false;
	MemSet(&costs, 0, sizeof(costs));
	get_agg_clause_costs(root, AGGSPLIT_SIMPLE, &costs);
	w->planned = costs.transitionSpace;
	return true;
}

/*
 * Correct the transition space and cost of every Agg of the grouping rel's
 * paths (create_upper_paths_hook, before set_cheapest chooses among them).
 */
void
gr_agg_space_fix_rel(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *grouped_rel)
{
	SpaceWalk	w;
	Cost		startup = 0;
	Cost		total = 0;
	ListCell   *lc;

	if (!walk_begin(&w, root, input_rel))
		return;
	foreach(lc, grouped_rel->pathlist)
		fix_path(&w, lfirst(lc), &startup, &total);
	foreach(lc, grouped_rel->partial_pathlist)
		fix_path(&w, lfirst(lc), &startup, &total);
}

/* The same for one new path of the grouping (the node's Finalize Aggregate), before add_path. */
Path *
gr_agg_space_fix_path(PlannerInfo *root, RelOptInfo *input_rel, Path *path)
{
	SpaceWalk	w;
	Cost		startup = 0;
	Cost		total = 0;

	if (walk_begin(&w, root, input_rel))
		fix_path(&w, path, &startup, &total);
	return path;
}
