/*
 * bulk_plan.c
 *	  Planning the bulk scan: recognize an aggregate query the GpuReduce node
 *	  can answer from the pages, cost it, and turn the path into a plan.
 *
 * Offered through create_upper_paths_hook, for the grouping rel.  Without
 * GROUP BY: a path that makes the final row itself, in place of Agg over a
 * scan, and, where the planner considers a parallel aggregate, a partial path
 * under Finalize Aggregate and Gather.  With GROUP BY the node emits partial
 * states, one row per group (a group may come more than once), which
 * PostgreSQL's Finalize Aggregate merges; and, serially, where the groups
 * the planner expects fit gpu_reduce.group_memory, a path that returns each
 * group's final row itself, HAVING applied.  Which queries it takes (one heap
 * table or its leaves, or a join of one: join_plan.c), which aggregates and
 * clauses, and why: doc/architecture.md, "Planner".
 */
#include "bulk.h"
#include "agg_catalog.h"
#include "scan_desc.h"
#include "native_partial.h"
#include "expr_compile.h"
#include "group_table.h"
#include "kinds.h"
#include "sink.h"

#include "access/parallel.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/dependency.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_opfamily_d.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "commands/extension.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/appendinfo.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/planner.h"
#include "optimizer/prep.h"
#include "optimizer/planmain.h"
#include "optimizer/tlist.h"
#include "port/pg_bitutils.h"
#include "parser/parsetree.h"
#include "rewrite/rewriteManip.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/fmgroids.h"
#include "datatype/timestamp.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/syscache.h"
#include "utils/guc.h"
#include "catalog/pg_statistic.h"
#include "mb/pg_wchar.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"
#include "utils/selfuncs.h"
#include "utils/typcache.h"
#include "tuple_decode.h"
#include "time_range.h"
#include "decline.h"
#include "join_plan.h"

bool		gr_bulk_scan = true;
int			gr_native_aggregates = GR_NATIVE_ON;

static const struct config_enum_entry native_aggregates_options[] = {
	{"off", GR_NATIVE_OFF, false},
	{"on", GR_NATIVE_ON, false},
	{"exact", GR_NATIVE_EXACT, false},
	{"false", GR_NATIVE_OFF, true},
	{"true", GR_NATIVE_ON, true},
	{"no", GR_NATIVE_OFF, true},
	{"yes", GR_NATIVE_ON, true},
	{"0", GR_NATIVE_OFF, true},
	{"1", GR_NATIVE_ON, true},
	{NULL, 0, false}
};

static create_upper_paths_hook_type prev_upper_paths_hook = NULL;

/*
 * Cost of starting the node, in planner units: about what reading a few
 * pages costs, so that a table of a page or two keeps the native plan.
 */
#define GR_BULK_STARTUP_COST	4.0

/* The hint of a clause, argument or key the expression program does not compile. */
#define GR_PROGRAM_HINT "The expression program takes comparisons, arithmetic, CASE, COALESCE, casts, IN lists, LIKE with % (not _) and date_trunc of the supported types; README, Troubleshooting."

/*
 * The node's cost per visible row and per column read, as fractions of
 * cpu_tuple_cost: the page loop decodes a row in a few nanoseconds where
 * the executor's row path spends about 50 (README, Benchmarks).
 */
#define GR_BULK_ROW_COST		0.1
#define GR_BULK_COL_COST		0.05

/*
 * Where the page path will run on a GPU, the node's cost per page instead,
 * as a multiple of cpu_tuple_cost: the backend pins and lists a page in
 * about 0.7 us while the GPU decodes, filters, groups and folds its rows
 * (README, Benchmarks).  So a parallel plan saves little of it, and one
 * that multiplies the groups emitted (each participant emits every group
 * it met, through Gather, to Finalize Aggregate) costs more: 100 000
 * groups over 30 M rows ran in 0.69 s serially and 2.3 s with 8 workers.
 */
#define GR_BULK_GPU_PAGE_COST	20.0

/*
 * A join whose page path will run on a GPU: its jobs probe the hashed
 * relations' images, run the joined row's program and group the joined
 * rows in the kernel as they decode the pages, so the probe table's pages
 * cost GR_BULK_GPU_PAGE_COST each, as one table's.  The join costs the GPU
 * little more: on an H200 (bench/pg/results/joins/README.md) star joins of
 * 10 M fact rows (83 340 pages: bench/pg/star_tables.sh's jb_fact takes
 * 8 334 a million rows) to one or two relations ran in 21.0-23.7 ms
 * serially, 0.25-0.28 us a page, under the 0.7 us a page the constant
 * stands for; a snowflake of three took 38.1 ms, TPC-H Q3's shape
 * (16 000 groups collected from the GPU) 109.1 ms.  What stays on the CPU
 * is costed as there: the child plans and their hashing, the rows of a key
 * that matches several rows (handed back, decoded and joined by the
 * backend: a share of them as large as the relation's rows beyond one a
 * distinct key), and a marked join's walk.  Beside those, the images go to
 * every GPU through the slots: a memcpy into the slot and a copy over PCIe
 * a chunk, with a round trip to the service each, estimated (not measured)
 * at 1 ns a byte, 1/50 of cpu_tuple_cost as GR_BULK_ROW_COST counts 50 ns
 * for it; a marked join's marks come back the same way, a byte a row from
 * each GPU.  A relation with a tenth more rows than distinct keys makes the
 * page path probe on the CPU (bulk_scan.c's keys_mostly_unique): such a
 * join is costed on the CPU.
 */
#define GR_BULK_GPU_BYTE_COST	(1.0 / 50)

/*
 * A probe into a hashed relation's image over GR_JOIN_CACHE_BYTES, on the
 * CPU, as a multiple of cpu_tuple_cost: a cache miss, about 100 ns where
 * cpu_tuple_cost stands for about 35 ns (GR_BULK_GPU_PAGE_COST's 0.7 us a
 * page is 20 of it); join_plan.h has the measurement.
 */
#define GR_JOIN_MISS_COST		2.0

/*
 * A hashed relation fetched by an index for the keys of the probe table's
 * rows its WHERE keeps (GrScanJoin.probe_keys), where it would be read
 * whole from its pages: the table's pages read first by the GPU's jobs,
 * which bring those keys back, then a lookup a key, as a multiple of
 * cpu_tuple_cost: its btree descent and heap fetch, the row decoded, its
 * WHERE applied, the row appended and laid out.  TPC-H Q12 at SF1:
 * orders' 29 099 lookups for the 30 988 keys of lineitem's WHERE and their
 * image took 64 ms on the CPU host (cpu mode, serially, warm: 2.2 us a
 * lookup); on the H200 host its whole build took 88-90 ms, 27 of them
 * in the GPU's read of lineitem (EXPLAIN's Build Time in Jobs): 2.1 us a
 * lookup, one scan of the keys or a scan per key (where reading orders'
 * 1.5 M rows through values jobs took 230 ms).  Only where the relation has
 * GR_PROBE_ROWS_PER_KEY rows or more for each such row of the table.
 */
#define GR_BULK_LOOKUP_COST		90.0

/*
 * What each row the node emits under a GROUP BY costs beside the row
 * itself, as multiples of cpu_tuple_cost: its group (made in the group
 * table, its states made, its row formed), and each partial state that is
 * bytes (a gpu_* state, an int8[] or one of PostgreSQL's serialized
 * states), written by the node and read back by Finalize Aggregate, which
 * PostgreSQL counts as two function calls.  A group of a few rows costs
 * more than the node saves on them: over 300 000 rows on the 2-core CPU
 * host (work_mem 64 MB, medians of 5), sum(int) with sum(numeric) took
 * 1.3-1.4 times PostgreSQL's time at 2 and 3 rows a group, 0.85 at 5 and
 * 0.7 at 10; sum(int) alone 1.1 at 2 and 0.9 at 3.  These put the
 * planner's turn at about 3 rows a group for sum(int) alone and 5 to 6
 * with a numeric sum.
 */
#define GR_BULK_GROUP_COST		1.5
#define GR_BULK_STATE_COST		2.5

/*
 * A group the node finalizes itself (final rows), as a multiple of
 * cpu_tuple_cost: made in its table and its row formed, with no state
 * written and read back.  Serially on the CPU host, 1.2 M rows with work_mem
 * 1GB (fresh sessions, medians of 3), final rows took 0.46-0.64 of
 * PostgreSQL's HashAggregate's time at 1, 2 and 5 rows a group, with
 * gpu_sum and gpu_avg of a float and with sum(int) and sum(numeric); at
 * GR_BULK_GROUP_COST the planner kept the HashAggregate for every key
 * distinct, 1.8-2.1 times slower.
 */
#define GR_BULK_FINAL_GROUP_COST	0.5

/*
 * A joined-row program's columns while it is planned: the probe table's
 * below this, a join value's reference (gr_join_value's) above; numbered as
 * the row lays them out once the columns are sorted and the values counted
 * (scan_desc).  A program's column is an int16 (GrExprStep.a).
 */
#define GR_JCOL_BASE 10000

/* One table the node reads: the query's, or a leaf of its inheritance tree. */
typedef struct BulkTable
{
	Index		relid;			/* its range table index */
	List	   *attnos;			/* Integer: attribute numbers read (0-based) */
	List	   *outcols;		/* Integer per output: its column index, or -1 */
	List	   *quals;			/* per comparison: its GrScanQual */
	List	   *qual_clauses;	/* the WHERE clauses, for EXPLAIN */
	GrExprBuilder *xb;			/* its expression program, or NULL */
	List	   *outprog;		/* Integer per output: its program output, or -1 */
	List	   *keycols;		/* Integer per group key: its column index, or -1 */
	List	   *keyouts;		/* Integer per group key: its program output, or -1 */
	List	   *joincols;		/* Integer per join key (GrJoinSrc, in order): the
								 * column of one the table gives, or -1 */
	List	   *hashcols;		/* a hashed relation read from its pages:
								 * Integer per key, then per value, its column
								 * (a value computed by its program: -1 - the
								 * output) */
	double		pages;
	double		tuples;
} BulkTable;

/* What the planner found out about one query. */
typedef struct BulkQuery
{
	List	   *aggrefs;		/* distinct Aggrefs: the node's output */
	List	   *outputs;		/* per Aggref: its GrScanAgg */
	List	   *outvars;		/* per Aggref: the Var or expression it reads, or NULL */
	List	   *exprs;			/* the constants (custom_exprs) */
	List	   *tables;			/* BulkTable, in scan order */
	Index		scanrelid;		/* the one table's index, or 0 for several */
	bool		serial_only;	/* a native aggregate without a partial form */
	List	   *keyexprs;		/* the GROUP BY keys (columns): the node's
								 * first output columns */
	List	   *keys;			/* per key: its GrScanKey */
	GrJoinPlan *join;			/* the relations joined to the table, or NULL */
	List	   *pagerels;		/* per hashed relation: its BulkTable, where the
								 * node can read it from its pages, or NULL */
	List	   *paged;			/* int per hashed relation: read from its pages
								 * in the path being made (bulk_path) */
	List	   *outjoin;		/* int per output: where it comes from (a
								 * join value's reference, GR_JOIN_PROBE or
								 * GR_JOIN_ROW: gr_join_value) */
	List	   *keyjoin;		/* int per key: the same */
	double		joined_rows;	/* a join's rows */
	int			native_workers; /* the workers of PostgreSQL's parallel scan
								 * of the input, or 0 where it has none */
	GrExprBuilder *jxb;			/* a join's joined-row program (its clauses
								 * that are not equalities, keys and arguments
								 * over several relations), or NULL */
	List	   *jargouts;		/* Integer per output: its output, or -1 */
	List	   *jkeyouts;		/* Integer per key: the same */
	PlannerInfo *root;
} BulkQuery;

static Plan *plan_bulk_path(PlannerInfo *root, RelOptInfo *rel,
							CustomPath *best_path, List *tlist,
							List *clauses, List *custom_plans);

static const CustomPathMethods bulk_path_methods = {
	.CustomName = GR_BULK_NAME,
	.PlanCustomPath = plan_bulk_path,
};

const CustomScanMethods gr_bulk_scan_methods = {
	.CustomName = GR_BULK_NAME,
	.CreateCustomScanState = gr_bulk_create_state,
};

/* The table's column index of attribute attno (1-based), adding it if new. */
static int
bulk_col(BulkTable *t, AttrNumber attno)
{
	ListCell   *lc;
	int			i = 0;

	foreach(lc, t->attnos)
	{
		if (intVal(lfirst(lc)) == attno - 1)
			return i;
		i++;
	}
	t->attnos = lappend(t->attnos, makeInteger(attno - 1));
	return i;
}

/* Whether expr is a plain, non-system column of the range table entry relid. */
static bool
is_table_column(Index relid, Node *expr)
{
	Var		   *var = (Var *) expr;

	return expr != NULL && IsA(expr, Var) && var->varno == relid &&
		var->varlevelsup == 0 && var->varattno > 0;
}

/* An expression over the relations of a join as SQL, each column with its relation's alias. */
static char *
joined_text(PlannerInfo *root, Node *expr)
{
	PlannedStmt *stmt = makeNode(PlannedStmt);

	stmt->rtable = root->parse->rtable;
	return deparse_expression(expr,
							  deparse_context_for_plan_tree(stmt,
															select_rtable_names_for_explain(stmt->rtable, NULL)),
							  true, false);
}

/*
 * An expression of range table entry relid as SQL, for a reason told to the
 * user (decline.c); only when one is asked for.
 */
static char *
expr_text(PlannerInfo *root, Index relid, Node *expr)
{
	RangeTblEntry *rte = planner_rt_fetch(relid, root);

	if (!gr_report_declines)
		return "";
	if (!bms_is_subset(pull_varnos(root, expr), bms_make_singleton(relid)))
		return joined_text(root, expr);
	expr = copyObject(expr);
	/* the deparse context has the table as range table entry 1 */
	ChangeVarNodes(expr, relid, 1, 0);
	return deparse_expression(expr, deparse_context_for(get_rel_name(rte->relid), rte->relid),
							  false, false);
}

/* Add the expression evaluated at run time; returns its index. */
static int
bulk_expr(BulkQuery *q, Expr *expr)
{
	q->exprs = lappend(q->exprs, expr);
	return list_length(q->exprs) - 1;
}

/*
 * Whether the node takes native aggregate kind op over a type: under
 * gpu_reduce.native_aggregates, where its answer is native's (exact, or
 * any kind over floats where the kind's float answer is the exact one).
 */
static bool
native_taken(GrOp op, GrType type)
{
	if (gr_native_aggregates == GR_NATIVE_OFF)
		return false;
	if (gr_kind(op)->float_exact && gr_type_info(type)->value_class == GR_CLASS_FLOAT)
		return gr_native_aggregates == GR_NATIVE_EXACT;
	return true;
}

/* Add an output: what it computes, and the column Var it reads (or NULL). */
static void
add_output(BulkQuery *q, GrScanAggKind kind, GrOp op, GrType type, int kexpr,
		   GrPartialForm partial_form, Var *var)
{
	GrScanAgg  *ag = palloc0(sizeof(GrScanAgg));

	ag->kind = kind;
	ag->op = op;
	ag->type = type;
	ag->kexpr = kexpr;
	ag->partial_form = partial_form;
	ag->dec_scale = -1;
	q->outputs = lappend(q->outputs, ag);
	q->outvars = lappend(q->outvars, var);
}

/*
 * Describe one Aggref over the table relid as an output of the node; false
 * if the node cannot compute it.
 */
static bool
bulk_output(BulkQuery *q, Index relid, Aggref *agg)
{
	TargetEntry *arg;
	GrOp		op;
	GrType		type;
	int32		k;
	int			kexpr = -1;
	bool		native;
	GrPartialForm form;

	if (agg->agglevelsup != 0 || agg->aggorder != NIL ||
		agg->aggdistinct != NIL || agg->aggfilter != NULL ||
		agg->aggkind != AGGKIND_NORMAL || agg->aggvariadic)
		return gr_decline("aggregate %s has DISTINCT, ORDER BY or FILTER, or is an outer query's",
						  expr_text(q->root, relid, (Node *) agg));

	if (agg->aggfnoid == F_COUNT_)
	{
		add_output(q, GR_SCAN_COUNT_STAR, 0, 0, -1, GR_PARTIAL_VALUE, NULL);
		return true;
	}
	if (list_length(agg->args) < 1)
		return false;
	arg = linitial_node(TargetEntry, agg->args);
	if (agg->aggfnoid == F_COUNT_ANY)
	{
		add_output(q, GR_SCAN_COUNT_COL, 0, 0, -1, GR_PARTIAL_VALUE, (Var *) arg->expr);
		/* count(expression): the program computes it, the node counts its non-NULLs */
		if (!is_table_column(relid, (Node *) arg->expr))
			((GrScanAgg *) llast(q->outputs))->dec_scale = -2;
		return true;
	}

	op = gr_plan_aggregate(agg->aggfnoid, &k, &native, &form);
	type = gr_type_of_oid(exprType((Node *) arg->expr));
	if (op == 0 || type == 0 || gr_kind_acc_id(op, type) == GR_ACC_NONE)
		return gr_decline("aggregate %s is not one the node computes over type %s",
						  expr_text(q->root, relid, (Node *) agg),
						  format_type_be(exprType((Node *) arg->expr)));
	if (native)
	{
		if (!native_taken(op, type))
			return gr_native_aggregates == GR_NATIVE_OFF ?
				gr_decline_hint("SET gpu_reduce.native_aggregates = on, or use the gpu_* aggregates.",
								"gpu_reduce.native_aggregates is off, and %s is PostgreSQL's own aggregate",
								expr_text(q->root, relid, (Node *) agg)) :
				gr_decline_hint("Use gpu_sum, gpu_avg or the gpu_* variances (exact in every plan), or SET gpu_reduce.native_aggregates = exact.",
								"%s over a float type is taken only under gpu_reduce.native_aggregates = exact, whose exact answer may differ from PostgreSQL's rounding",
								expr_text(q->root, relid, (Node *) agg));
		/* a native aggregate whose partial state the node cannot make: serial only */
		if (form == GR_PARTIAL_STATE)
			q->serial_only = true;
	}
	if (gr_kind(op)->takes_k && k == 0)
	{
		/* gpu_topk(x, k): k must be known before the scan */
		TargetEntry *karg;

		if (list_length(agg->args) != 2)
			return false;
		karg = lsecond_node(TargetEntry, agg->args);
		if (!IsA(karg->expr, Const) && !IsA(karg->expr, Param))
			return gr_decline("gpu_topk's k in %s is not a constant or a parameter",
							  expr_text(q->root, relid, (Node *) agg));
		kexpr = bulk_expr(q, karg->expr);
	}
	else if (list_length(agg->args) != 1)
		return false;
	/*
	 * An argument that is not a column: the expression program computes it.
	 * So does a sum or average of a numeric(p,s) column: the program reads
	 * it as an int64 times 10^s (a row it cannot goes to PostgreSQL), which
	 * sums as integers do, on the GPU too, where a numeric varlena is never
	 * reduced.
	 */
	add_output(q, GR_SCAN_AGG, op, type, kexpr, form, (Var *) arg->expr);
	if (!is_table_column(relid, (Node *) arg->expr) ||
		((op == GR_OP_SUM || op == GR_OP_AVG) && exprType((Node *) arg->expr) == NUMERICOID &&
		 exprTypmod((Node *) arg->expr) >= (int32) VARHDRSZ))
		((GrScanAgg *) llast(q->outputs))->dec_scale = -2;	/* known once compiled */
	return true;
}

/* Add a comparison the page loop evaluates to a table. */
static void
add_qual(BulkTable *t, int col, int op, int kind, int width, int expr, Oid timetype)
{
	GrScanQual *q = palloc0(sizeof(GrScanQual));

	q->col = col;
	q->op = op;
	q->kind = kind;
	q->width = width;
	q->expr = expr;
	q->timetype = timetype;
	t->quals = lappend(t->quals, q);
}

/* The btree operator family of a type's default opclass. */
static Oid
btree_family(Oid typid)
{
	Oid			opclass = GetDefaultOpClass(typid, BTREE_AM_OID);

	return OidIsValid(opclass) ? get_opclass_family(opclass) : InvalidOid;
}

/*
 * Describe one WHERE clause as a comparison the page loop evaluates; false
 * if it is anything else.  A time column compares with a constant of
 * another time type where the constant's range (time_range.c), bound at
 * the scan's start, is certain and at most one value: a date against a
 * timestamp (TPC-H's date '1994-01-01' + interval '1' year, compared as
 * the day), a timestamp against a date, a timestamptz against either (in
 * the session's time zone); a date or a timestamp against a timestamptz
 * is the expression program's, which can hand a row back.
 */
static bool
bulk_qual(BulkQuery *q, BulkTable *t, Expr *clause)
{
	Node	   *col;
	Node	   *other;
	GrType		type;
	int			op;
	int			expr = -1;
	GrValueKind kind;

	if (IsA(clause, NullTest))
	{
		NullTest   *nt = (NullTest *) clause;

		if (nt->argisrow || !is_table_column(t->relid, (Node *) nt->arg))
			return false;
		add_qual(t, bulk_col(t, ((Var *) nt->arg)->varattno),
				 nt->nulltesttype == IS_NULL ? GR_QUAL_ISNULL : GR_QUAL_NOTNULL, 0, 0, -1,
				 InvalidOid);
		return true;
	}
	if (IsA(clause, OpExpr))
	{
		OpExpr	   *oe = (OpExpr *) clause;
		bool		commuted;
		Oid			family;
		int			strategy;
		Oid			ctype;
		Oid			timetype;

		if (list_length(oe->args) != 2)
			return false;
		commuted = !is_table_column(t->relid, linitial(oe->args));
		col = commuted ? lsecond(oe->args) : linitial(oe->args);
		other = commuted ? linitial(oe->args) : lsecond(oe->args);
		if (!is_table_column(t->relid, col) || !(IsA(other, Const) || IsA(other, Param)))
			return false;
		type = gr_type_of_oid(exprType(col));
		ctype = exprType(other);
		timetype = gr_time_cross(exprType(col), ctype) ? exprType(col) : InvalidOid;
		/* a column compares with constants of its class (integers, floats, one time type) */
		if (OidIsValid(timetype) ? !gr_time_cross_exact(timetype, ctype) :
			(type == 0 || gr_type_of_oid(ctype) == 0 || gr_type_info(type)->qual_class == 0 ||
			 gr_type_info(type)->qual_class != gr_type_info(gr_type_of_oid(ctype))->qual_class))
			return false;
		family = btree_family(exprType(col));
		if (!OidIsValid(family) || family != btree_family(ctype))
			return false;
		strategy = get_op_opfamily_strategy(oe->opno, family);
		if (strategy == 0)
		{
			Oid			neg = get_negator(oe->opno);

			if (!OidIsValid(neg) ||
				get_op_opfamily_strategy(neg, family) != BTEqualStrategyNumber)
				return false;
			op = GR_QUAL_NE;
		}
		else
		{
			static const int ops[] = {0, GR_QUAL_LT, GR_QUAL_LE, GR_QUAL_EQ,
			GR_QUAL_GE, GR_QUAL_GT};
			static const int flipped[] = {0, GR_QUAL_GT, GR_QUAL_GE, GR_QUAL_EQ,
			GR_QUAL_LE, GR_QUAL_LT};

			op = commuted ? flipped[strategy] : ops[strategy];
		}
		kind = gr_type_info(type)->value_class == GR_CLASS_FLOAT ? GR_KIND_FLOAT : GR_KIND_INT;
		expr = bulk_expr(q, (Expr *) other);
		add_qual(t, bulk_col(t, ((Var *) col)->varattno), op, kind, gr_type_size(type), expr,
				 timetype);
		return true;
	}
	return false;
}

/*
 * A scan's restrictions in the order createplan.c's order_qual_clauses puts
 * them: by security level (a cheap leakproof clause counting as level 0),
 * then by per-tuple cost, the original order kept among equals.
 */
typedef struct QualItem
{
	RestrictInfo *ri;
	Cost		cost;
	Index		level;
} QualItem;

static List *
qual_order(PlannerInfo *root, List *restrictions)
{
	int			n = list_length(restrictions);
	QualItem   *items = palloc(sizeof(QualItem) * Max(n, 1));
	List	   *sorted = NIL;
	ListCell   *lc;

	foreach(lc, restrictions)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		QualCost	qcost;
		int			i = foreach_current_index(lc);

		cost_qual_eval_node(&qcost, (Node *) ri, root);
		items[i].ri = ri;
		items[i].cost = qcost.per_tuple;
		items[i].level = ri->leakproof && items[i].cost < 10 * cpu_operator_cost ?
			0 : ri->security_level;
	}
	/* insertion sort: stable */
	for (int i = 1; i < n; i++)
	{
		int			j;
		QualItem	item = items[i];

		for (j = i; j > 0; j--)
		{
			if (item.level > items[j - 1].level ||
				(item.level == items[j - 1].level && item.cost >= items[j - 1].cost))
				break;
			items[j] = items[j - 1];
		}
		items[j] = item;
	}
	for (int i = 0; i < n; i++)
		sorted = lappend(sorted, items[i].ri);
	return sorted;
}

/* The expression program's callbacks: a column of the table, a run-time constant. */
typedef struct ProgArg
{
	BulkQuery  *q;
	BulkTable  *t;
} ProgArg;

static int
prog_column(void *arg, Var *var)
{
	return bulk_col(((ProgArg *) arg)->t, var->varattno);
}

static int
prog_runtime(void *arg, Expr *expr)
{
	return bulk_expr(((ProgArg *) arg)->q, expr);
}

/* The table's expression program, begun on first use. */
static bool
program_of(BulkQuery *q, BulkTable *t)
{
	if (t->xb == NULL)
	{
		ProgArg    *pa = palloc(sizeof(ProgArg));

		pa->q = q;
		pa->t = t;
		t->xb = palloc(sizeof(GrExprBuilder));
		gr_expr_builder_init(t->xb, q->root, t->relid, prog_column, prog_runtime, pa);
	}
	return true;
}

/* Whether the range table entry is a table the node can read: plain heap. */
static bool
heap_table(RangeTblEntry *rte)
{
	Relation	rel;
	bool		heap;

	if (rte->rtekind != RTE_RELATION || rte->tablesample != NULL ||
		(rte->relkind != RELKIND_RELATION && rte->relkind != RELKIND_MATVIEW))
		return gr_decline("%s is not a plain table or materialized view, or is read with TABLESAMPLE",
						  get_rel_name(rte->relid));
	rel = table_open(rte->relid, NoLock);
	heap = rel->rd_rel->relam == HEAP_TABLE_AM_OID;
	table_close(rel, NoLock);
	return heap || gr_decline("%s is not a heap table", get_rel_name(rte->relid));
}

/*
 * Compile a group key that is not a column into program xb, as an output
 * whose bits are the key's (a fixed-width value of the key's width and
 * class, or a numeric at the same scale in every table): its output in
 * *out.
 */
static bool
program_key(BulkQuery *q, GrExprBuilder *xb, Index relid, Node *expr, GrScanKey *key, int *out)
{
	GrType		type;
	int			scale;
	bool		varies;

	if (!gr_expr_add_output(xb, (Expr *) expr, out, &type, &scale, &varies))
		return gr_decline("the expression program does not compute the GROUP BY key %s",
						  expr_text(q->root, relid, expr));
	if (key->kind == GR_KEY_NUMERIC)
	{
		if (scale < 0 || varies || (key->scale != -2 && key->scale != scale) ||
			gr_expr_has_numeric_div(expr))
			return gr_decline("the GROUP BY key %s is a numeric of no fixed scale",
							  expr_text(q->root, relid, expr));
		key->scale = scale;
	}
	else if (!gr_key_fixed(key->kind) || scale >= 0 ||
			 xb->prog.out_w[*out] != key->len ||
			 (xb->prog.out_kind[*out] == GR_XO_FLOAT) != (key->kind != GR_KEY_BITS))
		return gr_decline("the expression program does not compute the GROUP BY key %s as the group table compares it",
						  expr_text(q->root, relid, expr));
	return true;
}

/*
 * Compile an aggregate's argument into program xb (its output in *out), of
 * the aggregate's type and, a numeric, one scale (ag->dec_scale).  A
 * numeric whose display scale varies by row (ag->row_scale: a CASE or
 * COALESCE of several scales) is held at the largest; a sum or average
 * shows the largest of its rows' own, which no other aggregate keeps.
 */
static bool
program_arg(BulkQuery *q, GrExprBuilder *xb, Index relid, Node *arg, GrScanAgg *ag, int *out)
{
	GrType		type;
	int			scale;
	bool		varies;

	if (!gr_expr_add_output(xb, (Expr *) arg, out, &type, &scale, &varies))
		return gr_decline("the expression program does not compile the aggregate argument %s",
						  expr_text(q->root, relid, arg));
	if (ag->kind == GR_SCAN_COUNT_COL)
	{
		scale = -1;				/* counted, not folded */
		varies = false;
	}
	else if (type != ag->type || (ag->dec_scale != -2 && (ag->dec_scale != scale ||
														   ag->row_scale != varies)))
		return gr_decline("the aggregate argument %s has no fixed type and scale",
						  expr_text(q->root, relid, arg));
	else if (varies && ag->op != GR_OP_SUM && ag->op != GR_OP_AVG)
		return gr_decline("the aggregate argument %s chooses numerics of several scales, whose display scale only a sum or average takes",
						  expr_text(q->root, relid, arg));
	ag->dec_scale = scale;
	ag->row_scale = varies;
	return true;
}

/* Add a group key to a table: a column, or an output of its program (program_key). */
static bool
bulk_table_key(BulkQuery *q, BulkTable *t, Index relid, Node *expr, GrScanKey *key)
{
	int			out;

	if (is_table_column(relid, expr))
	{
		t->keycols = lappend(t->keycols, makeInteger(bulk_col(t, ((Var *) expr)->varattno)));
		t->keyouts = lappend(t->keyouts, makeInteger(-1));
		return true;
	}
	if (!program_of(q, t) || !program_key(q, t->xb, relid, expr, key, &out))
		return false;
	t->keycols = lappend(t->keycols, makeInteger(-1));
	t->keyouts = lappend(t->keyouts, makeInteger(out));
	return true;
}

/*
 * A table's WHERE clauses as comparisons and its program's conjuncts, in
 * the order PostgreSQL's own scan evaluates them (qual_order): the program
 * checks its conjuncts in order and stops at the first that fails, so a
 * row raises an error exactly where native would (a cheap conjunct that
 * rejects it first keeps a division by zero from being reached).  False if
 * one is neither.
 */
static bool
table_quals(PlannerInfo *root, BulkQuery *q, BulkTable *t)
{
	RelOptInfo *rel = root->simple_rel_array[t->relid];
	ListCell   *lc;

	foreach(lc, qual_order(root, rel->baserestrictinfo))
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		if (ri->pseudoconstant)
			return gr_decline("the WHERE clause %s reads none of the table's columns",
							  expr_text(root, t->relid, (Node *) ri->clause));
		if (!bulk_qual(q, t, ri->clause) &&
			(!program_of(q, t) || !gr_expr_add_qual(t->xb, ri->clause)))
			return gr_decline_hint(GR_PROGRAM_HINT,
								   "the expression program does not compile the WHERE clause %s",
								   expr_text(root, t->relid, (Node *) ri->clause));
		t->qual_clauses = lappend(t->qual_clauses, ri->clause);
	}
	return true;
}

/*
 * Add the table of range table entry relid, whose columns the outputs read
 * as vars (the outputs' arguments, then the group keys, translated to it):
 * which columns, and its WHERE clauses as comparisons.  False if one is
 * not a comparison, or an argument or key is not what the node computes.
 */
static bool
bulk_table(PlannerInfo *root, BulkQuery *q, Index relid, List *vars)
{
	RelOptInfo *rel = root->simple_rel_array[relid];
	BulkTable  *t = palloc0(sizeof(BulkTable));
	ListCell   *lc;

	t->relid = relid;
	t->pages = rel->pages;
	t->tuples = rel->tuples;
	/* the WHERE clauses first: only a row that passes computes the arguments */
	if (!table_quals(root, q, t))
		return false;
	foreach(lc, vars)
	{
		Node	   *arg = lfirst(lc);
		GrScanAgg  *ag;
		int			out = -1;

		/* after the outputs' arguments, the group keys */
		if (foreach_current_index(lc) >= list_length(q->outputs))
		{
			if (arg == NULL)
			{
				/* a join value (bulk_query) */
				t->keycols = lappend(t->keycols, makeInteger(-1));
				t->keyouts = lappend(t->keyouts, makeInteger(-1));
				continue;
			}
			if (!bulk_table_key(q, t, relid, arg,
								list_nth(q->keys, foreach_current_index(lc) -
										 list_length(q->outputs))))
				return false;
			continue;
		}
		ag = list_nth(q->outputs, foreach_current_index(lc));
		/* a column whose scale was asked for (-2, then known) is computed too */
		if (arg != NULL && (!is_table_column(relid, arg) || ag->dec_scale != -1) &&
			(!program_of(q, t) || !program_arg(q, t->xb, relid, arg, ag, &out)))
			return false;
		t->outcols = lappend(t->outcols,
							 makeInteger(arg != NULL && out < 0 ?
										 bulk_col(t, ((Var *) arg)->varattno) : -1));
		t->outprog = lappend(t->outprog, makeInteger(out));
	}
	if (list_length(t->attnos) + (t->xb ? t->xb->prog.nouts : 0) > GR_DECODE_MAX_COLS ||
		list_length(t->quals) > GR_MAX_QUALS)
		return gr_decline("the query reads more than %d columns or values, or has more than %d comparisons",
						  GR_DECODE_MAX_COLS, GR_MAX_QUALS);
	q->tables = lappend(q->tables, t);
	return true;
}

/*
 * Add the leaf tables of the inheritance tree under range table entry
 * parent (a partitioned table's partitions, an inheritance parent's
 * children and itself), with vars translated level by level.  Partitions
 * pruned at plan time are left out.  False if a leaf is not a heap table or
 * its WHERE clauses are not comparisons.
 */
static bool
bulk_children(PlannerInfo *root, BulkQuery *q, Index parent, List *vars)
{
	ListCell   *lc;

	foreach(lc, root->append_rel_list)
	{
		AppendRelInfo *ai = lfirst(lc);
		RelOptInfo *child;
		RangeTblEntry *rte;
		List	   *cvars;

		if (ai->parent_relid != parent)
			continue;
		child = root->simple_rel_array[ai->child_relid];
		if (child == NULL || IS_DUMMY_REL(child))
			continue;
		rte = planner_rt_fetch(ai->child_relid, root);
		cvars = (List *) adjust_appendrel_attrs(root, (Node *) vars, 1, &ai);
		if (rte->inh)
		{
			if (!bulk_children(root, q, ai->child_relid, cvars))
				return false;
		}
		else if (!heap_table(rte) || !bulk_table(root, q, ai->child_relid, cvars))
			return false;
	}
	return true;
}

/* A hashed relation's key or value as its column of the table relid, or -1: not a plain column. */
static int
page_column(BulkTable *t, Node *expr)
{
	Node	   *v = expr;

	while (IsA(v, RelabelType))
		v = (Node *) ((RelabelType *) v)->arg;
	if (!is_table_column(t->relid, v) ||
		get_typlen(exprType(v)) != get_typlen(exprType(expr)))
		return -1;
	return bulk_col(t, ((Var *) v)->varattno);
}

/*
 * A hashed relation's value that is not a plain column (TPC-H Q12's CASE
 * over o_orderpriority) as an output of the relation's program, in *col as
 * -1 - the output (table_desc places it after the decoded columns): where
 * the program computes it as the image keeps it, a fixed-width value
 * whose bits in its width are its Datum's (an integer, a date, a float of
 * its own width; not a numeric, which the program holds scaled).  The rows it hands back are
 * PostgreSQL's to evaluate, as the WHERE's (fallback_outputs).
 */
static bool
page_value(BulkQuery *q, BulkTable *t, Node *expr, int *col)
{
	int16		len;
	bool		byval;
	int			out;
	GrType		gt;
	int			scale;
	bool		varies;

	get_typlenbyval(exprType(expr), &len, &byval);
	if (!byval || len <= 0 || !program_of(q, t) ||
		!gr_expr_add_output(t->xb, (Expr *) expr, &out, &gt, &scale, &varies) ||
		varies || t->xb->prog.out_kind[out] == GR_XO_DEC || t->xb->prog.out_w[out] != len)
		return false;
	*col = -1 - out;
	return true;
}

/*
 * A hashed relation as a table the node reads from its pages, or NULL where
 * its child plan must give its rows: a plain heap table, without row
 * security (its plan applies the policies), whose keys are its columns,
 * whose values are its columns or computed by its program (page_value), and
 * whose every WHERE clause the node compiles (as the table's: comparisons,
 * then the program).  Its reasons are not the query's: a
 * relation not read from pages still joins through its child plan.
 */
static BulkTable *
page_table(PlannerInfo *root, BulkQuery *q, GrJoinRel *jr)
{
	RangeTblEntry *rte = planner_rt_fetch(jr->relid, root);
	RelOptInfo *rel = root->simple_rel_array[jr->relid];
	BulkTable  *t;
	Relation	r;
	bool		plain;
	GrDeclineMark mark = gr_decline_mark();
	bool		compiled;
	ListCell   *lc;

	if (rte->rtekind != RTE_RELATION || rte->inh || rte->relkind != RELKIND_RELATION ||
		rte->tablesample != NULL || rte->securityQuals != NIL || rel == NULL)
		return NULL;
	r = table_open(rte->relid, NoLock);
	plain = r->rd_rel->relam == HEAP_TABLE_AM_OID && !r->rd_rel->relrowsecurity;
	table_close(r, NoLock);
	if (!plain)
		return NULL;
	t = palloc0(sizeof(BulkTable));
	t->relid = jr->relid;
	t->pages = rel->pages;
	t->tuples = rel->tuples;
	foreach(lc, jr->keyexprs)
	{
		int			col = page_column(t, lfirst(lc));

		if (col < 0)
			return NULL;
		t->hashcols = lappend(t->hashcols, makeInteger(col));
	}
	/* the WHERE first: a value is computed for the rows it keeps */
	compiled = table_quals(root, q, t);
	foreach(lc, jr->vals)
	{
		int			col = compiled ? page_column(t, lfirst(lc)) : -1;

		if (compiled && col < 0)
			compiled = page_value(q, t, lfirst(lc), &col);
		t->hashcols = lappend(t->hashcols, makeInteger(col));
	}
	gr_decline_restore(mark);
	if (!compiled || list_length(t->quals) > GR_MAX_QUALS ||
		list_length(t->attnos) + (t->xb ? t->xb->prog.nouts : 0) > GR_DECODE_MAX_COLS)
		return NULL;
	return t;
}

/*
 * The joined-row program's callback: a Var's column, the probe table's (t)
 * or a hashed relation's value (above GR_JCOL_BASE), or -1.
 */
static int
joined_row_column(void *arg, Var *var)
{
	ProgArg    *pa = arg;
	int			ref;

	if (var->varno == pa->q->join->probe)
		return bulk_col(pa->t, var->varattno);
	ref = gr_join_var(pa->q->join, var);
	return ref < 0 || GR_JCOL_BASE + ref > PG_INT16_MAX ? -1 : GR_JCOL_BASE + ref;
}

/*
 * A join's joined-row program, where it has one: its clauses that are not
 * the hashed equalities (conjuncts, checked once a row has all its
 * matches), then the group keys and aggregate arguments over several
 * relations (outputs).  Its rows handed back are evaluated by PostgreSQL.
 */
static bool
joined_row_program(PlannerInfo *root, BulkQuery *q, BulkTable *t)
{
	ProgArg    *pa;
	ListCell   *lc;

	q->jargouts = NIL;
	q->jkeyouts = NIL;
	if (q->join->quals == NIL && !list_member_int(q->outjoin, GR_JOIN_ROW) &&
		!list_member_int(q->keyjoin, GR_JOIN_ROW))
		return true;
	pa = palloc(sizeof(ProgArg));
	pa->q = q;
	pa->t = t;
	q->jxb = palloc(sizeof(GrExprBuilder));
	gr_expr_builder_init(q->jxb, root, 0, joined_row_column, prog_runtime, pa);
	foreach(lc, q->join->quals)
		if (!gr_expr_add_qual(q->jxb, lfirst(lc)))
			return gr_decline_hint(GR_PROGRAM_HINT,
								   "the expression program does not compile the join clause %s",
								   expr_text(root, t->relid, lfirst(lc)));
	foreach(lc, q->keyexprs)
	{
		int			out = -1;

		if (list_nth_int(q->keyjoin, foreach_current_index(lc)) == GR_JOIN_ROW &&
			!program_key(q, q->jxb, t->relid, lfirst(lc),
						 list_nth(q->keys, foreach_current_index(lc)), &out))
			return false;
		q->jkeyouts = lappend_int(q->jkeyouts, out);
	}
	foreach(lc, q->outvars)
	{
		int			out = -1;

		if (list_nth_int(q->outjoin, foreach_current_index(lc)) == GR_JOIN_ROW &&
			!program_arg(q, q->jxb, t->relid, lfirst(lc),
						 list_nth(q->outputs, foreach_current_index(lc)), &out))
			return false;
		q->jargouts = lappend_int(q->jargouts, out);
	}
	return true;
}

/*
 * The probe table of a join (range table entry rte), as bulk_table adds a
 * table, and the columns of it that the join's equalities read; then the
 * join values numbered.  The table is a plain heap table, not a tree.
 */
static bool
bulk_join_table(PlannerInfo *root, BulkQuery *q, RangeTblEntry *rte, List *vars)
{
	BulkTable  *t;
	ListCell   *lc;

	if (rte->inh)
		return gr_decline("the join's largest relation %s is partitioned or has inheritance children",
						  get_rel_name(rte->relid));
	q->scanrelid = q->join->probe;
	if (!heap_table(rte) || !bulk_table(root, q, q->join->probe, vars))
		return false;
	t = llast(q->tables);
	if (!joined_row_program(root, q, t))
		return false;
	foreach(lc, q->join->rels)
	{
		GrJoinRel  *jr = lfirst(lc);
		ListCell   *ls;

		foreach(ls, jr->srcs)
		{
			GrJoinSrc  *src = lfirst(ls);

			t->joincols = lappend(t->joincols,
								  makeInteger(src->rel < 0 ? bulk_col(t, src->attno) : -1));
		}
	}
	if (!gr_join_finish(root, q->join))
		return false;
	foreach(lc, q->join->rels)
		q->pagerels = lappend(q->pagerels, page_table(root, q, lfirst(lc)));
	if (list_length(t->attnos) + (t->xb ? t->xb->prog.nouts : 0) + q->join->nvals +
		(q->jxb ? q->jxb->prog.nouts : 0) > GR_DECODE_MAX_COLS)
		return gr_decline("the join reads more than %d columns or values", GR_DECODE_MAX_COLS);
	return true;
}

/*
 * Whether a GROUP BY key, the target's expression expr grouped by the
 * clause sgc, is one the node may group by: of a type and collation the
 * group table compares, with the type's own equality (bulk_table_key then
 * checks that each table has it: a column, or what its program computes).
 */
static bool
bulk_key(BulkQuery *q, Index relid, Expr *expr, SortGroupClause *sgc, bool joinvalue)
{
	Oid			type = exprType((Node *) expr);
	GrScanKey  *key = palloc0(sizeof(GrScanKey));
	int16		len;
	bool		byval;

	if (!gr_group_key_kind(type, exprCollation((Node *) expr), &key->kind) ||
		sgc->eqop != lookup_type_cache(type, TYPECACHE_EQ_OPR)->eq_opr)
		return gr_decline("the group table does not compare the GROUP BY key %s (type %s, its collation or equality)",
						  expr_text(q->root, relid, (Node *) expr), format_type_be(type));
	get_typlenbyval(type, &len, &byval);
	key->type = type;
	key->len = len;
	key->byval = byval;
	/* a numeric the program computes: its scale, known once compiled */
	key->scale = key->kind == GR_KEY_NUMERIC && !joinvalue &&
		!is_table_column(relid, (Node *) expr) ? -2 : -1;
	q->keyexprs = lappend(q->keyexprs, expr);
	q->keys = lappend(q->keys, key);
	return true;
}

/* Whether PostgreSQL can scan the input in parallel (and so aggregate it so). */
static bool
parallel_possible(RelOptInfo *input_rel)
{
	return input_rel->consider_parallel && input_rel->partial_pathlist != NIL &&
		((Path *) linitial(input_rel->partial_pathlist))->parallel_workers > 0;
}

/*
 * Whether the query at this level can be answered by the node, filling q.
 * target is the grouping target (final or partial; under a GROUP BY the
 * partial one, whose keys are the grouping columns); having is the HAVING
 * clause the node evaluates (final only).
 */
static bool
bulk_query(PlannerInfo *root, RelOptInfo *input_rel, PathTarget *target,
		   List *having, BulkQuery *q)
{
	Query	   *parse = root->parse;
	List	   *groupclause = gr_group_clause(root);
	RangeTblEntry *rte;
	Index		relid;
	List	   *exprs = NIL;
	List	   *nodes;
	List	   *vars = NIL;
	int			dependent = 0;
	ListCell   *lc;

	memset(q, 0, sizeof(*q));
	q->root = root;
	if (parallel_possible(input_rel))
		q->native_workers = ((Path *) linitial(input_rel->partial_pathlist))->parallel_workers;
#ifdef WORDS_BIGENDIAN
	return false;				/* tuple_decode.h reads little-endian pages */
#endif
	if (!parse->hasAggs || parse->groupingSets != NIL || parse->hasWindowFuncs ||
		parse->hasTargetSRFs || parse->rowMarks != NIL)
		return gr_decline("the query has no aggregate, or grouping sets, window functions, set-returning functions or FOR UPDATE");
	if (IS_DUMMY_REL(input_rel))
		return gr_decline("the planner proved that no row qualifies");
	if (input_rel->reloptkind == RELOPT_JOINREL)
	{
		/* a join: the table it probes, and the relations it hashes (join_plan.c) */
		q->join = palloc(sizeof(GrJoinPlan));
		if (!gr_join_plan(root, input_rel, q->join))
			return false;
		relid = q->join->probe;
		q->joined_rows = input_rel->rows;
	}
	else if (input_rel->reloptkind != RELOPT_BASEREL || input_rel->rtekind != RTE_RELATION)
		return gr_decline("the aggregates read a subquery or a function, not a table or a join");
	else
		relid = input_rel->relid;
	rte = planner_rt_fetch(relid, root);

	/*
	 * The group keys: the target's grouping columns, and its columns outside
	 * any aggregate, which under a GROUP BY are functionally dependent on
	 * the grouping columns (the planner drops such columns from the grouping,
	 * and columns an equality in WHERE fixes from 16 on, every one of them
	 * where each key is so fixed): one more key each, which makes no more
	 * groups.
	 */
	foreach(lc, target->exprs)
	{
		Index		sgref = get_pathtarget_sortgroupref(target, foreach_current_index(lc));
		SortGroupClause *sgc = sgref != 0 ?
			get_sortgroupref_clause_noerr(sgref, groupclause) : NULL;
		int			ref;

		if (sgc == NULL && root->parse->groupClause != NIL && IsA(lfirst(lc), Var) &&
			((Var *) lfirst(lc))->varlevelsup == 0)
		{
			sgc = makeNode(SortGroupClause);
			sgc->eqop = lookup_type_cache(exprType(lfirst(lc)), TYPECACHE_EQ_OPR)->eq_opr;
			dependent++;
		}
		if (sgc == NULL)
		{
			exprs = lappend(exprs, lfirst(lc));
			continue;
		}
		ref = q->join != NULL ? gr_join_value(root, q->join, lfirst(lc)) : GR_JOIN_PROBE;
		if (ref == GR_JOIN_NONE)
			return gr_decline("the GROUP BY key %s has a volatile function or a subquery",
							  expr_text(root, relid, lfirst(lc)));
		/* a join computes the table's expressions too for joined rows only */
		if (q->join != NULL && ref == GR_JOIN_PROBE && !is_table_column(relid, lfirst(lc)))
			ref = GR_JOIN_ROW;
		if (!bulk_key(q, relid, lfirst(lc), sgc, ref >= 0))
			return false;
		q->keyjoin = lappend_int(q->keyjoin, ref);
	}
	if (list_length(q->keys) != list_length(groupclause) + dependent ||
		list_length(q->keys) > GR_DECODE_MAX_COLS)
		return gr_decline("the GROUP BY keys are not all in the grouping target, or more than %d",
						  GR_DECODE_MAX_COLS);

	/* every aggregate must be one the node computes, over a column */
	nodes = pull_var_clause((Node *) list_concat(exprs, having),
							PVC_INCLUDE_AGGREGATES | PVC_RECURSE_PLACEHOLDERS);
	foreach(lc, nodes)
	{
		Aggref	   *agg = (Aggref *) lfirst(lc);
		Node	   *arg;
		int			ref;

		if (!IsA(agg, Aggref))
			return gr_decline("%s is outside any aggregate",
							  expr_text(root, relid, (Node *) agg));
		if (list_member(q->aggrefs, agg))
			continue;
		if (!bulk_output(q, relid, agg))
			return false;
		q->aggrefs = lappend(q->aggrefs, agg);
		arg = llast(q->outvars);
		ref = q->join != NULL && arg != NULL ? gr_join_value(root, q->join, arg) : GR_JOIN_PROBE;
		if (ref == GR_JOIN_NONE)
			return gr_decline("the argument of %s has a volatile function or a subquery",
							  expr_text(root, relid, (Node *) agg));
		/* a hashed relation's value: PostgreSQL's own, as a column is */
		if (ref >= 0)
			((GrScanAgg *) llast(q->outputs))->dec_scale = -1;
		/*
		 * What the table's program would compute (an expression, a numeric
		 * summed as scaled integers), a join computes for joined rows only:
		 * TPC-H Q3's l_extendedprice * (1 - l_discount) for 30 519 rows,
		 * not 3.2 M
		 */
		if (q->join != NULL && ref == GR_JOIN_PROBE && arg != NULL &&
			(!is_table_column(relid, arg) ||
			 ((GrScanAgg *) llast(q->outputs))->dec_scale != -1))
			ref = GR_JOIN_ROW;
		q->outjoin = lappend_int(q->outjoin, ref);
	}
	if (q->aggrefs == NIL)
		return gr_decline("the query has no aggregate");

	/* what the table gives: the outputs' arguments, then the keys, but the join's */
	foreach(lc, q->outvars)
		vars = lappend(vars, list_nth_int(q->outjoin, foreach_current_index(lc)) !=
					   GR_JOIN_PROBE ? NULL : lfirst(lc));
	foreach(lc, q->keyexprs)
		vars = lappend(vars, list_nth_int(q->keyjoin, foreach_current_index(lc)) !=
					   GR_JOIN_PROBE ? NULL : lfirst(lc));
	if (q->join != NULL)
		return bulk_join_table(root, q, rte, vars);
	if (!rte->inh)
	{
		q->scanrelid = relid;
		return heap_table(rte) && bulk_table(root, q, relid, vars);
	}
	if (rte->relkind != RELKIND_PARTITIONED_TABLE && rte->relkind != RELKIND_RELATION)
		return gr_decline("%s is not a plain table or an inheritance tree of them",
						  get_rel_name(rte->relid));
	return bulk_children(root, q, relid, vars);
}

/*
 * Sort a table's columns into attribute order (the decoder walks them so),
 * and renumber its outputs' and comparisons' column indexes to match.
 */
static void
sort_columns(BulkTable *t, GrExprProg *jprog)
{
	int			n = list_length(t->attnos);
	int		   *newidx = palloc(sizeof(int) * Max(n, 1));
	List	   *sorted = NIL;
	ListCell   *lc;

	for (int i = 0; i < n; i++)
	{
		int			attno = intVal(list_nth(t->attnos, i));
		int			rank = 0;

		foreach(lc, t->attnos)
			if (intVal(lfirst(lc)) < attno)
				rank++;
		newidx[i] = rank;
	}
	for (int r = 0; r < n; r++)
		for (int i = 0; i < n; i++)
			if (newidx[i] == r)
				sorted = lappend(sorted, list_nth(t->attnos, i));
	t->attnos = sorted;
	foreach(lc, t->outcols)
	{
		Integer    *col = lfirst(lc);

		if (intVal(col) >= 0)
			col->ival = newidx[intVal(col)];
	}
	foreach(lc, t->keycols)
	{
		Integer    *col = lfirst(lc);

		if (intVal(col) >= 0)
			col->ival = newidx[intVal(col)];
	}
	foreach(lc, t->quals)
	{
		GrScanQual *q = lfirst(lc);

		q->col = newidx[q->col];
	}
	foreach(lc, t->joincols)
	{
		Integer    *col = lfirst(lc);

		if (intVal(col) >= 0)
			col->ival = newidx[intVal(col)];
	}
	foreach(lc, t->hashcols)
	{
		Integer    *col = lfirst(lc);

		/* (a computed value's output keeps its number) */
		if (intVal(col) >= 0)
			col->ival = newidx[intVal(col)];
	}
	if (t->xb != NULL)
		gr_expr_renumber(&t->xb->prog, newidx, n);
	/* a joined-row program's columns of the table (not its join values, GR_JCOL_BASE on) */
	if (jprog != NULL)
		gr_expr_renumber(jprog, newidx, n);
}

/* expression_tree_walker: whether a node contains a PARAM_EXEC Param. */
static bool
has_param(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Param) && ((Param *) node)->paramkind == PARAM_EXEC)
		return true;
	return expression_tree_walker(node, has_param, context);
}

/*
 * One WHERE clause as EXPLAIN shows it.  A comparison with a parameter is
 * written here ("(x > $1)"): ruleutils.c deparses a PARAM_EXEC only beside
 * the plan that sets it, which a path does not have yet.
 */
static char *
clause_text(Expr *clause, List *context)
{
	OpExpr	   *oe = (OpExpr *) clause;
	StringInfoData buf;

	if (!has_param((Node *) clause, NULL))
		return deparse_expression((Node *) clause, context, false, false);
	Assert(IsA(oe, OpExpr) && list_length(oe->args) == 2);
	initStringInfo(&buf);
	appendStringInfoChar(&buf, '(');
	for (int i = 0; i < 2; i++)
	{
		Node	   *arg = list_nth(oe->args, i);

		if (i == 1)
			appendStringInfo(&buf, " %s ", get_opname(oe->opno));
		if (IsA(arg, Param))
			appendStringInfo(&buf, "$%d", ((Param *) arg)->paramid);
		else
			appendStringInfoString(&buf, deparse_expression(arg, context, false, false));
	}
	appendStringInfoChar(&buf, ')');
	return buf.data;
}

/* The WHERE clause of a table as EXPLAIN shows it ("" for none). */
static char *
filter_text(PlannerInfo *root, BulkTable *t)
{
	RangeTblEntry *rte = planner_rt_fetch(t->relid, root);
	List	   *context;
	List	   *clauses;
	StringInfoData buf;
	ListCell   *lc;

	if (t->qual_clauses == NIL)
		return "";
	context = deparse_context_for(get_rel_name(rte->relid), rte->relid);
	clauses = copyObject(t->qual_clauses);
	/* the deparse context has the table as range table entry 1 */
	ChangeVarNodes((Node *) clauses, t->relid, 1, 0);
	initStringInfo(&buf);
	foreach(lc, clauses)
	{
		if (foreach_current_index(lc) > 0)
			appendStringInfoString(&buf, " AND ");
		appendStringInfoString(&buf, clause_text(lfirst(lc), context));
	}
	if (list_length(clauses) > 1)
		return psprintf("(%s)", buf.data);
	return buf.data;
}

/* list_sort comparator: tables by range table index. */
static int
table_cmp(const ListCell *a, const ListCell *b)
{
	Index		ra = ((BulkTable *) lfirst(a))->relid;
	Index		rb = ((BulkTable *) lfirst(b))->relid;

	return ra < rb ? -1 : ra > rb ? 1 : 0;
}

/* Integers of a List of Integer as an array. */
static int *
int_array(List *l)
{
	int		   *a = palloc(sizeof(int) * Max(list_length(l), 1));
	ListCell   *lc;

	foreach(lc, l)
		a[foreach_current_index(lc)] = intVal(lfirst(lc));
	return a;
}

/* Per output or key: its index among the join values, or -1 (refs: gr_join_value's). */
static int *
join_indexes(BulkQuery *q, List *refs)
{
	int		   *a = palloc(sizeof(int) * Max(list_length(refs), 1));
	ListCell   *lc;

	foreach(lc, refs)
		a[foreach_current_index(lc)] = lfirst_int(lc) >= 0 ?
			gr_join_index(q->join, lfirst_int(lc)) : -1;
	return a;
}

/* n entries of -1: what no aggregate or key of a hashed relation's table reads. */
static int *
no_columns(int n)
{
	int		   *a = palloc(sizeof(int) * Max(n, 1));

	for (int i = 0; i < n; i++)
		a[i] = -1;
	return a;
}

/*
 * A table as the scan description has it: the probe table or a tree's
 * leaf, or a hashed relation read from its pages (hashcols), whose
 * columns no aggregate or group key reads.
 */
static void
table_desc(PlannerInfo *root, BulkQuery *q, const GrScanDesc *d, BulkTable *t,
		   GrScanTable *st)
{
	bool		hashed = t->hashcols != NIL;
	ListCell   *lq;

	st->relid = planner_rt_fetch(t->relid, root)->relid;
	st->ncols = list_length(t->attnos);
	st->attnos = int_array(t->attnos);
	st->argcols = hashed ? no_columns(d->naggs) : int_array(t->outcols);
	st->keycols = hashed ? no_columns(d->ngroupkeys) : int_array(t->keycols);
	st->nquals = list_length(t->quals);
	st->quals = palloc0(sizeof(GrScanQual) * Max(st->nquals, 1));
	foreach(lq, t->quals)
		st->quals[foreach_current_index(lq)] = *(GrScanQual *) lfirst(lq);
	st->filter = filter_text(root, t);
	if (t->xb != NULL)
	{
		st->prog = &t->xb->prog;
		st->binds = t->xb->bind;
		st->argouts = hashed ? no_columns(d->naggs) : int_array(t->outprog);
		st->keyouts = hashed ? no_columns(d->ngroupkeys) : int_array(t->keyouts);
		st->xquals = t->xb->quals;
		st->xouts = t->xb->outs;
	}
	st->argjoins = hashed ? no_columns(d->naggs) : join_indexes(q, q->outjoin);
	st->keyjoins = hashed ? no_columns(d->ngroupkeys) : join_indexes(q, q->keyjoin);
}

/* The hashed relations of a join, as the scan description has them. */
static void
join_desc(BulkQuery *q, GrScanDesc *d, BulkTable *t)
{
	ListCell   *lc;
	int			col = 0;

	d->njoins = list_length(q->join->rels);
	d->njoinvals = q->join->nvals;
	d->joins = palloc0(sizeof(GrScanJoin) * d->njoins);
	foreach(lc, q->join->rels)
	{
		GrJoinRel  *jr = lfirst(lc);
		GrScanJoin *sj = &d->joins[foreach_current_index(lc)];
		ListCell   *lk;

		sj->nkeys = list_length(jr->keyexprs);
		foreach(lk, jr->srcs)
		{
			GrJoinSrc  *src = lfirst(lk);
			int			k = foreach_current_index(lk);

			sj->src[k] = src->rel < 0 ? intVal(list_nth(t->joincols, col)) :
				-1 - (((GrJoinRel *) list_nth(q->join->rels, src->rel))->vstart + src->val);
			sj->srcwidth[k] = src->width;
			sj->keywidth[k] = intVal(list_nth(jr->keywidths, k));
			col++;
		}
		sj->nvals = list_length(jr->vals);
		sj->vstart = jr->vstart;
		sj->vallen = palloc(sizeof(int) * Max(sj->nvals, 1));
		foreach(lk, jr->vals)
			sj->vallen[foreach_current_index(lk)] = get_typlen(exprType(lfirst(lk)));
		sj->jointype = jr->jointype;
		sj->marked = jr->marked == JOIN_INNER ? 0 : jr->marked;
		sj->name = jr->name;
		if (list_nth_int(q->paged, foreach_current_index(lc)))
		{
			BulkTable  *pt = list_nth(q->pagerels, foreach_current_index(lc));

			sj->pages = palloc0(sizeof(GrScanTable));
			table_desc(q->root, q, d, pt, sj->pages);
			sj->pagecols = int_array(pt->hashcols);
			/* a computed value: its output, after the decoded columns */
			for (int c = 0; c < sj->nkeys + sj->nvals; c++)
				if (sj->pagecols[c] < 0)
					sj->pagecols[c] = sj->pages->ncols + (-1 - sj->pagecols[c]);
			sj->name = psprintf("%s read from pages%s%s", jr->name,
								sj->pages->filter[0] != '\0' ? ", Filter: " : "",
								sj->pages->filter);
		}
	}
}

/* What joined_row_var needs. */
typedef struct JoinedRowArg
{
	BulkQuery  *q;
	BulkTable  *t;
	int			vbase;			/* the first join value's column */
	GrScanDesc *d;
} JoinedRowArg;

/*
 * expression_tree_mutator: a Var of the joined row's program as the row's
 * column (varattno c + 1) for PostgreSQL's evaluation, its type noted.
 */
static Node *
joined_row_var(Node *node, void *context)
{
	JoinedRowArg *ja = context;
	Var		   *var = (Var *) node;
	int			c;

	if (node == NULL || !IsA(node, Var) || var->varlevelsup != 0)
		return expression_tree_mutator(node, joined_row_var, context);
	c = var->varno == ja->q->join->probe ? bulk_col(ja->t, var->varattno) :
		ja->vbase + gr_join_index(ja->q->join, gr_join_var(ja->q->join, var));
	ja->d->jtypes[c] = var->vartype;
	ja->d->jtypmods[c] = var->vartypmod;
	ja->d->jcolls[c] = var->varcollid;
	return (Node *) makeVar(1, c + 1, var->vartype, var->vartypmod, var->varcollid, 0);
}

/*
 * The joined-row program as the scan description has it: its join values'
 * columns where the row lays them out, after the table's decoded columns
 * and program outputs; its expressions for the rows it hands back.
 */
static void
joined_row_desc(PlannerInfo *root, BulkQuery *q, GrScanDesc *d, BulkTable *t)
{
	JoinedRowArg ja = {q, t, list_length(t->attnos) + (t->xb ? t->xb->prog.nouts : 0), d};
	GrExprProg *prog = palloc(sizeof(GrExprProg));
	StringInfoData quals;
	ListCell   *lc;

	memcpy(prog, &q->jxb->prog, sizeof(GrExprProg));
	for (int i = 0; i < prog->nsteps; i++)
		if (prog->steps[i].op == GR_X_COL && prog->steps[i].a >= GR_JCOL_BASE)
			prog->steps[i].a = ja.vbase + gr_join_index(q->join, prog->steps[i].a - GR_JCOL_BASE);
	d->jprog = prog;
	d->jbinds = q->jxb->bind;
	d->jargouts = palloc(sizeof(int) * Max(d->naggs, 1));
	foreach(lc, q->jargouts)
		d->jargouts[foreach_current_index(lc)] = lfirst_int(lc);
	d->jkeyouts = palloc(sizeof(int) * Max(d->ngroupkeys, 1));
	foreach(lc, q->jkeyouts)
		d->jkeyouts[foreach_current_index(lc)] = lfirst_int(lc);
	d->jncols = ja.vbase + q->join->nvals;
	d->jtypes = palloc(sizeof(Oid) * d->jncols);
	d->jtypmods = palloc(sizeof(int) * d->jncols);
	d->jcolls = palloc0(sizeof(Oid) * d->jncols);
	for (int c = 0; c < d->jncols; c++)
	{
		d->jtypes[c] = INT8OID;
		d->jtypmods[c] = -1;
	}
	d->jxquals = (List *) joined_row_var((Node *) copyObject(q->jxb->quals), &ja);
	d->jxouts = (List *) joined_row_var((Node *) copyObject(q->jxb->outs), &ja);
	initStringInfo(&quals);
	foreach(lc, q->join->quals)
		appendStringInfo(&quals, "%s%s", foreach_current_index(lc) > 0 ? " AND " : "",
						 joined_text(root, lfirst(lc)));
	d->jfilter = list_length(q->join->quals) > 1 ? psprintf("(%s)", quals.data) : quals.data;
}

/* The scan description of the query (its tables' columns already sorted). */
static GrScanDesc *
scan_desc(PlannerInfo *root, BulkQuery *q, bool partial, double groups)
{
	GrScanDesc *d = palloc0(sizeof(GrScanDesc));
	ListCell   *lc;

	d->partial = partial;
	d->groups = groups;
	d->naggs = list_length(q->outputs);
	d->aggs = palloc0(sizeof(GrScanAgg) * Max(d->naggs, 1));
	foreach(lc, q->outputs)
		d->aggs[foreach_current_index(lc)] = *(GrScanAgg *) lfirst(lc);
	d->ngroupkeys = list_length(q->keys);
	d->keys = palloc0(sizeof(GrScanKey) * Max(d->ngroupkeys, 1));
	foreach(lc, q->keys)
		d->keys[foreach_current_index(lc)] = *(GrScanKey *) lfirst(lc);
	d->ntables = list_length(q->tables);
	d->tables = palloc0(sizeof(GrScanTable) * Max(d->ntables, 1));
	foreach(lc, q->tables)
		table_desc(root, q, d, lfirst(lc), &d->tables[foreach_current_index(lc)]);
	if (q->join != NULL)
		join_desc(q, d, linitial(q->tables));
	if (q->jxb != NULL)
		joined_row_desc(root, q, d, linitial(q->tables));
	return d;
}

/* What a row the node emits under a GROUP BY costs beyond cpu_tuple_cost (GR_BULK_GROUP_COST). */
static double
group_row_cost(const BulkQuery *q)
{
	double		cost = GR_BULK_GROUP_COST;
	ListCell   *lc;

	foreach(lc, q->outputs)
	{
		const GrScanAgg *ag = lfirst(lc);

		if (ag->kind == GR_SCAN_AGG && ag->partial_form != GR_PARTIAL_VALUE)
			cost += GR_BULK_STATE_COST;
	}
	return cpu_tuple_cost * cost;
}

/*
 * Whether a text or char(n) GROUP BY key of the table mostly fits a GPU
 * job's key word (page_group.h: at most 7 bytes, char(n)'s trailing blanks
 * dropped): declared so (char(n) or varchar(n) of at most 7 bytes in this
 * database's encoding), or by ANALYZE's statistics: at most half the rows
 * its most common values stand for are longer (TPC-H's l_shipmode char(10)
 * 'MAIL' fits, p_brand 'Brand#13' does not), or without those its average
 * stored width is at most 8 (the bytes and a short header).  A longer
 * key's rows are each handed back by the jobs and grouped on the CPU:
 * TPC-H Q2's part grouped by p_brand, costed on the GPU, ran at 0.76x
 * PostgreSQL's parallel plan on the H200.  Without statistics it is taken
 * to fit, as before.
 */
static bool
short_text_key(const BulkQuery *q, Node *expr)
{
	int32		typmod = exprTypmod(expr);
	Oid			type = exprType(expr);
	VariableStatData vd;
	AttStatsSlot sslot;
	bool		fits = true;

	if ((type == BPCHAROID || type == VARCHAROID) && typmod > VARHDRSZ &&
		(typmod - VARHDRSZ) * pg_database_encoding_max_length() <= 7)
		return true;
	examine_variable(q->root, expr, 0, &vd);
	if (HeapTupleIsValid(vd.statsTuple))
	{
		if (get_attstatsslot(&sslot, vd.statsTuple, STATISTIC_KIND_MCV, InvalidOid,
							 ATTSTATSSLOT_VALUES | ATTSTATSSLOT_NUMBERS))
		{
			double		longer = 0;
			double		all = 0;

			for (int i = 0; i < sslot.nvalues && i < sslot.nnumbers; i++)
			{
				text	   *t = DatumGetTextPP(sslot.values[i]);
				const char *p = VARDATA_ANY(t);
				int			len = VARSIZE_ANY_EXHDR(t);

				if (type == BPCHAROID)
					while (len > 0 && p[len - 1] == ' ')
						len--;
				all += sslot.numbers[i];
				longer += len > 7 ? sslot.numbers[i] : 0;
			}
			fits = longer <= all / 2;
			free_attstatsslot(&sslot);
		}
		else
			fits = ((Form_pg_statistic) GETSTRUCT(vd.statsTuple))->stawidth <= 8;
	}
	ReleaseVariableStats(vd);
	return fits;
}

/*
 * Whether the page path's jobs can group by q's keys, as page_path.c's
 * gr_page_path_unavailable decides at run time: at most
 * GR_PAGE_GROUP_MAX_KEYS, no numeric column of the table read as it
 * is, which the CPU groups, and no text key of the table longer than a
 * key word (short_text_key); a numeric the program computes is grouped as
 * its bits, a hashed relation's (TPC-H Q18 groups by o_totalprice) as the
 * image row it lies in.
 */
static bool
gpu_groups_by(const BulkQuery *q)
{
	ListCell   *lc;

	if (list_length(q->keys) > GR_PAGE_GROUP_MAX_KEYS)
		return false;
	foreach(lc, q->keys)
	{
		const GrScanKey *key = lfirst(lc);
		bool		table = list_nth_int(q->keyjoin, foreach_current_index(lc)) < 0;

		if (key->kind == GR_KEY_NUMERIC && key->scale == -1 && table)
			return false;
		if ((key->kind == GR_KEY_TEXT || key->kind == GR_KEY_BPCHAR) && table &&
			!short_text_key(q, list_nth(q->keyexprs, foreach_current_index(lc))))
			return false;
	}
	return true;
}

/*
 * Whether the page path's jobs can reduce q's aggregates, as
 * start_page_path decides at run time: a numeric the program computes only
 * summed or averaged (a CASE choosing numerics of several scales, as TPC-H
 * Q8's and Q14's do, is summed at the largest, its rows' own scales' max
 * beside it).  Q8, costed on the GPU when the jobs could not sum those
 * (the CPU decoded then), was taken and ran at 0.41x PostgreSQL's plan on
 * the H200.
 */
static bool
gpu_reduces(const BulkQuery *q)
{
	ListCell   *lc;

	foreach(lc, q->outputs)
	{
		const GrScanAgg *ag = lfirst(lc);

		if (ag->kind == GR_SCAN_AGG && ag->dec_scale >= 0 &&
			ag->op != GR_OP_SUM && ag->op != GR_OP_AVG)
			return false;
	}
	return true;
}

/*
 * Whether a join's probes run on the GPU's page path (GR_BULK_GPU_BYTE_COST),
 * and *handed, the share of the probe table's rows that still go back to
 * the backend: those whose key matches several rows of an inner or left
 * join's relation, at most its rows beyond one a distinct key over the
 * distinct keys.  A marked join's probe marks every row of a key on the
 * GPU and hands none back.
 */
static bool
join_on_gpu(PlannerInfo *root, const GrJoinPlan *jp, double *handed)
{
	ListCell   *lc;

	*handed = 0;
	if (jp->marked != JOIN_INNER)
		return true;
	foreach(lc, jp->rels)
	{
		GrJoinRel  *jr = lfirst(lc);
		double		rows = clamp_row_est(jr->path->rows);
		double		keys;

		if (jr->unique || (jr->jointype != JOIN_INNER && jr->jointype != JOIN_LEFT))
			continue;
		keys = estimate_num_groups(root, jr->keyexprs, rows, NULL, NULL);
		if (rows > keys * (1 + 1.0 / GR_JOIN_GPU_DUPS))
			return false;
		*handed += (rows - keys) / keys;
	}
	*handed = Min(*handed, 1.0);
	return true;
}

/* The share of a scan's work one participant of a path of workers does (as cost_seqscan's). */
static double
participants(int workers)
{
	double		divisor = workers;

	if (workers == 0)
		return 1;
	if (parallel_leader_participation && workers < 4)
		divisor += 1.0 - 0.3 * workers;
	return divisor;
}

/*
 * The share of its pages' cost (seq_page_cost each, as cost_seqscan counts
 * them) that a path of the node whose page path runs on a GPU pays, in a
 * path of workers (0: serial, where PostgreSQL plans native_workers): one
 * participant's share of PostgreSQL's parallel plan, where all the pages
 * the node may read fit in shared_buffers; else all of it.  cost_seqscan
 * counts a parallel scan's pages whole, as if read from disk; but the
 * GPU reads pages in shared_buffers over PCIe, faster than the parallel
 * plan's participants share them, and what a page costs the backend is
 * GR_BULK_GPU_PAGE_COST.  Counted whole, the pages alone priced the node
 * above PostgreSQL's parallel plans that ran slower: on the H200 host at
 * TPC-H SF 1 with 8 workers (PostgreSQL's joins disabled to force the
 * node; bench/tpch/results/gpu-sf1-h200-w8), Q3 took 138 ms against
 * 238, Q5 134 against 231 and Q10 289 against 521, costed at 200 215
 * against 177 899, 164 692 against 89 322 and 196 883 against 185 387;
 * lineitem's 112 000 pages were most of each.  Serially (no workers) the
 * pages count whole, as before.  So do they where the join hashes more
 * rows than the probe relation's WHERE keeps: then the hashing (one
 * process lays each image out) is the node's time, not the pages, and
 * PostgreSQL hashes the smaller side in parallel.  TPC-H Q12 hashes all
 * 1.5 M orders for the 31 000 lineitem rows its WHERE keeps: with its
 * pages at a share, its node was chosen with 8 workers and took 308 ms
 * against PostgreSQL's 218 (its build 199 ms of it).
 */
static double
gpu_page_share(PlannerInfo *root, const BulkQuery *q, int workers, const bool *by_probe)
{
	double		pages = 0;
	double		hashed = 0;
	double		probe_rows = q->join != NULL ? root->simple_rel_array[q->join->probe]->rows : 0;
	ListCell   *lc;

	foreach(lc, q->tables)
		pages += ((BulkTable *) lfirst(lc))->pages;
	foreach(lc, q->pagerels)
		if (lfirst(lc) != NULL)
			pages += ((BulkTable *) lfirst(lc))->pages;
	foreach(lc, q->join != NULL ? q->join->rels : NIL)
	{
		double		rows = ((GrJoinRel *) lfirst(lc))->path->rows;

		/* (one fetched by the table's keys: their rows at most) */
		hashed += by_probe[foreach_current_index(lc)] ? Min(rows, probe_rows) : rows;
	}
	if (pages > NBuffers || (q->join != NULL && hashed > probe_rows))
		return 1;
	return 1 / participants(workers > 0 ? workers : q->native_workers);
}

/*
 * Whether hashed relation jr may be fetched by the keys of the probe table's
 * rows its WHERE keeps (GrScanJoin.probe_keys): a serial path on a GPU
 * (t: the relation read from its pages), one probe table, jr not marked,
 * keyed by one integer column equal to a column of the table, that column
 * first in a btree index of the integer operators with no predicate (the
 * index bulk_scan.c's key_index finds), and GR_PROBE_ROWS_PER_KEY rows of
 * jr or more for each row of the table's WHERE.
 */
static bool
probe_fetchable(PlannerInfo *root, const BulkQuery *q, const GrJoinRel *jr, const BulkTable *t)
{
	RelOptInfo *rel = root->simple_rel_array[jr->relid];
	Var		   *key;
	ListCell   *lc;

	if (t == NULL || list_length(q->tables) != 1 || jr->marked != JOIN_INNER ||
		list_length(jr->keyexprs) != 1 ||
		((GrJoinSrc *) linitial(jr->srcs))->rel != -1 || !IsA(linitial(jr->keyexprs), Var))
		return false;
	key = linitial(jr->keyexprs);
	if ((key->vartype != INT2OID && key->vartype != INT4OID && key->vartype != INT8OID) ||
		root->simple_rel_array[q->join->probe]->rows * GR_PROBE_ROWS_PER_KEY > rel->tuples)
		return false;
	foreach(lc, rel->indexlist)
	{
		IndexOptInfo *index = lfirst(lc);

		if (index->relam == BTREE_AM_OID && index->indpred == NIL && index->nkeycolumns > 0 &&
			index->indexkeys[0] == key->varattno && index->opfamily[0] == INTEGER_BTREE_FAM_OID)
			return true;
	}
	return false;
}

/*
 * The fetch of a relation read from its pages (pt) by keys of the table's
 * rows (probe_fetchable): a lookup a key, or where they are many for its
 * pages (GR_KEYS_PER_PAGE_*), its pages read by the GPU's jobs, which keep
 * only the rows of those keys (cpu mode costed as a GPU: CI's test).
 */
static double
probe_fetch_cost(const BulkTable *pt, double keys)
{
	if (keys >= gr_keys_per_page() * pt->pages)
		return cpu_tuple_cost * GR_BULK_GPU_PAGE_COST * pt->pages + cpu_tuple_cost * keys;
	return cpu_tuple_cost * (GR_BULK_LOOKUP_COST + 1) * keys;
}

/* The hashing of a relation's rows. */
static double
hash_cost(const GrJoinRel *jr, double rows)
{
	return cpu_operator_cost * rows * (list_length(jr->keyexprs) + 1);
}

/*
 * A hashed relation read from its pages (t), as the node's CPU page path
 * costs a table: its pages (share of them: gpu_page_share), each row
 * decoded and its comparisons made and its rows kept read, in a path of
 * workers a participant's share (each reads the pages it takes); and the
 * hashing of all of them, one process's.
 */
static double
page_read_cost(const GrJoinRel *jr, const BulkTable *t, int workers, double share)
{
	double		rows = jr->path->rows;

	return seq_page_cost * t->pages * share +
		(cpu_tuple_cost * t->tuples * (GR_BULK_ROW_COST +
									   GR_BULK_COL_COST * list_length(t->attnos)) +
		 cpu_tuple_cost * rows) / participants(workers) + hash_cost(jr, rows);
}

/*
 * A hashed relation's child plan in a path of workers (0: serial), and in
 * *cost the child's cost, its rows read and their hashing.  In a parallel
 * path, a partial child where that is cheaper: each participant's copy
 * reads a share of the rows (bulk_scan.c builds the image from all
 * shares), so its cost and its rows read are a participant's, while the
 * layout of all the rows stays one process's.
 */
static Path *
join_child(const GrJoinRel *jr, int workers, double *cost)
{
	Path	   *path = workers > 0 ? jr->safe_path : jr->path;
	Path	   *part = workers > 0 ? jr->partial_path : NULL;
	double		hash = hash_cost(jr, path->rows);

	*cost = path->total_cost + cpu_tuple_cost * path->rows + hash;
	if (part != NULL && part->total_cost + cpu_tuple_cost * part->rows + hash < *cost)
	{
		*cost = part->total_cost + cpu_tuple_cost * part->rows + hash;
		return part;
	}
	return path;
}

/*
 * Make the node's path, producing target as rows rows: final (serial, no
 * GROUP BY; or, with final_groups > 0, a GROUP BY's final rows, HAVING
 * applied, of that many groups) or partial states, parallel-aware with
 * workers.
 */
static CustomPath *
bulk_path(PlannerInfo *root, RelOptInfo *rel, PathTarget *target, BulkQuery *q,
		  int workers, double rows, double final_groups)
{
	CustomPath *cp = makeNode(CustomPath);
	GrScanDesc *d;
	bool		partial = workers > 0 || (q->keys != NIL && final_groups <= 0);
	double		pages = 0;
	double		cpu = 0;
	double		joined = 0;		/* a join's joined rows grouped */
	double		here = 0;		/* the share of rows the backend decodes */
	bool		gpu = gr_page_path == GR_PAGE_PATH_ON && gr_enabled &&
		gr_gpu_pages_unavailable() == NULL && gpu_groups_by(q) && gpu_reduces(q) &&
		(q->join == NULL || join_on_gpu(root, q->join, &here));
	bool		by_probe[GR_JOIN_MAX_RELS] = {0};	/* fetched by the table's keys */
	double		probe_read[GR_JOIN_MAX_RELS];	/* ... at this cost */
	double		share;
	List	   *children;		/* the relations read by child plans */
	int			nchildren = 0;
	ListCell   *lc;

	/*
	 * on the GPU, only the rows a join's job hands back are the backend's
	 * (one table's: none); on the CPU, every row
	 */
	if (!gpu)
		here = 1;
	/*
	 * A serial path on a GPU fetches a relation read from its pages by the
	 * keys of the table's rows its WHERE keeps where that costs less than
	 * reading it whole (each decided as if its pages counted whole): the
	 * table's pages read by the GPU's jobs once more, the fetch
	 * (probe_fetch_cost), the rows hashed.  So does cpu mode, whose host
	 * runs the jobs as a GPU's (CI's test of the path).
	 */
	foreach(lc, (gpu || gr_page_path == GR_PAGE_PATH_CPU) && workers == 0 && q->join != NULL ?
			q->join->rels : NIL)
	{
		GrJoinRel  *jr = lfirst(lc);
		int			j = foreach_current_index(lc);
		BulkTable  *pt = list_nth(q->pagerels, j);
		double		keys = clamp_row_est(root->simple_rel_array[q->join->probe]->rows);
		double		child;

		if (!probe_fetchable(root, q, jr, pt))
			continue;
		probe_read[j] = cpu_tuple_cost * GR_BULK_GPU_PAGE_COST *
			((BulkTable *) linitial(q->tables))->pages +
			probe_fetch_cost(pt, keys) + hash_cost(jr, keys);
		(void) join_child(jr, 0, &child);
		by_probe[j] = probe_read[j] < page_read_cost(jr, pt, 0, 1) && probe_read[j] <= child;
	}
	share = gpu ? gpu_page_share(root, q, workers, by_probe) : 1;
	list_sort(q->tables, table_cmp);
	foreach(lc, q->tables)
	{
		BulkTable  *t = lfirst(lc);

		sort_columns(t, q->jxb != NULL ? &q->jxb->prog : NULL);
		pages += t->pages;
		if (gpu)
			cpu += cpu_tuple_cost * GR_BULK_GPU_PAGE_COST * t->pages;
		if (!gpu || here > 0)
			cpu += here * (cpu_tuple_cost * t->tuples *
						   (GR_BULK_ROW_COST + GR_BULK_COL_COST * list_length(t->attnos)) +
						   (q->join != NULL ? 0 : cpu_operator_cost * t->tuples * list_length(q->keys)));
	}
	if (q->join != NULL)
	{
		/*
		 * the probes of the hashed relations a row reaches (a marked join's
		 * probe marks the rows it matches), and the joined rows, of the rows
		 * the backend decodes (grouped on the GPU otherwise, but for a
		 * marked join's: after the scan)
		 */
		cpu += here * root->simple_rel_array[q->join->probe]->rows *
			(cpu_operator_cost * (q->join->probe_ops + (q->join->marked != JOIN_INNER ? 1 : 0)) +
			 cpu_tuple_cost * GR_JOIN_MISS_COST * q->join->probe_misses);
		joined = q->joined_rows * (cpu_tuple_cost * GR_BULK_ROW_COST +
								   cpu_operator_cost * list_length(q->keys));
		if (q->join->marked == JOIN_INNER)
			cpu += here * joined;
	}
	cpu /= participants(workers);
	if (q->join != NULL && q->join->marked != JOIN_INNER)
	{
		/*
		 * and after the scan one process walks its rows, and probes the
		 * relations after it with those it emits
		 */
		double		walked = ((GrJoinRel *) linitial(q->join->rels))->path->rows;

		cpu += cpu_operator_cost * walked * (1 + q->join->emit_ops) + joined;
		/* whose marks on each GPU come back first, a byte a row */
		if (gpu)
			cpu += cpu_tuple_cost * GR_BULK_GPU_BYTE_COST * walked * gr_gpu_count();
	}
	/* the images to every GPU (all of them: the estimate covers every relation's) */
	if (gpu && q->join != NULL)
		cpu += cpu_tuple_cost * GR_BULK_GPU_BYTE_COST * gr_gpu_count() *
			(workers > 0 ? q->join->shared_bytes : q->join->hash_bytes);
	/* the rows emitted: one per group, a partial state each */
	cpu += cpu_tuple_cost * rows;
	if (q->keys != NIL && partial)
		cpu += group_row_cost(q) * rows;
	else if (q->keys != NIL)
	{
		/*
		 * final rows: each group made and finalized (the aggregates' final
		 * functions, as PostgreSQL costs them), HAVING evaluated over it,
		 * and the target projected for the rows HAVING keeps
		 */
		List	   *having = (List *) root->parse->havingQual;
		AggClauseCosts costs;
		QualCost	qc;

		MemSet(&costs, 0, sizeof(costs));
		get_agg_clause_costs(root, AGGSPLIT_SIMPLE, &costs);
		cost_qual_eval(&qc, having, root);
		cpu += (cpu_tuple_cost * GR_BULK_FINAL_GROUP_COST + costs.finalCost.per_tuple +
				qc.per_tuple) * final_groups + costs.finalCost.startup + qc.startup +
			target->cost.startup + target->cost.per_tuple * rows;
	}
	/*
	 * each relation's child plan, its rows read, and their hashing; or its
	 * read from its pages where that costs less
	 */
	cp->custom_paths = NIL;
	children = NIL;
	q->paged = NIL;
	foreach(lc, q->join != NULL ? q->join->rels : NIL)
	{
		double		cost;
		Path	   *path = join_child(lfirst(lc), workers, &cost);
		BulkTable  *pt = list_nth(q->pagerels, foreach_current_index(lc));
		int			j = foreach_current_index(lc);
		double		read = by_probe[j] ? probe_read[j] :
			pt != NULL ? page_read_cost(lfirst(lc), pt, workers, share) : -1;

		/* a tie (no row to read) goes to the pages too: no child to start */
		q->paged = lappend_int(q->paged, read >= 0 && read <= cost);
		if (llast_int(q->paged))
		{
			sort_columns(pt, NULL);
			cpu += read;
			continue;
		}
		cpu += cost;
		cp->custom_paths = lappend(cp->custom_paths, path);
		children = lappend(children, lfirst(lc));
	}
	/*
	 * A serial path that decodes on the CPU, where PostgreSQL can scan the
	 * input in parallel: its pages as well as its rows count at one
	 * participant's share of the parallel plan's.  cost_seqscan counts a
	 * parallel scan's pages whole, as if read from disk, but the pages in
	 * shared_buffers are CPU work each participant shares; judged by its
	 * rows alone, the serial node beat parallel plans that ran faster:
	 * TPC-H's part grouped by p_brand (a key the GPU cannot hold, so
	 * decoded on the CPU) on the H200 host, the serial node 25.7 ms against
	 * PostgreSQL's 16.5 with 2 workers planned (0.64x).  With the pages so
	 * counted, the node's own parallel path is the one it offers there.
	 */
	if (!gpu && workers == 0 && q->native_workers > 0)
		cpu += seq_page_cost * pages * (1 - 1 / participants(q->native_workers));
	cp->path.pathtype = T_CustomScan;
	cp->path.parent = rel;
	cp->path.pathtarget = target;
	cp->path.parallel_aware = workers > 0;
	cp->path.parallel_safe = workers > 0;
	cp->path.parallel_workers = workers;
	cp->path.rows = rows;
	cp->path.startup_cost = GR_BULK_STARTUP_COST + seq_page_cost * pages * share + cpu;
	cp->path.total_cost = cp->path.startup_cost;
	cp->path.pathkeys = NIL;
	cp->flags = 0;
	cp->methods = &bulk_path_methods;
	/* the scan description, then what plan_bulk_path alone needs */
	d = scan_desc(root, q, partial, final_groups > 0 ? final_groups : rows);
	foreach(lc, q->join != NULL ? q->join->rels : NIL)
	{
		GrJoinRel  *jr = lfirst(lc);
		int			j = foreach_current_index(lc);

		if (!list_nth_int(q->paged, j))
			d->joins[j].partial = list_nth(cp->custom_paths, nchildren++) == jr->partial_path;
		else
			d->joins[j].probe_keys = by_probe[j];
	}
	cp->custom_private = list_make5(gr_scan_desc_to_list(d),
									q->aggrefs, q->exprs, makeInteger(q->scanrelid),
									q->keyexprs);
	/* the relations of the child plans, in their order */
	cp->custom_private = lappend(cp->custom_private, children);
	return cp;
}

/* The partial grouping rel the planner made for this grouping, or NULL. */
static RelOptInfo *
partial_grouping_rel(PlannerInfo *root, RelOptInfo *grouped_rel)
{
	ListCell   *lc;

	foreach(lc, root->upper_rels[UPPERREL_PARTIAL_GROUP_AGG])
	{
		RelOptInfo *rel = lfirst(lc);

		if (bms_equal(rel->relids, grouped_rel->relids))
			return rel;
	}
	return NULL;
}

/*
 * Whether a join may run in parallel: every relation it hashes has a plan
 * a parallel worker may run (the participants run them, each a partial
 * one's share, and hash them into the query's shared memory for all:
 * bulk_scan.c), and their tables, every row kept, fit
 * gpu_reduce.join_memory.
 */
static bool
joins_parallel_fit(const BulkQuery *q)
{
	ListCell   *lc;

	if (q->join == NULL)
		return true;
	foreach(lc, q->join->rels)
		if (((GrJoinRel *) lfirst(lc))->safe_path == NULL)
			return gr_decline("a relation of the join has no plan a parallel worker may run");
	/* (a parallel build keeps every row a relation's plan gives) */
	if (q->join->shared_bytes > (double) gr_join_memory_kb * 1024)
		return gr_decline_hint("SET gpu_reduce.join_memory to more.",
							   "the hashed relations' estimated %.0f kB built in parallel pass gpu_reduce.join_memory (%d kB)",
							   q->join->shared_bytes / 1024, gr_join_memory_kb);
	return true;
}

/*
 * An expression with each subexpression that is a grouping expression
 * (keys) made a NULL constant, aggregates left whole: the Vars left in it
 * are the ones it needs beside the keys.
 */
static Node *
strip_keys(Node *node, List *keys)
{
	if (node == NULL || IsA(node, Aggref))
		return node;
	if (!IsA(node, Var) && list_member(keys, node))
		return (Node *) makeNullConst(exprType(node), exprTypmod(node), exprCollation(node));
	return expression_tree_mutator(node, strip_keys, keys);
}

/*
 * The partial grouping target: the grouping columns, then the Aggrefs of
 * the target and HAVING in partial mode (or, not partial, as they are: the
 * node's columns in final mode), as the planner's
 * make_partial_grouping_target makes it for a partial aggregate.  With
 * them come the Vars the other expressions read outside any aggregate:
 * functionally dependent columns, which the node groups by as keys too, and
 * in partial mode also a grouping expression's own Vars (trim_scale(x / 2)
 * for a key x / 2: x), which make more groups, merged again by the
 * Finalize Aggregate.  Final rows take such expressions from the key
 * itself (setrefs matches the key inside them), so those Vars are left out:
 * as keys they would split a group (x = 1 and x = 2 of x / 2).
 */
static PathTarget *
partial_target(PlannerInfo *root, PathTarget *target, Node *having, bool partial)
{
	List	   *groupclause = gr_group_clause(root);
	PathTarget *pt = create_empty_pathtarget();
	List	   *others = NIL;
	ListCell   *lc;

	foreach(lc, target->exprs)
	{
		Index		sgref = get_pathtarget_sortgroupref(target, foreach_current_index(lc));

		if (sgref != 0 && get_sortgroupref_clause_noerr(sgref, groupclause) != NULL)
			add_column_to_pathtarget(pt, lfirst(lc), sgref);
		else
			others = lappend(others, lfirst(lc));
	}
	if (having != NULL)
		others = lappend(others, having);
	if (!partial)
		others = (List *) strip_keys((Node *) others, pt->exprs);
	add_new_columns_to_pathtarget(pt, pull_var_clause((Node *) others,
													  PVC_INCLUDE_AGGREGATES |
													  PVC_RECURSE_WINDOWFUNCS |
													  PVC_INCLUDE_PLACEHOLDERS));
	foreach(lc, pt->exprs)
	{
		if (IsA(lfirst(lc), Aggref) && partial)
		{
			Aggref	   *agg = makeNode(Aggref);

			memcpy(agg, lfirst(lc), sizeof(Aggref));
			mark_partial_aggref(agg, AGGSPLIT_INITIAL_SERIAL);
			lfirst(lc) = agg;
		}
	}
	return set_pathtarget_cost_width(root, pt);
}

/* The cheapest total cost of the node's paths offered for this grouping, or -1. */
static double offered_cost = -1;

/* Offer a path with the node to rel, keeping its cost for decline.c. */
static void
offer(RelOptInfo *rel, Path *path)
{
	/* (add_path may free a path it rejects) */
	if (offered_cost < 0 || path->total_cost < offered_cost)
		offered_cost = path->total_cost;
	add_path(rel, path);
}

/*
 * PostgreSQL's Finalize Aggregate over input (the node's partial states
 * per group, or a Gather of them): hashed, and sorted above a Sort, for
 * the planner to choose between; each with the transition space of its
 * gpu_* states (agg_space.c).
 */
static void
add_finalize_paths(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *grouped_rel,
				   Path *input, const AggClauseCosts *costs, double groups)
{
	List	   *groupclause = gr_group_clause(root);
	List	   *having = (List *) root->parse->havingQual;
	Path	   *path;

	if (grouping_is_hashable(groupclause))
	{
		path = (Path *) create_agg_path(root, grouped_rel, input, grouped_rel->reltarget,
										AGG_HASHED, AGGSPLIT_FINAL_DESERIAL, groupclause,
										having, costs, groups);
		offer(grouped_rel, gr_agg_space_fix_path(root, input_rel, path));
	}
	if (grouping_is_sortable(groupclause))
	{
		/*
		 * A Sort only where the input is not in group order already: as in
		 * PostgreSQL's add_paths_to_grouping_rel, which also covers the
		 * group_pathkeys the planner emptied (every key fixed by an equality
		 * in WHERE), where a Sort would have no key.
		 */
		if (!pathkeys_contained_in(root->group_pathkeys, input->pathkeys))
			input = (Path *) create_sort_path(root, grouped_rel, input,
											  root->group_pathkeys, -1.0);
		path = (Path *) create_agg_path(root, grouped_rel, input,
										grouped_rel->reltarget, AGG_SORTED,
										AGGSPLIT_FINAL_DESERIAL, groupclause, having, costs,
										groups);
		offer(grouped_rel, gr_agg_space_fix_path(root, input_rel, path));
	}
}

/*
 * Bytes one group holds in the node, as the budget counts them: in the
 * group table its hash, two slots and key values, in the sink its
 * aggregates' running values and where it was last seen, all in arrays that
 * double as they grow (so twice, at worst), and each gpu_* state as palloc
 * rounds it (a power of two, and a chunk header).  What a state holds
 * beside it (a top-k heap, agg_space.c) or a long text key's copy grows
 * with the group: the table is emitted when its real memory passes the
 * budget, so it makes more flushes, not more groups a flush (not modelled
 * here).
 */
static double
group_bytes(const BulkQuery *q)
{
	double		bytes = 2 * (sizeof(uint64) + 2 * sizeof(uint32) +
							 (double) sizeof(GrGroupKeyValue) * Max(list_length(q->keys), 1) +
							 (double) sizeof(GrAggValue) * list_length(q->outputs) +
							 sizeof(uint32) + sizeof(uint16));
	ListCell   *lc;

	foreach(lc, q->outputs)
	{
		const GrScanAgg *ag = lfirst(lc);
		const GrAccum *acc;

		if (ag->kind != GR_SCAN_AGG || (acc = gr_kind_accum(ag->op, ag->type)) == NULL)
			continue;
		bytes += pg_nextpower2_32((uint32) (offsetof(GrState, partial) + acc->size)) + 16;
	}
	return bytes;
}

/*
 * Rows the node emits for 'groups' groups among 'rows' rows: one a group
 * while they fit in the group table's budget (work_mem x
 * hash_mem_multiplier); past it the table is emitted each time it fills,
 * and a row whose group was emitted before starts it again: with the keys
 * in turn (30 000 groups in a 5 M-row table, k = i % 30000) every row
 * became an emitted row of its own, 190 flushes and a 445 MB sort, 15.6 s
 * against PostgreSQL's 2.3 s; at random about half of them.  So every row,
 * which leaves such a query to PostgreSQL's plan.
 */
static double
emitted_rows(const BulkQuery *q, double groups, double rows)
{
	/* (each of the two contexts' last block may pass its use by a sixteenth) */
	double		fits = (double) get_hash_memory_limit() * 7 / 8 / group_bytes(q);

	return groups <= fits ? Min(groups, rows) : rows;
}

/*
 * At most how many groups date_trunc(field, x) makes, from the instants x's
 * statistics span (gr_time_stats_range) and the field's shortest unit (a
 * local day may be 23 hours, a month 28 days); false for another key.
 */
static bool
trunc_groups(PlannerInfo *root, Node *key, double *groups)
{
	/* each field's shortest unit in seconds (0: not date_trunc's) */
	static const int64 unit_secs[] = {
		[GR_XF_YEAR] = 365 * 86400 - 3600, [GR_XF_QUARTER] = 89 * 86400 - 3600,
		[GR_XF_MONTH] = 28 * 86400 - 3600, [GR_XF_WEEK] = 7 * 86400 - 3600,
		[GR_XF_DAY] = 23 * 3600, [GR_XF_HOUR] = 3600, [GR_XF_MINUTE] = 60
	};
	FuncExpr   *f = (FuncExpr *) key;
	int			field;
	int64		lo,
				hi;

	if (!IsA(key, FuncExpr) || list_length(f->args) != 2 ||
		strcmp(get_func_name(f->funcid), "date_trunc") != 0 ||
		!gr_time_stats_range(root, lsecond(f->args), &lo, &hi))
		return false;
	field = gr_expr_trunc_field(linitial(f->args));
	if (field < 0 || field >= lengthof(unit_secs) || unit_secs[field] == 0)
		return false;
	/* the units the span touches, one more at either end */
	*groups = (double) ((hi - lo) / unit_secs[field]) + 3;
	return true;
}

/*
 * PostgreSQL's estimate of the groups among rows, bounded where keys are
 * date_trunc of a time column: estimate_num_groups takes date_trunc('day',
 * ts) to have as many values as ts, so over timestamps all distinct it
 * gives a group a row, and the node (costed by its groups) kept
 * PostgreSQL's plan, for a handful of days.  The bound is the product of
 * each key's groups, a truncation's at most what its span allows.
 */
static double
group_estimate(PlannerInfo *root, List *exprs, double rows)
{
	double		groups = estimate_num_groups(root, exprs, rows, NULL, NULL);
	double		bound = 1;
	bool		truncated = false;
	ListCell   *lc;

	foreach(lc, exprs)
	{
		double		one = estimate_num_groups(root, list_make1(lfirst(lc)), rows, NULL, NULL);
		double		most;

		if (trunc_groups(root, lfirst(lc), &most) && most < one)
		{
			one = most;
			truncated = true;
		}
		bound *= one;
	}
	return truncated ? Max(1, Min(groups, bound)) : groups;
}

/*
 * A GROUP BY's final rows from the node itself (serial): each group's
 * final values, the HAVING qual evaluated by the node, no Finalize
 * Aggregate above.  Offered where the groups the planner expects fit
 * gpu_reduce.group_memory (where more come, the node reads the tables in
 * passes: bulk_scan.c); it emits the groups HAVING keeps, as PostgreSQL's
 * cost_agg estimates them.
 */
static void
add_final_path(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *grouped_rel,
			   double groups)
{
	List	   *having = (List *) root->parse->havingQual;
	PathTarget *target = partial_target(root, grouped_rel->reltarget, (Node *) having, false);
	BulkQuery	q;
	double		rows = groups;

	/* each group's keys and running values, and what its gpu_* states hold beside them */
	if (!bulk_query(root, input_rel, target, NIL, &q) || q.serial_only ||
		groups * (group_bytes(&q) + gr_agg_space_group(root, input_rel->rows / Max(groups, 1))) >
		(double) gr_group_memory_bytes() * 7 / 8)
		return;
	if (having != NIL)
		rows = clamp_row_est(groups * clauselist_selectivity(root, having, 0, JOIN_INNER, NULL));
	offer(grouped_rel, &bulk_path(root, grouped_rel, grouped_rel->reltarget, &q, 0, rows,
								  Max(groups, 1))->path);
}

/*
 * A GROUP BY: the node emits each group's partial states and PostgreSQL's
 * Finalize Aggregate merges them, over the node itself, and over Gather
 * over the parallel-aware node where the planner would consider a
 * parallel aggregate.
 */
static void
add_grouped_paths(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *grouped_rel)
{
	PathTarget *target = partial_target(root, grouped_rel->reltarget,
										root->parse->havingQual, true);
	RelOptInfo *partial_rel = partial_grouping_rel(root, grouped_rel);
	AggClauseCosts costs;
	BulkQuery	q;
	double		groups;

	if (!bulk_query(root, input_rel, target, NIL, &q))
		return;
	if (q.serial_only)
	{
		gr_decline("a native aggregate here has no partial state the node can hand to PostgreSQL's Finalize Aggregate (a float sum, average or variance)");
		return;
	}
	groups = group_estimate(root, get_sortgrouplist_exprs(gr_group_clause(root),
														  root->parse->targetList),
							input_rel->rows);
	/* (first: where add_path finds a partial plan's cost the same, it keeps this one) */
	add_final_path(root, input_rel, grouped_rel, groups);
	MemSet(&costs, 0, sizeof(costs));
	get_agg_clause_costs(root, AGGSPLIT_FINAL_DESERIAL, &costs);
	add_finalize_paths(root, input_rel, grouped_rel,
					   &bulk_path(root, grouped_rel, target, &q, 0,
								  emitted_rows(&q, groups, input_rel->rows), 0)->path,
					   &costs, groups);
	if (partial_rel != NULL && partial_rel->consider_parallel && q.native_workers > 0 &&
		joins_parallel_fit(&q))
	{
		int			workers = q.native_workers;
		double		each = emitted_rows(&q, groups, input_rel->rows / (workers + 1));
		double		rows = Min(each * (workers + 1), input_rel->rows);
		CustomPath *cp = bulk_path(root, partial_rel, target, &q, workers, each, 0);

		add_finalize_paths(root, input_rel, grouped_rel, (Path *)
						   create_gather_path(root, partial_rel, &cp->path, target, NULL, &rows),
						   &costs, groups);
	}
}

/*
 * The parallel plan: Finalize Aggregate over Gather over the node in
 * partial mode, where the planner would consider a parallel aggregate.
 * (The planner calls create_upper_paths_hook for the grouping rel only, so
 * the partial path and what goes over it are made here.)
 */
static void
add_parallel_path(PlannerInfo *root, RelOptInfo *input_rel,
				  RelOptInfo *grouped_rel, GroupPathExtraData *extra)
{
	RelOptInfo *partial_rel = partial_grouping_rel(root, grouped_rel);
	BulkQuery	q;
	Path	   *seq;
	CustomPath *cp;
	Path	   *gather;
	double		rows;

	if (partial_rel == NULL || !partial_rel->consider_parallel ||
		input_rel->partial_pathlist == NIL || !extra->partial_costs_set)
		return;
	/* as many workers as the planner gives a parallel scan of the table */
	seq = linitial(input_rel->partial_pathlist);
	if (seq->parallel_workers <= 0 ||
		!bulk_query(root, input_rel, partial_rel->reltarget, NIL, &q) || q.serial_only ||
		!joins_parallel_fit(&q))
		return;
	rows = seq->parallel_workers + 1;
	cp = bulk_path(root, partial_rel, partial_rel->reltarget, &q, seq->parallel_workers, rows,
				   0);
	gather = (Path *) create_gather_path(root, partial_rel, &cp->path,
										 partial_rel->reltarget, NULL, &rows);
	offer(grouped_rel, (Path *)
		  create_agg_path(root, grouped_rel, gather, grouped_rel->reltarget,
						  AGG_PLAIN, AGGSPLIT_FINAL_DESERIAL, NIL,
						  (List *) root->parse->havingQual,
						  &extra->agg_final_costs, 1));
}

/* The cheapest total cost among rel's paths, or -1 for none. */
static double
cheapest_cost(RelOptInfo *rel)
{
	double		cost = -1;
	ListCell   *lc;

	foreach(lc, rel->pathlist)
		if (cost < 0 || ((Path *) lfirst(lc))->total_cost < cost)
			cost = ((Path *) lfirst(lc))->total_cost;
	return cost;
}

/*
 * Offer the node for the grouping of input_rel into output_rel, or keep
 * the reason it cannot be (decline.c).
 */
static void
offer_node(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *output_rel, void *extra)
{
	BulkQuery	q;

	if (!gr_bulk_scan)
	{
		gr_decline("gpu_reduce.bulk_scan is off");
		return;
	}
	/*
	 * A table whose rows cost the executor less than the node's start loses
	 * anyway: skip the analysis, which costs more than such a query's plan.
	 */
	if (input_rel->reloptkind == RELOPT_BASEREL && input_rel->rtekind == RTE_RELATION &&
		input_rel->tuples * cpu_tuple_cost < GR_BULK_STARTUP_COST)
	{
		gr_decline("the table's %.0f rows cost PostgreSQL's plan less than the node's start",
				   input_rel->tuples);
		return;
	}
	/*
	 * (a GROUP BY whose every key an equality in WHERE fixes, which 16 on
	 * leave out of the processed GROUP BY, is one still: no row in, no row
	 * out, and its keys are the target's columns outside any aggregate)
	 */
	if (root->parse->groupClause != NIL)
	{
		add_grouped_paths(root, input_rel, output_rel);
		return;
	}
	if (!bulk_query(root, input_rel, output_rel->reltarget,
					(List *) root->parse->havingQual, &q))
		return;
	/*
	 * A native aggregate whose partial state the node cannot make (sum of
	 * int8, numeric, variances) keeps it serial; where PostgreSQL would plan
	 * the query in parallel, its parallel plan wins (on the GPU host, 10 M
	 * rows, 8 workers: native sum(int8) 145 ms, the serial node 346 ms),
	 * though the node's cost, which assumes the page path's speed, says
	 * otherwise: leave such a query to PostgreSQL.
	 */
	if (q.serial_only && q.native_workers > 0)
	{
		gr_decline("a native aggregate here has no partial state the node can hand to PostgreSQL's Finalize Aggregate, and PostgreSQL plans the query in parallel");
		return;
	}
	offer(output_rel, &bulk_path(root, output_rel, output_rel->reltarget, &q, 0, 1, 0)->path);
	add_parallel_path(root, input_rel, output_rel, (GroupPathExtraData *) extra);
}

/*
 * create_upper_paths_hook: for the grouping rel, give PostgreSQL's Aggs the
 * memory of their gpu_* states (agg_space.c), then offer the node, and tell
 * the user why not where asked (gpu_reduce.report_declines).
 */
static void
bulk_upper_paths(PlannerInfo *root, UpperRelationKind stage,
				 RelOptInfo *input_rel, RelOptInfo *output_rel, void *extra)
{
	double		native_cost;

	if (prev_upper_paths_hook)
		prev_upper_paths_hook(root, stage, input_rel, output_rel, extra);
	if (stage != UPPERREL_GROUP_AGG)
		return;
	gr_decline_reset();
	/* nothing of ours where the extension is not installed (a preloaded library) */
	if (!gr_extension_installed())
	{
		gr_decline_hint("CREATE EXTENSION gpu_reduce;",
						"the extension is not installed in this database");
		gr_decline_report(-1, -1);
		return;
	}
	gr_agg_space_fix_rel(root, input_rel, output_rel);
	native_cost = cheapest_cost(output_rel);
	offered_cost = -1;
	offer_node(root, input_rel, output_rel, extra);
	gr_decline_report(offered_cost, native_cost);
}

/*
 * PlanCustomPath: the node's plan.  It scans the table (scanrelid) and
 * produces rows whose columns are the group keys and the distinct Aggrefs
 * (custom_scan_tlist): one row without GROUP BY, one a group with; the
 * target list and HAVING refer to those.
 */
static Plan *
plan_bulk_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
			   List *tlist, List *clauses, List *custom_plans)
{
	CustomScan *cs = makeNode(CustomScan);
	List	   *priv = best_path->custom_private;
	List	   *desc = linitial(priv);
	List	   *aggrefs = lsecond(priv);
	List	   *exprs = lthird(priv);
	List	   *keyexprs = list_nth(priv, 4);
	bool		partial = gr_scan_desc_from_list(desc)->partial;
	List	   *joinrels = list_nth(priv, 5);
	List	   *scan_tlist = NIL;
	ListCell   *lc;
	ListCell   *lj;

	foreach(lc, keyexprs)
		scan_tlist = lappend(scan_tlist,
							 makeTargetEntry(copyObject(lfirst(lc)),
											 list_length(scan_tlist) + 1,
											 NULL, false));
	foreach(lc, aggrefs)
		scan_tlist = lappend(scan_tlist,
							 makeTargetEntry(copyObject(lfirst(lc)),
											 list_length(scan_tlist) + 1,
											 NULL, false));
	cs->scan.plan.targetlist = tlist;
	cs->scan.plan.qual = partial ? NIL : (List *) root->parse->havingQual;
	/* one table: a scan of it; several (a tree): no scan relation */
	cs->scan.scanrelid = intVal(lfourth(priv));
	cs->flags = best_path->flags;
	/* each hashed relation's plan gives its keys, then its values */
	forboth(lc, custom_plans, lj, best_path->custom_paths)
	{
		Path	   *path = lfirst(lj);

		lfirst(lc) = change_plan_targetlist(lfirst(lc),
											gr_join_tlist(list_nth(joinrels,
																   foreach_current_index(lc))),
											path->parallel_safe);
	}
	cs->custom_plans = custom_plans;
	cs->custom_exprs = exprs;
	cs->custom_private = desc;
	cs->custom_scan_tlist = scan_tlist;
	cs->methods = &gr_bulk_scan_methods;
	return &cs->scan.plan;
}

/* Define the GUC and install the planner hook; from _PG_init. */
void
gr_bulk_plan_init(void)
{
	DefineCustomBoolVariable("gpu_reduce.bulk_scan",
							 "Lets aggregate queries over one table read its pages in bulk (GpuReduce scan).",
							 "When off, gpu_* aggregates get their rows from PostgreSQL's own scan; answers are the same.",
							 &gr_bulk_scan, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomEnumVariable("gpu_reduce.native_aggregates",
							 "Lets the GpuReduce scan take PostgreSQL's own sum, avg, min, max, count and variance aggregates.",
							 "on: wherever the answer is identical to native's (integer and numeric sums, averages and variances; min and max of every supported type). "
							 "exact: float sums, averages and variances too, whose exact answers may differ from native's in the last bits. off: only gpu_* aggregates.",
							 &gr_native_aggregates, GR_NATIVE_ON, native_aggregates_options,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpu_reduce.report_declines",
							 "Says, as a NOTICE when a query is planned, why the GpuReduce node was not planned.",
							 "The first reason met (the clause, aggregate, key, table or setting, with the fix where there is one), "
							 "or where the node was offered, its cost beside PostgreSQL's cheapest plan.",
							 &gr_report_declines, false,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	gr_join_init();
	RegisterCustomScanMethods(&gr_bulk_scan_methods);
	gr_agg_catalog_init();
	prev_upper_paths_hook = create_upper_paths_hook;
	create_upper_paths_hook = bulk_upper_paths;
}

PG_FUNCTION_INFO_V1(gpu_reduce_planner_support);

/*
 * Planner support function of the transition functions.  It gives no
 * advice; what matters is that the planner calls it (for the cost of a
 * transition function) before it plans the grouping, which loads the
 * library, and with it the hook above, in a session that has not yet run
 * a gpu_* aggregate: without it the first query would miss the bulk scan.
 */
Datum
gpu_reduce_planner_support(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(NULL);
}
