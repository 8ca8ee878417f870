/*
 * time_range.h
 *	  Comparisons across date, timestamp and timestamptz with a constant
 *	  side: the constant, once at the scan's start, as the range of the
 *	  column's own values that compare equal to it.
 */
#ifndef GR_TIME_RANGE_H
#define GR_TIME_RANGE_H

#include "postgres.h"

#include "expr.h"

/*
 * What "x op constant" reads for a column value x (its type's integer):
 * x < lo compares less, x > hi greater, lo <= x <= hi equal (none where
 * hi < lo) -- or, where unsure, only PostgreSQL knows: the row goes back.
 */
typedef struct GrTimeRange
{
	int64		lo;
	int64		hi;
	bool		unsure;
} GrTimeRange;

/* Whether a column of coltype compared with a constant of ctype is a range here. */
extern bool gr_time_cross(Oid coltype, Oid ctype);
/* Whether that range is always certain and at most one value wide (the page loop's). */
extern bool gr_time_cross_exact(Oid coltype, Oid ctype);
/* The range of a constant (not NULL) in the session's time zone. */
extern void gr_time_range(Oid coltype, Oid ctype, Datum value, GrTimeRange *r);

/* A program's zone table (GrExprZone) for the session's time zone, as the scan starts. */
extern void gr_time_zone_bind(GrExprZone *z);

#endif							/* GR_TIME_RANGE_H */
