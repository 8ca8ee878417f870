/*
 * order_key.h
 *	  Order keys: integers that sort as PostgreSQL sorts the values, for min,
 *	  max and top-k on every side (row path, CPU reducer, kernels).
 *
 * An integer type's key is its value.  A float's key is its bits with the
 * magnitude bits flipped for negative values, so that -0.0 sorts just below
 * +0.0 and -Infinity lowest; every NaN (any payload, either sign) becomes
 * the canonical NaN, whose key is above +Infinity's, as PostgreSQL orders
 * NaN above every other value.  Branch-free, so the CPU's batch loops
 * vectorize; the kernels keep float4 keys in 32 bits and widen them to
 * int64 as every key is stored.
 */
#ifndef GR_ORDER_KEY_H
#define GR_ORDER_KEY_H

#include <stdint.h>
#include <string.h>

#include "gr_hostdev.h"

#define GR_FLOAT8_NAN_BITS	INT64_C(0x7FF8000000000000)
#define GR_FLOAT4_NAN_BITS	INT32_C(0x7FC00000)

/* Key of a float8 given as its bits. */
GR_HOSTDEV int64_t
gr_key_float8_bits(int64_t bits)
{
	if ((bits & INT64_MAX) > INT64_C(0x7FF0000000000000))
		bits = GR_FLOAT8_NAN_BITS;
	return bits ^ ((bits >> 63) & INT64_MAX);
}

/* Key of a float4 given as its bits, in 32 bits. */
GR_HOSTDEV int32_t
gr_key_float4_bits(int32_t bits)
{
	if ((bits & INT32_MAX) > INT32_C(0x7F800000))
		bits = GR_FLOAT4_NAN_BITS;
	return bits ^ ((bits >> 31) & INT32_MAX);
}

/* Key of a float8. */
GR_HOSTDEV int64_t
gr_key_float8(double v)
{
	int64_t		bits;

	memcpy(&bits, &v, sizeof(bits));
	return gr_key_float8_bits(bits);
}

/* Key of a float4, widened. */
GR_HOSTDEV int64_t
gr_key_float4(float v)
{
	int32_t		bits;

	memcpy(&bits, &v, sizeof(bits));
	return gr_key_float4_bits(bits);
}

/* The float8 whose key this is (the fold is its own inverse). */
GR_HOSTDEV double
gr_float8_from_key(int64_t key)
{
	int64_t		bits = key ^ ((key >> 63) & INT64_MAX);
	double		v;

	memcpy(&v, &bits, sizeof(v));
	return v;
}

/* The float4 whose (widened) key this is. */
GR_HOSTDEV float
gr_float4_from_key(int64_t key)
{
	int32_t		k = (int32_t) key;
	int32_t		bits = k ^ ((k >> 31) & INT32_MAX);
	float		v;

	memcpy(&v, &bits, sizeof(v));
	return v;
}

#endif							/* GR_ORDER_KEY_H */
