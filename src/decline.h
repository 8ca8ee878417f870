/*
 * decline.h
 *	  Why the planner did not give a query the node (decline.c).
 */
#ifndef GR_DECLINE_H
#define GR_DECLINE_H

#include "postgres.h"

extern bool gr_report_declines;

/* the reason kept so far: a trial's declines are put back (gr_decline_restore) */
typedef struct GrDeclineMark
{
	char	   *reason;
	const char *hint;
} GrDeclineMark;

extern void gr_decline_reset(void);
extern GrDeclineMark gr_decline_mark(void);
extern void gr_decline_restore(GrDeclineMark mark);
extern bool gr_decline(const char *fmt,...) pg_attribute_printf(1, 2);
extern bool gr_decline_hint(const char *hint, const char *fmt,...) pg_attribute_printf(2, 3);
extern void gr_decline_report(double node_cost, double cheapest_cost);

#endif							/* GR_DECLINE_H */
