/*
 * join_plan.h
 *	  Which joins the GpuReduce node takes, and how (join_plan.c): one probe
 *	  table that it reads from its pages, and relations it hashes, each
 *	  produced by PostgreSQL's own plan for it as a child of the node.
 *
 * bulk_plan.c asks gr_join_plan for a join rel's layout, then
 * gr_join_value for each group key and aggregate argument that reads a
 * hashed relation; what it takes travels in the scan description
 * (scan_desc.h, GrScanJoin) and bulk_scan.c probes it (join_hash.h).
 */
#ifndef GR_JOIN_PLAN_H
#define GR_JOIN_PLAN_H

#include "postgres.h"

#include "nodes/pathnodes.h"
#include "nodes/pg_list.h"

/* The other side of one equality: the probe table's column, or a hashed relation's value. */
typedef struct GrJoinSrc
{
	int			rel;			/* the hashed relation (its index), or -1: the table */
	int			val;			/* that relation's value */
	AttrNumber	attno;			/* the table's column (rel = -1) */
	int			width;			/* its type's width */
} GrJoinSrc;

/* One relation the node hashes. */
typedef struct GrJoinRel
{
	Index		relid;			/* its range table index */
	Path	   *path;			/* PostgreSQL's cheapest path for it */
	Path	   *safe_path;		/* its cheapest a parallel participant may
								 * run, or NULL */
	Path	   *partial_path;	/* its cheapest partial path (a share of its
								 * rows in each participant), or NULL */
	List	   *keyexprs;		/* its side of each equality (Vars) */
	List	   *keywidths;		/* Integer: their widths */
	List	   *srcs;			/* GrJoinSrc: the other side of each */
	List	   *vals;			/* the expressions over it the node reads */
	char	   *name;			/* for EXPLAIN */
	int			vstart;			/* its first value's index among all (gr_join_finish) */
	JoinType	jointype;		/* JOIN_INNER; JOIN_LEFT: a left join's nullable
								 * side; JOIN_SEMI or JOIN_ANTI: the inner side
								 * of a semi or anti join, whose rows only say
								 * whether a row goes on (it has no values) */
	JoinType	marked;			/* JOIN_SEMI or JOIN_ANTI: the outer side of
								 * such a join whose inner side is the probe
								 * table, whose rows the probe marks (the
								 * first relation, joined inner to those
								 * after it); else JOIN_INNER */
	bool		unique;			/* its keys cover a unique index: a row
								 * matches one of its rows at most */
	double		reach;			/* the share of the probe table's rows that
								 * probe it (0: a marked join's emitted rows do) */
} GrJoinRel;

/* A join the node takes: the table it reads, and the relations it hashes, in probe order. */
typedef struct GrJoinPlan
{
	Index		probe;
	List	   *rels;			/* GrJoinRel */
	List	   *quals;			/* join clauses that are not such equalities: the
								 * joined row's program checks them */
	int			nvals;			/* values of all of them (gr_join_finish) */
	double		build_rows;		/* rows hashed, all relations */
	double		probe_ops;		/* key comparisons a probe table's row costs,
								 * over the relations it reaches */
	double		hash_bytes;		/* their hash tables' estimated memory, built
								 * serially (each less the rows later ones
								 * leave out) */
	double		shared_bytes;	/* the same built by a parallel plan (every
								 * row) */
	double		probe_misses;	/* probes a probe table's row costs into
								 * hash tables over GR_JOIN_CACHE_BYTES (each
								 * a cache miss where the CPU probes) */
	JoinType	marked;			/* the first relation's GrJoinRel.marked */
	double		emit_ops;		/* a marked join: key comparisons a marked
								 * relation's row costs after the scan, over
								 * the relations after it */
} GrJoinPlan;

/*
 * A hashed relation's image larger than this is probed from memory, not
 * from a CPU's caches: TPC-H Q18 at SF1 on the H200 host, its probe table
 * decoded and probed on the CPU (GROUP BY a numeric), probed 12 M times
 * into orders' and customer's images (165 and 17 MB) in about 1.3 s,
 * 100 ns a probe where the cost model counted a key comparison, 1 ns.
 */
#define GR_JOIN_CACHE_BYTES		(8.0 * 1024 * 1024)

/* gpu_reduce.join_memory, in kB */
extern int	gr_join_memory_kb;

extern bool gr_join_plan(PlannerInfo *root, RelOptInfo *joinrel, GrJoinPlan *jp);
extern int	gr_join_value(PlannerInfo *root, GrJoinPlan *jp, Node *expr);
extern int	gr_join_var(GrJoinPlan *jp, Var *var);
extern bool gr_join_finish(PlannerInfo *root, GrJoinPlan *jp);
extern int	gr_join_index(const GrJoinPlan *jp, int ref);
extern List *gr_join_tlist(const GrJoinRel *jr);
extern void gr_join_init(void);

/*
 * gr_join_value: the expression reads only the probe table, or the joined
 * row's program must compute it (several relations, or one hashed relation
 * where it may raise an error), or the node cannot take it
 */
#define GR_JOIN_PROBE (-1)
#define GR_JOIN_ROW (-2)
#define GR_JOIN_NONE (-3)

#endif							/* GR_JOIN_PLAN_H */
