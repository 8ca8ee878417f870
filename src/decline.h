/*
 * decline.h
 *	  Why the planner did not give a query the node (decline.c).
 */
#ifndef GR_DECLINE_H
#define GR_DECLINE_H

#include "postgres.h"

extern bool gr_report_declines;

extern void gr_decline_reset(void);
extern bool gr_decline(const char *fmt,...) pg_attribute_printf(1, 2);
extern bool gr_decline_hint(const char *hint, const char *fmt,...) pg_attribute_printf(2, 3);
extern void gr_decline_report(double node_cost, double cheapest_cost);

#endif							/* GR_DECLINE_H */
