/*
 * wire.h
 *	  The primitives of serialized states: a bounds-checked reader, numerics
 *	  as text (wire.c).
 */
#ifndef GR_WIRE_H
#define GR_WIRE_H

#include "state.h"

#include "lib/stringinfo.h"

/* A bounds-checked reader over serialized bytes (serial.c). */
typedef struct GrReader
{
	const uint8 *data;
	int			len;
	int			pos;
} GrReader;

extern uint64 gr_read_uint(GrReader *r, int n);
pg_noreturn extern void gr_malformed(const char *detail);
extern void gr_send_numeric(StringInfo buf, Datum value);
extern Datum gr_read_numeric(GrReader *r, bool allow_none);

#endif							/* GR_WIRE_H */
