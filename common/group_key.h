/*
 * group_key.h
 *	  GROUP BY keys as PostgreSQL's hash grouping compares them: each kind's
 *	  rule for when two stored values are one group, and the hash that
 *	  spreads groups over a table.
 *
 * Plain C99, every function GR_HOSTDEV (gr_hostdev.h): the host's group
 * table (src/group_table.c) uses these rules, and a kernel that groups
 * rows uses the same ones.  A fixed-width key is its value bits as the
 * decoder gives them (zero-extended, in the attribute's width), made equal
 * where PostgreSQL's equality says so (float -0 and 0, every NaN); a
 * variable-length key is compared by bytes (group_table.c says which).
 */
#ifndef GR_GROUP_KEY_H
#define GR_GROUP_KEY_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "gr_hostdev.h"

/* How a key's values are compared (a GrScanKey's kind; numbers are in plans). */
typedef enum GrKeyKind
{
	GR_KEY_BITS = 0,			/* fixed-width by-value types: equal bits */
	GR_KEY_FLOAT4 = 1,			/* float4eq: -0 = 0, every NaN one group */
	GR_KEY_FLOAT8 = 2,
	GR_KEY_TEXT = 3,			/* text, varchar: equal bytes (a deterministic
								 * collation) */
	GR_KEY_BPCHAR = 4,			/* char(n): equal bytes, trailing blanks dropped */
	GR_KEY_NUMERIC = 5			/* equal values: 1.0 = 1.00 */
} GrKeyKind;

#define GR_KEY_LAST GR_KEY_NUMERIC

/* Whether a key kind is fixed-width (its bits are the value). */
GR_HOSTDEV bool
gr_key_fixed(int kind)
{
	return kind <= GR_KEY_FLOAT8;
}

/* A fixed-width key's bits, one pattern per group. */
GR_HOSTDEV uint64_t
gr_key_norm_bits(int kind, uint64_t bits)
{
	if (kind == GR_KEY_FLOAT4)
	{
		uint32_t	u = (uint32_t) bits;
		float		f;

		memcpy(&f, &u, sizeof(f));
		if (f == 0.0f)
			return 0;
		if (f != f)
			return 0x7FC00000u;
		return u;
	}
	if (kind == GR_KEY_FLOAT8)
	{
		double		f;

		memcpy(&f, &bits, sizeof(f));
		if (f == 0.0)
			return 0;
		if (f != f)
			return UINT64_C(0x7FF8000000000000);
	}
	return bits;
}

/* Mix one 64-bit word into a hash (splitmix64's finalizer over h ^ v). */
GR_HOSTDEV uint64_t
gr_key_hash_mix(uint64_t h, uint64_t v)
{
	uint64_t	z = h ^ (v + UINT64_C(0x9E3779B97F4A7C15) + (h << 6) + (h >> 2));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* Mix a byte string into a hash, eight bytes at a time. */
GR_HOSTDEV uint64_t
gr_key_hash_bytes(uint64_t h, const uint8_t *p, int32_t len)
{
	int32_t		i = 0;

	for (; i + 8 <= len; i += 8)
	{
		uint64_t	w;

		memcpy(&w, p + i, 8);
		h = gr_key_hash_mix(h, w);
	}
	if (i < len)
	{
		uint64_t	w = 0;

		memcpy(&w, p + i, (size_t) (len - i));
		h = gr_key_hash_mix(h, w);
	}
	return gr_key_hash_mix(h, (uint64_t) len);
}

#endif							/* GR_GROUP_KEY_H */
