/*
 * time_range.c
 *	  Comparisons across date, timestamp and timestamptz where one side is a
 *	  constant (a literal, a parameter, now() - interval): once at the
 *	  scan's start, the constant becomes the range of the column's own
 *	  values that compare equal to it under PostgreSQL's own cross-type
 *	  comparison (date_cmp_timestamptz_internal and its kin, in the session's
 *	  time zone), so that each row compares as an integer, on the GPU too.
 *
 * A column of the wider type (timestamptz against a date or a timestamp, a
 * timestamp against a date) compares with the constant as converted: the
 * comparison, a function of the column's value, only grows, and a binary
 * search over it finds where it turns.  A column of the narrower type
 * compares with a threshold: the first and last of its values whose
 * conversion is at least and at most the constant.  A value converts to
 * timestamptz at the zone's offset there, under a week in any zone
 * PostgreSQL loads (tzparse's bound, 167:59:59), so only values within a
 * week of the constant can compare otherwise than as plain integers: those
 * dates are compared one by one, and where the answers do not only grow
 * (a zone whose offset jumps by more than a day) the dates between are
 * handed back.  For a timestamp, the zone's transitions near the constant
 * (pg_next_dst_boundary) give the local times where the conversion's
 * offset changes, as DetermineTimeZoneOffset reads them, and the result is
 * checked against PostgreSQL's own comparison; a constant that two local
 * times reach (within a spring-forward shift), or a transition that is
 * not alone, makes the values near it handed back instead.
 *
 * The zone table of a program's steps that read the session's zone
 * (date_trunc of a timestamptz, casts to and from it) is made here too.
 */
#include "time_range.h"

#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "pgtime.h"
#include "utils/date.h"
#include "utils/timestamp.h"

/* more than any zone's offset from UTC */
#define OFFSET_BOUND_DAYS 7
/* the finite dates */
#define DATE_FIRST ((int64) DATETIME_MIN_JULIAN - POSTGRES_EPOCH_JDATE)
#define DATE_LAST ((int64) DATE_END_JULIAN - POSTGRES_EPOCH_JDATE - 1)
/* PostgreSQL's epoch in Unix seconds */
#define EPOCH_SECS ((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY)

/* The order of the time types by what a comparison converts to: 0 for others. */
static int
width_of(Oid type)
{
	return type == DATEOID ? 1 : type == TIMESTAMPOID ? 2 : type == TIMESTAMPTZOID ? 3 : 0;
}

bool
gr_time_cross(Oid coltype, Oid ctype)
{
	return width_of(coltype) != 0 && width_of(ctype) != 0 && coltype != ctype;
}

bool
gr_time_cross_exact(Oid coltype, Oid ctype)
{
	/* the constant converted, or a date's threshold without a zone */
	return gr_time_cross(coltype, ctype) &&
		(width_of(coltype) > width_of(ctype) || ctype == TIMESTAMPOID);
}

/* PostgreSQL's comparison of column value x with constant c: -1, 0 or 1. */
static int
cross_cmp(Oid coltype, Oid ctype, int64 x, Datum c)
{
	int32		r;

	if (coltype == DATEOID)
		r = ctype == TIMESTAMPOID ?
			date_cmp_timestamp_internal((DateADT) x, DatumGetTimestamp(c)) :
			date_cmp_timestamptz_internal((DateADT) x, DatumGetTimestampTz(c));
	else if (coltype == TIMESTAMPOID)
		r = ctype == DATEOID ?
			-date_cmp_timestamp_internal(DatumGetDateADT(c), x) :
			timestamp_cmp_timestamptz_internal(x, DatumGetTimestampTz(c));
	else
		r = ctype == DATEOID ?
			-date_cmp_timestamptz_internal(DatumGetDateADT(c), x) :
			-timestamp_cmp_timestamptz_internal(DatumGetTimestamp(c), x);
	return (r > 0) - (r < 0);
}

/*
 * The constant as a wider column sees it: the first value comparing at
 * least equal, the last at most (past the finite values but short of
 * infinity, no value equals it).  x is never converted, so any int64 may
 * be asked.
 */
static void
converted(Oid coltype, Oid ctype, Datum c, GrTimeRange *r)
{
	int64		lo = PG_INT64_MIN,
				hi = PG_INT64_MAX;

	/* the first x with cmp >= 0: cmp(PG_INT64_MAX), infinity, is >= 0 */
	while (lo < hi)
	{
		int64		mid = lo + (int64) (((uint64) hi - (uint64) lo) / 2);

		if (cross_cmp(coltype, ctype, mid, c) >= 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	r->lo = lo;
	r->hi = cross_cmp(coltype, ctype, lo, c) == 0 ? lo : lo - 1;
	r->unsure = false;
}

/* A date column's threshold against a finite timestamp(tz) t: each date within a week. */
static void
date_threshold(Oid ctype, Datum c, int64 t, GrTimeRange *r)
{
	int64		day = t / USECS_PER_DAY - (t % USECS_PER_DAY < 0);
	int64		first = Max(day - OFFSET_BOUND_DAYS - 1, DATE_FIRST);
	int64		last = Min(day + OFFSET_BOUND_DAYS + 1, DATE_LAST);
	bool		found = false;
	int			prev = -1;

	/* below the window every date compares less, above it greater */
	r->lo = last < DATE_LAST ? last + 1 : DATEVAL_NOEND;
	r->hi = first > DATE_FIRST ? first - 1 : DATEVAL_NOBEGIN;
	r->unsure = false;
	for (int64 d = first; d <= last; d++)
	{
		int			s = cross_cmp(DATEOID, ctype, d, c);

		if (s >= 0 && !found)
		{
			r->lo = d;
			found = true;
		}
		if (s <= 0)
			r->hi = d;
		/* not only growing: the dates from lo to hi go back */
		if (s < prev)
			r->unsure = true;
		prev = s;
	}
}

/*
 * A timestamp column's threshold against a finite timestamptz t, where at
 * most one transition of the session's zone lies within 16 days: a local
 * time x converts to x - o1 before s and x - o2 from s on (s is the
 * transition's local time at the later offset, as DetermineTimeZoneOffset
 * decides the skipped and repeated local times); false where that does not
 * hold or PostgreSQL's comparison disagrees with it.
 */
static bool
timestamp_threshold(Datum c, int64 t, GrTimeRange *r)
{
	pg_time_t	tsec = t / USECS_PER_SEC - (t % USECS_PER_SEC < 0) + EPOCH_SECS;
	pg_time_t	from = tsec - 16 * SECS_PER_DAY;
	pg_time_t	boundary;
	long int	before,
				after,
				o1 = 0,
				o2 = 0;
	int			isdst;
	int			n = 0;
	int64		s = PG_INT64_MAX,
				a,
				b;
	int64		points[12];

	if (t - 16 * USECS_PER_DAY < MIN_TIMESTAMP || t + 16 * USECS_PER_DAY >= END_TIMESTAMP)
		return false;
	for (;;)
	{
		int			res = pg_next_dst_boundary(&from, &before, &isdst, &boundary, &after,
											   &isdst, session_timezone);

		if (res < 0)
			return false;
		if (n == 0)
			o1 = o2 = before;
		if (res == 0 || boundary > tsec + 16 * SECS_PER_DAY)
			break;
		if (++n > 1)
			return false;
		o2 = after;
		/* the rule below holds where the offsets are under a day */
		if (labs(o1) >= SECS_PER_DAY || labs(o2) >= SECS_PER_DAY)
			return false;
		s = (boundary - EPOCH_SECS + o2) * USECS_PER_SEC;
		from = boundary;
	}
	/* the local times converting to t before s, and from s on */
	a = t + (int64) o1 * USECS_PER_SEC;
	b = t + (int64) o2 * USECS_PER_SEC;
	if (a < s && b >= s && a != b)
	{
		/* two local times reach t (the hour after a spring-forward) */
		r->lo = a;
		r->hi = b;
		r->unsure = true;
	}
	else
	{
		r->lo = a < s ? a : Max(b, s);
		r->hi = b >= s ? b : Min(a, s - 1);
		r->unsure = false;
	}
	/* PostgreSQL's own comparison agrees where the rule's answer turns */
	points[0] = r->lo - 1;
	points[1] = r->lo;
	points[2] = r->lo + 1;
	points[3] = r->hi - 1;
	points[4] = r->hi;
	points[5] = r->hi + 1;
	points[6] = a;
	points[7] = b;
	points[8] = a - 1;
	points[9] = b + 1;
	points[10] = s == PG_INT64_MAX ? a : s - 1;
	points[11] = s == PG_INT64_MAX ? a : s;
	for (int i = 0; i < lengthof(points); i++)
	{
		int64		x = points[i];
		int64		fx = x - (int64) (x < s ? o1 : o2) * USECS_PER_SEC;

		if (x < t - OFFSET_BOUND_DAYS * USECS_PER_DAY ||
			x > t + OFFSET_BOUND_DAYS * USECS_PER_DAY)
			continue;
		if (cross_cmp(TIMESTAMPOID, TIMESTAMPTZOID, x, c) != (fx > t) - (fx < t))
			return false;
	}
	return true;
}

void
gr_time_range(Oid coltype, Oid ctype, Datum value, GrTimeRange *r)
{
	int64		t;

	Assert(gr_time_cross(coltype, ctype));
	if (width_of(coltype) > width_of(ctype))
	{
		converted(coltype, ctype, value, r);
		return;
	}
	/* a narrower column: the constant is a timestamp or timestamptz */
	t = DatumGetInt64(value);
	r->unsure = false;
	if (TIMESTAMP_IS_NOBEGIN(t))
		r->lo = r->hi = coltype == DATEOID ? DATEVAL_NOBEGIN : DT_NOBEGIN;
	else if (TIMESTAMP_IS_NOEND(t))
		r->lo = r->hi = coltype == DATEOID ? DATEVAL_NOEND : DT_NOEND;
	else if (coltype == DATEOID)
		date_threshold(ctype, value, t, r);
	else if (!timestamp_threshold(value, t, r))
	{
		/* within a week of t only PostgreSQL knows; beyond, the order holds */
		r->lo = Max(t - OFFSET_BOUND_DAYS * USECS_PER_DAY, MIN_TIMESTAMP);
		r->hi = Min(t + OFFSET_BOUND_DAYS * USECS_PER_DAY, END_TIMESTAMP - 1);
		r->unsure = true;
	}
}

/* Whether pg_localtime (timestamp2tm's reading) gives instant t the offset off, under a day. */
static bool
offset_agrees(pg_time_t t, long off, pg_tz *tz)
{
	struct pg_tm *tm = pg_localtime(&t, tz);

	return tm != NULL && tm->tm_gmtoff == off && off > -SECS_PER_DAY && off < SECS_PER_DAY;
}

/*
 * The session zone's transitions over the window the program asked for,
 * in the zone the scan runs in (a prepared plan may run after SET
 * TimeZone): pg_next_dst_boundary's, from win_lo to win_hi or as many as
 * the table holds.  The table ends early (later instants handed back)
 * where pg_localtime reads an offset otherwise, or one is a day or more (a
 * POSIX zone may say up to a week; the program's reading assumes less).
 */
void
gr_time_zone_bind(GrExprZone *z)
{
	pg_tz	   *tz = session_timezone;
	pg_time_t	t = z->win_lo;
	pg_time_t	boundary;
	long		before,
				after;
	int			before_dst,
				after_dst;
	int			res;

	z->lo = z->hi = z->win_lo;
	z->n = 0;
	if (z->win_hi <= z->win_lo || tz == NULL)
		return;
	res = pg_next_dst_boundary(&t, &before, &before_dst, &boundary, &after, &after_dst, tz);
	if (res < 0 || !offset_agrees(t, before, tz))
		return;
	z->off[0] = (int32) before;
	z->hi = z->win_hi;
	while (res == 1 && boundary < z->win_hi)
	{
		if (z->n == GR_EXPR_MAX_ZONE || !offset_agrees(boundary, after, tz))
		{
			z->hi = boundary;
			break;
		}
		z->at[z->n++] = boundary;
		z->off[z->n] = (int32) after;
		t = boundary;
		res = pg_next_dst_boundary(&t, &before, &before_dst, &boundary, &after, &after_dst, tz);
		if (res < 0 || before != z->off[z->n])
		{
			z->hi = t;
			break;
		}
	}
}
