/*
 * expr_compile.h
 *	  Compiling the planner's expressions (WHERE conjuncts, aggregate
 *	  arguments) into one table's expression program (common/expr.h).
 */
#ifndef GR_EXPR_COMPILE_H
#define GR_EXPR_COMPILE_H

#include "postgres.h"
#include "pg_compat.h"

#include "nodes/primnodes.h"
#include "nodes/execnodes.h"
#include "nodes/pathnodes.h"

#include "state.h"
#include "expr.h"

/*
 * The row's column index of a Var (a table's column, added to its columns if
 * new, or a join's value), or -1 where the program cannot read it.
 */
typedef int (*GrExprColumnOf) (void *arg, Var *var);
/* A run-time constant's index among the node's custom_exprs. */
typedef int (*GrExprRuntimeOf) (void *arg, Expr *expr);

/* largest numeric scale compiled (numeric.c's scales beyond it stay with PostgreSQL) */
#define GR_EXPR_MAX_SCALE 30

/* A compiled value: the register that holds it, and what it holds. */
typedef struct GrExprVal
{
	int			reg;
	int			kind;			/* GrExprKind */
	Oid			type;			/* its SQL type */
	int			w;				/* bytes of an integer or float type */
	int			scale;			/* a decimal's */
} GrExprVal;

/*
 * One program being compiled, for the table of range table index relid (0:
 * for a joined row, whose Vars column_of places).
 */
typedef struct GrExprBuilder
{
	GrExprProg	prog;
	int			nregs;
	PlannerInfo *root;			/* for the statistics of a quotient's operands */
	Index		relid;
	GrExprColumnOf column_of;
	GrExprRuntimeOf runtime_of;
	void	   *arg;
	/* per constant: its custom_exprs index when bound at the scan's start, else -1 */
	int			bind[GR_EXPR_MAX_CONSTS];
	/*
	 * Columns already loaded, and their registers: the steps run in order
	 * with no jump (a failed conjunct ends the row), so a column loaded
	 * once serves every later use (TPC-H Q6 reads l_discount three times)
	 */
	struct
	{
		int			col;
		int			sub;
		int			scale;
		int			reg;
	}			loaded[GR_EXPR_MAX_REGS];
	int			nloaded;
	/* expressions compiled so far, and their values (compile reuses them) */
	struct
	{
		Expr	   *e;
		GrExprVal	v;
	}			done[GR_EXPR_MAX_STEPS];
	int			ndone;
	/* each output's type and (a numeric's) scale, for an expression asked for again */
	GrType		out_type[GR_EXPR_MAX_OUTS];
	int			out_scale[GR_EXPR_MAX_OUTS];
	/* a simple CASE's value, which its WHEN clauses read as CaseTestExpr */
	GrExprVal	case_value;
	bool		has_case_value;
	List	   *quals;			/* the conjuncts compiled, in order (for fallback rows) */
	List	   *outs;			/* the outputs' expressions */
	/* within a comparison's operands: a quotient there needs no display scale */
	int			compared;
	/*
	 * An output's whole expression is being compiled (gr_expr_add_output,
	 * until compile takes it): only there may a numeric's scale vary by row
	 */
	bool		whole;
	/*
	 * Per register of a numeric whose display scale varies by row (a CASE or
	 * COALESCE of several scales, held at the largest): the register of each
	 * row's own scale, plus 1; else 0
	 */
	int8		row_scale[GR_EXPR_MAX_REGS];
	/* per scale: the register of that int4 constant for row_scale, plus 1 */
	int8		scale_const[GR_EXPR_MAX_SCALE + 1];
	/* per output: such a numeric, whose next output is its rows' scales */
	bool		out_varies[GR_EXPR_MAX_OUTS];
} GrExprBuilder;

extern void gr_expr_builder_init(GrExprBuilder *b, PlannerInfo *root, Index relid,
								 GrExprColumnOf column_of,
								 GrExprRuntimeOf runtime_of, void *arg);
/* Add a WHERE conjunct; false (the builder unusable) if it is not compiled. */
extern bool gr_expr_add_qual(GrExprBuilder *b, Expr *clause);
/*
 * Add an aggregate's argument as an output; false if it is not compiled.
 * Its index, and the GrType of its value (a numeric's scale in *scale).
 * *varies: a numeric whose display scale varies by row (a CASE or COALESCE
 * of several scales), held at the largest, *scale; the output after it is
 * each row's own scale (an int4, scale(expr)).
 */
extern bool gr_expr_add_output(GrExprBuilder *b, Expr *expr, int *out, GrType *type,
							   int *scale, bool *varies);
/* Whether an expression holds a numeric division. */
extern bool gr_expr_has_numeric_div(Node *expr);
/* The field a date_trunc's literal names (GrExprField), or -1. */
extern int	gr_expr_trunc_field(Node *arg);
/* The least and greatest instants (Unix seconds) a time column's statistics show under src's casts. */
extern bool gr_time_stats_range(PlannerInfo *root, Expr *src, int64 *lo, int64 *hi);
/* The columns below ncols of a program's steps, renumbered by map (old index -> new). */
extern void gr_expr_renumber(GrExprProg *p, const int *map, int ncols);
/* Whether a program read from a plan is well formed for ncols columns. */
extern bool gr_expr_check(const GrExprProg *p, int ncols);
/* Bind constant k (kind from the program) to a run-time value. */
extern void gr_expr_bind(GrExprProg *p, int k, Datum value, bool isnull, Oid type);

#endif							/* GR_EXPR_COMPILE_H */
