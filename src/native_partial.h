/*
 * native_partial.h
 *	  PostgreSQL's own serialized transition states, made from the node's
 *	  states, for native aggregates whose transition state is internal
 *	  (sum/avg of int8 and numeric, the variances of integers and numeric):
 *	  what a parallel participant emits for its Finalize Aggregate.
 */
#ifndef GR_NATIVE_PARTIAL_H
#define GR_NATIVE_PARTIAL_H

#include "kinds.h"
#include "scan_desc.h"

/*
 * The form of a native aggregate's serialized state, by the name of its
 * serialization function (aggserialfn, in pg_catalog), if the node makes it
 * from the accumulator acc; else GR_PARTIAL_STATE (it cannot).
 */
extern GrPartialForm gr_native_partial_form(const char *serialfn, GrAccId acc);

/*
 * Whether PostgreSQL's own deserialization and final functions (their
 * OIDs) turn states of this form, made from sample values of type, into
 * the node's own answers: checked once per aggregate, so that a major
 * version whose layout differs keeps such aggregates serial, never wrong.
 */
extern bool gr_native_partial_checked(GrPartialForm form, GrOp op, GrType type,
									  Oid deserialfn, Oid finalfn);

/* The serialized state (bytea) of form for a non-empty state. */
extern Datum gr_native_partial(GrPartialForm form, GrState *st);

#endif							/* GR_NATIVE_PARTIAL_H */
