/*
 * wire.c
 *	  The primitives of serialized states (the layout is listed in serial.c):
 *	  a bounds-checked big-endian reader, numerics as numeric_out's text
 *	  and their strict parser.  A malformed value is
 *	  an ERROR, never a crash or a wrong answer.
 */
#include "wire.h"

#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/numeric.h"

/* Write a numeric as its text, length first; -1 for none. */
void
gr_send_numeric(StringInfo buf, Datum value)
{
	char	   *s;
	int			len;

	if (value == (Datum) 0)
	{
		pq_sendint32(buf, -1);
		return;
	}
	s = DatumGetCString(DirectFunctionCall1(numeric_out, value));
	len = strlen(s);
	pq_sendint32(buf, len);
	pq_sendbytes(buf, s, len);
	pfree(s);
}

/*
 * A numeric from the text gr_state_serialize wrote (numeric_out's: digits
 * with an optional sign and point, NaN, Infinity, -Infinity); an ERROR
 * (invalid state) for anything else.
 */
static Datum
numeric_parse(const char *s, int len)
{
	char	   *str = pnstrdup(s, len);
	bool		ok = len > 0;
	int			i = 0;
	int			ndigits = 0;

	if (strcmp(str, "NaN") != 0 && strcmp(str, "Infinity") != 0 &&
		strcmp(str, "-Infinity") != 0)
	{
		if (i < len && str[i] == '-')
			i++;
		for (; i < len && str[i] >= '0' && str[i] <= '9'; i++)
			ndigits++;
		if (i < len && str[i] == '.')
			for (i++; i < len && str[i] >= '0' && str[i] <= '9'; i++)
				ndigits++;
		ok = ok && i == len && ndigits > 0;
	}
	if (!ok)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid gpu_reduce state: %s", "malformed numeric value")));
	return DirectFunctionCall3(numeric_in, CStringGetDatum(str),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

/* Report a malformed state. */
void
gr_malformed(const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			 errmsg("invalid gpu_reduce state: %s", detail)));
}

/* Read n bytes as a big-endian unsigned integer. */
uint64
gr_read_uint(GrReader *r, int n)
{
	uint64		v = 0;

	if (r->len - r->pos < n)
		gr_malformed("too short");
	for (int i = 0; i < n; i++)
		v = (v << 8) | r->data[r->pos++];
	return v;
}

/* Read a numeric written by gr_send_numeric; (Datum) 0 for none (-1). */
Datum
gr_read_numeric(GrReader *r, bool allow_none)
{
	int32		len = (int32) gr_read_uint(r, 4);
	Datum		v;

	if (len == -1 && allow_none)
		return (Datum) 0;
	if (len <= 0 || len > r->len - r->pos)
		gr_malformed("numeric value length out of range");
	v = numeric_parse((const char *) r->data + r->pos, len);
	r->pos += len;
	return v;
}

