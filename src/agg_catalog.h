/*
 * agg_catalog.h
 *	  Which aggregate functions the planner's code knows (agg_catalog.c).
 */
#ifndef GR_AGG_CATALOG_H
#define GR_AGG_CATALOG_H

#include "postgres.h"

#include "state.h"
#include "scan_desc.h"

extern GrOp gr_plan_aggregate(Oid fnoid, int32 *k, bool *native, GrPartialForm *partial_form);
extern bool gr_extension_installed(void);
extern void gr_agg_catalog_init(void);

#endif							/* GR_AGG_CATALOG_H */
