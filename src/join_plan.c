/*
 * join_plan.c
 *	  Which joins the GpuReduce node takes: inner joins of one probe table,
 *	  which the node reads from its pages, with relations it hashes, each
 *	  joined by equalities of integer or date columns to the table or to a
 *	  relation hashed before it (a star or a snowflake).
 *
 * The probe table is the join's largest relation; the others are hashed
 * in an order where each is joined to what came before (gr_join_plan).
 * A hashed relation's rows are those of PostgreSQL's own cheapest plan for
 * it (its WHERE clauses, row security and all), a child of the node that
 * produces its side of the equalities and the values the node reads from
 * it: columns, or expressions over it alone that cannot raise an error
 * (leakproof), which PostgreSQL computes there.  Join clauses that are not
 * such equalities, and group keys and aggregate arguments over several
 * relations, are the joined row's: compiled into its program by
 * bulk_plan.c.  A semi or anti join (EXISTS, NOT EXISTS, IN) or a left
 * join whose inner (nullable) side is one relation other than the probe
 * table, joined by such equalities alone, is hashed the same way and
 * probed for whether a match exists (a left join's row with no match goes
 * on with that relation's values NULL).  A semi or anti join whose inner
 * side is the probe table (TPC-H Q4, Q22) is a marked join: its outer side,
 * one relation joined to the table by such equalities alone, is hashed
 * first, the probe marks its rows, and after the scan its marked (semi) or
 * unmarked (anti) rows are the join's, joined to the relations hashed after
 * it; the table gives the join only its keys and its WHERE.  A right or
 * full join keeps PostgreSQL's plan, as does a left join whose inner side
 * is the probe table (TPC-H Q13) and a semi or anti join of that shape
 * with a clause that is not such an equality (Q21).
 */
#include "pg_compat.h"

#include <limits.h>

#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "optimizer/paths.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"

#include "decline.h"
#include "join_plan.h"
#include "scan_desc.h"

int			gr_join_memory_kb = 256 * 1024;

/* a value reference: the relation's index, then its value's */
#define REF(rel, val) (((rel) << 8) | (val))
#define REF_REL(ref) ((ref) >> 8)
#define REF_VAL(ref) ((ref) & 0xFF)

/* The width of a join key's type (an integer or a date), or 0. */
static int
key_width(Oid type)
{
	switch (type)
	{
		case INT2OID:
			return 2;
		case INT4OID:
		case DATEOID:
			return 4;
		case INT8OID:
			return 8;
	}
	return 0;
}

/* Whether opno is the equality of the two types as the node compares them (as int64s). */
static bool
key_equality(Oid opno, Oid left, Oid right)
{
	if (left == DATEOID || right == DATEOID)
		return left == right && get_opcode(opno) == F_DATE_EQ;
	return key_width(left) > 0 && key_width(right) > 0 &&
		get_op_opfamily_strategy(opno, INTEGER_BTREE_FAM_OID) == BTEqualStrategyNumber;
}

/* A Var under binary-compatible relabelings, or NULL. */
static Var *
plain_var(Node *n)
{
	while (n != NULL && IsA(n, RelabelType))
		n = (Node *) ((RelabelType *) n)->arg;
	return n != NULL && IsA(n, Var) && ((Var *) n)->varlevelsup == 0 &&
		((Var *) n)->varattno > 0 ? (Var *) n : NULL;
}

/* "alias.column" of a Var, for EXPLAIN. */
static char *
var_text(PlannerInfo *root, Var *var)
{
	RangeTblEntry *rte = planner_rt_fetch(var->varno, root);

	return psprintf("%s.%s", quote_identifier(rte->eref->aliasname),
					quote_identifier(get_rte_attribute_name(rte, var->varattno)));
}

/* A join clause as a reason tells it: "a.x = b.y", or the relations it reads. */
static char *
clause_text(PlannerInfo *root, Expr *clause)
{
	OpExpr	   *op = (OpExpr *) clause;
	Var		   *a;
	Var		   *b;
	StringInfoData buf;
	int			i = -1;

	if (!gr_report_declines)
		return "";
	if (IsA(op, OpExpr) && list_length(op->args) == 2 &&
		(a = plain_var(linitial(op->args))) != NULL && (b = plain_var(lsecond(op->args))) != NULL)
		return psprintf("%s %s %s", var_text(root, a), get_opname(op->opno), var_text(root, b));
	initStringInfo(&buf);
	appendStringInfoString(&buf, "over");
	while ((i = bms_next_member(gr_base_relids(root, pull_varnos(root, (Node *) clause)), i)) >= 0)
		appendStringInfo(&buf, " %s", planner_rt_fetch(i, root)->eref->aliasname);
	return buf.data;
}

/* The hashed relation of range table index relid, or -1. */
static int
rel_index(const GrJoinPlan *jp, Index relid)
{
	ListCell   *lc;

	foreach(lc, jp->rels)
		if (((GrJoinRel *) lfirst(lc))->relid == relid)
			return foreach_current_index(lc);
	return -1;
}

/* Whether the node holds values of the type as the decoder gives them (by value, or a varlena). */
static bool
value_type(Oid type)
{
	int16		len;
	bool		byval;

	get_typlenbyval(type, &len, &byval);
	return (byval && (len == 1 || len == 2 || len == 4 || len == 8)) || len == -1;
}

/* The index of expr among a hashed relation's values, added if new. */
static int
add_value(GrJoinRel *jr, Node *expr)
{
	ListCell   *lc;

	foreach(lc, jr->vals)
		if (equal(lfirst(lc), expr))
			return foreach_current_index(lc);
	jr->vals = lappend(jr->vals, copyObject(expr));
	return list_length(jr->vals) - 1;
}

/*
 * Add the equality clause joining relation rel (hashed next) to those in
 * 'joined' as one of jr's keys; false if it is not one the node takes.
 */
static bool
add_key(PlannerInfo *root, GrJoinPlan *jp, GrJoinRel *jr, Relids joined, Expr *clause)
{
	OpExpr	   *op = (OpExpr *) clause;
	Var		   *a;
	Var		   *b;
	Var		   *mine;
	Var		   *other;
	GrJoinSrc  *src;

	if (!IsA(op, OpExpr) || list_length(op->args) != 2 ||
		(a = plain_var(linitial(op->args))) == NULL ||
		(b = plain_var(lsecond(op->args))) == NULL)
		return false;
	mine = a->varno == jr->relid ? a : b;
	other = mine == a ? b : a;
	if (mine->varno != jr->relid || !bms_is_member(other->varno, joined) ||
		!key_equality(op->opno, exprType(linitial(op->args)), exprType(lsecond(op->args))) ||
		list_length(jr->keyexprs) == GR_JOIN_MAX_KEYS)
		return false;
	src = palloc0(sizeof(GrJoinSrc));
	src->width = key_width(other->vartype);
	if (other->varno == jp->probe)
	{
		src->rel = -1;
		src->attno = other->varattno;
	}
	else
	{
		src->rel = rel_index(jp, other->varno);
		/* a semi or anti join's inner side has no values */
		if (((GrJoinRel *) list_nth(jp->rels, src->rel))->jointype != JOIN_INNER)
			return false;
		src->val = add_value(list_nth(jp->rels, src->rel), (Node *) other);
	}
	jr->keyexprs = lappend(jr->keyexprs, mine);
	jr->keywidths = lappend(jr->keywidths, makeInteger(key_width(mine->vartype)));
	jr->srcs = lappend(jr->srcs, src);
	jr->name = psprintf("%s%s%s = %s", jr->name, list_length(jr->keyexprs) > 1 ? " AND " : "",
						var_text(root, mine), var_text(root, other));
	return true;
}

/*
 * The cheapest unparameterized path of paths (a rel's pathlist, or its
 * partial_pathlist: each participant's copy returns a share of its rows)
 * that a parallel participant may run, or NULL.
 */
static Path *
cheapest_safe_path(List *paths)
{
	Path	   *best = NULL;
	ListCell   *lc;

	foreach(lc, paths)
	{
		Path	   *path = lfirst(lc);

		if (path->param_info == NULL && path->parallel_safe &&
			(best == NULL || path->total_cost < best->total_cost))
			best = path;
	}
	return best;
}

/*
 * Whether rel has at most one row for each value of the columns its side of
 * the equalities 'clauses' reads: a unique index over some of them.
 */
static bool
unique_for(RelOptInfo *rel, List *clauses)
{
	Bitmapset  *cols = NULL;
	ListCell   *lc;

	foreach(lc, clauses)
	{
		OpExpr	   *op = lfirst(lc);
		Var		   *a;
		Var		   *b;

		if (!IsA(op, OpExpr) || list_length(op->args) != 2 ||
			(a = plain_var(linitial(op->args))) == NULL ||
			(b = plain_var(lsecond(op->args))) == NULL)
			continue;
		if (a->varno == rel->relid)
			cols = bms_add_member(cols, a->varattno);
		if (b->varno == rel->relid)
			cols = bms_add_member(cols, b->varattno);
	}
	foreach(lc, rel->indexlist)
	{
		IndexOptInfo *index = lfirst(lc);
		int			c = 0;

		if (!index->unique || !index->immediate || index->indpred != NIL)
			continue;
		while (c < index->nkeycolumns && bms_is_member(index->indexkeys[c], cols))
			c++;
		if (c == index->nkeycolumns)
			return true;
	}
	return false;
}

/*
 * The semi, anti and left joins of the query: per range table index,
 * JOIN_SEMI, JOIN_ANTI or JOIN_LEFT where the relation is such a join's
 * inner (nullable) side, else JOIN_INNER.  False, with the reason, where
 * the query has a full join, or such a join whose inner side is not one
 * relation.
 */
static bool
special_joins(PlannerInfo *root, JoinType *kinds)
{
	ListCell   *lc;

	for (int i = 0; i < root->simple_rel_array_size; i++)
		kinds[i] = JOIN_INNER;
	foreach(lc, root->join_info_list)
	{
		SpecialJoinInfo *sj = lfirst(lc);
		int			r;

		if (sj->jointype != JOIN_SEMI && sj->jointype != JOIN_ANTI && sj->jointype != JOIN_LEFT)
			return gr_decline("the query has a full join (the node takes inner, left, semi and anti joins)");
		if (!bms_get_singleton_member(sj->min_righthand, &r))
			return gr_decline("the inner side of a left, semi or anti join is not one relation");
		kinds[r] = sj->jointype;
	}
	return true;
}

/* Whether a join clause of relation rel needs no relation beyond 'joined' and it. */
static bool
clause_within(PlannerInfo *root, RestrictInfo *ri, Relids joined, RelOptInfo *rel)
{
	return bms_is_subset(gr_base_relids(root, ri->required_relids), bms_union(joined, rel->relids));
}

/*
 * Whether every join clause of relation rel is within 'joined' and it (a
 * semi, anti or left join's inner side is hashed after the relations its
 * clauses read).
 */
static bool
clauses_within(PlannerInfo *root, RelOptInfo *rel, Relids joined)
{
	ListCell   *lc;

	foreach(lc, rel->joininfo)
		if (!clause_within(root, lfirst(lc), joined, rel))
			return false;
	return true;
}

/*
 * Whether every join clause of the join's relations is one the plan
 * places ('placed': as a key or a joined row's conjunct): one left out
 * would be a clause of the query the node never checks.
 */
static bool
every_clause_placed(PlannerInfo *root, Relids relids, List *placed)
{
	int			i = -1;

	while ((i = bms_next_member(relids, i)) >= 0)
	{
		ListCell   *lc;

		foreach(lc, root->simple_rel_array[i]->joininfo)
			if (!list_member_ptr(placed, ((RestrictInfo *) lfirst(lc))->clause))
				return gr_decline("a join clause has no place in the node's join (%s)",
								  clause_text(root, ((RestrictInfo *) lfirst(lc))->clause));
	}
	return true;
}

/*
 * The clauses that join rel to the relations 'joined': the equalities its
 * equivalence classes imply, and its other join clauses that need no
 * relation beyond them.
 */
static List *
join_clauses(PlannerInfo *root, Relids joined, RelOptInfo *rel)
{
	List	   *clauses = NIL;
	ListCell   *lc;

	foreach(lc, gr_join_implied_equalities(root, bms_union(joined, rel->relids), joined, rel))
		clauses = lappend(clauses, ((RestrictInfo *) lfirst(lc))->clause);
	foreach(lc, rel->joininfo)
		if (clause_within(root, lfirst(lc), joined, rel))
			clauses = lappend(clauses, ((RestrictInfo *) lfirst(lc))->clause);
	return clauses;
}

/*
 * The relation a marked join hashes and marks (join_plan.h): the outer side
 * of the semi or anti join whose inner side is the probe table, one
 * relation that is no join's inner side; 0, with the reason, where the
 * probe table is the inner side of a join of another shape.
 */
static Index
marked_relation(PlannerInfo *root, Index probe, JoinType *kinds)
{
	const char *name = planner_rt_fetch(probe, root)->eref->aliasname;
	ListCell   *lc;

	foreach(lc, root->join_info_list)
	{
		SpecialJoinInfo *sj = lfirst(lc);
		int			m;

		if (!bms_is_member(probe, sj->min_righthand))
			continue;
		if (sj->jointype == JOIN_LEFT)
			return gr_decline("the largest relation, %s, is the nullable side of a left join (the node reads the largest relation; it marks the hashed side of semi and anti joins only)",
							  name);
		if (!bms_get_singleton_member(gr_base_relids(root, sj->min_lefthand), &m) ||
			kinds[m] != JOIN_INNER)
			return gr_decline("the largest relation, %s, is the inner side of a semi or anti join whose outer side is not one relation joined inner (the node marks one hashed relation)",
							  name);
		return m;
	}
	return gr_decline("the largest relation, %s, is the inner side of a join the node does not mark",
					  name);
}

/*
 * Whether the node takes the inner joins of joinrel: fills jp with the
 * probe table (the largest relation) and the relations to hash, in an
 * order where each one's equalities reach the table or a relation hashed
 * before it.  Keeps the reason where not (decline.c).
 */
bool
gr_join_plan(PlannerInfo *root, RelOptInfo *joinrel, GrJoinPlan *jp)
{
	Relids		joined;
	Relids		left = NULL;
	Relids		inner_sides = NULL; /* of semi, anti and left joins, hashed */
	List	   *placed = NIL;	/* the join clauses placed */
	double		most = -1;
	double		reach = 1;		/* the probe table's rows that reach the next
								 * relation, a fraction */
	int			i = -1;
	Index		first = 0;		/* the relation hashed first, or 0: any */
	JoinType   *kinds = palloc(sizeof(JoinType) * root->simple_rel_array_size);

	memset(jp, 0, sizeof(*jp));
	if (root->hasLateralRTEs || root->placeholder_list != NIL)
		return gr_decline("the query has a LATERAL reference or a placeholder (the node takes inner, semi and anti joins)");
	if (!special_joins(root, kinds))
		return false;
	/* (from PostgreSQL 16 a join rel's relids hold its outer joins' too) */
	while ((i = bms_next_member(gr_base_relids(root, joinrel->relids), i)) >= 0)
	{
		RelOptInfo *rel = i < root->simple_rel_array_size ? root->simple_rel_array[i] : NULL;

		if (rel == NULL || rel->reloptkind != RELOPT_BASEREL)
			return gr_decline("the join is not of base relations");
		left = bms_add_member(left, i);
		if (rel->tuples > most)
		{
			most = rel->tuples;
			jp->probe = i;
		}
	}
	if (bms_num_members(left) > GR_JOIN_MAX_RELS + 1)
		return gr_decline("the query joins more than %d relations", GR_JOIN_MAX_RELS + 1);
	/* a marked join: its outer side is hashed first, then what joins it */
	jp->marked = kinds[jp->probe];
	if (jp->marked != JOIN_INNER && (first = marked_relation(root, jp->probe, kinds)) == 0)
		return false;
	joined = bms_make_singleton(jp->probe);
	left = bms_del_member(left, jp->probe);
	while (!bms_is_empty(left))
	{
		RelOptInfo *best = NULL;
		List	   *best_clauses = NIL;
		bool		best_unique = false;
		double		best_kept = 0;
		GrJoinRel  *jr;
		ListCell   *lc;

		/*
		 * Next, of the relations joined to those before: one that matches a
		 * row at most once (a unique key), the one whose WHERE clauses keep
		 * the fewest of its rows; else the smallest.  So the rows a probe
		 * carries on shrink early and multiply late (TPC-H Q5: orders
		 * before customer, which nation alone would join to every customer
		 * of the nation).
		 */
		i = -1;
		while ((i = bms_next_member(left, i)) >= 0)
		{
			RelOptInfo *rel = root->simple_rel_array[i];
			List	   *clauses = join_clauses(root, joined, rel);
			bool		unique;
			double		kept;

			if (clauses == NIL || (first != 0 && i != first) ||
				(kinds[i] != JOIN_INNER && !clauses_within(root, rel, joined)))
				continue;
			unique = unique_for(rel, clauses);
			kept = rel->rows / Max(rel->tuples, 1);
			if (best == NULL || (unique && !best_unique) ||
				(unique == best_unique &&
				 (unique ? kept < best_kept : rel->rows < best->rows)))
			{
				best = rel;
				best_clauses = clauses;
				best_unique = unique;
				best_kept = kept;
			}
		}
		if (best == NULL)
			return gr_decline("the join has a relation joined to the others by no clause (a cross join)");
		if (best->cheapest_total_path == NULL || best->cheapest_total_path->param_info != NULL ||
			!bms_is_empty(best->lateral_relids))
			return gr_decline("relation %s has no plan of its own to hash",
							  planner_rt_fetch(best->relid, root)->eref->aliasname);
		jr = palloc0(sizeof(GrJoinRel));
		jr->relid = best->relid;
		jr->path = best->cheapest_total_path;
		jr->safe_path = cheapest_safe_path(best->pathlist);
		jr->partial_path = cheapest_safe_path(best->partial_pathlist);
		jr->name = "";
		jr->jointype = kinds[best->relid];
		jr->marked = first != 0 ? jp->marked : JOIN_INNER;
		jr->unique = best_unique;
		first = 0;
		jp->rels = lappend(jp->rels, jr);
		/*
		 * Its equalities are its keys; the other clauses, the joined row's
		 * (a semi, anti or left join's are all its keys, and no later
		 * relation's clause reads its columns)
		 */
		foreach(lc, best_clauses)
		{
			placed = lappend(placed, lfirst(lc));
			if (add_key(root, jp, jr, joined, lfirst(lc)))
			{
				/* after a marked join, the table's rows are not the join's */
				if (jp->marked != JOIN_INNER && jr->marked == JOIN_INNER &&
					((GrJoinSrc *) llast(jr->srcs))->rel < 0)
					return gr_decline("relation %s joins the largest relation, %s, which is inside the semi or anti join the node marks (%s)",
									  planner_rt_fetch(jr->relid, root)->eref->aliasname,
									  planner_rt_fetch(jp->probe, root)->eref->aliasname,
									  clause_text(root, lfirst(lc)));
				continue;
			}
			if (jr->marked != JOIN_INNER)
				return gr_decline_hint("The node joins by equalities of integer or date columns.",
									   "a clause of the semi or anti join whose inner side is the largest relation is not an equality of integer or date columns the node hashes (%s)",
									   clause_text(root, lfirst(lc)));
			if (jp->marked != JOIN_INNER && bms_is_member(jp->probe, pull_varnos(root, lfirst(lc))))
				return gr_decline("a join clause reads the largest relation, %s, which is inside the semi or anti join the node marks (%s)",
								  planner_rt_fetch(jp->probe, root)->eref->aliasname,
								  clause_text(root, lfirst(lc)));
			if (jr->jointype != JOIN_INNER ||
				bms_overlap(pull_varnos(root, lfirst(lc)), inner_sides))
				return gr_decline_hint("The node joins by equalities of integer or date columns.",
									   "a clause of a left, semi or anti join is not an equality of integer or date columns the node hashes (%s)",
									   clause_text(root, lfirst(lc)));
			jp->quals = lappend(jp->quals, lfirst(lc));
		}
		if (jr->keyexprs == NIL)
			return gr_decline_hint("The node joins by equalities of integer or date columns.",
								   "relation %s is joined by no equality of integer or date columns the node hashes (%s)",
								   planner_rt_fetch(jr->relid, root)->eref->aliasname,
								   clause_text(root, linitial(best_clauses)));
		jr->name = psprintf("%s (%s%s)", planner_rt_fetch(jr->relid, root)->eref->aliasname,
							jr->marked == JOIN_SEMI ? "semi (marked): " :
							jr->marked == JOIN_ANTI ? "anti (marked): " :
							jr->jointype == JOIN_SEMI ? "semi: " :
							jr->jointype == JOIN_ANTI ? "anti: " :
							jr->jointype == JOIN_LEFT ? "left: " : "", jr->name);
		if (jr->jointype != JOIN_INNER)
			inner_sides = bms_add_member(inner_sides, jr->relid);
		/*
		 * a unique key keeps the rows its relation's WHERE keeps (a foreign
		 * key's); after a marked join, the relations are probed by its rows
		 */
		if (jp->marked != JOIN_INNER && jr->marked == JOIN_INNER)
			jp->emit_ops += list_length(jr->keyexprs);
		else
		{
			jp->probe_ops += reach * list_length(jr->keyexprs);
			jr->reach = reach;
		}
		if (best_unique && jr->jointype == JOIN_INNER)
			reach *= Min(best_kept, 1.0);
		jp->build_rows += best->rows;
		joined = bms_add_member(joined, best->relid);
		left = bms_del_member(left, best->relid);
	}
	return every_clause_placed(root, joined, placed);
}

/*
 * Functions that are not leakproof but cannot raise an error where every
 * argument after the first is a non-NULL constant, and argument 'nonneg'
 * (or none: -1) not negative: text's substring by positions (only a
 * negative length raises an error), and char(n)'s cast to text (rtrim1,
 * which only drops the blanks).  TPC-H Q22 groups by
 * substring(c_phone FROM 1 FOR 2) over char(15).
 */
static const struct
{
	Oid			fn;
	int			nargs;
	int			nonneg;
}			safe_calls[] = {
	{F_SUBSTRING_TEXT_INT4_INT4, 3, 2},
	{F_SUBSTR_TEXT_INT4_INT4, 3, 2},
	{F_SUBSTRING_TEXT_INT4, 2, -1},
	{F_SUBSTR_TEXT_INT4, 2, -1},
	{F_TEXT_BPCHAR, 1, -1},
};

/* Whether f is one of safe_calls with such arguments. */
static bool
safe_call(const FuncExpr *f)
{
	for (int i = 0; i < lengthof(safe_calls); i++)
	{
		ListCell   *lc;

		if (safe_calls[i].fn != f->funcid || list_length(f->args) != safe_calls[i].nargs)
			continue;
		for_each_from(lc, f->args, 1)
		{
			const Const *c = lfirst(lc);

			if (!IsA(c, Const) || c->constisnull || c->consttype != INT4OID ||
				(foreach_current_index(lc) == safe_calls[i].nonneg && DatumGetInt32(c->constvalue) < 0))
				return false;
		}
		return true;
	}
	return false;
}

/* The expression with each safe_calls call replaced by its first argument. */
static Node *
strip_safe_calls(Node *node, void *context)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, FuncExpr) && safe_call((FuncExpr *) node))
		return strip_safe_calls(linitial(((FuncExpr *) node)->args), context);
	return expression_tree_mutator(node, strip_safe_calls, context);
}

/*
 * Whether an expression cannot raise an error, whatever its Vars hold:
 * leakproof functions, CASE, comparisons (contain_leaked_vars), and
 * safe_calls.
 */
static bool
cannot_raise(Node *expr)
{
	return !contain_leaked_vars(strip_safe_calls(expr, NULL));
}

/*
 * Where a group key's or aggregate argument's expression comes from:
 * GR_JOIN_PROBE where it reads the probe table alone (or nothing), a
 * reference to a hashed relation's value where it reads that relation
 * alone (a column, or an expression PostgreSQL computes in its plan: one
 * that cannot raise an error), GR_JOIN_ROW where the joined row's program
 * must compute it, GR_JOIN_NONE where the node cannot (a volatile function,
 * a subquery).
 */
int
gr_join_value(PlannerInfo *root, GrJoinPlan *jp, Node *expr)
{
	Relids		relids = gr_base_relids(root, pull_varnos(root, expr));
	int			relid;
	int			h;

	/* a marked join's rows hold no row of the table */
	if (jp->marked != JOIN_INNER && bms_is_member(jp->probe, relids))
	{
		gr_decline("a GROUP BY key or aggregate argument reads the largest relation, %s, which is inside the semi or anti join the node marks",
				   planner_rt_fetch(jp->probe, root)->eref->aliasname);
		return GR_JOIN_NONE;
	}
	if (bms_is_empty(relids) || bms_equal(relids, bms_make_singleton(jp->probe)))
		return GR_JOIN_PROBE;
	if (contain_volatile_functions(expr) || contain_subplans(expr) || contain_agg_clause(expr))
		return GR_JOIN_NONE;
	/*
	 * (an expression over a left join's inner side is the joined row's: its
	 * plan would compute it for rows that match only, not over the NULLs of
	 * a row that does not)
	 */
	if (!bms_get_singleton_member(relids, &relid) || (h = rel_index(jp, relid)) < 0 ||
		!value_type(exprType(expr)) ||
		(plain_var(expr) == NULL &&
		 (!cannot_raise(expr) ||
		  ((GrJoinRel *) list_nth(jp->rels, h))->jointype == JOIN_LEFT)))
		return GR_JOIN_ROW;
	return REF(h, add_value(list_nth(jp->rels, h), expr));
}

/*
 * A hashed relation's column that the joined row's program reads: a
 * reference to it as that relation's value (added if new), or -1 for a Var
 * of no hashed relation.
 */
int
gr_join_var(GrJoinPlan *jp, Var *var)
{
	int			h = rel_index(jp, var->varno);

	if (h < 0 || !value_type(var->vartype))
		return -1;
	return REF(h, add_value(list_nth(jp->rels, h), (Node *) var));
}

/*
 * The rows of hashed relation h that a serial build keeps, as estimated:
 * its rows less those a later relation keyed on its values alone (an inner
 * or semi join, none of them marked) has no key for, which bulk_scan.c
 * leaves out (reduces(), reduced_row).  A key's share kept is that
 * relation's rows over the distinct values they are looked up in, where
 * statistics give those.  TPC-H Q18 at SF5: orders' 7.5 M rows, of which
 * its IN subquery's estimated 135 000 keys keep as many.  (A parallel
 * build keeps every row: GrJoinPlan.shared_bytes.)
 */
static double
kept_rows(PlannerInfo *root, const GrJoinPlan *jp, int h)
{
	const GrJoinRel *jr = list_nth(jp->rels, h);
	double		rows = clamp_row_est(root->simple_rel_array[jr->relid]->rows);

	if (jr->marked != JOIN_INNER || (jr->jointype != JOIN_INNER && jr->jointype != JOIN_LEFT))
		return rows;
	for (int k = h + 1; k < list_length(jp->rels); k++)
	{
		const GrJoinRel *kr = list_nth(jp->rels, k);
		bool		reduces = kr->marked == JOIN_INNER &&
			(kr->jointype == JOIN_INNER || kr->jointype == JOIN_SEMI);
		double		distinct = 1;
		ListCell   *lc;

		foreach(lc, kr->srcs)
		{
			const GrJoinSrc *src = lfirst(lc);
			VariableStatData vd;
			bool		isdefault = true;

			if (src->rel != h)
				reduces = false;
			if (!reduces)
				break;
			examine_variable(root, list_nth(jr->vals, src->val), 0, &vd);
			distinct *= get_variable_numdistinct(&vd, &isdefault);
			ReleaseVariableStats(vd);
			reduces = !isdefault;
		}
		if (reduces)
			rows *= Min(1.0, clamp_row_est(root->simple_rel_array[kr->relid]->rows) /
						Min(distinct, rows));
	}
	return clamp_row_est(rows);
}

/*
 * Number the hashed relations' values (the node's columns after the
 * table's), and estimate their hash tables' memory: false, with the
 * reason, where a serial build's passes gpu_reduce.join_memory.
 */
bool
gr_join_finish(PlannerInfo *root, GrJoinPlan *jp)
{
	ListCell   *lc;

	jp->nvals = 0;
	jp->hash_bytes = 0;
	jp->shared_bytes = 0;
	jp->probe_misses = 0;
	foreach(lc, jp->rels)
	{
		GrJoinRel  *jr = lfirst(lc);
		RelOptInfo *rel = root->simple_rel_array[jr->relid];
		ListCell   *lv;
		double		width = 16 + 8 * list_length(jr->keyexprs);
		double		kept;

		jr->vstart = jp->nvals;
		jp->nvals += list_length(jr->vals);
		foreach(lv, jr->vals)
		{
			Node	   *val = lfirst(lv);

			width += 9;
			if (get_typlen(exprType(val)) == -1)
				width += get_typavgwidth(exprType(val), exprTypmod(val)) + 8;
		}
		kept = kept_rows(root, jp, foreach_current_index(lc));
		jp->hash_bytes += kept * width;
		jp->shared_bytes += clamp_row_est(rel->rows) * width;
		if (kept * width > GR_JOIN_CACHE_BYTES)
			jp->probe_misses += jr->reach;
	}
	if (jp->hash_bytes > (double) gr_join_memory_kb * 1024)
		return gr_decline_hint("SET gpu_reduce.join_memory to more.",
							   "the hashed relations' estimated %.0f kB pass gpu_reduce.join_memory (%d kB)",
							   jp->hash_bytes / 1024, gr_join_memory_kb);
	return true;
}

/* The index among the node's join values of a reference gr_join_value gave. */
int
gr_join_index(const GrJoinPlan *jp, int ref)
{
	return ((GrJoinRel *) list_nth(jp->rels, REF_REL(ref)))->vstart + REF_VAL(ref);
}

/* A hashed relation's child plan's target list: its keys, then its values. */
List *
gr_join_tlist(const GrJoinRel *jr)
{
	List	   *tlist = NIL;
	ListCell   *lc;

	foreach(lc, list_concat_copy(jr->keyexprs, jr->vals))
	{
		Node	   *e = copyObject(lfirst(lc));
		Node	   *v = e;

		/* below the join, no outer join nulls the relation's columns */
		while (IsA(v, RelabelType))
			v = (Node *) ((RelabelType *) v)->arg;
		if (IsA(v, Var))
			gr_var_unnulled((Var *) v);
		tlist = lappend(tlist, makeTargetEntry((Expr *) e, list_length(tlist) + 1, NULL, false));
	}
	return tlist;
}

/* Define gpu_reduce.join_memory; from gr_bulk_plan_init. */
void
gr_join_init(void)
{
	DefineCustomIntVariable("gpu_reduce.join_memory",
							"Most memory the hash tables of the relations one GpuReduce node joins may take, as the planner estimates them.",
							"A join whose hashed relations are estimated larger keeps PostgreSQL's plan; "
							"one that turns out larger is still answered, in more memory.",
							&gr_join_memory_kb, 256 * 1024, 64, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
}
