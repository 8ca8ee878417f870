/*
 * scan_desc.h
 *	  The scan description: everything the planner decided for one GpuReduce
 *	  node, as a struct with named fields, and its passage through the plan.
 *
 * bulk_plan.c fills a GrScanDesc; it travels in the CustomScan's
 * custom_private (plans are copied and sent to parallel workers as node
 * trees, so gr_scan_desc_to_list writes it as a list of plain Integer and
 * String nodes and gr_scan_desc_from_list reads it back, checking each
 * part); bulk_scan.c runs it.  What is evaluated at executor start (the
 * constants of the WHERE comparisons, gpu_topk's k) lives in custom_exprs,
 * which the description points into by index.  A qual or an aggregate
 * argument that is not a plain column is a program (common/expr.h); so
 * is a group key (keyouts) that is not a column (keycols).
 */
#ifndef GR_SCAN_DESC_H
#define GR_SCAN_DESC_H

#include "state.h"
#include "group_key.h"

#include "nodes/pg_list.h"

/* what one aggregate of the node computes */
typedef enum GrScanAggKind
{
	GR_SCAN_AGG,				/* a gpu_* aggregate (its kind in op) */
	GR_SCAN_COUNT_STAR,			/* count(*) */
	GR_SCAN_COUNT_COL			/* count(col) */
} GrScanAggKind;

/*
 * What a parallel participant emits for an aggregate: a gpu_* aggregate's
 * serialized state, or for one of PostgreSQL's own aggregates its partial
 * state in the form its combine function takes.
 */
typedef enum GrPartialForm
{
	GR_PARTIAL_STATE,			/* gpu_reduce's serialized state (bytea) */
	GR_PARTIAL_VALUE,			/* the transition value is the result itself
								 * (min, max, sum of int2/int4: int8) */
	GR_PARTIAL_INT8_AVG,		/* int8[] {count, sum} (avg of int2/int4) */
	/* PostgreSQL's serialized internal states (native_partial.c) */
	GR_PARTIAL_POLY_AVG,		/* int8_avg_serialize: sum, avg of int8 */
	GR_PARTIAL_POLY_VAR,		/* numeric_poly_serialize: variances of int2/int4 */
	GR_PARTIAL_NUMERIC_AVG,		/* numeric_avg_serialize: sum, avg of numeric */
	GR_PARTIAL_NUMERIC_VAR		/* numeric_serialize: variances of int8, numeric */
} GrPartialForm;

#define GR_PARTIAL_LAST GR_PARTIAL_NUMERIC_VAR

/* One aggregate: the node's output column after the group keys. */
typedef struct GrScanAgg
{
	GrScanAggKind kind;
	GrOp		op;				/* GR_SCAN_AGG: its row of the kinds table */
	GrType		type;			/* its argument's type */
	int			kexpr;			/* gpu_topk's k: index into custom_exprs, or -1 */
	GrPartialForm partial_form; /* what a parallel participant emits */
	int			dec_scale;		/* an argument the expression program computes as
								 * numeric: its scale (values are int64s times
								 * 10^dec_scale); else -1 */
	bool		row_scale;		/* such an argument whose display scale varies by
								 * row (a CASE or COALESCE of several scales;
								 * a sum or average): dec_scale is the
								 * largest, and the output after the
								 * argument's is each row's own scale */
} GrScanAgg;

/* One WHERE comparison of a column with a constant (tuple_decode.h's GrQual). */
typedef struct GrScanQual
{
	int			col;			/* index into the table's columns */
	int			op;				/* GrQualOp */
	int			kind;			/* GrValueKind */
	int			width;			/* the column's width in bytes */
	int			expr;			/* the constant: index into custom_exprs, or -1 */
	Oid			timetype;		/* a time column against another time type: the
								 * column's, whose range the constant becomes at
								 * the scan's start (time_range.c); else 0 */
} GrScanQual;

/* One table the node reads: the query's, or a leaf of its inheritance tree. */
typedef struct GrScanTable
{
	Oid			relid;			/* its OID (a range table index changes when
								 * the plan is flattened) */
	int			ncols;
	int		   *attnos;			/* the columns read: 0-based, ascending */
	int		   *argcols;		/* per aggregate: its argument's column, or -1 */
	int		   *keycols;		/* per group key: its column, or -1 */
	int			nquals;
	GrScanQual *quals;
	char	   *filter;			/* the WHERE clause as EXPLAIN shows it, or "" */
	/* the expression program (common/expr.h), or NULL: conjuncts the simple
	 * comparisons do not take, and arguments that are not columns */
	struct GrExprProg *prog;
	int		   *binds;			/* per constant: custom_exprs index bound at the
								 * scan's start, or -1 (prog->nconsts) */
	int		   *argouts;		/* per aggregate: the program output it reads, or -1 */
	int		   *keyouts;		/* per group key: the program output it is, or -1 */
	List	   *xquals;			/* the conjuncts the program evaluates, and */
	List	   *xouts;			/* its outputs' expressions: PostgreSQL evaluates
								 * them for a row the program hands back */
	int		   *argjoins;		/* per aggregate: the join value it reads, or -1 */
	int		   *keyjoins;		/* per group key: the join value it is, or -1 */
} GrScanTable;

/* most equalities joining one hashed relation, and most hashed relations */
#define GR_JOIN_MAX_KEYS 4
#define GR_JOIN_MAX_RELS 8

/*
 * One relation the node joins to its table by hashing (join_hash.h): rows
 * PostgreSQL's own plan for it produces (the node's child plan of the same
 * position), whose first nkeys columns are its side of the equalities and
 * whose other nvals columns are its join values.  A joined row's values,
 * every hashed relation's in order, follow the table's decoded columns and
 * program outputs.
 */
typedef struct GrScanJoin
{
	int			nkeys;
	int			src[GR_JOIN_MAX_KEYS];	/* the other side of each equality: the
										 * table's column (>= 0), or join value
										 * -1 - src of a relation hashed before */
	int			srcwidth[GR_JOIN_MAX_KEYS]; /* its width in bytes (an integer or date) */
	int			keywidth[GR_JOIN_MAX_KEYS]; /* this relation's key's width */
	int			nvals;
	int			vstart;			/* its first join value's index */
	int		   *vallen;			/* per value: typlen (1, 2, 4, 8 by value, or -1) */
	int			jointype;		/* JOIN_INNER: a row for every match; JOIN_LEFT:
								 * and one with NULL values where none matches;
								 * JOIN_SEMI: the row goes on once where one
								 * matches; JOIN_ANTI: where none does (these
								 * two have no values) */
	int			marked;			/* 0; or JOIN_SEMI, JOIN_ANTI: the relation is
								 * the outer side of such a join whose inner
								 * side is the table (a marked join: the
								 * first relation, keyed by the table's
								 * columns alone).  A table's row marks every
								 * row it matches and goes no further; after
								 * the scan its marked (semi) or unmarked
								 * (anti, a NULL key's too) rows go on from
								 * the next relation, the table's columns
								 * NULL. */
	bool		partial;		/* its child plan is partial: each participant
								 * of a parallel plan reads a share of its rows */
	bool		probe_keys;		/* read from pages (serially), one key, the
								 * table's column: its rows are fetched by an
								 * index on its key for the keys of the
								 * table's rows that the table's WHERE keeps,
								 * listed first by a read of the table's pages
								 * (bulk_scan.c's probe_keys) */
	char	   *name;			/* for EXPLAIN: the relation and the equalities
								 * (and, read from pages, its WHERE) */
	/*
	 * A plain heap table whose WHERE the node compiles is read by the node
	 * from its pages, as the table is (no child plan): pages describes it
	 * (its columns, comparisons and program; no aggregate or key reads it),
	 * and pagecols gives each key's, then each value's, decoded column.
	 * NULL: its rows are its child plan's.
	 */
	struct GrScanTable *pages;
	int		   *pagecols;
} GrScanJoin;

/* One GROUP BY key: the node's output column of the same position. */
typedef struct GrScanKey
{
	Oid			type;
	int			len;			/* typlen */
	bool		byval;
	GrKeyKind	kind;			/* how its values compare (group_key.h) */
	int			scale;			/* a numeric the program computes: its scale
								 * (int64s times 10^scale); else -1 */
} GrScanKey;

typedef struct GrScanDesc
{
	bool		partial;		/* emit serialized partial states (parallel,
								 * and always under a GROUP BY) */
	double		groups;			/* the groups the planner expects this process
								 * to make, HAVING not applied (the page
								 * path's device table is sized from it) */
	int			naggs;
	GrScanAgg  *aggs;
	int			ngroupkeys;		/* 0: no GROUP BY, one group */
	GrScanKey  *keys;			/* ngroupkeys: the output's first columns */
	int			ntables;
	GrScanTable *tables;
	int			njoins;			/* hashed relations (then one table) */
	GrScanJoin *joins;
	int			njoinvals;		/* their values, in all */
	/*
	 * A join's joined-row program, or NULL: conjuncts (the join clauses that
	 * are not the hashed equalities) and outputs (keys and arguments over
	 * several relations), over the row's jncols columns (the table's decoded
	 * ones and program outputs, then the join values); its outputs follow
	 * them.  For a row it hands back, PostgreSQL evaluates jxquals and jxouts,
	 * whose Vars are the row's columns (varattno c + 1), from a slot of
	 * column types jtypes, jtypmods and collations jcolls.
	 */
	struct GrExprProg *jprog;
	int		   *jbinds;			/* per constant: custom_exprs index, or -1 */
	int		   *jargouts;		/* per aggregate: the output it reads, or -1 */
	int		   *jkeyouts;		/* per group key: the output it is, or -1 */
	List	   *jxquals;
	List	   *jxouts;
	int			jncols;
	Oid		   *jtypes;
	int		   *jtypmods;
	Oid		   *jcolls;
	char	   *jfilter;		/* the conjuncts as EXPLAIN shows them */
} GrScanDesc;

extern List *gr_scan_desc_to_list(const GrScanDesc *d);
extern GrScanDesc *gr_scan_desc_from_list(List *l);

#endif							/* GR_SCAN_DESC_H */
