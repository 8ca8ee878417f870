/*
 * expr_compile.c
 *	  The planner's expressions compiled into a table's expression program
 *	  (common/expr.h): what the program evaluates is decided here, once;
 *	  the interpreter only follows it.
 *
 * Operators and functions are recognized by their names and argument
 * types, and only PostgreSQL's own (pg_catalog): + - * / % and unary minus,
 * abs, the six comparisons, within and across the integer types, the float
 * types, numeric of a declared scale, date against timestamp, and any
 * two of date, timestamp and timestamptz where one side is a constant (a
 * range bound at the scan's start in the session's zone); casts
 * among the integers, floats and numerics (to a declared precision and
 * scale too), date to timestamp and back, and between timestamptz and
 * either in the session's zone (a table of its transitions bound at the
 * scan's start), as are EXTRACT and date_trunc of a timestamptz; AND, OR,
 * NOT, IS [NOT] NULL, IS [NOT]
 * TRUE/FALSE, IN lists and = ANY / <> ALL of a constant array.  Constants
 * are literals, parameters, or expressions without columns made of
 * pg_catalog's stable functions (now(), CURRENT_DATE, a date plus an
 * interval), evaluated once at the scan's start.  Anything else is not
 * compiled, and the query keeps PostgreSQL's plan.
 *
 * Numeric values are int128s times 10^scale with the scales numeric.c
 * gives: a column's is its type modifier's, a sum's and difference's the
 * larger of its operands', a product's the sum of theirs.  A numeric
 * parameter, whose scale is known only at the scan's start, is compiled in
 * comparisons only.  Numeric division (select_div_scale) is not compiled.
 * A CASE or COALESCE choosing numerics of several scales keeps each row's
 * own (numeric's display scale is per value): only as an output's whole
 * expression, held at the largest scale with each row's scale beside it,
 * which a sum or average shows as its largest (choice_shape).
 */
#include "expr_compile.h"
#include "time_range.h"

#include "access/htup_details.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_database.h"
#include "catalog/pg_namespace.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/fmgroids.h"
#include "catalog/pg_statistic.h"
#include "utils/selfuncs.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

/* the scale a compared quotient is held at (any of weight -1 and up: 1e-4 <= |q|) */
#define GR_DIV_QUAL_SCALE 20
/* the share of a quotient's rows planned at one scale for the node to compute it */
#define GR_DIV_PLANNED_SHARE 0.75
/* the most values of each operand's statistics that plan it */
#define GR_DIV_SAMPLE 400
/* the days the session zone's table reaches past a column's statistics, and a year */
#define GR_ZONE_MARGIN_DAYS 400
#define GR_ZONE_YEAR_SECS ((int64) 365 * SECS_PER_DAY)

typedef GrExprVal XVal;

void
gr_expr_builder_init(GrExprBuilder *b, PlannerInfo *root, Index relid,
					 GrExprColumnOf column_of, GrExprRuntimeOf runtime_of, void *arg)
{
	memset(b, 0, sizeof(*b));
	b->root = root;
	b->relid = relid;
	b->column_of = column_of;
	b->runtime_of = runtime_of;
	b->arg = arg;
}

/* The types the program holds, but numeric (whose scale its modifier says): kind and width. */
static const struct
{
	Oid			type;
	GrExprKind	kind;
	int			w;
}			expr_types[] = {
	{INT2OID, GR_XK_INT, 2},
	{INT4OID, GR_XK_INT, 4},
	{DATEOID, GR_XK_INT, 4},	/* days */
	{INT8OID, GR_XK_INT, 8},
	{TIMESTAMPOID, GR_XK_INT, 8},	/* microseconds */
	{TIMESTAMPTZOID, GR_XK_INT, 8},
	{FLOAT4OID, GR_XK_FLOAT, 4},
	{FLOAT8OID, GR_XK_FLOAT, 8},
	{BOOLOID, GR_XK_BOOL, 1},
	{TEXTOID, GR_XK_TEXT, 0},
	{VARCHAROID, GR_XK_TEXT, 0},
	{BPCHAROID, GR_XK_BPCHAR, 0},
};

/* The kind and width of a type the program holds; false for any other. */
static bool
type_kind(Oid type, int32 typmod, XVal *v)
{
	v->type = type;
	v->scale = 0;
	for (int i = 0; i < lengthof(expr_types); i++)
		if (expr_types[i].type == type)
		{
			v->kind = expr_types[i].kind;
			v->w = expr_types[i].w;
			return true;
		}
	if (type != NUMERICOID)
		return false;
	/* a declared scale: every value of the column has it */
	if (typmod < (int32) VARHDRSZ)
		return false;
	v->kind = GR_XK_DEC;
	v->w = 16;
	v->scale = (typmod - VARHDRSZ) & 0xFFFF;
	return v->scale <= GR_EXPR_MAX_SCALE;
}

static bool
is_int_type(Oid type)
{
	return type == INT2OID || type == INT4OID || type == INT8OID;
}

/* Append a step; false when the program is full. */
static bool
emit(GrExprBuilder *b, int op, int sub, int w, int dst, int a, int bb, int c)
{
	GrExprStep *s;

	if (b->prog.nsteps >= GR_EXPR_MAX_STEPS)
		return false;
	s = &b->prog.steps[b->prog.nsteps++];
	s->op = op;
	s->sub = sub;
	s->w = w;
	s->dst = dst;
	s->a = a;
	s->b = bb;
	s->c = c;
	return true;
}

/* A new register; false when there are no more. */
static bool
new_reg(GrExprBuilder *b, int *reg)
{
	if (b->nregs >= GR_EXPR_MAX_REGS)
		return false;
	*reg = b->nregs++;
	return true;
}

/* A new constant; false when there are no more. */
static bool
new_const(GrExprBuilder *b, int *k)
{
	if (b->prog.nconsts >= GR_EXPR_MAX_CONSTS)
		return false;
	*k = b->prog.nconsts++;
	memset(&b->prog.consts[*k], 0, sizeof(GrExprConst));
	b->bind[*k] = -1;
	return true;
}

static void
set_dec(GrExprConst *k, gr_int128 v)
{
	k->dlo = (uint64) v;
	k->dhi = (int64) (v >> 64);
}

/* A finite numeric as an int128 at the given scale; false if it does not fit exactly. */
static bool
numeric_at_scale(Numeric n, int scale, gr_int128 *out)
{
	/* the interpreter's own reading of a numeric varlena */
	return gr_numeric_scaled((const uint8 *) n, scale, out);
}

/*
 * A numeric constant's display scale; false for NaN and the infinities,
 * which have none (numeric_scale returns NULL for them).  The program has
 * no place for them at a scale: whatever folds a constant at its scale
 * declines them here.
 */
static bool
numeric_dscale(Numeric n, int *scale)
{
	if (numeric_is_nan(n) || numeric_is_inf(n))
		return false;
	*scale = DatumGetInt32(DirectFunctionCall1(numeric_scale, NumericGetDatum(n)));
	return true;
}

/* Fill constant k from a Datum of a type of kind v (bound now or at the scan's start). */
static bool
const_value(GrExprConst *k, const XVal *v, Datum value, bool isnull)
{
	k->isnull = isnull;
	if (isnull)
		return true;
	switch (v->type)
	{
		case INT2OID:
			k->i = DatumGetInt16(value);
			break;
		case INT4OID:
			k->i = DatumGetInt32(value);
			break;
		case DATEOID:
			k->i = DatumGetDateADT(value);
			break;
		case INT8OID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			k->i = DatumGetInt64(value);
			break;
		case FLOAT4OID:
			k->f = DatumGetFloat4(value);
			break;
		case FLOAT8OID:
			k->f = DatumGetFloat8(value);
			break;
		case BOOLOID:
			k->i = DatumGetBool(value);
			break;
		case TEXTOID:
		case VARCHAROID:
		case BPCHAROID:
			/* the bytes into the program's pool: fixed at compile time only */
			return false;
		case NUMERICOID:
			{
				gr_int128	d;

				if (!numeric_at_scale(DatumGetNumeric(value), v->scale, &d))
					return false;
				set_dec(k, d);
				break;
			}
		default:
			return false;
	}
	return true;
}

/* GR_X_CMP_RANGE's code of a time type, and back; 0 and InvalidOid for others. */
static int
time_code(Oid type)
{
	return type == DATEOID ? GR_XT_DATE : type == TIMESTAMPOID ? GR_XT_TIMESTAMP :
		type == TIMESTAMPTZOID ? GR_XT_TIMESTAMPTZ : 0;
}

static Oid
time_oid(int code)
{
	return code == GR_XT_DATE ? DATEOID : code == GR_XT_TIMESTAMP ? TIMESTAMPOID :
		code == GR_XT_TIMESTAMPTZ ? TIMESTAMPTZOID : InvalidOid;
}

/*
 * A numeric constant as a GR_X_CMP_RANGE_D compares it with values of a
 * scale: the first of them at least the constant (its decimal digits, read
 * from numeric_out, cut at the scale and rounded up), and whether it is
 * the constant.  NaN (above every number), the infinities and values past
 * any register's are the ends of the int128 range.
 */
static void
bind_numeric_range(GrExprConst *c, Datum value, int scale)
{
	char	   *s = DatumGetCString(DirectFunctionCall1(numeric_out, value));
	bool		neg = s[0] == '-';
	const char *p = s + neg;
	unsigned __int128 acc = 0;
	const unsigned __int128 lim = ((unsigned __int128) 1 << 127) - 2;
	bool		exact = true;
	bool		big = false;
	int			frac = -1;		/* fraction digits taken so far; -1 before the point */
	gr_int128	lo;

	if (strcmp(s, "NaN") == 0 || strcmp(s, "Infinity") == 0 || strcmp(s, "-Infinity") == 0)
	{
		neg = s[0] == '-';
		big = true;
	}
	for (; !big && *p; p++)
	{
		if (*p == '.')
		{
			frac = 0;
			continue;
		}
		if (frac >= scale)
		{
			exact = exact && *p == '0';
			continue;
		}
		/* (a check before the step: acc * 10 + 9 stays within 128 bits) */
		big = acc > lim / 10;
		acc = big ? acc : acc * 10 + (unsigned) (*p - '0');
		big = big || acc > lim;
		if (frac >= 0)
			frac++;
	}
	/* the digits the scale has that the constant does not */
	for (int i = Max(frac, 0); !big && i < scale; i++)
	{
		big = acc > lim / 10;
		acc *= 10;
		big = big || acc > lim;
	}
	if (big)
	{
		/* beyond every value: the constant lies above (or below) them all */
		lo = neg ? -(gr_int128) lim - 2 : (gr_int128) lim + 1;
		exact = false;
	}
	else
	{
		/* the value cut to the scale; above it, a positive constant rounds up */
		lo = neg ? -(gr_int128) acc : (gr_int128) acc;
		if (!exact && !neg)
			lo += 1;
	}
	memset(c, 0, sizeof(*c));
	set_dec(c, lo);
	c->i = exact;
}

void
gr_expr_bind(GrExprProg *p, int k, Datum value, bool isnull, Oid type)
{
	XVal		v;

	/* a numeric constant a decimal compares with: its place among the scale's values */
	for (int s = 0; s < p->nsteps; s++)
		if (p->steps[s].op == GR_X_CMP_RANGE_D && p->steps[s].c == k)
		{
			if (type != NUMERICOID)
				elog(ERROR, "gpu_reduce: cannot compare a numeric with type %u", type);
			memset(&p->consts[k], 0, sizeof(GrExprConst));
			p->consts[k].isnull = isnull;
			if (!isnull)
				bind_numeric_range(&p->consts[k], value, p->steps[s].w);
			return;
		}

	/* a cross-type time comparison's constant: a range of the other side's values */
	for (int s = 0; s < p->nsteps; s++)
		if (p->steps[s].op == GR_X_CMP_RANGE && p->steps[s].c == k)
		{
			GrExprConst *c = &p->consts[k];
			Oid			coltype = time_oid(p->steps[s].w);
			GrTimeRange r;

			if (!gr_time_cross(coltype, type))
				elog(ERROR, "gpu_reduce: cannot compare type %u with type %u", coltype, type);
			memset(c, 0, sizeof(*c));
			c->isnull = isnull;
			if (isnull)
				return;
			gr_time_range(coltype, type, value, &r);
			c->i = r.lo;
			c->dhi = r.hi;
			c->dlo = r.unsure;
			return;
		}
	if (!type_kind(type, -1, &v) || v.kind == GR_XK_DEC ||
		!const_value(&p->consts[k], &v, value, isnull))
		elog(ERROR, "gpu_reduce: cannot bind an expression constant of type %u", type);
}

/* A text literal's bytes as constant k, in the program's pool; false when full. */
static bool
text_const(GrExprBuilder *b, Datum value, int *k)
{
	text	   *t = DatumGetTextPP(value);
	int			len = VARSIZE_ANY_EXHDR(t);

	if (!new_const(b, k) || b->prog.ntext + len > GR_EXPR_TEXT_POOL)
		return false;
	memcpy(b->prog.text + b->prog.ntext, VARDATA_ANY(t), len);
	b->prog.consts[*k].i = b->prog.ntext;
	b->prog.consts[*k].dlo = len;
	b->prog.ntext += len;
	return true;
}

/* Whether a libc locale name sorts as byte order. */
static bool
c_locale_name(Datum name)
{
	char	   *s = TextDatumGetCString(name);

	return strcmp(s, "C") == 0 || strcmp(s, "POSIX") == 0;
}

/*
 * Whether a collation sorts by bytes: "C" and "POSIX", a libc collation of
 * one of those locales, or the default collation of a database created with
 * one (read from the catalogs: pg_locale.h is not usable by an extension
 * everywhere, PostgreSQL 18's including ICU's headers).
 */
static bool
collation_is_c(Oid collid)
{
	HeapTuple	tup;
	bool		isnull;
	Datum		name;
	bool		result = false;

	if (collid == C_COLLATION_OID)
		return true;
	if (collid == DEFAULT_COLLATION_OID)
	{
		tup = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(MyDatabaseId));
		if (!HeapTupleIsValid(tup))
			return false;
		if (((Form_pg_database) GETSTRUCT(tup))->datlocprovider == COLLPROVIDER_LIBC)
		{
			name = SysCacheGetAttr(DATABASEOID, tup, Anum_pg_database_datcollate, &isnull);
			result = !isnull && c_locale_name(name);
		}
		ReleaseSysCache(tup);
		return result;
	}
	tup = SearchSysCache1(COLLOID, ObjectIdGetDatum(collid));
	if (!HeapTupleIsValid(tup))
		return false;
	if (((Form_pg_collation) GETSTRUCT(tup))->collprovider == COLLPROVIDER_LIBC)
	{
		name = SysCacheGetAttr(COLLOID, tup, Anum_pg_collation_collcollate, &isnull);
		result = !isnull && c_locale_name(name);
	}
	ReleaseSysCache(tup);
	return result;
}

/* Whether a comparison of text under a collation gives byte order (or byte equality). */
static bool
text_collation_ok(Oid collid, bool equality)
{
	if (!OidIsValid(collid) || !get_collation_isdeterministic(collid))
		return false;
	/* equality is byte equality under any deterministic collation */
	return equality || collation_is_c(collid);
}

/* A literal or run-time constant into a new register. */
static bool
load_const(GrExprBuilder *b, const XVal *v, Datum value, bool isnull, int bind, XVal *out)
{
	int			k;

	*out = *v;
	if (!new_const(b, &k) || !new_reg(b, &out->reg))
		return false;
	if (bind >= 0)
		b->bind[k] = bind;
	else if (!const_value(&b->prog.consts[k], v, value, isnull))
		return false;
	return emit(b, GR_X_CONST, v->kind, v->w, out->reg, k, -1, 0);
}

/* Whether a function is not one of PostgreSQL's own (no user function runs in the node). */
static bool
not_catalog_function(Oid func, void *context)
{
	return get_func_namespace(func) != PG_CATALOG_NAMESPACE;
}

/* Whether an expression holds a user's function or a parameter not given by the client. */
static bool
not_runtime_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (check_functions_in_node(node, not_catalog_function, NULL))
		return true;
	if (IsA(node, Param) && ((Param *) node)->paramkind != PARAM_EXTERN)
		return true;
	if (IsA(node, SubLink) || IsA(node, SubPlan) || IsA(node, Aggref) ||
		IsA(node, WindowFunc) || IsA(node, Var) || IsA(node, PlaceHolderVar) ||
		IsA(node, CaseTestExpr))
		return true;
	return expression_tree_walker(node, not_runtime_walker, context);
}

/*
 * An expression without columns that the scan may evaluate once at its
 * start: parameters and stable pg_catalog functions, nothing volatile.
 */
static bool
runtime_constant(Expr *e)
{
	return !contain_volatile_functions((Node *) e) && !not_runtime_walker((Node *) e, NULL);
}

static bool compile(GrExprBuilder *b, Expr *e, XVal *out);

/*
 * A decimal literal at a larger scale, scaled once here rather than by a
 * step on every row (1 - l_discount): a new constant of the scaled value
 * in a register of its own.  Never the literal's constant itself: another
 * holder of its register (NULLIF's value returned, a simple CASE's value
 * in each WHEN) would read it at its old scale, and NULLIF(1.5, n) of a
 * numeric(38,2) n gave 15.0.
 */
static bool
rescale_literal(GrExprBuilder *b, XVal *v, int scale)
{
	for (int s = b->prog.nsteps - 1; s >= 0; s--)
	{
		GrExprStep *st = &b->prog.steps[s];
		gr_int128	x;
		int			k;

		if (st->dst != v->reg)
			continue;
		if (st->op != GR_X_CONST || st->sub != GR_XK_DEC || b->bind[st->a] >= 0)
			return false;
		/* a NULL's words are 0, which scales */
		if (!gr_dec_rescale(gr_expr_const_dec(&b->prog.consts[st->a]), scale - v->scale, &x))
			return false;		/* the step would hand the row back: keep it */
		if (!new_const(b, &k))
			return false;
		b->prog.consts[k] = b->prog.consts[st->a];
		set_dec(&b->prog.consts[k], x);
		if (!new_reg(b, &v->reg) || !emit(b, GR_X_CONST, GR_XK_DEC, v->w, v->reg, k, -1, 0))
			return false;
		v->scale = scale;
		return true;
	}
	return false;
}

/* A decimal value at a larger scale. */
static bool
rescale(GrExprBuilder *b, XVal *v, int scale)
{
	int			reg;

	if (scale == v->scale)
		return true;
	if (scale <= GR_EXPR_MAX_SCALE && rescale_literal(b, v, scale))
		return true;
	if (scale > GR_EXPR_MAX_SCALE || !new_reg(b, &reg) ||
		!emit(b, GR_X_RESCALE_D, 0, 0, reg, v->reg, -1, scale - v->scale))
		return false;
	v->reg = reg;
	v->scale = scale;
	return true;
}

/* A date as a timestamp (for comparisons across the two). */
static bool
date_to_ts(GrExprBuilder *b, XVal *v)
{
	int			reg;

	if (!new_reg(b, &reg) || !emit(b, GR_X_DATE2TS, 0, 8, reg, v->reg, -1, 0))
		return false;
	v->reg = reg;
	v->type = TIMESTAMPOID;
	v->w = 8;
	return true;
}

/* Bring two comparands to one kind and scale; false if they do not compare here. */
static bool
comparable(GrExprBuilder *b, XVal *l, XVal *r)
{
	if (l->kind != r->kind)
		return false;
	switch (l->kind)
	{
		case GR_XK_INT:
			if (is_int_type(l->type) && is_int_type(r->type))
				return true;
			if (l->type == r->type)
				return true;	/* date, timestamp, timestamptz */
			if (l->type == DATEOID && r->type == TIMESTAMPOID)
				return date_to_ts(b, l);
			if (l->type == TIMESTAMPOID && r->type == DATEOID)
				return date_to_ts(b, r);
			return false;
		case GR_XK_FLOAT:
			return true;
		case GR_XK_DEC:
			return rescale(b, l, Max(l->scale, r->scale)) &&
				rescale(b, r, Max(l->scale, r->scale));
		case GR_XK_TEXT:
		case GR_XK_BPCHAR:
			return true;		/* the same kind: text with text, char(n) with char(n) */
		default:
			return false;
	}
}

/* The comparison an operator name stands for, or -1. */
static int
cmp_of_name(const char *name)
{
	static const char *const names[] = {"=", "<>", "<", "<=", ">", ">="};

	for (int i = 0; i < lengthof(names); i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

/* A step whose result is a new boolean register, out. */
static bool
emit_bool(GrExprBuilder *b, int op, int sub, int w, int a, int bb, int c, XVal *out)
{
	out->kind = GR_XK_BOOL;
	out->type = BOOLOID;
	out->w = 1;
	return new_reg(b, &out->reg) && emit(b, op, sub, w, out->reg, a, bb, c);
}

/* each comparison with its sides swapped (GrExprCmp order) */
static const int cmp_flipped[] = {GR_XC_EQ, GR_XC_NE, GR_XC_GT, GR_XC_GE, GR_XC_LT, GR_XC_LE};

/*
 * Call each(value, arg) for the values of var's statistics, the histogram's
 * bounds and then the most common values, until it returns false.
 */
static void
stats_values(PlannerInfo *root, Expr *var, bool (*each) (Datum value, void *arg), void *arg)
{
	static const int kinds[] = {STATISTIC_KIND_HISTOGRAM, STATISTIC_KIND_MCV};
	VariableStatData vardata;
	bool		more = true;

	examine_variable(root, (Node *) var, 0, &vardata);
	for (int i = 0; more && i < lengthof(kinds) && HeapTupleIsValid(vardata.statsTuple); i++)
	{
		AttStatsSlot sslot;

		if (!get_attstatsslot(&sslot, vardata.statsTuple, kinds[i], InvalidOid,
							  ATTSTATSSLOT_VALUES))
			continue;
		for (int v = 0; more && v < sslot.nvalues; v++)
			more = each(sslot.values[v], arg);
		free_attstatsslot(&sslot);
	}
	ReleaseVariableStats(vardata);
}

/* operand_sample's values so far */
typedef struct OperandSample
{
	int			scale;
	Oid			type;
	gr_int128  *vals;
	int		   *n;
	int			max;
} OperandSample;

/* stats_values' callback for operand_sample: one value scaled, while there is room. */
static bool
sample_value(Datum d, void *arg)
{
	OperandSample *s = arg;

	if (*s->n >= s->max)
		return false;
	if (s->type == NUMERICOID ?
		gr_numeric_scaled((const uint8_t *) DatumGetPointer(d), s->scale, &s->vals[*s->n]) :
		(s->vals[*s->n] = s->type == INT8OID ? DatumGetInt64(d) : s->type == INT4OID ?
		 DatumGetInt32(d) : DatumGetInt16(d), true))
		(*s->n)++;
	return true;
}

/* gr_time_stats_range's instants so far */
typedef struct TimeRange
{
	Oid			type;
	bool		found;
	int64		lo;
	int64		hi;
} TimeRange;

/* stats_values' callback for gr_time_stats_range: one finite instant into the range. */
static bool
range_value(Datum d, void *arg)
{
	TimeRange  *r = arg;
	int64		t;

	if (r->type == DATEOID)
	{
		DateADT		day = DatumGetDateADT(d);

		if (DATE_NOT_FINITE(day))
			return true;
		t = (int64) day * SECS_PER_DAY + GR_UNIX_TO_PG_SECS;
	}
	else
	{
		Timestamp	ts = DatumGetTimestamp(d);

		if (TIMESTAMP_NOT_FINITE(ts))
			return true;
		t = gr_ts_unix_secs(ts);
	}
	r->lo = r->found ? Min(r->lo, t) : t;
	r->hi = r->found ? Max(r->hi, t) : t;
	r->found = true;
	return true;
}

/*
 * Values of a quotient's operand for the planner, as decimals of its scale:
 * a constant, or a column's (an integer column's cast to numeric too)
 * histogram bounds and most common values; false if there are none.
 */
static bool
operand_sample(GrExprBuilder *b, Expr *e, int scale, gr_int128 *vals, int *n, int max)
{
	OperandSample s = {scale, InvalidOid, vals, n, max};

	*n = 0;
	while (IsA(e, RelabelType))
		e = ((RelabelType *) e)->arg;
	if (IsA(e, FuncExpr) && list_length(((FuncExpr *) e)->args) == 1 &&
		is_int_type(exprType(linitial(((FuncExpr *) e)->args))))
		e = linitial(((FuncExpr *) e)->args);	/* numeric(int): scale 0 */
	s.type = exprType((Node *) e);
	if (IsA(e, Const))
	{
		Const	   *c = (Const *) e;

		if (c->constisnull || s.type != NUMERICOID ||
			!gr_numeric_scaled((const uint8_t *) DatumGetPointer(c->constvalue), scale, &vals[0]))
			return false;
		*n = 1;
		return true;
	}
	if (b->root == NULL || !IsA(e, Var) || (s.type != NUMERICOID && !is_int_type(s.type)))
		return false;
	stats_values(b->root, e, sample_value, &s);
	return *n > 0;
}

/*
 * The least and greatest instants (Unix seconds) among a date, timestamp
 * or timestamptz column's statistics (histogram bounds and most common
 * values) under src's casts; false where there are none.
 */
bool
gr_time_stats_range(PlannerInfo *root, Expr *src, int64 *lo, int64 *hi)
{
	TimeRange	r = {InvalidOid, false, 0, 0};

	while (src != NULL && (IsA(src, RelabelType) ||
						   (IsA(src, FuncExpr) && list_length(((FuncExpr *) src)->args) == 1)))
		src = IsA(src, RelabelType) ? ((RelabelType *) src)->arg :
			linitial(((FuncExpr *) src)->args);
	if (root == NULL || src == NULL || !IsA(src, Var))
		return false;
	r.type = exprType((Node *) src);
	if (time_code(r.type) == 0)
		return false;
	stats_values(root, src, range_value, &r);
	*lo = r.lo;
	*hi = r.hi;
	return r.found;
}

/*
 * Widen the window of the session zone's table (GrExprZone) to the
 * instants src's values reach: its column's statistics, with more than a
 * year either side (a truncation to the year reads the zone up to a year
 * before; rows added since); without them, the 20 years to now and 5 on.
 */
static void
zone_window(GrExprBuilder *b, Expr *src)
{
	GrExprZone *z = &b->prog.zone;
	int64		lo,
				hi;

	if (gr_time_stats_range(b->root, src, &lo, &hi))
	{
		lo -= GR_ZONE_MARGIN_DAYS * SECS_PER_DAY;
		hi += GR_ZONE_MARGIN_DAYS * SECS_PER_DAY;
	}
	else
	{
		int64		now = gr_ts_unix_secs(GetCurrentTimestamp());

		lo = now - 20 * GR_ZONE_YEAR_SECS;
		hi = now + 5 * GR_ZONE_YEAR_SECS;
	}
	if (z->win_hi > z->win_lo)
	{
		lo = Min(lo, z->win_lo);
		hi = Max(hi, z->win_hi);
	}
	z->win_lo = lo;
	z->win_hi = hi;
}

/*
 * The scale numeric.c gives most of the quotients num / den (numeric_div's
 * scale follows a quotient's magnitude): the commonest over every pair of
 * the operands' sampled values (operand_sample); -1 where they have no
 * statistics, or where fewer than GR_DIV_PLANNED_SHARE of the pairs have
 * it: the other rows would go to PostgreSQL one by one, slower than its plan.
 */
static int
planned_quotient_scale(GrExprBuilder *b, Expr *num, Expr *den, int sa, int sb)
{
	/* (on the stack: palloc's 8-byte alignment is not an int128's) */
	gr_int128	x[GR_DIV_SAMPLE];
	gr_int128	y[GR_DIV_SAMPLE];
	int			nx,
				ny,
				pairs = 0,
				best = -1;
	int			count[GR_EXPR_MAX_SCALE + 1] = {0};

	if (operand_sample(b, num, sa, x, &nx, GR_DIV_SAMPLE) &&
		operand_sample(b, den, sb, y, &ny, GR_DIV_SAMPLE))
	{
		/* each value's weight and leading digit once, then every pair */
		int			wx[GR_DIV_SAMPLE],
					fx[GR_DIV_SAMPLE],
					wy[GR_DIV_SAMPLE],
					fy[GR_DIV_SAMPLE];

		for (int i = 0; i < nx; i++)
			gr_dec_lead(x[i], sa, &wx[i], &fx[i]);
		for (int j = 0; j < ny; j++)
			gr_dec_lead(y[j], sb, &wy[j], &fy[j]);
		for (int i = 0; i < nx; i++)
			for (int j = 0; j < ny; j++)
			{
				int			rs;

				if (y[j] == 0)
					continue;
				rs = gr_div_scale(wx[i], fx[i], wy[j], fy[j], sa, sb);
				pairs++;
				if (rs <= GR_EXPR_MAX_SCALE && ++count[rs] > (best < 0 ? 0 : count[best]))
					best = rs;
			}
	}
	if (best < 0 || count[best] < GR_DIV_PLANNED_SHARE * pairs)
		return -1;
	return best;
}

/*
 * numeric / numeric (GR_X_DIV_D): numeric.c rounds a quotient at a scale
 * that follows its magnitude.  Within a comparison, which reads no display
 * scale, the quotient is held exactly at GR_DIV_QUAL_SCALE, whatever scale
 * up to that it gets; elsewhere (an aggregate's argument, whose sum or
 * minimum shows the scale) it is computed at the scale planned from the
 * operands' statistics, and a row whose quotient numeric.c gives another
 * scale is handed back to PostgreSQL.
 */
static bool
numeric_quotient(GrExprBuilder *b, Expr *num, Expr *den, const XVal *l, const XVal *r,
				 XVal *out)
{
	int			rs = b->compared > 0 ? Max(GR_DIV_QUAL_SCALE, Max(l->scale, r->scale)) :
		gr_debug_quotient_scale >= 0 ? Max(gr_debug_quotient_scale, Max(l->scale, r->scale)) :
		planned_quotient_scale(b, num, den, l->scale, r->scale);

	if (rs < 0 || rs > GR_EXPR_MAX_SCALE)
		return false;
	*out = *l;
	out->scale = rs;
	return new_reg(b, &out->reg) &&
		emit(b, GR_X_DIV_D, r->scale | (b->compared > 0 ? GR_XDIV_BELOW : 0), l->scale,
			 out->reg, l->reg, r->reg, rs);
}

/* A comparison of two compiled values into a new boolean register. */
static bool
compare(GrExprBuilder *b, int cmp, XVal *l, XVal *r, XVal *out)
{
	int			op;

	if (!comparable(b, l, r))
		return false;
	op = l->kind == GR_XK_INT ? GR_X_CMP_I : l->kind == GR_XK_FLOAT ? GR_X_CMP_F :
		l->kind == GR_XK_DEC ? GR_X_CMP_D : GR_X_CMP_T;
	return emit_bool(b, op, cmp, l->kind == GR_XK_BPCHAR, l->reg, r->reg, 0, out);
}

/*
 * A comparison across date, timestamp and timestamptz.  With a constant
 * side (a literal, a parameter, now() - interval) it is a range of the
 * other side's values, bound at the scan's start in the session's time
 * zone (time_range.c), so that a row compares as an integer; value against
 * value, a date converts per row to compare with a timestamp, and a
 * timestamptz with another type keeps PostgreSQL's plan (the zone's offset
 * per row).
 */
static bool
time_compare(GrExprBuilder *b, int cmp, Expr *l, Expr *r, XVal *out)
{
	bool		rconst = runtime_constant(r);
	XVal		x;
	int			k;

	if (rconst == runtime_constant(l))
	{
		XVal		lv,
					rv;

		if (exprType((Node *) l) == TIMESTAMPTZOID || exprType((Node *) r) == TIMESTAMPTZOID)
			return false;
		return compile(b, l, &lv) && compile(b, r, &rv) && compare(b, cmp, &lv, &rv, out);
	}
	if (!rconst)
	{
		Expr	   *t = l;

		l = r;
		r = t;
		cmp = cmp_flipped[cmp];
	}
	if (!compile(b, l, &x) || x.kind != GR_XK_INT || time_code(x.type) == 0 ||
		!new_const(b, &k))
		return false;
	b->bind[k] = b->runtime_of(b->arg, r);
	return emit_bool(b, GR_X_CMP_RANGE, cmp, time_code(x.type), x.reg, -1, k, out);
}

/*
 * A numeric comparison with a constant whose scale is known only at the
 * scan's start (a parameter, a stable expression of one): the constant is
 * bound then as its place among the values of the other side's scale, so
 * any constant compares exactly (NULL, NaN and the infinities included).
 */
static bool
numeric_param_compare(GrExprBuilder *b, int cmp, Expr *l, Expr *r, XVal *out)
{
	XVal		x;
	int			k;

	if (!IsA(r, Const) && runtime_constant(r))
		;
	else if (!IsA(l, Const) && runtime_constant(l))
	{
		Expr	   *t = l;

		l = r;
		r = t;
		cmp = cmp_flipped[cmp];
	}
	else
		return false;
	if (runtime_constant(l) || !compile(b, l, &x) || x.kind != GR_XK_DEC || !new_const(b, &k))
		return false;
	b->bind[k] = b->runtime_of(b->arg, r);
	return emit_bool(b, GR_X_CMP_RANGE_D, cmp, x.scale, x.reg, -1, k, out);
}

/* Arithmetic of two values: an operator name, its result type. */
static bool
arith(GrExprBuilder *b, const char *name, Expr *le, Expr *re, XVal *l, XVal *r, Oid restype,
	  XVal *out)
{
	static const char *const names[] = {"+", "-", "*", "/", "%"};
	int			which = -1;
	int			op;

	for (int i = 0; i < lengthof(names); i++)
		if (strcmp(name, names[i]) == 0)
			which = i;
	if (which < 0 || l->kind != r->kind || (!type_kind(restype, -1, out) && restype != NUMERICOID))
		return false;
	if (l->kind == GR_XK_INT)
	{
		/* the integer types only (date arithmetic is something else) */
		if (!is_int_type(l->type) || !is_int_type(r->type) || !is_int_type(restype))
			return false;
		op = GR_X_ADD_I + which;
	}
	else if (l->kind == GR_XK_FLOAT)
	{
		if (which > 3 || (restype != FLOAT4OID && restype != FLOAT8OID))
			return false;
		op = GR_X_ADD_F + which;
	}
	else if (l->kind == GR_XK_DEC)
	{
		if (which > 3 || restype != NUMERICOID)
			return false;
		if (which == 3)
			return numeric_quotient(b, le, re, l, r, out);
		out->kind = GR_XK_DEC;
		out->type = NUMERICOID;
		out->w = 16;
		if (which == 2)
			out->scale = l->scale + r->scale;
		else
		{
			if (!rescale(b, l, Max(l->scale, r->scale)) ||
				!rescale(b, r, Max(l->scale, r->scale)))
				return false;
			out->scale = l->scale;
		}
		if (out->scale > GR_EXPR_MAX_SCALE)
			return false;
		op = GR_X_ADD_D + which;
	}
	else
		return false;
	return new_reg(b, &out->reg) && emit(b, op, 0, out->w, out->reg, l->reg, r->reg, 0);
}

/* A one-argument operator or function of pg_catalog: unary minus, abs. */
static bool
unary(GrExprBuilder *b, const char *name, XVal *a, Oid restype, XVal *out)
{
	int			op;

	*out = *a;
	if (restype != a->type)
		return false;
	if (strcmp(name, "-") == 0)
		op = a->kind == GR_XK_INT ? GR_X_NEG_I : a->kind == GR_XK_FLOAT ? GR_X_NEG_F : GR_X_NEG_D;
	else if (strcmp(name, "abs") == 0 || strcmp(name, "@") == 0)
		op = a->kind == GR_XK_INT ? GR_X_ABS_I : a->kind == GR_XK_FLOAT ? GR_X_ABS_F : GR_X_ABS_D;
	else
		return false;
	if (a->kind == GR_XK_BOOL || (a->kind == GR_XK_INT && !is_int_type(a->type)))
		return false;
	return new_reg(b, &out->reg) && emit(b, op, 0, a->w, out->reg, a->reg, -1, 0);
}

/*
 * A cast of a (the value of src, where known) to restype (a pg_catalog
 * function named as its result type): among the integers, floats and
 * numerics (a float or numeric to an integer rounded as dtoi4 and
 * numeric_int4 round, an error handed back), date to timestamp and back,
 * and between timestamptz and date or timestamp in the session's zone
 * (date2timestamptz, timestamp2timestamptz: DetermineTimeZoneOffset;
 * timestamptz_timestamp and timestamptz_date: timestamp2tm).
 */
static bool
cast(GrExprBuilder *b, XVal *a, Expr *src, Oid restype, int32 restypmod, XVal *out)
{
	int			op;
	int			c = 0;

	if (a->kind == GR_XK_INT && (a->type == TIMESTAMPTZOID) !=
		(restype == TIMESTAMPTZOID) && time_code(a->type) != 0 && time_code(restype) != 0)
	{
		XVal		v = *a;

		int			reg;

		zone_window(b, src);
		if ((v.type == DATEOID && !date_to_ts(b, &v)) || !type_kind(restype, restypmod, out) ||
			!new_reg(b, &reg) ||
			!emit(b, restype == TIMESTAMPTZOID ? GR_X_TZ_INSTANT : GR_X_TZ_LOCAL, 0, 8,
				  reg, v.reg, -1, 0))
			return false;
		out->reg = reg;
		/* a date: the day its local time falls in */
		return restype != DATEOID ||
			(new_reg(b, &out->reg) && emit(b, GR_X_TS2DATE, 0, 4, out->reg, reg, -1, 0));
	}

	if (!type_kind(restype, restypmod, out))
	{
		/* numeric without a modifier: the integer's scale 0 */
		if (restype != NUMERICOID || a->kind != GR_XK_INT || !is_int_type(a->type))
			return false;
		out->kind = GR_XK_DEC;
		out->type = NUMERICOID;
		out->w = 16;
		out->scale = 0;
	}
	if (a->kind == GR_XK_INT && is_int_type(a->type))
	{
		if (is_int_type(restype))
			op = GR_X_NARROW_I;
		else if (out->kind == GR_XK_FLOAT)
			op = GR_X_I2F;
		else if (out->kind == GR_XK_DEC && out->scale == 0)
			op = GR_X_I2D;
		else
			return false;
	}
	else if (a->kind == GR_XK_FLOAT && out->kind == GR_XK_FLOAT)
	{
		if (out->w == 8)
		{
			*out = *a;
			out->type = restype;
			out->w = 8;
			return true;		/* float4 to float8: exact */
		}
		op = GR_X_ROUND_F4;
	}
	else if (a->kind == GR_XK_FLOAT && is_int_type(restype))
		op = GR_X_F2I;
	else if (a->kind == GR_XK_DEC && (is_int_type(restype) || out->kind == GR_XK_FLOAT))
	{
		op = out->kind == GR_XK_FLOAT ? GR_X_D2F : GR_X_D2I;
		c = a->scale;
	}
	else if (a->type == DATEOID && restype == TIMESTAMPOID)
		op = GR_X_DATE2TS;
	else if (a->type == TIMESTAMPOID && restype == DATEOID)
		op = GR_X_TS2DATE;
	else
		return false;
	return new_reg(b, &out->reg) && emit(b, op, 0, out->w, out->reg, a->reg, -1, c);
}

/*
 * A numeric value to a declared precision and scale (numeric(x, typmod),
 * the length coercion of a cast to numeric(p,s)): apply_typmod rounds it
 * to the scale, half away from zero, and a value of p or more digits is
 * its error, handed back.
 */
static bool
typmod_cast(GrExprBuilder *b, List *args, XVal *out)
{
	Const	   *tm = lsecond(args);
	XVal		a;
	int			prec;

	if (!IsA(tm, Const) || tm->consttype != INT4OID || tm->constisnull ||
		!compile(b, linitial(args), &a) || a.kind != GR_XK_DEC)
		return false;
	/* a modifier PostgreSQL leaves alone (-1) is the value as it is */
	if (DatumGetInt32(tm->constvalue) < (int32) VARHDRSZ)
	{
		*out = a;
		return true;
	}
	if (!type_kind(NUMERICOID, DatumGetInt32(tm->constvalue), out))
		return false;
	prec = ((DatumGetInt32(tm->constvalue) - VARHDRSZ) >> 16) & 0xFFFF;
	/* 2^126 has 38 digits: a bound of more is never reached */
	return new_reg(b, &out->reg) &&
		emit(b, GR_X_TYPMOD_D, 0, prec <= 37 ? prec : 0, out->reg, a.reg, -1,
			 out->scale - a.scale);
}

/* A boolean test or NULL test of a value. */
static bool
test(GrExprBuilder *b, int op, XVal *a, XVal *out)
{
	return emit_bool(b, op, 0, 0, a->reg, -1, 0, out);
}

/*
 * Whether a choice's values share one kind and, for numeric, one scale: the
 * choice returns the chosen value as it is, so its display scale is the
 * value's own, which a register of one scale holds alone only when all
 * agree (else choice_shape).
 */
static bool
same_shape(const XVal *a, const XVal *b)
{
	return a->kind == b->kind && (a->kind != GR_XK_DEC || a->scale == b->scale);
}

/* A NULL of a value's kind, for a CASE without ELSE and NULLIF. */
static bool
null_of(GrExprBuilder *b, const XVal *like, XVal *out)
{
	return load_const(b, like, (Datum) 0, true, -1, out);
}

/*
 * Bring a choice's values (CASE's results, COALESCE's arguments) to one
 * shape: they have one already (same_shape), or, in an output's whole
 * expression (whole), they are numerics of several scales. PostgreSQL's
 * choice then keeps each value's own display scale, which a sum of them
 * shows as its largest (TPC-H Q14's CASE WHEN p_type LIKE 'PROMO%' THEN
 * l_extendedprice * (1 - l_discount) ELSE 0 END): each is rescaled to the
 * largest scale, and sc[i] holds its own as an int4 (*varies).
 */
static bool
choice_shape(GrExprBuilder *b, XVal *vals, int n, bool whole, XVal *sc, bool *varies)
{
	int			top = 0;
	XVal		i4;

	*varies = false;
	for (int i = 1; i < n; i++)
		*varies |= !same_shape(&vals[0], &vals[i]);
	if (!*varies)
		return true;
	if (!whole)
		return false;
	for (int i = 0; i < n; i++)
	{
		if (vals[i].kind != GR_XK_DEC)
			return false;
		top = Max(top, vals[i].scale);
	}
	if (!type_kind(INT4OID, -1, &i4))
		return false;
	for (int i = 0; i < n; i++)
	{
		int			s = vals[i].scale;

		if (s < 0 || s > GR_EXPR_MAX_SCALE)
			return false;
		/* one register a scale in the program (a register holds its value to the end) */
		sc[i] = i4;
		if (b->scale_const[s] != 0)
			sc[i].reg = b->scale_const[s] - 1;
		else if (load_const(b, &i4, Int32GetDatum(s), false, -1, &sc[i]))
			b->scale_const[s] = sc[i].reg + 1;
		else
			return false;
		if (!rescale(b, &vals[i], top))
			return false;
	}
	return true;
}

/* dst = cond ? a : c, into a new register of a's kind */
static bool
choose(GrExprBuilder *b, const XVal *cond, const XVal *a, const XVal *c, XVal *out)
{
	*out = *a;
	return new_reg(b, &out->reg) && emit(b, GR_X_SELECT, 0, 0, out->reg, cond->reg, a->reg, c->reg);
}

/*
 * CASE, searched or simple (whose WHEN clauses compare the CASE's value,
 * CaseTestExpr, with theirs): every branch is computed and the first true
 * condition's taken, so a branch PostgreSQL would not reach can only make
 * the row handed back (a division by zero it guards), never change it.
 * Numerics of several scales are chosen only as an output's whole (whole;
 * choice_shape), the chosen one's scale beside the value.
 */
static bool
case_expr(GrExprBuilder *b, CaseExpr *ce, bool whole, XVal *out)
{
	XVal		saved = b->case_value;
	bool		had = b->has_case_value;
	int			n = list_length(ce->args);
	bool		has_else = ce->defresult != NULL &&
		!(IsA(ce->defresult, Const) && ((Const *) ce->defresult)->constisnull);
	XVal	   *conds;
	XVal	   *vals;			/* the THEN results, then the ELSE's */
	XVal	   *sc;				/* their scales, where they vary */
	XVal		result,
				rscale;
	bool		varies;
	ListCell   *lc;

	if (ce->arg != NULL)
	{
		if (!compile(b, ce->arg, &b->case_value))
			return false;
		b->has_case_value = true;
	}
	conds = palloc(sizeof(XVal) * n);
	vals = palloc(sizeof(XVal) * (n + 1));
	sc = palloc(sizeof(XVal) * (n + 1));
	foreach(lc, ce->args)
	{
		CaseWhen   *w = lfirst_node(CaseWhen, lc);
		int			i = foreach_current_index(lc);

		if (!compile(b, w->expr, &conds[i]) || conds[i].kind != GR_XK_BOOL ||
			!compile(b, w->result, &vals[i]))
			return false;
	}
	b->case_value = saved;
	b->has_case_value = had;
	if (has_else && !compile(b, ce->defresult, &vals[n]))
		return false;
	if (!choice_shape(b, vals, n + has_else, whole, sc, &varies))
		return false;
	/* without ELSE, a NULL (its scale, never read, the first THEN's) */
	if (!has_else && !null_of(b, &vals[0], &vals[n]))
		return false;
	result = vals[n];
	if (varies)
		rscale = sc[has_else ? n : 0];
	for (int i = n - 1; i >= 0; i--)
	{
		XVal		next;

		if (!choose(b, &conds[i], &vals[i], &result, &next))
			return false;
		result = next;
		if (varies)
		{
			if (!choose(b, &conds[i], &sc[i], &rscale, &next))
				return false;
			rscale = next;
		}
	}
	if (varies)
		b->row_scale[result.reg] = rscale.reg + 1;
	*out = result;
	return true;
}

/*
 * COALESCE, GREATEST, LEAST: a fold over the arguments, left to right.  A
 * COALESCE of numerics of several scales as an output's whole (whole;
 * choice_shape): the first non-NULL argument's scale beside the value.
 */
static bool
fold_args(GrExprBuilder *b, List *args, int op, bool whole, XVal *out)
{
	int			n = list_length(args);
	XVal	   *vals = palloc(sizeof(XVal) * n);
	XVal	   *sc = palloc(sizeof(XVal) * n);
	bool		varies;
	ListCell   *lc;

	foreach(lc, args)
		if (!compile(b, lfirst(lc), &vals[foreach_current_index(lc)]))
			return false;
	if (!choice_shape(b, vals, n, whole && op == GR_X_COALESCE, sc, &varies))
		return false;
	*out = vals[0];
	for (int i = 1; i < n; i++)
	{
		int			reg;

		if ((op != GR_X_COALESCE && (vals[i].kind == GR_XK_BOOL || vals[i].kind >= GR_XK_TEXT)) ||
			!new_reg(b, &reg) ||
			!emit(b, op, out->kind, 0, reg, out->reg, vals[i].reg, 0))
			return false;
		out->reg = reg;
	}
	if (varies)
	{
		/* the scale of the first argument not NULL (all NULL: the last's, never read) */
		XVal		rscale = sc[n - 1];

		for (int i = n - 2; i >= 0; i--)
		{
			XVal		nn,
						next;

			if (!test(b, GR_X_NOTNULL, &vals[i], &nn) ||
				!choose(b, &nn, &sc[i], &rscale, &next))
				return false;
			rscale = next;
		}
		b->row_scale[out->reg] = rscale.reg + 1;
	}
	return true;
}

/* NULLIF(a, b): NULL where a = b (PostgreSQL's equality of the two), else a. */
static bool
nullif(GrExprBuilder *b, NullIfExpr *ni, XVal *out)
{
	XVal		a,
				c,
				eq,
				nul;
	char	   *name = get_opname(ni->opno);

	if (name == NULL || strcmp(name, "=") != 0 || list_length(ni->args) != 2 ||
		get_func_namespace(get_opcode(ni->opno)) != PG_CATALOG_NAMESPACE ||
		!compile(b, linitial(ni->args), &a) || !compile(b, lsecond(ni->args), &c))
		return false;
	{
		XVal		l = a;

		/* compare copies: the value returned keeps its own scale */
		if (!compare(b, GR_XC_EQ, &l, &c, &eq) || !null_of(b, &a, &nul))
			return false;
	}
	return choose(b, &eq, &nul, &a, out);
}

/*
 * x LIKE pattern (or NOT LIKE): a literal pattern of plain characters and
 * %, no _ and no escape.  'prefix%' is a test of the value's first bytes
 * (GR_X_PREFIX); any other such pattern is matched piece by piece
 * (GR_X_LIKE: gr_text_like), in a UTF-8 or single-byte database, where
 * bytes match as PostgreSQL's LIKE matches characters.  Either sees
 * char(n)'s bytes, blanks included, as bpcharlike does.
 */
static bool
like_pattern(GrExprBuilder *b, Expr *pattern, const XVal *x, bool negate, XVal *out)
{
	Const	   *c = (Const *) pattern;
	text	   *t;
	char	   *p;
	int			len;
	int			k;
	int			wild = 0;
	bool		prefix;

	if (!IsA(c, Const) || c->constisnull)
		return false;
	t = DatumGetTextPP(c->constvalue);
	p = VARDATA_ANY(t);
	len = VARSIZE_ANY_EXHDR(t);
	for (int i = 0; i < len; i++)
	{
		if (p[i] == '_' || p[i] == '\\')
			return false;
		wild += p[i] == '%';
	}
	prefix = wild == 1 && p[len - 1] == '%';
	if (!prefix && GetDatabaseEncoding() != PG_UTF8 && pg_database_encoding_max_length() != 1)
		return false;
	if (!text_const(b, prefix ? PointerGetDatum(cstring_to_text_with_len(p, len - 1)) : c->constvalue, &k) ||
		!emit_bool(b, prefix ? GR_X_PREFIX : GR_X_LIKE, 0, 0, x->reg, -1, k, out))
		return false;
	if (negate)
	{
		int			reg;

		if (!new_reg(b, &reg) || !emit(b, GR_X_NOT, 0, 0, reg, out->reg, -1, 0))
			return false;
		out->reg = reg;
	}
	return true;
}

/* The field a literal names (EXTRACT's, date_part's, date_trunc's), or -1. */
static int
field_of(Node *arg, bool trunc)
{
	static const char *const names[] = {"year", "quarter", "month", "day", "dow", "doy",
	"hour", "minute", "week"};
	char	   *f;

	if (!IsA(arg, Const) || ((Const *) arg)->constisnull ||
		((Const *) arg)->consttype != TEXTOID)
		return -1;
	f = TextDatumGetCString(((Const *) arg)->constvalue);
	for (int i = 0; i < lengthof(names); i++)
		if (pg_strcasecmp(f, names[i]) == 0)
			return (trunc && (i == GR_XF_DOW || i == GR_XF_DOY)) ||
				(!trunc && i == GR_XF_WEEK) ? -1 : i;
	return -1;
}

/*
 * A timestamptz's local time (register from, the value of src) in the
 * session's zone, as timestamp2tm gives it, into a new register *to.
 */
static bool
local_time(GrExprBuilder *b, Expr *src, int from, int *to)
{
	zone_window(b, src);
	return new_reg(b, to) && emit(b, GR_X_TZ_LOCAL, 0, 8, *to, from, -1, 0);
}

/*
 * date_trunc(field, timestamptz) in the session's zone, as timestamptz_trunc
 * computes it: the local time (GR_X_TZ_LOCAL) truncated; to a day or longer,
 * back through DetermineTimeZoneOffset's reading of the truncated time
 * (GR_X_TZ_INSTANT); to an hour or a minute, at the instant's own offset
 * (timestamptz_trunc does not redo the zone there): the instant less what
 * the truncation took off.
 */
static bool
zone_trunc(GrExprBuilder *b, Expr *src, const XVal *a, int field, XVal *out)
{
	int			local,
				cut,
				trunc;

	*out = *a;
	if (!local_time(b, src, a->reg, &local) ||
		!new_reg(b, &trunc) || !emit(b, GR_X_DATETRUNC, field, 8, trunc, local, -1, 0) ||
		!new_reg(b, &out->reg))
		return false;
	if (field != GR_XF_HOUR && field != GR_XF_MINUTE)
		return emit(b, GR_X_TZ_INSTANT, 0, 8, out->reg, trunc, -1, 0);
	return new_reg(b, &cut) && emit(b, GR_X_SUB_I, 0, 8, cut, local, trunc, 0) &&
		emit(b, GR_X_SUB_I, 0, 8, out->reg, a->reg, cut, 0);
}

/* The field a date_trunc's literal names (GrExprField), or -1: for the planner's group estimate. */
int
gr_expr_trunc_field(Node *arg)
{
	return field_of(arg, true);
}

/*
 * EXTRACT(field FROM date, timestamp or timestamptz) (numeric of scale 0),
 * date_part (double precision) and date_trunc(field, timestamp or
 * timestamptz): calendar arithmetic of datetime.c's j2date and date2j, a
 * timestamptz's on its local time in the session's zone; an infinity or a
 * year before 1 is handed back.
 */
static bool
datetime_func(GrExprBuilder *b, const char *name, List *args, Oid restype, XVal *out)
{
	bool		trunc = strcmp(name, "date_trunc") == 0;
	int			field = field_of(linitial(args), trunc);
	XVal		a;
	int			reg;

	if (field < 0 || !compile(b, lsecond(args), &a) || a.kind != GR_XK_INT ||
		(a.type != DATEOID && a.type != TIMESTAMPOID && a.type != TIMESTAMPTZOID) ||
		(a.type == DATEOID && field >= GR_XF_HOUR))
		return false;
	if (trunc)
	{
		if (a.type != restype || a.type == DATEOID)
			return false;
		if (a.type == TIMESTAMPTZOID)
			return zone_trunc(b, lsecond(args), &a, field, out);
		*out = a;
		return new_reg(b, &out->reg) &&
			emit(b, GR_X_DATETRUNC, field, 8, out->reg, a.reg, -1, 0);
	}
	/* a timestamptz's fields are its local time's */
	if (a.type == TIMESTAMPTZOID)
	{
		if (!local_time(b, lsecond(args), a.reg, &reg))
			return false;
		a.reg = reg;
		a.type = TIMESTAMPOID;
	}
	if (!new_reg(b, &reg) || !emit(b, GR_X_DATEPART, field, a.w, reg, a.reg, -1, 0))
		return false;
	a.reg = reg;
	a.type = INT8OID;
	a.w = 8;
	if (restype == NUMERICOID && strcmp(name, "extract") == 0)
		return cast(b, &a, NULL, NUMERICOID, -1, out);
	if (restype == FLOAT8OID && strcmp(name, "date_part") == 0)
		return cast(b, &a, NULL, FLOAT8OID, -1, out);
	return false;
}

/* x = ANY (constant array), or x <> ALL (...) */
static bool
in_list(GrExprBuilder *b, ScalarArrayOpExpr *sa, XVal *out)
{
	XVal		x,
				elem;
	Const	   *arr;
	ArrayType  *at;
	Oid			elemtype;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	Datum	   *vals;
	bool	   *nulls;
	int			n;
	int			first;
	char	   *name = get_opname(sa->opno);
	bool		eq = name != NULL && strcmp(name, "=") == 0 && sa->useOr;
	bool		ne = name != NULL && strcmp(name, "<>") == 0 && !sa->useOr;

	if ((!eq && !ne) || list_length(sa->args) != 2 ||
		get_func_namespace(get_opcode(sa->opno)) != PG_CATALOG_NAMESPACE)
		return false;
	arr = (Const *) lsecond(sa->args);
	if (!IsA(arr, Const) || arr->constisnull || !compile(b, linitial(sa->args), &x))
		return false;
	elemtype = get_element_type(arr->consttype);
	if (!type_kind(elemtype, -1, &elem) && elemtype != NUMERICOID)
		return false;
	at = DatumGetArrayTypeP(arr->constvalue);
	get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
	deconstruct_array(at, elemtype, typlen, typbyval, typalign, &vals, &nulls, &n);
	if (n > 255)
		return false;
	if (x.kind >= GR_XK_TEXT)
	{
		/* byte equality: a deterministic collation, elements of the value's type */
		if (!text_collation_ok(sa->inputcollid, true) || !type_kind(elemtype, -1, &elem) ||
			elem.kind != x.kind)
			return false;
		/* the elements' constants follow any the value's own code took */
		first = b->prog.nconsts;
		for (int i = 0; i < n; i++)
		{
			int			k;

			if (nulls[i])
			{
				if (!new_const(b, &k))
					return false;
				b->prog.consts[k].isnull = true;
			}
			else if (!text_const(b, vals[i], &k))
				return false;
		}
		goto emit_in;
	}
	if (x.kind == GR_XK_DEC)
	{
		/* the elements at the value's scale, or the value at theirs */
		int			scale = x.scale;

		if (elemtype != NUMERICOID)
			return false;
		for (int i = 0; i < n; i++)
		{
			int			s;

			if (nulls[i])
				continue;
			if (!numeric_dscale(DatumGetNumeric(vals[i]), &s))
				return false;
			scale = Max(scale, s);
		}
		if (!rescale(b, &x, scale))
			return false;
		elem.kind = GR_XK_DEC;
		elem.type = NUMERICOID;
		elem.scale = scale;
	}
	else if (x.kind != elem.kind || x.kind == GR_XK_BOOL ||
			 (x.kind == GR_XK_INT && !(is_int_type(x.type) && is_int_type(elemtype)) &&
			  x.type != elemtype))
		return false;
	/* the elements' constants follow any the value's own code took (d_key % 10's 10) */
	first = b->prog.nconsts;
	for (int i = 0; i < n; i++)
	{
		int			k;

		if (!new_const(b, &k) || !const_value(&b->prog.consts[k], &elem, vals[i], nulls[i]))
			return false;
	}
emit_in:
	if (!emit_bool(b, GR_X_IN, x.kind, n, x.reg, -1, first, out))
		return false;
	if (ne)
	{
		int			reg;

		if (!new_reg(b, &reg) || !emit(b, GR_X_NOT, 0, 0, reg, out->reg, -1, 0))
			return false;
		out->reg = reg;
	}
	return true;
}

/*
 * expression_tree_walker: whether an expression holds a CaseTestExpr,
 * whose value is its enclosing CASE's (the same node means different
 * values in two CASEs).
 */
static bool
has_case_test(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, CaseTestExpr))
		return true;
	return expression_tree_walker(node, has_case_test, context);
}

static bool compile_node(GrExprBuilder *b, Expr *e, bool whole, XVal *out);

/*
 * Compile expression e into a register; false if the program does not take
 * it.  An expression compiled before in the program is its register again:
 * the steps run in order with no jump and never reuse a register, so a
 * value computed once holds for the rest of the row (TPC-H Q1 computes
 * l_extendedprice * (1 - l_discount) for two sums).
 */
static bool
compile(GrExprBuilder *b, Expr *e, XVal *out)
{
	/* (a quotient compared is held apart from one that is not: numeric_quotient) */
	bool		reuse = !IsA(e, Var) && !IsA(e, Const) && !has_case_test((Node *) e, NULL) &&
		!(b->compared > 0 && gr_expr_has_numeric_div((Node *) e));
	bool		whole = b->whole;
	bool		found = false;

	b->whole = false;
	for (int i = 0; reuse && i < b->ndone && !found; i++)
		if (equal(b->done[i].e, e))
		{
			*out = b->done[i].v;
			found = true;
		}
	if (!found && !compile_node(b, e, whole, out))
		return false;
	/*
	 * a numeric whose scale varies by row is an output's whole expression,
	 * never an operand: an operator or a comparison reads one scale
	 */
	if (b->row_scale[out->reg] != 0 && !whole)
		return false;
	if (!found && reuse && b->ndone < lengthof(b->done))
	{
		b->done[b->ndone].e = e;
		b->done[b->ndone].v = *out;
		b->ndone++;
	}
	return true;
}

/* An operator of two operands (compile_node's OpExpr): a comparison, LIKE, arithmetic. */
static bool
binary_op(GrExprBuilder *b, Expr *e, const char *name, List *args, Oid restype, XVal *out)
{
	XVal		l,
				r;
	int			cmp;

	if ((cmp = cmp_of_name(name)) >= 0 &&
		restype == BOOLOID &&
		gr_time_cross(exprType(linitial(args)), exprType(lsecond(args))))
		return time_compare(b, cmp, linitial(args), lsecond(args), out);
	if ((cmp = cmp_of_name(name)) >= 0 &&
		restype == BOOLOID && exprType(linitial(args)) == NUMERICOID &&
		exprType(lsecond(args)) == NUMERICOID &&
		((!IsA(linitial(args), Const) && runtime_constant(linitial(args))) ||
		 (!IsA(lsecond(args), Const) && runtime_constant(lsecond(args)))))
		return numeric_param_compare(b, cmp, linitial(args), lsecond(args), out);
	/*
	 * a numeric quotient's scale follows its operands' display scales
	 * (select_div_scale), which a quotient held for a comparison does not
	 * keep: a quotient within a quotient's operands is computed at its own
	 */
	if (((OpExpr *) e)->opfuncid == F_NUMERIC_DIV)
	{
		int			compared = b->compared;
		bool		ok;

		b->compared = 0;
		ok = compile(b, linitial(args), &l) && compile(b, lsecond(args), &r);
		b->compared = compared;
		if (!ok)
			return false;
	}
	else if (!compile(b, linitial(args), &l) || !compile(b, lsecond(args), &r))
		return false;
	if (l.kind >= GR_XK_TEXT)
	{
		Oid			collid = ((OpExpr *) e)->inputcollid;

		if (strcmp(name, "~~") == 0 || strcmp(name, "!~~") == 0)
			return text_collation_ok(collid, true) &&
				like_pattern(b, lsecond(args), &l, name[0] == '!', out);
		if ((cmp = cmp_of_name(name)) < 0 || l.kind != r.kind ||
			!text_collation_ok(collid, cmp <= GR_XC_NE))
			return false;
	}
	if ((cmp = cmp_of_name(name)) >= 0)
		return restype == BOOLOID && compare(b, cmp, &l, &r, out);
	return arith(b, name, linitial(args), lsecond(args), &l, &r, restype, out);
}

/*
 * Compile one expression node (compile's work); whole: it is an output's
 * whole expression, where a CASE or COALESCE may choose numerics of
 * several scales.
 */
static bool
compile_node(GrExprBuilder *b, Expr *e, bool whole, XVal *out)
{
	check_stack_depth();
	switch (nodeTag(e))
	{
		case T_Var:
			{
				Var		   *v = (Var *) e;
				int			col;
				int			sub;

				if ((b->relid != 0 && v->varno != b->relid) || v->varlevelsup != 0 ||
					v->varattno <= 0 || !type_kind(v->vartype, v->vartypmod, out) ||
					(col = b->column_of(b->arg, v)) < 0)
					return false;
				sub = out->kind == GR_XK_INT ? GR_XCOL_INT : out->kind == GR_XK_FLOAT ?
					GR_XCOL_FLOAT : out->kind == GR_XK_BOOL ? GR_XCOL_BOOL :
					out->kind >= GR_XK_TEXT ? GR_XCOL_TEXT : GR_XCOL_NUMERIC;
				for (int i = 0; i < b->nloaded; i++)
					if (b->loaded[i].col == col && b->loaded[i].sub == sub &&
						b->loaded[i].scale == out->scale)
					{
						out->reg = b->loaded[i].reg;
						return true;
					}
				if (!new_reg(b, &out->reg) ||
					!emit(b, GR_X_COL, sub, out->w, out->reg, col, -1, out->scale))
					return false;
				b->loaded[b->nloaded].col = col;
				b->loaded[b->nloaded].sub = sub;
				b->loaded[b->nloaded].scale = out->scale;
				b->loaded[b->nloaded].reg = out->reg;
				b->nloaded++;
				return true;
			}
		case T_Const:
			{
				Const	   *c = (Const *) e;
				XVal		v;
				int32		typmod = c->consttypmod;

				/* a numeric literal: its own scale */
				if (c->consttype == NUMERICOID && !c->constisnull)
				{
					int			s;

					if (!numeric_dscale(DatumGetNumeric(c->constvalue), &s))
						return false;
					typmod = ((38 << 16) | s) + VARHDRSZ;
				}
				else if (c->consttype == NUMERICOID)
					typmod = VARHDRSZ;
				if (!type_kind(c->consttype, typmod, &v))
					return false;
				if (v.kind >= GR_XK_TEXT)
				{
					int			k;

					*out = v;
					if (c->constisnull)
						return load_const(b, &v, (Datum) 0, true, -1, out);
					return text_const(b, c->constvalue, &k) && new_reg(b, &out->reg) &&
						emit(b, GR_X_CONST, v.kind, 0, out->reg, k, -1, 0);
				}
				return load_const(b, &v, c->constvalue, c->constisnull, -1, out);
			}
		case T_RelabelType:
			return compile(b, ((RelabelType *) e)->arg, out);
		case T_OpExpr:
		case T_FuncExpr:
			{
				List	   *args;
				Oid			func;
				Oid			restype = exprType((Node *) e);
				char	   *name;
				XVal		l;
				bool		compared,
							ok;

				if (runtime_constant(e))
					break;
				if (IsA(e, OpExpr))
				{
					args = ((OpExpr *) e)->args;
					func = get_opcode(((OpExpr *) e)->opno);
					name = get_opname(((OpExpr *) e)->opno);
				}
				else
				{
					args = ((FuncExpr *) e)->args;
					func = ((FuncExpr *) e)->funcid;
					name = get_func_name(func);
				}
				if (name == NULL || get_func_namespace(func) != PG_CATALOG_NAMESPACE)
					return false;
				if (list_length(args) == 1)
				{
					if (!compile(b, linitial(args), &l))
						return false;
					if (IsA(e, FuncExpr) && ((FuncExpr *) e)->funcformat != COERCE_EXPLICIT_CALL)
						return cast(b, &l, linitial(args), restype, exprTypmod((Node *) e), out);
					if (IsA(e, FuncExpr) && strcmp(name, format_type_be(restype)) == 0)
						return cast(b, &l, linitial(args), restype, exprTypmod((Node *) e), out);
					return unary(b, name, &l, restype, out);
				}
				if (IsA(e, FuncExpr) && list_length(args) == 2 &&
					(strcmp(name, "extract") == 0 || strcmp(name, "date_part") == 0 ||
					 strcmp(name, "date_trunc") == 0))
					return datetime_func(b, name, args, restype, out);
				if (IsA(e, FuncExpr) && list_length(args) == 2 && restype == NUMERICOID &&
					strcmp(name, "numeric") == 0)
					return typmod_cast(b, args, out);
				if (list_length(args) != 2 || !IsA(e, OpExpr))
					return false;
				/* a comparison's operands: quotients there need no display scale */
				compared = cmp_of_name(name) >= 0 && restype == BOOLOID;
				b->compared += compared;
				ok = binary_op(b, e, name, args, restype, out);
				b->compared -= compared;
				return ok;
			}
		case T_BoolExpr:
			{
				BoolExpr   *be = (BoolExpr *) e;
				ListCell   *lc;
				int			op = be->boolop == AND_EXPR ? GR_X_AND : GR_X_OR;

				if (be->boolop == NOT_EXPR)
				{
					XVal		a;

					return compile(b, linitial(be->args), &a) && a.kind == GR_XK_BOOL &&
						test(b, GR_X_NOT, &a, out);
				}
				foreach(lc, be->args)
				{
					XVal		a;

					if (!compile(b, lfirst(lc), &a) || a.kind != GR_XK_BOOL)
						return false;
					if (foreach_current_index(lc) == 0)
						*out = a;
					else
					{
						int			reg;

						if (!new_reg(b, &reg) || !emit(b, op, 0, 0, reg, out->reg, a.reg, 0))
							return false;
						out->reg = reg;
					}
				}
				return true;
			}
		case T_NullTest:
			{
				NullTest   *nt = (NullTest *) e;
				XVal		a;

				return !nt->argisrow && compile(b, nt->arg, &a) &&
					test(b, nt->nulltesttype == IS_NULL ? GR_X_ISNULL : GR_X_NOTNULL, &a, out);
			}
		case T_BooleanTest:
			{
				BooleanTest *bt = (BooleanTest *) e;
				XVal		a;
				int			op;

				if (!compile(b, bt->arg, &a) || a.kind != GR_XK_BOOL)
					return false;
				switch (bt->booltesttype)
				{
					case IS_TRUE:
						op = GR_X_ISTRUE;
						break;
					case IS_NOT_TRUE:
						op = GR_X_ISNOTTRUE;
						break;
					case IS_FALSE:
						op = GR_X_ISFALSE;
						break;
					case IS_NOT_FALSE:
						op = GR_X_ISNOTFALSE;
						break;
					case IS_UNKNOWN:
						op = GR_X_ISNULL;
						break;
					default:
						op = GR_X_NOTNULL;
						break;
				}
				return test(b, op, &a, out);
			}
		case T_ScalarArrayOpExpr:
			return in_list(b, (ScalarArrayOpExpr *) e, out);
		case T_CaseExpr:
			return case_expr(b, (CaseExpr *) e, whole, out);
		case T_CaseTestExpr:
			if (!b->has_case_value)
				return false;
			*out = b->case_value;
			return true;
		case T_CoalesceExpr:
			return fold_args(b, ((CoalesceExpr *) e)->args, GR_X_COALESCE, whole, out);
		case T_MinMaxExpr:
			{
				MinMaxExpr *mm = (MinMaxExpr *) e;

				/* the type's own ordering: the kinds compiled here have it */
				if (OidIsValid(mm->inputcollid))
					return false;
				return fold_args(b, mm->args, mm->op == IS_GREATEST ? GR_X_GREATEST : GR_X_LEAST,
								 false, out);
			}
		case T_NullIfExpr:
			return nullif(b, (NullIfExpr *) e, out);
		case T_Param:
		case T_SQLValueFunction:	/* CURRENT_DATE, LOCALTIMESTAMP, ... */
			break;
		default:
			return false;
	}
	/* a parameter or a stable expression without columns: evaluated at the scan's start */
	{
		XVal		v;

		if (!runtime_constant(e) || !type_kind(exprType((Node *) e), -1, &v) ||
			v.kind == GR_XK_DEC)
			return false;
		return load_const(b, &v, (Datum) 0, false, b->runtime_of(b->arg, e), out);
	}
}

bool
gr_expr_add_qual(GrExprBuilder *b, Expr *clause)
{
	XVal		v;

	if (!compile(b, clause, &v) || v.kind != GR_XK_BOOL ||
		!emit(b, GR_X_QUAL, 0, 0, 0, v.reg, -1, 0))
		return false;
	b->quals = lappend(b->quals, clause);
	return true;
}

bool
gr_expr_add_output(GrExprBuilder *b, Expr *expr, int *out, GrType *type, int *scale,
				   bool *varies)
{
	XVal		v;
	int			o = b->prog.nouts;
	int			rs;
	ListCell   *lc;

	/* an expression already an output (sum(x) and avg(x)) is that output */
	foreach(lc, b->outs)
	{
		if (equal(lfirst(lc), expr))
		{
			*out = foreach_current_index(lc);
			*type = b->out_type[*out];
			*scale = b->out_scale[*out];
			*varies = b->out_varies[*out];
			return true;
		}
	}
	if (o >= GR_EXPR_MAX_OUTS)
		return false;
	b->whole = true;
	if (!compile(b, expr, &v) || v.kind == GR_XK_BOOL)
		return false;
	*type = gr_type_of_oid(v.type);
	rs = b->row_scale[v.reg];
	if (*type == 0 || (rs != 0 && o + 1 >= GR_EXPR_MAX_OUTS))
		return false;
	if (rs != 0)
	{
		/*
		 * the row's scale is NULL where its value is, as scale() of it: a
		 * reduction of the scales (the page path's max) then counts the
		 * values a sum shows, whatever scale a NULL's branch held
		 */
		XVal		sc,
					nn,
					none,
					chosen;

		if (!type_kind(INT4OID, -1, &sc))
			return false;
		sc.reg = rs - 1;
		if (!test(b, GR_X_NOTNULL, &v, &nn) || !null_of(b, &sc, &none) ||
			!choose(b, &nn, &sc, &none, &chosen))
			return false;
		rs = chosen.reg + 1;
	}
	b->prog.out_reg[o] = v.reg;
	b->prog.out_kind[o] = v.kind == GR_XK_INT ? GR_XO_INT :
		v.kind == GR_XK_FLOAT ? GR_XO_FLOAT : GR_XO_DEC;
	b->prog.out_w[o] = v.w;
	b->prog.nouts++;
	*scale = v.kind == GR_XK_DEC ? v.scale : -1;
	*varies = rs != 0;
	*out = o;
	b->out_type[o] = *type;
	b->out_scale[o] = *scale;
	b->out_varies[o] = *varies;
	b->outs = lappend(b->outs, expr);
	if (rs != 0)
	{
		/* each row's own scale: what PostgreSQL's scale() of the value gives */
		b->prog.out_reg[o + 1] = rs - 1;
		b->prog.out_kind[o + 1] = GR_XO_INT;
		b->prog.out_w[o + 1] = 4;
		b->prog.nouts++;
		b->out_type[o + 1] = GR_INT4;
		b->out_scale[o + 1] = -1;
		b->out_varies[o + 1] = false;
		b->outs = lappend(b->outs, makeFuncExpr(F_SCALE, INT4OID, list_make1(copyObject(expr)),
												InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL));
	}
	return true;
}

static bool
numeric_div_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, OpExpr) && ((OpExpr *) node)->opfuncid == F_NUMERIC_DIV)
		return true;
	return expression_tree_walker(node, numeric_div_walker, context);
}

/*
 * Whether expr divides numerics: its value's display scale then depends on
 * the row (numeric_div), so it is no numeric group key here, whose groups
 * show the scale of their first row.
 */
bool
gr_expr_has_numeric_div(Node *expr)
{
	return numeric_div_walker(expr, NULL);
}

void
gr_expr_renumber(GrExprProg *p, const int *map, int ncols)
{
	for (int s = 0; s < p->nsteps; s++)
		if (p->steps[s].op == GR_X_COL && p->steps[s].a < ncols)
			p->steps[s].a = map[p->steps[s].a];
}

bool
gr_expr_check(const GrExprProg *p, int ncols)
{
	if (p->nsteps > GR_EXPR_MAX_STEPS || p->nconsts > GR_EXPR_MAX_CONSTS ||
		p->nouts > GR_EXPR_MAX_OUTS)
		return false;
	for (int s = 0; s < p->nsteps; s++)
	{
		const GrExprStep *st = &p->steps[s];

		if (st->op > GR_X_LAST || st->dst >= GR_EXPR_MAX_REGS)
			return false;
		if (st->op == GR_X_COL)
		{
			if (st->a < 0 || st->a >= ncols || st->c > 36)
				return false;
		}
		else if (st->op == GR_X_CONST)
		{
			if (st->a < 0 || st->a >= p->nconsts)
				return false;
		}
		else if (st->a < 0 || st->a >= GR_EXPR_MAX_REGS || st->b >= GR_EXPR_MAX_REGS ||
				 (st->op == GR_X_IN && st->c + st->w > p->nconsts) ||
				 (st->op == GR_X_SELECT && (st->b < 0 || st->c < 0 || st->c >= GR_EXPR_MAX_REGS)) ||
				 (st->op == GR_X_RESCALE_D && (st->c < 0 || st->c > 36)) ||
				 (st->op == GR_X_DIV_D && (st->c < 0 || st->c > GR_EXPR_MAX_SCALE ||
										   st->w > 36 || (st->sub & ~GR_XDIV_BELOW) > 36 ||
										   st->b < 0)) ||
				 ((st->op == GR_X_D2I || st->op == GR_X_D2F) && (st->c < 0 || st->c > 36)) ||
				 (st->op == GR_X_TYPMOD_D && (st->c < -36 || st->c > 36 || st->w > 37)) ||
				 (st->op == GR_X_CMP_RANGE && (st->c < 0 || st->c >= p->nconsts ||
											   time_oid(st->w) == InvalidOid)) ||
				 (st->op == GR_X_CMP_RANGE_D && (st->c < 0 || st->c >= p->nconsts ||
												 st->w > GR_EXPR_MAX_SCALE)))
			return false;
	}
	for (int o = 0; o < p->nouts; o++)
		if (p->out_reg[o] < 0 || p->out_reg[o] >= GR_EXPR_MAX_REGS)
			return false;
	if (p->ntext > GR_EXPR_TEXT_POOL || p->zone.n < 0 || p->zone.n > GR_EXPR_MAX_ZONE)
		return false;
	/* text constants lie in the pool */
	for (int s = 0; s < p->nsteps; s++)
	{
		const GrExprStep *st = &p->steps[s];
		int			first = -1,
					n = 0;

		if (st->op == GR_X_CONST && st->sub >= GR_XK_TEXT)
			first = st->a, n = 1;
		else if (st->op == GR_X_IN && st->sub >= GR_XK_TEXT)
			first = st->c, n = st->w;
		else if (st->op == GR_X_PREFIX || st->op == GR_X_LIKE)
			first = st->c, n = 1;
		for (int k = first; k >= 0 && k < first + n; k++)
			if (k >= p->nconsts || (!p->consts[k].isnull &&
									(p->consts[k].i < 0 ||
									 p->consts[k].i + p->consts[k].dlo > p->ntext)))
				return false;
	}
	return true;
}
