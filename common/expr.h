/*
 * expr.h
 *	  The expression program of the bulk scan: WHERE clauses and aggregate
 *	  arguments compiled once from the plan (src/expr_compile.c) into steps
 *	  over typed registers, and the one interpreter that runs them per row.
 *
 * Plain C99 with no PostgreSQL or CUDA headers, every function GR_HOSTDEV
 * (like tuple_decode.h): the CPU decoder and the page path's kernel
 * (cuda/gr_page.cu, built without fused multiply-adds) run the very same
 * evaluation, so a row gets one verdict on either side.  A program reads
 * one decoded row (tuple_decode.h's value bits and NULL flags), checks its
 * conjuncts in order, stopping at the first that is not true, and writes
 * each output (an aggregate's argument) as the value bits of its type into
 * a computed column.
 *
 * PostgreSQL's semantics are kept by never guessing: any step whose answer
 * is not certain here -- an integer or float overflow, a division by zero,
 * a numeric too wide for 128 bits or NaN, a date that does not convert --
 * makes the row GR_EXPR_FALLBACK, and the caller evaluates that row with
 * PostgreSQL's own executor, which gives its answer or raises its error.
 *
 * Registers hold one of four kinds: integers (int64, whatever the SQL
 * width; the step's width bounds its result), doubles (float4 values are
 * held exactly as doubles and rounded to float after each float4 step, which
 * is float4 arithmetic: double rounding is innocuous for + - * / of floats),
 * decimals (numeric as int128 times 10^scale, the scale fixed at compile
 * time as numeric.c's rules give it), and booleans.
 */
#ifndef GR_EXPR_H
#define GR_EXPR_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "gr_hostdev.h"
#include "tuple_decode.h"

#define GR_EXPR_MAX_STEPS		96
#define GR_EXPR_MAX_REGS		48
#define GR_EXPR_MAX_CONSTS		64
#define GR_EXPR_MAX_OUTS		16

typedef __int128 gr_int128;

/* what gr_expr_eval says of a row */
typedef enum GrExprResult
{
	GR_EXPR_PASS,				/* every conjunct true; outputs written */
	GR_EXPR_REJECT,				/* a conjunct false or NULL */
	GR_EXPR_FALLBACK			/* not certain here: PostgreSQL evaluates the row */
} GrExprResult;

/* register kinds */
typedef enum GrExprKind
{
	GR_XK_INT,
	GR_XK_FLOAT,
	GR_XK_DEC,
	GR_XK_BOOL,
	GR_XK_TEXT,					/* text, varchar: the bytes of a value */
	GR_XK_BPCHAR				/* char(n): compared without trailing blanks */
} GrExprKind;

/* comparisons (GrExprStep.sub of the CMP steps) */
typedef enum GrExprCmp
{
	GR_XC_EQ,
	GR_XC_NE,
	GR_XC_LT,
	GR_XC_LE,
	GR_XC_GT,
	GR_XC_GE
} GrExprCmp;

/* how a column's bits become a register (GrExprStep.sub of GR_X_COL) */
typedef enum GrExprColKind
{
	GR_XCOL_INT,				/* signed integer of w bytes (int2/4/8, date, timestamps) */
	GR_XCOL_FLOAT,				/* float of w bytes */
	GR_XCOL_NUMERIC,			/* the address of a numeric varlena (in the page, or
								 * the kernel's shared copy of it), scale in c */
	GR_XCOL_BOOL,
	GR_XCOL_TEXT				/* the address of a text-like varlena */
} GrExprColKind;

typedef enum GrExprOp
{
	GR_X_COL,					/* dst = column a (sub: GrExprColKind, w, scale c) */
	GR_X_CONST,					/* dst = consts[a] */
	/* integers: the result must fit w bytes */
	GR_X_ADD_I, GR_X_SUB_I, GR_X_MUL_I, GR_X_DIV_I, GR_X_MOD_I, GR_X_NEG_I, GR_X_ABS_I,
	GR_X_NARROW_I,				/* dst = a, which must fit w bytes (a cast) */
	/* doubles: w 4 rounds to float after the step */
	GR_X_ADD_F, GR_X_SUB_F, GR_X_MUL_F, GR_X_DIV_F, GR_X_NEG_F, GR_X_ABS_F,
	GR_X_ROUND_F4,				/* dst = (float) a, which must not overflow (a cast) */
	/* decimals: operands of one scale (add, sub), any (mul: scales add) */
	GR_X_ADD_D, GR_X_SUB_D, GR_X_MUL_D, GR_X_NEG_D, GR_X_ABS_D,
	GR_X_RESCALE_D,				/* dst = a * 10^c (aligning scales) */
	/* conversions */
	GR_X_I2F,					/* int to double (w 4: to float) */
	GR_X_I2D,					/* int to decimal of scale 0 */
	GR_X_F2I,					/* double to int, rint's rounding; must fit w bytes */
	GR_X_D2I,					/* decimal of scale c to int, half away from zero; fits w */
	GR_X_D2F,					/* decimal of scale c to double (w 4: float) if exact */
	GR_X_TYPMOD_D,				/* decimal to scale + c (c < 0: rounded), below 10^w */
	GR_X_DATE2TS,				/* date (days) to timestamp (microseconds) */
	GR_X_TS2DATE,				/* timestamp to date (the day it falls in) */
	/* comparisons (sub: GrExprCmp) of two registers of one kind */
	GR_X_CMP_I, GR_X_CMP_F, GR_X_CMP_D,
	/*
	 * a time value against constant c of another time type, bound at the
	 * scan's start as a range (src/time_range.c; w: the value's GrExprTime)
	 */
	GR_X_CMP_RANGE,
	/*
	 * a decimal of scale w against numeric constant c bound at the scan's
	 * start (a parameter: its scale known only then) as the first value of
	 * scale w at least the constant, and whether it is the constant
	 */
	GR_X_CMP_RANGE_D,
	/* a IN consts[b .. b + c) (an = ANY array; sub: the kind) */
	GR_X_IN,					/* (w constants from c; b is -1) */
	/* booleans, SQL's three-valued logic */
	GR_X_AND, GR_X_OR, GR_X_NOT,
	GR_X_ISNULL, GR_X_NOTNULL,
	GR_X_ISTRUE, GR_X_ISNOTTRUE, GR_X_ISFALSE, GR_X_ISNOTFALSE,
	/* a conjunct of the WHERE clause: reject the row unless a is true */
	GR_X_QUAL,
	/* choices, not strict: CASE's branch (a true: b, else register c), */
	GR_X_SELECT,
	/* COALESCE's (a unless NULL, else b), GREATEST's and LEAST's (sub: the kind) */
	GR_X_COALESCE, GR_X_GREATEST, GR_X_LEAST,
	/* text: comparison (sub: GrExprCmp; w 1: char(n)'s, without trailing blanks) */
	GR_X_CMP_T,
	/* text: LIKE 'prefix%' (the prefix: constant c) */
	GR_X_PREFIX,
	/* a date's (w 4) or timestamp's (w 8) field (sub: GrExprField) as an integer */
	GR_X_DATEPART,
	/* a timestamp truncated to a field (sub: GrExprField) */
	GR_X_DATETRUNC,
	/*
	 * numeric_div of decimal a (scale w) by decimal b (scale sub's low
	 * bits) at scale c: the quotient's scale as numeric.c selects it must
	 * be c, or with GR_XDIV_BELOW in sub at most c (gr_dec_div)
	 */
	GR_X_DIV_D,
	/*
	 * the session zone (GrExprProg.zone, bound at the scan's start): a
	 * timestamptz's local time as timestamp2tm gives it, and a local time's
	 * timestamptz as DetermineTimeZoneOffset places it
	 */
	GR_X_TZ_LOCAL, GR_X_TZ_INSTANT,
	/*
	 * text: LIKE of a pattern of literal bytes and % (constant c, as
	 * written; LIKE 'prefix%' is GR_X_PREFIX)
	 */
	GR_X_LIKE
} GrExprOp;

#define GR_X_LAST GR_X_LIKE

/* GR_X_DIV_D's sub: the divisor's scale, and this flag */
#define GR_XDIV_BELOW	0x80

/* the time type of a value GR_X_CMP_RANGE compares (GrExprStep.w) */
typedef enum GrExprTime
{
	GR_XT_DATE = 1,
	GR_XT_TIMESTAMP,
	GR_XT_TIMESTAMPTZ
} GrExprTime;

/* fields of EXTRACT, date_part and date_trunc */
typedef enum GrExprField
{
	GR_XF_YEAR,
	GR_XF_QUARTER,
	GR_XF_MONTH,
	GR_XF_DAY,
	GR_XF_DOW,					/* 0 = Sunday */
	GR_XF_DOY,
	GR_XF_HOUR,
	GR_XF_MINUTE,
	GR_XF_WEEK					/* date_trunc only: the ISO week's Monday */
} GrExprField;
/* bytes of text constants one program holds */
#define GR_EXPR_TEXT_POOL		1024

typedef struct GrExprStep
{
	uint8_t		op;				/* GrExprOp */
	uint8_t		sub;			/* GrExprCmp, GrExprColKind, GrExprKind */
	uint8_t		w;				/* width in bytes of an integer or float result */
	uint8_t		dst;
	int16_t		a;
	int16_t		b;
	int16_t		c;
} GrExprStep;

/*
 * A constant: bound at the scan's start (parameters may change).  A
 * GR_X_CMP_RANGE's is a range of the compared value's type: a value below
 * i compares less, above dhi greater, between equal; or, where dlo is 1,
 * only PostgreSQL knows.  A GR_X_CMP_RANGE_D's is a decimal (dlo, dhi) with
 * i 1 where it equals the constant, 0 where the constant lies below it.
 */
typedef struct GrExprConst
{
	uint8_t		isnull;
	int64_t		i;				/* GR_XK_INT, GR_XK_BOOL */
	double		f;				/* GR_XK_FLOAT */
	uint64_t	dlo;			/* GR_XK_DEC: the int128, low and high words */
	int64_t		dhi;
} GrExprConst;

/* transitions of the session zone one program holds */
#define GR_EXPR_MAX_ZONE		48

/*
 * The session zone's offsets from UTC over a window, for GR_X_TZ_LOCAL and
 * GR_X_TZ_INSTANT (in Unix seconds, as pg_time_t).  The compiler sets the
 * window wanted (win_lo < win_hi: the program has such a step); the scan's
 * start fills the rest in the zone the scan runs in (src/time_range.c):
 * every transition in [lo, hi), as pg_next_dst_boundary lists them.  An
 * instant outside [lo, hi) is handed back.
 */
typedef struct GrExprZone
{
	int64_t		win_lo;
	int64_t		win_hi;
	int64_t		lo;
	int64_t		hi;
	int64_t		at[GR_EXPR_MAX_ZONE];	/* transitions, ascending */
	int32_t		off[GR_EXPR_MAX_ZONE + 1];	/* seconds east of UTC from lo, then
											 * from at[i] on (off[i + 1]) */
	int32_t		n;
} GrExprZone;

/* how an output's register becomes a computed column's bits */
typedef enum GrExprOutKind
{
	GR_XO_INT,					/* w bytes, zero-extended */
	GR_XO_FLOAT,				/* float4 or float8 bits (w) */
	GR_XO_DEC					/* the scaled int64 (an int128 beyond it: fallback) */
} GrExprOutKind;

typedef struct GrExprProg
{
	uint16_t	nsteps;
	uint8_t		nconsts;
	uint8_t		nouts;
	int8_t		out_reg[GR_EXPR_MAX_OUTS];
	uint8_t		out_kind[GR_EXPR_MAX_OUTS];	/* GrExprOutKind */
	uint8_t		out_w[GR_EXPR_MAX_OUTS];
	GrExprStep	steps[GR_EXPR_MAX_STEPS];
	GrExprConst consts[GR_EXPR_MAX_CONSTS];
	/* text constants' bytes (GrExprConst.i: offset, dlo: length) */
	uint16_t	ntext;
	uint8_t		text[GR_EXPR_TEXT_POOL];
	GrExprZone	zone;
} GrExprProg;

typedef struct GrExprReg
{
	bool		null;
	union
	{
		int64_t		i;
		double		f;
		gr_int128	d;
		bool		b;
		struct					/* text: a value's bytes */
		{
			const uint8_t *p;
			int32_t		len;
		}			t;
	};
} GrExprReg;

/* bounds of a w-byte signed integer */
GR_HOSTDEV bool
gr_expr_fits(int64_t v, int w)
{
	switch (w)
	{
		case 1:
			return v >= -128 && v <= 127;
		case 2:
			return v >= -32768 && v <= 32767;
		case 4:
			return v >= INT32_MIN && v <= INT32_MAX;
	}
	return true;
}

/* 10^s for s <= 38 */
GR_HOSTDEV gr_int128
gr_expr_pow10(int s)
{
	gr_int128	p = 1;

	for (; s >= 18; s -= 18)
		p *= INT64_C(1000000000000000000);
	for (; s > 0; s--)
		p *= 10;
	return p;
}

/* 10^s for s <= 18 */
GR_HOSTDEV int64_t
gr_expr_pow10_64(int s)
{
	int64_t		p = 1;

	for (; s > 0; s--)
		p *= 10;
	return p;
}

/*
 * a / 10^k for 1 <= k <= 18 into *q, and whether it divides exactly: a
 * constant divisor per case, which compilers make a multiplication (a
 * numeric's digits are rescaled a row at a time).
 */
GR_HOSTDEV bool
gr_div_pow10_64(int64_t a, int k, int64_t *q)
{
#define GR_DIV_POW10_CASE(K, P) case K: *q = a / (P); return a % (P) == 0
	switch (k)
	{
			GR_DIV_POW10_CASE(1, INT64_C(10));
			GR_DIV_POW10_CASE(2, INT64_C(100));
			GR_DIV_POW10_CASE(3, INT64_C(1000));
			GR_DIV_POW10_CASE(4, INT64_C(10000));
			GR_DIV_POW10_CASE(5, INT64_C(100000));
			GR_DIV_POW10_CASE(6, INT64_C(1000000));
			GR_DIV_POW10_CASE(7, INT64_C(10000000));
			GR_DIV_POW10_CASE(8, INT64_C(100000000));
			GR_DIV_POW10_CASE(9, INT64_C(1000000000));
			GR_DIV_POW10_CASE(10, INT64_C(10000000000));
			GR_DIV_POW10_CASE(11, INT64_C(100000000000));
			GR_DIV_POW10_CASE(12, INT64_C(1000000000000));
			GR_DIV_POW10_CASE(13, INT64_C(10000000000000));
			GR_DIV_POW10_CASE(14, INT64_C(100000000000000));
			GR_DIV_POW10_CASE(15, INT64_C(1000000000000000));
			GR_DIV_POW10_CASE(16, INT64_C(10000000000000000));
			GR_DIV_POW10_CASE(17, INT64_C(100000000000000000));
			GR_DIV_POW10_CASE(18, INT64_C(1000000000000000000));
	}
#undef GR_DIV_POW10_CASE
	*q = a;
	return k == 0;
}

/*
 * Checked int64 arithmetic (no compiler builtins: the same code on the
 * device): false on overflow.
 */
GR_HOSTDEV bool
gr_add64(int64_t a, int64_t b, int64_t *r)
{
	uint64_t	s = (uint64_t) a + (uint64_t) b;

	*r = (int64_t) s;
	return !(((a ^ *r) & (b ^ *r)) < 0);
}

GR_HOSTDEV bool
gr_sub64(int64_t a, int64_t b, int64_t *r)
{
	uint64_t	s = (uint64_t) a - (uint64_t) b;

	*r = (int64_t) s;
	return !(((a ^ b) & (a ^ *r)) < 0);
}

GR_HOSTDEV bool
gr_mul64(int64_t a, int64_t b, int64_t *r)
{
	gr_int128	p = (gr_int128) a * b;

	*r = (int64_t) p;
	return p == (gr_int128) *r;
}

/* |v| < 2^126: room to add two of them, or scale by small powers, safely */
#define GR_DEC_SAFE ((gr_int128) 1 << 126)

/*
 * a * 10^k (0 <= k <= 36), aligning a decimal to a larger scale; false where
 * the product could pass 2^126 (the row handed back).  The interpreter's
 * RESCALE_D and the compiler's scaling of a literal ask this one predicate.
 */
GR_HOSTDEV bool
gr_dec_rescale(gr_int128 a, int k, gr_int128 *r)
{
	gr_int128	m;

	/* the common case: 64 bits times at most 10^18 stays below 2^126 */
	if (k <= 18 && a <= INT64_MAX && a >= -INT64_MAX)
	{
		*r = a * gr_expr_pow10_64(k);
		return true;
	}
	if (k > 36)
		return false;
	m = gr_expr_pow10(k);
	if (a >= GR_DEC_SAFE / m || a <= -GR_DEC_SAFE / m)
		return false;
	*r = a * m;
	return true;
}

/*
 * a / 10^k (0 <= k <= 36) rounded half away from zero, as numeric.c's
 * round_var rounds (numeric to an integer, or to a smaller declared scale).
 */
GR_HOSTDEV gr_int128
gr_dec_round(gr_int128 a, int k)
{
	gr_int128	m,
				q,
				r;

	if (k == 0)
		return a;
	/* the common case in 64 bits: a constant divisor per k */
	if (k <= 18 && a <= INT64_MAX && a >= -INT64_MAX)
	{
		int64_t		v = (int64_t) a,
					q64,
					r64,
					m64 = gr_expr_pow10_64(k);

		gr_div_pow10_64(v, k, &q64);
		r64 = v - q64 * m64;
		if (r64 < 0)
			r64 = -r64;
		/* 2r >= m, without doubling */
		if (r64 >= m64 - r64)
			q64 += v < 0 ? -1 : 1;
		return q64;
	}
	m = gr_expr_pow10(k);
	q = a / m;
	r = a % m;
	if (r < 0)
		r = -r;
	if (r >= m - r)
		q += a < 0 ? -1 : 1;
	return q;
}

/*
 * The weight and leading digit of the value a / 10^s in base 10000 (|value|
 * = first * 10000^weight + lower digits), as select_div_scale reads them
 * from a normalized NumericVar; 0 and 0 for zero.
 */
GR_HOSTDEV void
gr_dec_lead(gr_int128 a, int s, int *weight, int *first)
{
	gr_int128	u = a < 0 ? -a : a;
	gr_int128	p = 1;
	int			n = 0,
				e,
				k;

	*weight = 0;
	*first = 0;
	if (u == 0)
		return;
	/* u's leading decimal digit is at 10^n; the value's at 10^e */
	while (n < 38 && p * 10 <= u)
	{
		p *= 10;
		n++;
	}
	e = n - s;
	*weight = e >= 0 ? e / 4 : -((3 - e) / 4);
	/* first = u / 10^k, k = s + 4 * weight, which is in (n - 4, n] */
	k = s + 4 * *weight;
	*first = k >= 0 ? (int) (u / gr_expr_pow10(k)) : (int) (u * gr_expr_pow10(-k));
}

/*
 * numeric.c's select_div_scale: the scale of a quotient whose operands have
 * the base-10000 weights and leading digits (w1, f1) and (w2, f2)
 * (gr_dec_lead) and the scales sa and sb -- 16 significant digits counted
 * from the quotient's estimated weight, at least either operand's scale.
 * (Its cap of 1000 digits is past any scale the program holds.)
 */
GR_HOSTDEV int
gr_div_scale(int w1, int f1, int w2, int f2, int sa, int sb)
{
	/* equal first digits: the quotient is taken to be below 1 */
	int			scale = 16 - 4 * (w1 - w2 - (f1 <= f2 ? 1 : 0));

	if (scale < sa)
		scale = sa;
	if (scale < sb)
		scale = sb;
	return scale < 0 ? 0 : scale;
}

/*
 * numeric_div of a (scale sa) by a nonzero b (scale sb): the quotient
 * rounded half away from zero at the scale numeric.c's select_div_scale
 * gives it -- 16 significant digits counted from the quotient's estimated
 * base-10000 weight, at least either operand's scale -- which must be rs
 * (or, below, at most rs: the quotient is then held exactly at scale rs,
 * for a comparison, which reads no display scale), into *r at scale rs.
 * False where the scale differs or a step would not fit: the row is
 * PostgreSQL's.
 */
GR_HOSTDEV bool
gr_dec_div(gr_int128 a, int sa, gr_int128 b, int sb, int rs, bool below, gr_int128 *r)
{
	int			w1,
				f1,
				w2,
				f2,
				scale;
	gr_int128	n,
				m,
				q,
				rem,
				mabs;

	gr_dec_lead(a, sa, &w1, &f1);
	gr_dec_lead(b, sb, &w2, &f2);
	scale = gr_div_scale(w1, f1, w2, f2, sa, sb);
	if (below ? scale > rs : scale != rs)
		return false;
	/* (a / 10^sa) / (b / 10^sb) * 10^scale = a * 10^(sb + scale - sa) / b */
	n = a;
	m = b;
	if (sb + scale - sa >= 0 ? !gr_dec_rescale(a, sb + scale - sa, &n) :
		!gr_dec_rescale(b, sa - sb - scale, &m))
		return false;
	q = n / m;
	rem = n % m;
	if (rem < 0)
		rem = -rem;
	mabs = m < 0 ? -m : m;
	/* 2 rem >= |m|, without doubling */
	if (rem >= mabs - rem)
		q += (n < 0) != (m < 0) ? -1 : 1;
	return gr_dec_rescale(q, rs - scale, r);
}

/*
 * A decimal of scale s as the double (w 8) or float (w 4) nearest it, as
 * numeric_float8's float8in (strtod) rounds it, where that is certain
 * here: an integer exact in the type over a power of ten exact in it is
 * one correctly rounded division (Clinger's fast path); false otherwise.
 */
GR_HOSTDEV bool
gr_dec_to_float(gr_int128 a, int s, int w, double *r)
{
	const gr_int128 lim = w == 8 ? (gr_int128) 1 << 53 : (gr_int128) 1 << 24;
	const int	maxs = w == 8 ? 22 : 10;

	/* trailing zeros: the same value at a smaller scale */
	while ((a > lim || a < -lim || s > maxs) && s > 0 && a % 10 == 0)
	{
		a /= 10;
		s--;
	}
	if (a > lim || a < -lim || s > maxs)
		return false;
	if (w == 8)
	{
		double		p = 1.0;

		for (int i = 0; i < s; i++)
			p *= 10.0;
		*r = (double) (int64_t) a / p;
	}
	else
	{
		float		p = 1.0f;

		for (int i = 0; i < s; i++)
			p *= 10.0f;
		*r = (double) ((float) (int64_t) a / p);
	}
	return true;
}

/* a * b for values of at most 64 bits of magnitude each; false if either is wider */
GR_HOSTDEV bool
gr_dec_mul(gr_int128 a, gr_int128 b, gr_int128 *r)
{
	const gr_int128 lim = (gr_int128) 1 << 62;

	if (a >= lim || a <= -lim || b >= lim || b <= -lim)
		return false;
	*r = a * b;
	return true;
}

/*
 * A numeric varlena (any header) as an int128 times 10^scale; false for
 * NaN, the infinities, a value with more fraction digits than scale, or one
 * too wide (numeric.c's on-disk format: NumericShort / NumericLong).
 */
GR_HOSTDEV bool
gr_numeric_scaled(const uint8_t *v, int scale, gr_int128 *out)
{
	const uint8_t *d;
	uint32_t	len;
	uint16_t	h;
	int			weight,
				dscale,
				ndigits;
	bool		neg;
	gr_int128	acc = 0;
	int			frac;

	if (v[0] == 0x01)
		return false;			/* a TOAST pointer: never in a numeric(p,s) column, but be safe */
	if (v[0] & 0x01)
	{
		len = ((v[0] >> 1) & 0x7F) - 1;
		d = v + 1;
	}
	else
	{
		len = (gr_load32(v) >> 2) & 0x3FFFFFFF;
		/*
		 * compressed, or shorter than its header: no such numeric, but on the
		 * device a page no longer pinned may say anything, and no read may
		 * leave the varlena (the decoder checked its length, not more)
		 */
		if ((v[0] & 0x03) != 0 || len < 4)
			return false;
		len -= 4;
		d = v + 4;
	}
	if (len < 2)
		return false;
	h = gr_load16(d);
	if ((h & 0xC000) == 0xC000)
		return false;			/* NaN, infinities */
	if (h & 0x8000)
	{
		neg = (h & 0x2000) != 0;
		dscale = (h & 0x1F80) >> 7;
		weight = (h & 0x0040) ? (int) (h & 0x003F) - 64 : (int) (h & 0x003F);
		d += 2;
		ndigits = (int) (len - 2) / 2;
	}
	else
	{
		if (len < 4)
			return false;
		neg = (h & 0xC000) == 0x4000;
		dscale = h & 0x3FFF;
		weight = (int16_t) gr_load16(d + 2);
		d += 4;
		ndigits = (int) (len - 4) / 2;
	}
	if (dscale > scale || scale > 36 || weight > 8 || ndigits > 9)
		return false;
	/*
	 * The common case in 64 bits: up to four base-10000 digits (16 decimal
	 * digits) and a scale change of at most 18 digits either way.
	 */
	frac = 4 * (ndigits - 1 - weight);
	if (ndigits <= 4 && frac - scale <= 18 && scale - frac <= 18)
	{
		int64_t		a64 = 0;

		for (int i = 0; i < ndigits; i++)
			a64 = a64 * 10000 + (int16_t) gr_load16(d + 2 * i);
		if (frac > scale)
		{
			if (!gr_div_pow10_64(a64, frac - scale, &a64))
				return false;
			acc = a64;
		}
		else
		{
			acc = (gr_int128) a64 * gr_expr_pow10_64(scale - frac);
			if (scale - frac > 18 - 16 && acc >= GR_DEC_SAFE)
				return false;
		}
		*out = neg ? -acc : acc;
		return true;
	}
	/* digits are base 10000: digit i has weight (weight - i) */
	for (int i = 0; i < ndigits; i++)
		acc = acc * 10000 + (int16_t) gr_load16(d + 2 * i);
	/* acc = value * 10000^(ndigits - 1 - weight) */
	if (frac > scale)
	{
		gr_int128	p = gr_expr_pow10(frac - scale);

		if (acc % p != 0)
			return false;
		acc /= p;
	}
	else if (frac < scale)
	{
		int			up = scale - frac;

		if (up > 30 || acc >= GR_DEC_SAFE / gr_expr_pow10(up))
			return false;
		acc *= gr_expr_pow10(up);
	}
	*out = neg ? -acc : acc;
	return true;
}

/* A decimal constant's int128. */
GR_HOSTDEV gr_int128
gr_expr_const_dec(const GrExprConst *k)
{
	return (gr_int128) ((((unsigned __int128) (uint64_t) k->dhi) << 64) | k->dlo);
}

/*
 * A text-like varlena's bytes; false for a TOAST pointer or a compressed
 * value, which only PostgreSQL reads.
 */
GR_HOSTDEV bool
gr_text_bytes(const uint8_t *v, const uint8_t **p, int32_t *len)
{
	if (v[0] == 0x01)
		return false;
	if (v[0] & 0x01)
	{
		*len = ((v[0] >> 1) & 0x7F) - 1;
		*p = v + 1;
		return *len >= 0;
	}
	if ((v[0] & 0x03) != 0)
		return false;
	*len = (int32_t) ((gr_load32(v) >> 2) & 0x3FFFFFFF) - 4;
	*p = v + 4;
	return *len >= 0;
}

/* Byte order of two strings ("C" collation), char(n)'s trailing blanks dropped first. */
GR_HOSTDEV int
gr_text_cmp(const uint8_t *a, int32_t al, const uint8_t *b, int32_t bl, bool bpchar)
{
	int32_t		n;

	if (bpchar)
	{
		while (al > 0 && a[al - 1] == ' ')
			al--;
		while (bl > 0 && b[bl - 1] == ' ')
			bl--;
	}
	n = al < bl ? al : bl;
	for (int32_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return al < bl ? -1 : (al > bl ? 1 : 0);
}

/*
 * Whether string s matches LIKE pattern pat, whose only wildcard is %
 * (no _, no escape): its first piece begins s, its last ends s, and each
 * piece between is found, in order, after the one before (the leftmost
 * place each is found leaves the most room for the rest).  Bytes, as
 * PostgreSQL's LIKE matches a UTF-8 or single-byte encoding: a piece of
 * whole characters found in UTF-8 starts at a character.
 */
GR_HOSTDEV bool
gr_text_like(const uint8_t *s, int32_t sl, const uint8_t *pat, int32_t pl)
{
	int32_t		pos;
	int32_t		i;
	int32_t		e = 0;

	while (e < pl && pat[e] != '%')
		e++;
	if (e == pl)
		return gr_text_cmp(s, sl, pat, pl, false) == 0;
	if (sl < e || gr_text_cmp(s, e, pat, e, false) != 0)
		return false;
	pos = e;
	for (i = e + 1;; i = e + 1)
	{
		int32_t		n;

		for (e = i; e < pl && pat[e] != '%'; e++)
			;
		n = e - i;
		if (e == pl)
			return sl - pos >= n && gr_text_cmp(s + sl - n, n, pat + i, n, false) == 0;
		if (n == 0)
			continue;
		for (;; pos++)
		{
			if (sl - pos < n)
				return false;
			if (gr_text_cmp(s + pos, n, pat + i, n, false) == 0)
				break;
		}
		pos += n;
	}
}

/* A comparison's three-way result as the boolean of operator sub. */
GR_HOSTDEV bool
gr_expr_cmp_result(int cmp, int sub)
{
	switch (sub)
	{
		case GR_XC_EQ:
			return cmp == 0;
		case GR_XC_NE:
			return cmp != 0;
		case GR_XC_LT:
			return cmp < 0;
		case GR_XC_LE:
			return cmp <= 0;
		case GR_XC_GT:
			return cmp > 0;
	}
	return cmp >= 0;
}

/* datetime.c's date2j: the Julian day of a Gregorian date */
GR_HOSTDEV int64_t
gr_date2j(int64_t y, int64_t m, int64_t d)
{
	int64_t		julian,
				century;

	if (m > 2)
	{
		m += 1;
		y += 4800;
	}
	else
	{
		m += 13;
		y += 4799;
	}
	century = y / 100;
	julian = y * 365 - 32167;
	julian += y / 4 - century + century / 4;
	julian += 7834 * m / 256 + d;
	return julian;
}

/* datetime.c's j2date: the Gregorian date of a Julian day (>= 0) */
GR_HOSTDEV void
gr_j2date(int64_t jd, int *year, int *month, int *day)
{
	uint64_t	julian = (uint64_t) jd + 32044;
	uint64_t	quad = julian / 146097;
	uint64_t	extra = (julian - quad * 146097) * 4 + 3;
	int64_t		y;

	julian += 60 + quad * 3 + extra / 146097;
	quad = julian / 1461;
	julian -= quad * 1461;
	y = (int64_t) (julian * 4 / 1461);
	julian = ((y != 0) ? ((julian + 305) % 365) : ((julian + 306) % 366)) + 123;
	y += (int64_t) quad * 4;
	*year = (int) (y - 4800);
	quad = julian * 2141 / 65536;
	*day = (int) (julian - 7834 * quad / 256);
	*month = (int) ((quad + 10) % 12 + 1);
}

/* timestamp bounds of date2timestamp: days whose microseconds fit, and the infinities */
#define GR_DATE_NOBEGIN		INT32_MIN
#define GR_DATE_NOEND		INT32_MAX
#define GR_TS_NOBEGIN		INT64_MIN
#define GR_TS_NOEND			INT64_MAX
#define GR_USECS_PER_DAY	INT64_C(86400000000)
/* TIMESTAMP_END_JULIAN - POSTGRES_EPOCH_JDATE: the first date a timestamp cannot hold */
#define GR_DATE_TS_END		(109203489 - 2451545)

/* seconds from the Unix epoch (pg_time_t's) to PostgreSQL's, 2000-01-01 */
#define GR_UNIX_TO_PG_SECS	INT64_C(946684800)
#define GR_USECS_PER_SEC	INT64_C(1000000)

/* the Julian days of 0001-01-01, and of the last the calendar code takes */
#define GR_JD_FIRST			1721426
#define GR_JD_LAST			100000000

/*
 * The Julian day (*jd) of 'days' after 2000-01-01; false for a year before
 * 1 (or past GR_JD_LAST), whose answers are PostgreSQL's own.
 */
GR_HOSTDEV bool
gr_julian_day(int64_t days, int64_t *jd)
{
	*jd = days + 2451545;		/* POSTGRES_EPOCH_JDATE */
	return *jd >= GR_JD_FIRST && *jd <= GR_JD_LAST;
}

/* A finite timestamp's days after 2000-01-01, and (*usec) the microseconds into that day. */
GR_HOSTDEV int64_t
gr_ts_days(int64_t ts, int64_t *usec)
{
	int64_t		days = ts / GR_USECS_PER_DAY;

	*usec = ts % GR_USECS_PER_DAY;
	if (*usec < 0)
	{
		days--;
		*usec += GR_USECS_PER_DAY;
	}
	return days;
}

/*
 * timestamp_trunc's calendar (datetime.c's j2date and date2j): timestamp ts
 * truncated to a field; false for an infinity or a year before 1, whose
 * answers are PostgreSQL's own.
 */
GR_HOSTDEV bool
gr_ts_trunc(int64_t ts, int field, int64_t *out)
{
	int64_t		usec,
				jd;
	int			y,
				m,
				dd;

	if (ts == GR_TS_NOBEGIN || ts == GR_TS_NOEND || !gr_julian_day(gr_ts_days(ts, &usec), &jd))
		return false;
	gr_j2date(jd, &y, &m, &dd);
	switch (field)
	{
		case GR_XF_YEAR:
			jd = gr_date2j(y, 1, 1);
			usec = 0;
			break;
		case GR_XF_QUARTER:
			jd = gr_date2j(y, (m - 1) / 3 * 3 + 1, 1);
			usec = 0;
			break;
		case GR_XF_MONTH:
			jd = gr_date2j(y, m, 1);
			usec = 0;
			break;
		case GR_XF_WEEK:
			/* the Monday on or before (j2day: (jd + 1) % 7, 0 = Sunday) */
			jd -= jd % 7;
			usec = 0;
			if (jd < GR_JD_FIRST)
				return false;
			break;
		case GR_XF_DAY:
			usec = 0;
			break;
		case GR_XF_HOUR:
			usec -= usec % INT64_C(3600000000);
			break;
		default:
			usec -= usec % INT64_C(60000000);
			break;
	}
	*out = (jd - 2451545) * GR_USECS_PER_DAY + usec;
	return true;
}

/* The pg_time_t (whole seconds, floored) of a timestamp. */
GR_HOSTDEV int64_t
gr_ts_unix_secs(int64_t ts)
{
	int64_t		s = ts / GR_USECS_PER_SEC;

	if (ts % GR_USECS_PER_SEC < 0)
		s--;
	return s + GR_UNIX_TO_PG_SECS;
}

/* How many transitions a zone table holds (bounded: it came with a job). */
GR_HOSTDEV int
gr_zone_count(const GrExprZone *z)
{
	return z->n < 0 ? 0 : z->n > GR_EXPR_MAX_ZONE ? GR_EXPR_MAX_ZONE : z->n;
}

/* The index of the first transition after second s: the offset at s is off[index]. */
GR_HOSTDEV int
gr_zone_find(const GrExprZone *z, int64_t s)
{
	int			lo = 0,
				hi = gr_zone_count(z);

	while (lo < hi)
	{
		int			mid = (lo + hi) / 2;

		if (z->at[mid] <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * timestamp2tm's local time of a (finite) timestamptz in the zone: the
 * instant plus the offset at its whole second; false outside the window.
 */
GR_HOSTDEV bool
gr_zone_local(const GrExprZone *z, int64_t ts, int64_t *local)
{
	int64_t		s = gr_ts_unix_secs(ts);

	if (s < z->lo || s >= z->hi)
		return false;
	*local = ts + (int64_t) z->off[gr_zone_find(z, s)] * GR_USECS_PER_SEC;
	return true;
}

/*
 * The timestamptz of a (finite) local time, as DetermineTimeZoneOffset
 * places it: the first transition after the local time read as UTC less a
 * day (pg_next_dst_boundary's), and the local time read in the offsets
 * before and after it.  Both readings before the transition: the offset
 * before; both at or after it (the earlier strictly after): the offset
 * after; else, in a gap or an overlap, the later of the two instants.
 * False unless the window holds that day and the two after it (offsets are
 * under a day, so a transition past the window is after both readings).
 */
GR_HOSTDEV bool
gr_zone_instant(const GrExprZone *z, int64_t local, int64_t *ts)
{
	int64_t		mytime = gr_ts_unix_secs(local);
	int64_t		prev = mytime - 86400;
	int64_t		off;
	int			i;

	if (prev < z->lo || mytime > z->hi - 2 * 86400)
		return false;
	i = gr_zone_find(z, prev);
	off = z->off[i];
	if (i < gr_zone_count(z))
	{
		int64_t		boundary = z->at[i];
		int64_t		after = z->off[i + 1];
		int64_t		beforetime = mytime - off;
		int64_t		aftertime = mytime - after;

		if (beforetime < boundary && aftertime < boundary)
			;
		else if ((beforetime > boundary && aftertime >= boundary) || beforetime <= aftertime)
			off = after;
	}
	*ts = local - off * GR_USECS_PER_SEC;
	return true;
}

/* A row's verdict and its outputs: steps in order, the WHERE conjuncts first. */
GR_HOSTDEV GrExprResult
gr_expr_eval(const GrExprProg *p, const uint64_t *vals, const bool *nulls,
			 uint64_t *outvals, bool *outnulls, gr_int128 *wide)
{
	GrExprReg	r[GR_EXPR_MAX_REGS];

	for (int s = 0; s < p->nsteps; s++)
	{
		const GrExprStep *st = &p->steps[s];
		GrExprReg  *d = &r[st->dst];
		const GrExprReg *a;
		const GrExprReg *b;
		bool		anull;
		bool		bnull;

		/* the two steps whose a is not a register */
		if (st->op == GR_X_COL)
		{
			d->null = nulls[st->a];
			if (!d->null)
				switch (st->sub)
				{
					case GR_XCOL_INT:
						d->i = gr_value_int(vals[st->a], st->w);
						break;
					case GR_XCOL_FLOAT:
						d->f = gr_value_float(vals[st->a], st->w);
						break;
					case GR_XCOL_BOOL:
						d->b = (vals[st->a] & 0xFF) != 0;
						break;
					case GR_XCOL_TEXT:
						if (!gr_text_bytes((const uint8_t *) (uintptr_t) vals[st->a],
										   &d->t.p, &d->t.len))
							return GR_EXPR_FALLBACK;
						break;
					default:
						if (!gr_numeric_scaled((const uint8_t *) (uintptr_t) vals[st->a],
											   st->c, &d->d))
							return GR_EXPR_FALLBACK;
						break;
				}
			continue;
		}
		if (st->op == GR_X_CONST)
		{
			const GrExprConst *k = &p->consts[st->a];

			d->null = k->isnull;
			d->i = k->i;
			if (st->sub == GR_XK_FLOAT)
				d->f = k->f;
			else if (st->sub == GR_XK_DEC)
				d->d = gr_expr_const_dec(k);
			else if (st->sub == GR_XK_BOOL)
				d->b = k->i != 0;
			else if (st->sub >= GR_XK_TEXT)
			{
				d->t.p = p->text + k->i;
				d->t.len = (int32_t) k->dlo;
			}
			continue;
		}
		/* registers: b is -1 where a step has one operand (or a constant range) */
		a = &r[st->a];
		b = &r[st->b < 0 ? st->a : st->b];
		anull = a->null;
		bnull = st->b >= 0 && b->null;
		switch (st->op)
		{
			case GR_X_AND:
				/* false wins over NULL */
				if ((!anull && !a->b) || (!bnull && !b->b))
				{
					d->null = false;
					d->b = false;
				}
				else
				{
					d->null = anull || bnull;
					d->b = true;
				}
				continue;
			case GR_X_OR:
				if ((!anull && a->b) || (!bnull && b->b))
				{
					d->null = false;
					d->b = true;
				}
				else
				{
					d->null = anull || bnull;
					d->b = false;
				}
				continue;
			case GR_X_ISNULL:
			case GR_X_NOTNULL:
				d->b = anull == (st->op == GR_X_ISNULL);
				d->null = false;
				continue;
			case GR_X_ISTRUE:
				d->b = !anull && a->b;
				d->null = false;
				continue;
			case GR_X_ISNOTTRUE:
				d->b = anull || !a->b;
				d->null = false;
				continue;
			case GR_X_ISFALSE:
				d->b = !anull && !a->b;
				d->null = false;
				continue;
			case GR_X_ISNOTFALSE:
				d->b = anull || a->b;
				d->null = false;
				continue;
			case GR_X_QUAL:
				if (anull || !a->b)
					return GR_EXPR_REJECT;
				continue;
			case GR_X_SELECT:
				*d = !anull && a->b ? *b : r[st->c];
				continue;
			case GR_X_COALESCE:
				*d = anull ? *b : *a;
				continue;
			case GR_X_GREATEST:
			case GR_X_LEAST:
				{
					int			cmp;

					/* NULLs are ignored: NULL only when both are */
					if (anull || bnull)
					{
						*d = anull ? *b : *a;
						continue;
					}
					if (st->sub == GR_XK_INT)
						cmp = a->i > b->i ? 1 : (a->i < b->i ? -1 : 0);
					else if (st->sub == GR_XK_FLOAT)
						cmp = gr_float_cmp(a->f, b->f);
					else
						cmp = a->d > b->d ? 1 : (a->d < b->d ? -1 : 0);
					/* the first of equals, as PostgreSQL's MinMaxExpr keeps it */
					*d = (st->op == GR_X_GREATEST ? cmp >= 0 : cmp <= 0) ? *a : *b;
					continue;
				}
			case GR_X_IN:
				{
					/* x IN (list): true if one equals, else NULL if x or one is NULL */
					bool		found = false,
								sawnull = false;

					if (anull)
					{
						d->null = true;
						continue;
					}
					for (int i = st->c; i < st->c + st->w && !found; i++)
					{
						const GrExprConst *k = &p->consts[i];

						if (k->isnull)
							sawnull = true;
						else if (st->sub == GR_XK_INT)
							found = a->i == k->i;
						else if (st->sub == GR_XK_FLOAT)
							found = gr_float_cmp(a->f, k->f) == 0;
						else if (st->sub >= GR_XK_TEXT)
							found = gr_text_cmp(a->t.p, a->t.len, p->text + k->i, (int32_t) k->dlo,
												st->sub == GR_XK_BPCHAR) == 0;
						else
							found = a->d == gr_expr_const_dec(k);
					}
					d->null = !found && sawnull;
					d->b = found;
					continue;
				}
		}
		/* the rest are strict: a NULL operand gives NULL */
		if (anull || bnull)
		{
			d->null = true;
			continue;
		}
		d->null = false;
		switch (st->op)
		{
			case GR_X_ADD_I:
				if (!gr_add64(a->i, b->i, &d->i) || !gr_expr_fits(d->i, st->w))
					return GR_EXPR_FALLBACK;
				break;
			case GR_X_SUB_I:
				if (!gr_sub64(a->i, b->i, &d->i) || !gr_expr_fits(d->i, st->w))
					return GR_EXPR_FALLBACK;
				break;
			case GR_X_MUL_I:
				if (!gr_mul64(a->i, b->i, &d->i) || !gr_expr_fits(d->i, st->w))
					return GR_EXPR_FALLBACK;
				break;
			case GR_X_DIV_I:
				/* by zero, and the most negative over -1: PostgreSQL's errors */
				if (b->i == 0 || (b->i == -1 && a->i == INT64_MIN))
					return GR_EXPR_FALLBACK;
				d->i = a->i / b->i;
				if (!gr_expr_fits(d->i, st->w))
					return GR_EXPR_FALLBACK;
				break;
			case GR_X_MOD_I:
				if (b->i == 0)
					return GR_EXPR_FALLBACK;
				d->i = b->i == -1 ? 0 : a->i % b->i;
				break;
			case GR_X_NEG_I:
				if (a->i == INT64_MIN || !gr_expr_fits(-a->i, st->w))
					return GR_EXPR_FALLBACK;
				d->i = -a->i;
				break;
			case GR_X_ABS_I:
				if (a->i == INT64_MIN || !gr_expr_fits(a->i < 0 ? -a->i : a->i, st->w))
					return GR_EXPR_FALLBACK;
				d->i = a->i < 0 ? -a->i : a->i;
				break;
			case GR_X_NARROW_I:
				if (!gr_expr_fits(a->i, st->w))
					return GR_EXPR_FALLBACK;
				d->i = a->i;
				break;
			case GR_X_ADD_F:
			case GR_X_SUB_F:
			case GR_X_MUL_F:
			case GR_X_DIV_F:
				{
					double		x = a->f,
								y = b->f,
								v;

					if (st->op == GR_X_ADD_F)
						v = x + y;
					else if (st->op == GR_X_SUB_F)
						v = x - y;
					else if (st->op == GR_X_MUL_F)
						v = x * y;
					else
					{
						if (y == 0.0)
							return GR_EXPR_FALLBACK;	/* division by zero */
						v = x / y;
					}
					if (st->w == 4)
						v = (double) (float) v;
					/* float.h's checks: overflow from finite, underflow from nonzero */
					if ((v - v != 0.0 && v == v) && !(x - x != 0.0 && x == x) &&
						!(y - y != 0.0 && y == y))
						return GR_EXPR_FALLBACK;
					if (v == 0.0 && ((st->op == GR_X_MUL_F && x != 0.0 && y != 0.0) ||
									 (st->op == GR_X_DIV_F && x != 0.0)))
						return GR_EXPR_FALLBACK;
					d->f = v;
					break;
				}
			case GR_X_NEG_F:
				d->f = -a->f;
				break;
			case GR_X_ABS_F:
				d->f = a->f < 0 ? -a->f : (a->f == 0 ? 0.0 : a->f);
				break;
			case GR_X_ROUND_F4:
				{
					float		v = (float) a->f;

					/* float8 to float4: overflow and underflow are errors */
					if ((v - v != 0.0f && v == v) && !(a->f - a->f != 0.0 && a->f == a->f))
						return GR_EXPR_FALLBACK;
					if (v == 0.0f && a->f != 0.0)
						return GR_EXPR_FALLBACK;
					d->f = v;
					break;
				}
			case GR_X_ADD_D:
			case GR_X_SUB_D:
				if (a->d >= GR_DEC_SAFE || a->d <= -GR_DEC_SAFE ||
					b->d >= GR_DEC_SAFE || b->d <= -GR_DEC_SAFE)
					return GR_EXPR_FALLBACK;
				d->d = st->op == GR_X_ADD_D ? a->d + b->d : a->d - b->d;
				break;
			case GR_X_MUL_D:
				if (!gr_dec_mul(a->d, b->d, &d->d))
					return GR_EXPR_FALLBACK;
				break;
			case GR_X_DIV_D:
				/* by zero: PostgreSQL's error */
				if (b->d == 0 ||
					!gr_dec_div(a->d, st->w, b->d, st->sub & ~GR_XDIV_BELOW, st->c,
								(st->sub & GR_XDIV_BELOW) != 0, &d->d))
					return GR_EXPR_FALLBACK;
				break;
			case GR_X_NEG_D:
				d->d = -a->d;
				break;
			case GR_X_ABS_D:
				d->d = a->d < 0 ? -a->d : a->d;
				break;
			case GR_X_RESCALE_D:
				if (!gr_dec_rescale(a->d, st->c, &d->d))
					return GR_EXPR_FALLBACK;
				break;
			case GR_X_I2F:
				d->f = st->w == 4 ? (double) (float) a->i : (double) a->i;
				break;
			case GR_X_I2D:
				d->d = a->i;
				break;
			case GR_X_F2I:
				{
					/* dtoi4 and its kin: rint, then NaN or out of range is an error */
					double		v = rint(a->f);
					double		lim = st->w == 2 ? 32768.0 : st->w == 4 ? 2147483648.0 :
						9223372036854775808.0;

					if (!(v >= -lim && v < lim))
						return GR_EXPR_FALLBACK;
					d->i = (int64_t) v;
					break;
				}
			case GR_X_D2I:
				{
					gr_int128	q = gr_dec_round(a->d, st->c);

					if (q > INT64_MAX || q < INT64_MIN || !gr_expr_fits((int64_t) q, st->w))
						return GR_EXPR_FALLBACK;
					d->i = (int64_t) q;
					break;
				}
			case GR_X_D2F:
				if (!gr_dec_to_float(a->d, st->c, st->w, &d->f))
					return GR_EXPR_FALLBACK;
				break;
			case GR_X_TYPMOD_D:
				/* apply_typmod: rounded to the scale, then fewer than w integer digits */
				if (st->c >= 0)
				{
					if (!gr_dec_rescale(a->d, st->c, &d->d))
						return GR_EXPR_FALLBACK;
				}
				else
					d->d = gr_dec_round(a->d, -st->c);
				if (st->w > 0)
				{
					gr_int128	lim = gr_expr_pow10(st->w);

					if (d->d >= lim || d->d <= -lim)
						return GR_EXPR_FALLBACK;
				}
				break;
			case GR_X_DATE2TS:
				if (a->i == GR_DATE_NOBEGIN)
					d->i = GR_TS_NOBEGIN;
				else if (a->i == GR_DATE_NOEND)
					d->i = GR_TS_NOEND;
				else if (a->i >= GR_DATE_TS_END)
					return GR_EXPR_FALLBACK;	/* out of the timestamp's range */
				else
					d->i = a->i * GR_USECS_PER_DAY;
				break;
			case GR_X_TS2DATE:
				/* timestamp_date: the infinities to the date's, else the day (floor) */
				if (a->i == GR_TS_NOBEGIN)
					d->i = GR_DATE_NOBEGIN;
				else if (a->i == GR_TS_NOEND)
					d->i = GR_DATE_NOEND;
				else
				{
					int64_t		days = a->i / GR_USECS_PER_DAY;

					if (a->i % GR_USECS_PER_DAY < 0)
						days--;
					if (days + 2451545 < 0)
						return GR_EXPR_FALLBACK;	/* before Julian day 0: no timestamp */
					d->i = days;
				}
				break;
			case GR_X_CMP_I:
				d->b = gr_expr_cmp_result(a->i > b->i ? 1 : (a->i < b->i ? -1 : 0), st->sub);
				break;
			case GR_X_CMP_F:
				d->b = gr_expr_cmp_result(gr_float_cmp(a->f, b->f), st->sub);
				break;
			case GR_X_CMP_D:
				d->b = gr_expr_cmp_result(a->d > b->d ? 1 : (a->d < b->d ? -1 : 0), st->sub);
				break;
			case GR_X_CMP_RANGE_D:
				{
					const GrExprConst *k = &p->consts[st->c];
					gr_int128	lo;
					int			cmp;

					if (k->isnull)
					{
						d->null = true;
						break;
					}
					/* below lo: less; lo itself: equal only if it is the constant */
					lo = gr_expr_const_dec(k);
					cmp = a->d < lo ? -1 : (a->d > lo || k->i == 0 ? 1 : 0);
					d->b = gr_expr_cmp_result(cmp, st->sub);
					break;
				}
			case GR_X_CMP_RANGE:
				{
					const GrExprConst *k = &p->consts[st->c];
					int			cmp;

					if (k->isnull)
					{
						d->null = true;
						break;
					}
					cmp = a->i < k->i ? -1 : (a->i > k->dhi ? 1 : 0);
					if (cmp == 0 && k->dlo != 0)
						return GR_EXPR_FALLBACK;
					d->b = gr_expr_cmp_result(cmp, st->sub);
					break;
				}
			case GR_X_CMP_T:
				d->b = gr_expr_cmp_result(gr_text_cmp(a->t.p, a->t.len, b->t.p, b->t.len,
													  st->w == 1), st->sub);
				break;
			case GR_X_PREFIX:
				{
					const GrExprConst *k = &p->consts[st->c];
					int32_t		n = (int32_t) k->dlo;

					d->b = a->t.len >= n &&
						gr_text_cmp(a->t.p, n, p->text + k->i, n, false) == 0;
					break;
				}
			case GR_X_LIKE:
				{
					const GrExprConst *k = &p->consts[st->c];

					d->b = gr_text_like(a->t.p, a->t.len, p->text + k->i, (int32_t) k->dlo);
					break;
				}
			case GR_X_NOT:
				d->b = !a->b;
				break;
			case GR_X_DATEPART:
				{
					int64_t		days,
								usec = 0,
								jd;
					int			y,
								m,
								dd;

					/* the infinities, and years before 1 (no year 0: PostgreSQL's rule) */
					if (st->w == 4)
					{
						if (a->i == GR_DATE_NOBEGIN || a->i == GR_DATE_NOEND)
							return GR_EXPR_FALLBACK;
						days = a->i;
					}
					else
					{
						if (a->i == GR_TS_NOBEGIN || a->i == GR_TS_NOEND)
							return GR_EXPR_FALLBACK;
						days = gr_ts_days(a->i, &usec);
					}
					if (!gr_julian_day(days, &jd))
						return GR_EXPR_FALLBACK;
					gr_j2date(jd, &y, &m, &dd);
					switch (st->sub)
					{
						case GR_XF_YEAR:
							d->i = y;
							break;
						case GR_XF_QUARTER:
							d->i = (m - 1) / 3 + 1;
							break;
						case GR_XF_MONTH:
							d->i = m;
							break;
						case GR_XF_DAY:
							d->i = dd;
							break;
						case GR_XF_DOW:
							d->i = (jd + 1) % 7;
							break;
						case GR_XF_DOY:
							d->i = jd - gr_date2j(y, 1, 1) + 1;
							break;
						case GR_XF_HOUR:
							d->i = usec / INT64_C(3600000000);
							break;
						default:
							d->i = usec / INT64_C(60000000) % 60;
							break;
					}
					break;
				}
			case GR_X_DATETRUNC:
				if (!gr_ts_trunc(a->i, st->sub, &d->i))
					return GR_EXPR_FALLBACK;
				break;
			case GR_X_TZ_LOCAL:
				if (a->i == GR_TS_NOBEGIN || a->i == GR_TS_NOEND ||
					!gr_zone_local(&p->zone, a->i, &d->i))
					return GR_EXPR_FALLBACK;
				break;
			case GR_X_TZ_INSTANT:
				if (a->i == GR_TS_NOBEGIN || a->i == GR_TS_NOEND ||
					!gr_zone_instant(&p->zone, a->i, &d->i))
					return GR_EXPR_FALLBACK;
				break;
			default:
				return GR_EXPR_FALLBACK;
		}
	}
	for (int o = 0; o < p->nouts; o++)
	{
		const GrExprReg *v = &r[p->out_reg[o]];

		outnulls[o] = v->null;
		if (v->null)
		{
			outvals[o] = 0;
			continue;
		}
		switch (p->out_kind[o])
		{
			case GR_XO_INT:
				outvals[o] = p->out_w[o] == 8 ? (uint64_t) v->i :
					(uint64_t) v->i & ((UINT64_C(1) << (8 * p->out_w[o])) - 1);
				break;
			case GR_XO_FLOAT:
				if (p->out_w[o] == 4)
				{
					float		f = (float) v->f;
					uint32_t	bits;

					memcpy(&bits, &f, sizeof(bits));
					outvals[o] = bits;
				}
				else
					memcpy(&outvals[o], &v->f, sizeof(double));
				break;
			default:
				if (v->d > INT64_MAX || v->d < INT64_MIN)
				{
					/*
					 * Past the column's 64 bits: the host takes the value as it
					 * is (wide[o], the column NULL, outvals[o] 1 to say so);
					 * the device hands the row back
					 */
					if (wide == NULL)
						return GR_EXPR_FALLBACK;
					wide[o] = v->d;
					outnulls[o] = true;
					outvals[o] = 1;
					break;
				}
				outvals[o] = (uint64_t) (int64_t) v->d;
				break;
		}
	}
	return GR_EXPR_PASS;
}

#endif							/* GR_EXPR_H */
