/*
 * decline.c
 *	  Why the planner did not give a query the node, for a user who asks
 *	  (gpu_reduce.report_declines): the first reason the planner met, with
 *	  the clause, aggregate or key it could not take and the fix where there
 *	  is one, or, where the node was offered, its cost beside PostgreSQL's
 *	  cheapest plan.  Told once per grouping planned, as a NOTICE.
 */
#include "postgres.h"

#include "decline.h"

#include "lib/stringinfo.h"

bool		gr_report_declines = false;

/* the first reason met while this grouping is planned, and its hint */
static char *reason = NULL;
static const char *reason_hint = NULL;

/* Forget the last grouping's reason (the planner's memory held it). */
void
gr_decline_reset(void)
{
	reason = NULL;
	reason_hint = NULL;
}

/* The reason kept so far, to put back after a trial (gr_decline_restore). */
GrDeclineMark
gr_decline_mark(void)
{
	GrDeclineMark mark = {reason, reason_hint};

	return mark;
}

/*
 * Forget what was declined since mark: a trial's reasons (whether a hashed
 * relation can be read from its pages) are not the query's.
 */
void
gr_decline_restore(GrDeclineMark mark)
{
	reason = mark.reason;
	reason_hint = mark.hint;
}

/* Keep the first reason, if asked to; false, for 'return gr_decline(...)'. */
static bool keep(const char *hint, const char *fmt, va_list args) pg_attribute_printf(2, 0);

static bool
keep(const char *hint, const char *fmt, va_list args)
{
	StringInfoData buf;

	if (!gr_report_declines || reason != NULL)
		return false;
	initStringInfo(&buf);
	for (;;)
	{
		va_list		copy;
		int			needed;

		va_copy(copy, args);
		needed = appendStringInfoVA(&buf, fmt, copy);
		va_end(copy);
		if (needed == 0)
			break;
		enlargeStringInfo(&buf, needed);
	}
	reason = buf.data;
	reason_hint = hint;
	return false;
}

/* A reason the node was not planned; returns false. */
bool
gr_decline(const char *fmt,...)
{
	va_list		args;

	va_start(args, fmt);
	keep(NULL, fmt, args);
	va_end(args);
	return false;
}

/* A reason with the fix a user can make; returns false. */
bool
gr_decline_hint(const char *hint, const char *fmt,...)
{
	va_list		args;

	va_start(args, fmt);
	keep(hint, fmt, args);
	va_end(args);
	return false;
}

/*
 * Tell the user, if asked: the reason kept, or where the node was offered
 * (node_cost >= 0) its cost beside the cheapest plan PostgreSQL had made.
 */
void
gr_decline_report(double node_cost, double cheapest_cost)
{
	if (!gr_report_declines)
		return;
	if (node_cost >= 0)
		ereport(NOTICE,
				(errmsg("gpu_reduce: GpuReduce offered at cost %.2f, PostgreSQL's cheapest plan %.2f",
						node_cost, cheapest_cost),
				 errdetail("The planner keeps the cheaper; EXPLAIN shows which.")));
	else if (reason != NULL)
		ereport(NOTICE,
				(errmsg("gpu_reduce: no GpuReduce node: %s", reason),
				 reason_hint ? errhint("%s", reason_hint) : 0));
	gr_decline_reset();
}
