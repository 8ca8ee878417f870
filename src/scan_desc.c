/*
 * scan_desc.c
 *	  The scan description to and from the plan's custom_private: one flat
 *	  list of Integer and String nodes, written and read in the same order
 *	  by the two functions below (which copyObject, nodeToString and
 *	  stringToNode carry unchanged to parallel workers).
 */
#include "scan_desc.h"

#include "nodes/value.h"

#include "expr.h"
#include "expr_compile.h"
#include "tuple_decode.h"

/* the layout's version, first in the list: a plan from another build is refused */
#define GR_SCAN_DESC_VERSION 7

/* Writing: append one field. */
static void
put_int(List **l, int v)
{
	*l = lappend(*l, makeInteger(v));
}

/* A program's bytes, four to an Integer. */
static void
put_prog(List **l, const GrExprProg *prog)
{
	int			words[(sizeof(GrExprProg) + 3) / 4];

	memset(words, 0, sizeof(words));
	memcpy(words, prog, sizeof(GrExprProg));
	for (int w = 0; w < lengthof(words); w++)
		put_int(l, words[w]);
}

/* One table: its columns, comparisons, filter and program. */
static void
put_table(List **l, const GrScanDesc *d, const GrScanTable *st)
{
	put_int(l, (int) st->relid);
	put_int(l, st->ncols);
	for (int c = 0; c < st->ncols; c++)
		put_int(l, st->attnos[c]);
	for (int a = 0; a < d->naggs; a++)
		put_int(l, st->argcols[a]);
	for (int k = 0; k < d->ngroupkeys; k++)
		put_int(l, st->keycols[k]);
	put_int(l, st->nquals);
	for (int q = 0; q < st->nquals; q++)
	{
		put_int(l, st->quals[q].col);
		put_int(l, st->quals[q].op);
		put_int(l, st->quals[q].kind);
		put_int(l, st->quals[q].width);
		put_int(l, st->quals[q].expr);
		put_int(l, (int) st->quals[q].timetype);
	}
	*l = lappend(*l, makeString(pstrdup(st->filter != NULL ? st->filter : "")));
	put_int(l, st->prog != NULL);
	if (st->prog != NULL)
	{
		put_prog(l, st->prog);
		for (int k = 0; k < st->prog->nconsts; k++)
			put_int(l, st->binds[k]);
		for (int a = 0; a < d->naggs; a++)
			put_int(l, st->argouts[a]);
		for (int k = 0; k < d->ngroupkeys; k++)
			put_int(l, st->keyouts[k]);
		*l = lappend(*l, list_make2(st->xquals, st->xouts));
	}
	for (int a = 0; a < d->naggs; a++)
		put_int(l, st->argjoins != NULL ? st->argjoins[a] : -1);
	for (int k = 0; k < d->ngroupkeys; k++)
		put_int(l, st->keyjoins != NULL ? st->keyjoins[k] : -1);
}

List *
gr_scan_desc_to_list(const GrScanDesc *d)
{
	List	   *l = NIL;

	put_int(&l, GR_SCAN_DESC_VERSION);
	put_int(&l, d->partial);
	put_int(&l, (int) Min(d->groups, (double) PG_INT32_MAX));
	put_int(&l, d->naggs);
	for (int a = 0; a < d->naggs; a++)
	{
		put_int(&l, d->aggs[a].kind);
		put_int(&l, d->aggs[a].op);
		put_int(&l, d->aggs[a].type);
		put_int(&l, d->aggs[a].kexpr);
		put_int(&l, d->aggs[a].partial_form);
		put_int(&l, d->aggs[a].dec_scale);
		put_int(&l, d->aggs[a].row_scale);
	}
	put_int(&l, d->ngroupkeys);
	for (int k = 0; k < d->ngroupkeys; k++)
	{
		put_int(&l, (int) d->keys[k].type);
		put_int(&l, d->keys[k].len);
		put_int(&l, d->keys[k].byval);
		put_int(&l, d->keys[k].kind);
		put_int(&l, d->keys[k].scale);
	}
	put_int(&l, d->ntables);
	for (int t = 0; t < d->ntables; t++)
		put_table(&l, d, &d->tables[t]);
	put_int(&l, d->njoins);
	put_int(&l, d->njoinvals);
	for (int j = 0; j < d->njoins; j++)
	{
		const GrScanJoin *sj = &d->joins[j];

		put_int(&l, sj->nkeys);
		for (int k = 0; k < sj->nkeys; k++)
		{
			put_int(&l, sj->src[k]);
			put_int(&l, sj->srcwidth[k]);
			put_int(&l, sj->keywidth[k]);
		}
		put_int(&l, sj->nvals);
		put_int(&l, sj->vstart);
		for (int v = 0; v < sj->nvals; v++)
			put_int(&l, sj->vallen[v]);
		put_int(&l, sj->jointype);
		put_int(&l, sj->marked);
		put_int(&l, sj->partial);
		put_int(&l, sj->probe_keys);
		l = lappend(l, makeString(pstrdup(sj->name)));
		put_int(&l, sj->pages != NULL);
		if (sj->pages != NULL)
		{
			put_table(&l, d, sj->pages);
			for (int c = 0; c < sj->nkeys + sj->nvals; c++)
				put_int(&l, sj->pagecols[c]);
		}
	}
	put_int(&l, d->jprog != NULL);
	if (d->jprog != NULL)
	{
		put_prog(&l, d->jprog);
		for (int k = 0; k < d->jprog->nconsts; k++)
			put_int(&l, d->jbinds[k]);
		for (int a = 0; a < d->naggs; a++)
			put_int(&l, d->jargouts[a]);
		for (int k = 0; k < d->ngroupkeys; k++)
			put_int(&l, d->jkeyouts[k]);
		l = lappend(l, list_make2(d->jxquals, d->jxouts));
		put_int(&l, d->jncols);
		for (int c = 0; c < d->jncols; c++)
		{
			put_int(&l, (int) d->jtypes[c]);
			put_int(&l, d->jtypmods[c]);
			put_int(&l, (int) d->jcolls[c]);
		}
		l = lappend(l, makeString(pstrdup(d->jfilter)));
	}
	return l;
}

/* Whether w is the width of a join key: an integer or a date. */
static bool
key_width(int w)
{
	return w == 2 || w == 4 || w == 8;
}

/* Reading: the list and where the next field is. */
typedef struct DescReader
{
	List	   *l;
	int			pos;
} DescReader;

pg_noreturn static void
malformed(const char *what)
{
	elog(ERROR, "gpu_reduce: malformed scan description (%s)", what);
}

/* The next field, an Integer within [lo, hi]. */
static int
get_int(DescReader *r, int lo, int hi, const char *what)
{
	Node	   *n;
	int			v;

	if (r->pos >= list_length(r->l))
		malformed(what);
	n = list_nth(r->l, r->pos++);
	if (!IsA(n, Integer))
		malformed(what);
	v = intVal(n);
	if (v < lo || v > hi)
		malformed(what);
	return v;
}

/* An array of n fields, each within [lo, hi]. */
static int *
get_ints(DescReader *r, int n, int lo, int hi, const char *what)
{
	int		   *v = palloc(sizeof(int) * Max(n, 1));

	for (int i = 0; i < n; i++)
		v[i] = get_int(r, lo, hi, what);
	return v;
}

/* A program written by put_prog, checked against the ncols columns it may read. */
static GrExprProg *
get_prog(DescReader *r, int ncols)
{
	int			words[(sizeof(GrExprProg) + 3) / 4];
	GrExprProg *prog = palloc(sizeof(GrExprProg));

	for (int w = 0; w < lengthof(words); w++)
		words[w] = get_int(r, PG_INT32_MIN, PG_INT32_MAX, "program");
	memcpy(prog, words, sizeof(GrExprProg));
	if (!gr_expr_check(prog, ncols))
		malformed("program");
	return prog;
}


/*
 * An aggregate whose argument's display scale varies by row reads each
 * row's scale from the output after the argument's: both there, a numeric
 * and an int4.
 */
static void
check_row_scales(const GrScanDesc *d, const GrExprProg *prog, const int *argouts)
{
	for (int a = 0; a < d->naggs; a++)
	{
		int			o = argouts[a];

		if (d->aggs[a].row_scale && o >= 0 &&
			(o + 1 >= prog->nouts || prog->out_kind[o] != GR_XO_DEC ||
			 prog->out_kind[o + 1] != GR_XO_INT || prog->out_w[o + 1] != 4))
			malformed("row scale output");
	}
}
/* The next field, a List of two Lists: a program's expressions. */
static List *
get_exprs(DescReader *r)
{
	List	   *x;

	if (r->pos >= list_length(r->l) || !IsA((x = list_nth(r->l, r->pos++)), List) ||
		list_length(x) != 2)
		malformed("program expressions");
	return x;
}

/* The next field, a String. */
static char *
get_string(DescReader *r, const char *what)
{
	Node	   *n;

	if (r->pos >= list_length(r->l) || !IsA((n = list_nth(r->l, r->pos++)), String))
		malformed(what);
	return strVal(n);
}

/* One table written by put_table. */
static void
get_table(DescReader *r, const GrScanDesc *d, GrScanTable *st)
{
	Node	   *filter;

	st->relid = (Oid) get_int(r, PG_INT32_MIN, PG_INT32_MAX, "table");
	st->ncols = get_int(r, 0, 1600, "columns");
	st->attnos = get_ints(r, st->ncols, 0, 1600, "column");
	st->argcols = get_ints(r, d->naggs, -1, st->ncols - 1, "aggregate column");
	st->keycols = get_ints(r, d->ngroupkeys, -1, st->ncols - 1, "key column");
	st->nquals = get_int(r, 0, 10000, "quals");
	st->quals = palloc0(sizeof(GrScanQual) * Max(st->nquals, 1));
	for (int q = 0; q < st->nquals; q++)
	{
		st->quals[q].col = get_int(r, 0, st->ncols - 1, "qual column");
		st->quals[q].op = get_int(r, 0, 255, "qual op");
		st->quals[q].kind = get_int(r, 0, 255, "qual kind");
		st->quals[q].width = get_int(r, 0, 255, "qual width");
		st->quals[q].expr = get_int(r, -1, PG_INT32_MAX, "qual constant");
		st->quals[q].timetype = (Oid) get_int(r, PG_INT32_MIN, PG_INT32_MAX, "qual time type");
	}
	if (r->pos >= list_length(r->l) || !IsA((filter = list_nth(r->l, r->pos++)), String))
		malformed("filter");
	st->filter = strVal(filter);
	st->argouts = NULL;
	st->keyouts = NULL;
	if (get_int(r, 0, 1, "program"))
	{
		List	   *x;

		st->prog = get_prog(r, st->ncols);
		st->binds = get_ints(r, st->prog->nconsts, -1, PG_INT32_MAX, "program constant");
		st->argouts = get_ints(r, d->naggs, -1, st->prog->nouts - 1, "program output");
		st->keyouts = get_ints(r, d->ngroupkeys, -1, st->prog->nouts - 1, "key output");
		check_row_scales(d, st->prog, st->argouts);
		x = get_exprs(r);
		st->xquals = linitial(x);
		st->xouts = lsecond(x);
	}
	st->argjoins = get_ints(r, d->naggs, -1, GR_DECODE_MAX_COLS - 1, "aggregate join value");
	st->keyjoins = get_ints(r, d->ngroupkeys, -1, GR_DECODE_MAX_COLS - 1, "key join value");
}

GrScanDesc *
gr_scan_desc_from_list(List *l)
{
	DescReader	r = {l, 0};
	GrScanDesc *d = palloc0(sizeof(GrScanDesc));

	(void) get_int(&r, GR_SCAN_DESC_VERSION, GR_SCAN_DESC_VERSION, "version");
	d->partial = get_int(&r, 0, 1, "partial") != 0;
	d->groups = get_int(&r, 0, PG_INT32_MAX, "groups");
	d->naggs = get_int(&r, 0, 10000, "aggregates");
	d->aggs = palloc0(sizeof(GrScanAgg) * Max(d->naggs, 1));
	for (int a = 0; a < d->naggs; a++)
	{
		GrScanAgg  *ag = &d->aggs[a];

		ag->kind = get_int(&r, GR_SCAN_AGG, GR_SCAN_COUNT_COL, "aggregate kind");
		ag->op = get_int(&r, 0, GR_OP_LAST, "aggregate op");
		ag->type = get_int(&r, 0, GR_TYPE_LAST, "aggregate type");
		ag->kexpr = get_int(&r, -1, PG_INT32_MAX, "aggregate k");
		ag->partial_form = get_int(&r, GR_PARTIAL_STATE, GR_PARTIAL_LAST, "partial form");
		ag->dec_scale = get_int(&r, -1, 38, "numeric scale");
		ag->row_scale = get_int(&r, 0, 1, "row scale") != 0;
		if (ag->row_scale && (ag->dec_scale < 0 || (ag->op != GR_OP_SUM && ag->op != GR_OP_AVG)))
			malformed("row scale");
		if (ag->kind == GR_SCAN_AGG && (ag->op == 0 || ag->type == 0))
			malformed("aggregate");
	}
	d->ngroupkeys = get_int(&r, 0, GR_DECODE_MAX_COLS, "group keys");
	d->keys = palloc0(sizeof(GrScanKey) * Max(d->ngroupkeys, 1));
	for (int k = 0; k < d->ngroupkeys; k++)
	{
		GrScanKey  *key = &d->keys[k];

		key->type = (Oid) get_int(&r, PG_INT32_MIN, PG_INT32_MAX, "key type");
		key->len = get_int(&r, -2, 8, "key length");
		key->byval = get_int(&r, 0, 1, "key by value") != 0;
		key->kind = get_int(&r, GR_KEY_BITS, GR_KEY_LAST, "key kind");
		key->scale = get_int(&r, -1, 38, "key scale");
		if (key->scale >= 0 && key->kind != GR_KEY_NUMERIC)
			malformed("key scale");
		if ((key->byval && key->len > 0) != gr_key_fixed(key->kind))
			malformed("key");
	}
	d->ntables = get_int(&r, 0, PG_INT32_MAX, "tables");
	d->tables = palloc0(sizeof(GrScanTable) * Max(d->ntables, 1));
	for (int t = 0; t < d->ntables; t++)
		get_table(&r, d, &d->tables[t]);
	d->njoins = get_int(&r, 0, GR_JOIN_MAX_RELS, "joins");
	d->njoinvals = get_int(&r, 0, GR_DECODE_MAX_COLS, "join values");
	if (d->njoins > 0 && d->ntables != 1)
		malformed("a join over several tables");
	d->joins = palloc0(sizeof(GrScanJoin) * Max(d->njoins, 1));
	for (int j = 0; j < d->njoins; j++)
	{
		GrScanJoin *sj = &d->joins[j];
		Node	   *name;

		sj->nkeys = get_int(&r, 1, GR_JOIN_MAX_KEYS, "join keys");
		for (int k = 0; k < sj->nkeys; k++)
		{
			sj->src[k] = get_int(&r, -1 - d->njoinvals, d->tables[0].ncols - 1, "join key source");
			sj->srcwidth[k] = get_int(&r, 2, 8, "join key width");
			sj->keywidth[k] = get_int(&r, 2, 8, "join key width");
			if (!key_width(sj->srcwidth[k]) || !key_width(sj->keywidth[k]))
				malformed("join key width");
		}
		sj->nvals = get_int(&r, 0, d->njoinvals, "join values");
		sj->vstart = get_int(&r, 0, d->njoinvals - sj->nvals, "join values");
		sj->vallen = get_ints(&r, sj->nvals, -1, 8, "join value length");
		sj->jointype = get_int(&r, JOIN_INNER, JOIN_ANTI, "join type");
		if (sj->jointype != JOIN_INNER && sj->jointype != JOIN_LEFT &&
			sj->jointype != JOIN_SEMI && sj->jointype != JOIN_ANTI)
			malformed("join type");
		if ((sj->jointype == JOIN_SEMI || sj->jointype == JOIN_ANTI) && sj->nvals > 0)
			malformed("values of a semi or anti join");
		sj->marked = get_int(&r, 0, JOIN_ANTI, "marked join");
		if (sj->marked != 0 &&
			((sj->marked != JOIN_SEMI && sj->marked != JOIN_ANTI) || j != 0 ||
			 sj->jointype != JOIN_INNER))
			malformed("marked join");
		for (int k = 0; k < sj->nkeys && sj->marked != 0; k++)
			if (sj->src[k] < 0)
				malformed("marked join key source");
		for (int k = 0; k < sj->nkeys && j > 0 && d->joins[0].marked != 0; k++)
			if (sj->src[k] >= 0)
				malformed("a key of the table after a marked join");
		for (int k = 0; k < sj->nkeys; k++)
			if (sj->src[k] < 0 && -1 - sj->src[k] >= sj->vstart)
				malformed("join key source");
		sj->partial = get_int(&r, 0, 1, "partial join child");
		sj->probe_keys = get_int(&r, 0, 1, "join fetched by the table's keys") != 0;
		if (sj->probe_keys && (sj->nkeys != 1 || sj->src[0] < 0 || sj->marked != 0 || d->ntables != 1))
			malformed("join fetched by the table's keys");
		if (r.pos >= list_length(l) || !IsA((name = list_nth(l, r.pos++)), String))
			malformed("join name");
		sj->name = strVal(name);
		if (get_int(&r, 0, 1, "join read from pages"))
		{
			sj->pages = palloc0(sizeof(GrScanTable));
			get_table(&r, d, sj->pages);
			/* a key is a decoded column; a value may be the program's output after them */
			sj->pagecols = get_ints(&r, sj->nkeys + sj->nvals, 0, sj->pages->ncols - 1 +
									(sj->pages->prog != NULL ? sj->pages->prog->nouts : 0),
									"join column read from pages");
			for (int k = 0; k < sj->nkeys; k++)
				if (sj->pagecols[k] >= sj->pages->ncols)
					malformed("join key read from pages");
			if (sj->partial)
				malformed("a partial child of a join read from pages");
		}
		else if (sj->probe_keys)
			malformed("join fetched by the table's keys, not read from pages");
	}
	for (int t = 0; t < d->ntables; t++)
		for (int i = 0; i < d->naggs + d->ngroupkeys; i++)
			if ((i < d->naggs ? d->tables[t].argjoins[i] :
				 d->tables[t].keyjoins[i - d->naggs]) >= d->njoinvals)
				malformed("join value");
	if (get_int(&r, 0, d->njoins > 0 ? 1 : 0, "joined-row program"))
	{
		const GrScanTable *st = &d->tables[0];
		List	   *x;
		int			jncols = st->ncols + (st->prog ? st->prog->nouts : 0) + d->njoinvals;

		d->jprog = get_prog(&r, jncols);
		d->jbinds = get_ints(&r, d->jprog->nconsts, -1, PG_INT32_MAX, "program constant");
		d->jargouts = get_ints(&r, d->naggs, -1, d->jprog->nouts - 1, "program output");
		d->jkeyouts = get_ints(&r, d->ngroupkeys, -1, d->jprog->nouts - 1, "key output");
		check_row_scales(d, d->jprog, d->jargouts);
		x = get_exprs(&r);
		d->jxquals = linitial(x);
		d->jxouts = lsecond(x);
		d->jncols = get_int(&r, jncols, jncols, "joined-row columns");
		d->jtypes = palloc(sizeof(Oid) * Max(jncols, 1));
		d->jtypmods = palloc(sizeof(int) * Max(jncols, 1));
		d->jcolls = palloc(sizeof(Oid) * Max(jncols, 1));
		for (int c = 0; c < jncols; c++)
		{
			d->jtypes[c] = (Oid) get_int(&r, PG_INT32_MIN, PG_INT32_MAX, "joined-row type");
			d->jtypmods[c] = get_int(&r, PG_INT32_MIN, PG_INT32_MAX, "joined-row typmod");
			d->jcolls[c] = (Oid) get_int(&r, PG_INT32_MIN, PG_INT32_MAX, "joined-row collation");
		}
		d->jfilter = get_string(&r, "joined-row filter");
	}
	/* each key from one place: a column, a program's output, a join value */
	for (int t = 0; t < d->ntables; t++)
		for (int k = 0; k < d->ngroupkeys; k++)
		{
			const GrScanTable *st = &d->tables[t];

			if ((st->keycols[k] >= 0) + (st->keyouts != NULL && st->keyouts[k] >= 0) +
				(st->keyjoins[k] >= 0) + (d->jkeyouts != NULL && d->jkeyouts[k] >= 0) != 1)
				malformed("key source");
		}
	if (r.pos != list_length(l))
		malformed("trailing fields");
	return d;
}
