/*
 * group_table.c
 *	  The GpuReduce node's group table: open addressing over group numbers,
 *	  keys compared by group_key.h's rules, variable-length keys by bytes.
 *
 * A row's key values come as the decoder gives them (a fixed-width
 * column's bits; a variable-length column's address, in the pinned page);
 * a new group keeps a copy of each, its output value.  text and varchar
 * compare by bytes, which is PostgreSQL's equality under a deterministic
 * collation (the planner offers no other); char(n) without its trailing
 * blanks, as bpchareq; numeric by value (sign, weight and base-10000
 * digits without the zeros at either end), so that 1.0 and 1.00 are one
 * group, as numeric_eq says, and the first row's value is the output.
 */
#include "group_table.h"
#include "tuple_decode.h"

#include "access/detoast.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "port/pg_bitutils.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/typcache.h"

/*
 * A variable-length key of at most this many compared bytes is held in
 * its norm itself (a fixed-width key's len is 0, so the rule covers both)
 */
#define GR_GROUP_INLINE_BYTES 8

/* first room for groups; the slots are twice as many, a power of two */
#define GR_GROUP_FIRST_CAP 64

/*
 * How a GROUP BY key of this type and collation is grouped by the node, or
 * false if the node does not group by it (its equality is not one of
 * group_key.h's rules: another type, a domain, a non-deterministic
 * collation).
 */
bool
gr_group_key_kind(Oid type, Oid collation, GrKeyKind *kind)
{
	switch (type)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case BOOLOID:
		case DATEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			*kind = GR_KEY_BITS;
			return true;
		case FLOAT4OID:
			*kind = GR_KEY_FLOAT4;
			return true;
		case FLOAT8OID:
			*kind = GR_KEY_FLOAT8;
			return true;
		case NUMERICOID:
			*kind = GR_KEY_NUMERIC;
			return true;
		case TEXTOID:
		case VARCHAROID:
		case BPCHAROID:
			if (!OidIsValid(collation) || !get_collation_isdeterministic(collation))
				return false;
			*kind = type == BPCHAROID ? GR_KEY_BPCHAR : GR_KEY_TEXT;
			return true;
	}
	return false;
}

/*
 * The largest block of a context whose memory counts against a budget of
 * groups: a sixteenth of it (8 kB to 8 MB), as PostgreSQL's hash
 * aggregation sizes its own.  An AllocSet doubles its blocks and its
 * allocated bytes count each block whole: with 8 MB blocks a context with
 * 4 MB of states read as 8 MB, and the node emitted its groups at half the
 * budget (30 000 groups, work_mem 4 MB: 190 flushes, every row its own
 * group, where they fit).
 */
Size
gr_group_block_size(Size budget)
{
	Size		size = pg_prevpower2_size_t(Max(budget / 16, 1));

	return Min(Max(size, ALLOCSET_DEFAULT_INITSIZE), ALLOCSET_DEFAULT_MAXSIZE);
}

/* An empty table of keys; its memory in a child of parent, within budget's blocks. */
GrGroupTable *
gr_group_create(MemoryContext parent, int nkeys, const GrScanKey *keys, Size budget)
{
	GrGroupTable *gt = MemoryContextAllocZero(parent, sizeof(GrGroupTable));

	gt->cxt = AllocSetContextCreate(parent, "gpu_reduce groups", ALLOCSET_DEFAULT_MINSIZE,
									ALLOCSET_DEFAULT_INITSIZE, gr_group_block_size(budget));
	gt->scratch = AllocSetContextCreate(parent, "gpu_reduce group keys",
										ALLOCSET_SMALL_SIZES);
	gt->nkeys = nkeys;
	gt->keys = keys;
	gt->lo = 0;
	gt->hi = GR_GROUP_HASH_SPACE;
	gr_group_reset(gt);
	return gt;
}

/* Forget every group (the node has emitted them). */
void
gr_group_reset(GrGroupTable *gt)
{
	MemoryContextReset(gt->cxt);
	MemoryContextReset(gt->scratch);
	gt->ngroups = 0;
	gt->cap = GR_GROUP_FIRST_CAP;
	gt->hashes = MemoryContextAlloc(gt->cxt, sizeof(uint64) * gt->cap);
	gt->kv = MemoryContextAlloc(gt->cxt, sizeof(GrGroupKeyValue) * gt->cap * Max(gt->nkeys, 1));
	gt->mask = 2 * GR_GROUP_FIRST_CAP - 1;
	gt->slots = MemoryContextAllocZero(gt->cxt, sizeof(uint64) * (gt->mask + 1));
}

/* A slot of group g, whose key's hash is h. */
static inline uint64
slot_of(int g, uint64 h)
{
	return (h & UINT64CONST(0xFFFFFFFF00000000)) | (uint32) (g + 1);
}

/* Bytes the table holds, its groups' key copies included. */
Size
gr_group_memory(GrGroupTable *gt)
{
	return MemoryContextMemAllocated(gt->cxt, true);
}

/*
 * A numeric's compared bytes: its kind, sign, weight and digits, without
 * zero digits at either end (numeric.c stores none, but equal values must
 * give equal bytes whatever wrote them); in the scratch memory.
 */
static int32
numeric_key(GrGroupTable *gt, const struct varlena *v, const uint8 **out)
{
	GrNumHead	h;
	int			first = 0;
	int			n;
	int32		weight;
	uint8	   *b;

	gr_numeric_head(v, &h);
	n = h.kind == 0 ? h.ndigits : 0;
	weight = h.weight;
	while (first < n && h.digits[2 * first] == 0 && h.digits[2 * first + 1] == 0)
	{
		first++;
		weight--;
	}
	while (n > first && h.digits[2 * (n - 1)] == 0 && h.digits[2 * (n - 1) + 1] == 0)
		n--;
	gt->scratch_used = true;
	b = MemoryContextAlloc(gt->scratch, 6 + 2 * (n - first));
	b[0] = h.kind;
	b[1] = n > first && h.neg;
	if (n == first)
		weight = 0;
	memcpy(b + 2, &weight, 4);
	memcpy(b + 6, h.digits + 2 * first, 2 * (n - first));
	*out = b;
	return 6 + 2 * (n - first);
}

/*
 * A variable-length key's compared bytes (*p, the length returned), from
 * the address of its varlena; detoasted into the scratch memory if it is
 * compressed or out of line.
 */
static int32
varlena_key(GrGroupTable *gt, const GrScanKey *key, uint64 addr, const uint8 **p)
{
	struct varlena *v = (struct varlena *) (uintptr_t) addr;
	int32		len;

	/* (an out-of-line value's pointer has a 1-byte header: VARATT_IS_SHORT is true of it) */
	if (VARATT_IS_EXTERNAL(v) || VARATT_IS_COMPRESSED(v))
	{
		MemoryContext old = MemoryContextSwitchTo(gt->scratch);

		gt->scratch_used = true;
		v = detoast_attr(v);
		MemoryContextSwitchTo(old);
	}
	if (key->kind == GR_KEY_NUMERIC)
		return numeric_key(gt, v, p);
	*p = (const uint8 *) VARDATA_ANY(v);
	len = VARSIZE_ANY_EXHDR(v);
	if (key->kind == GR_KEY_BPCHAR)
		while (len > 0 && (*p)[len - 1] == ' ')
			len--;
	return len;
}

/* The Datum of a by-value type's bits (zero-extended in its len bytes, as the decoder gives them). */
Datum
gr_bits_datum(uint64 bits, int len)
{
	switch (len)
	{
		case 1:
			return CharGetDatum((char) bits);
		case 2:
			return Int16GetDatum((int16) bits);
		case 4:
			return Int32GetDatum((int32) bits);
	}
	return (Datum) bits;
}

/*
 * Room for 'want' groups in all, the slots at most half full: each array
 * at least doubled where it grows, the slots laid out again.
 */
static void
make_room(GrGroupTable *gt, int64 want)
{
	if (want > gt->cap)
	{
		gt->cap = (int) Min(Max(want, 2 * (int64) gt->cap), (int64) PG_INT32_MAX);
		gt->hashes = repalloc_huge(gt->hashes, sizeof(uint64) * gt->cap);
		gt->kv = repalloc_huge(gt->kv, sizeof(GrGroupKeyValue) * gt->cap * Max(gt->nkeys, 1));
	}
	if ((uint64) want * 2 > (uint64) gt->mask + 1)
	{
		uint64		nslots = (uint64) gt->mask + 1;

		while (nslots < (uint64) want * 2)
			nslots *= 2;
		pfree(gt->slots);
		gt->slots = MemoryContextAllocHuge(gt->cxt, sizeof(uint64) * nslots);
		memset(gt->slots, 0, sizeof(uint64) * nslots);
		gt->mask = (uint32) (nslots - 1);
		for (int g = 0; g < gt->ngroups; g++)
		{
			uint32		i = (uint32) gt->hashes[g] & gt->mask;

			while (gt->slots[i] != 0)
				i = (i + 1) & gt->mask;
			gt->slots[i] = slot_of(g, gt->hashes[g]);
		}
	}
}

/* Make room for one more group. */
static inline void
grow(GrGroupTable *gt)
{
	if (gt->ngroups == gt->cap || ((uint64) gt->ngroups + 1) * 2 > (uint64) gt->mask + 1)
		make_room(gt, (int64) gt->ngroups + 1);
}

/*
 * Make room for the table's share (gr_group_set_share) of 'more' groups
 * beyond its own (collected groups on their way: one layout of the slots,
 * not one per doubling).
 */
void
gr_group_reserve(GrGroupTable *gt, int64 more)
{
	int64		share = (int64) ((double) more * (gt->hi - gt->lo) / GR_GROUP_HASH_SPACE);

	make_room(gt, Min((int64) gt->ngroups + share, (int64) PG_INT32_MAX / 2));
}

/*
 * Take from now on only the keys whose hash's high 32 bits lie in [lo, hi)
 * (lo == hi: none).  A pass of a final-mode scan keeps its share of the
 * groups so (bulk_scan.c); the bits are not those that choose a slot.
 */
void
gr_group_set_share(GrGroupTable *gt, uint64 lo, uint64 hi)
{
	gt->lo = lo;
	gt->hi = hi;
}

/* the hash a NULL key adds */
#define GR_GROUP_NULL_HASH UINT64CONST(0x5A5A5A5A5A5A5A5A)

/*
 * Ask for the slot where gr_group_of will look for a row's group, ahead of
 * it (a cache miss a row in a table of 10^6 groups): for fixed-width keys,
 * whose hash needs no reading of their bytes; else nothing.
 */
void
gr_group_prefetch(const GrGroupTable *gt, const uint64 *vals, const bool *nulls)
{
	uint64		h = 0;

	for (int k = 0; k < gt->nkeys; k++)
	{
		if (!gr_key_fixed(gt->keys[k].kind))
			return;
		h = gr_key_hash_mix(h, nulls[k] ? GR_GROUP_NULL_HASH :
							gr_key_norm_bits(gt->keys[k].kind, vals[k]));
	}
	__builtin_prefetch(&gt->slots[(uint32) h & gt->mask]);
}

/*
 * The group of a row whose key values are vals[k] (NULL if nulls[k]), made
 * if new (*added); -1 where the key's hash is outside the table's share
 * (gr_group_set_share).  Variable-length keys are read where they lie; a
 * new group copies them.
 */
int
gr_group_of(GrGroupTable *gt, const uint64 *vals, const bool *nulls, bool *added)
{
	GrGroupKeyValue probe[GR_DECODE_MAX_COLS];
	uint64		h = 0;
	uint32		i;
	int			g;

	if (gt->scratch_used)
		MemoryContextReset(gt->scratch);
	gt->scratch_used = false;
	for (int k = 0; k < gt->nkeys; k++)
	{
		const GrScanKey *key = &gt->keys[k];
		GrGroupKeyValue *pv = &probe[k];
		uint64		bits = vals[k];

		pv->isnull = nulls[k];
		pv->len = 0;
		pv->value = (Datum) bits;
		if (pv->isnull)
		{
			pv->norm = 0;
			h = gr_key_hash_mix(h, GR_GROUP_NULL_HASH);
		}
		else if (gr_key_fixed(key->kind))
		{
			pv->norm = gr_key_norm_bits(key->kind, bits);
			h = gr_key_hash_mix(h, pv->norm);
		}
		else
		{
			const uint8 *p;

			pv->len = varlena_key(gt, key, bits, &p);
			if (pv->len <= GR_GROUP_INLINE_BYTES)
			{
				/* a short key's bytes are its norm (zero-padded): no copy, no memcmp */
				pv->norm = 0;
				memcpy(&pv->norm, p, pv->len);
				h = gr_key_hash_mix(h, pv->norm + (uint64) pv->len);
			}
			else
			{
				pv->norm = (uint64) (uintptr_t) p;
				h = gr_key_hash_bytes(h, p, pv->len);
			}
		}
	}

	*added = false;
	if ((h >> 32) < gt->lo || (h >> 32) >= gt->hi)
		return -1;
	for (i = (uint32) h & gt->mask; gt->slots[i] != 0; i = (i + 1) & gt->mask)
	{
		const GrGroupKeyValue *kv;
		int			k;

		if ((gt->slots[i] ^ h) >> 32 != 0)
			continue;
		g = (int) (uint32) gt->slots[i] - 1;
		if (gt->hashes[g] != h)
			continue;
		kv = &gt->kv[(size_t) g * gt->nkeys];
		for (k = 0; k < gt->nkeys; k++)
		{
			if (kv[k].isnull != probe[k].isnull)
				break;
			if (probe[k].isnull)
				continue;
			if (kv[k].len != probe[k].len)
				break;
			if (probe[k].len <= GR_GROUP_INLINE_BYTES ? kv[k].norm != probe[k].norm :
				memcmp((const void *) (uintptr_t) kv[k].norm,
					   (const void *) (uintptr_t) probe[k].norm, probe[k].len) != 0)
				break;
		}
		if (k == gt->nkeys)
			return g;
	}

	/* a new group: copies of its keys, then its slot */
	grow(gt);
	g = gt->ngroups++;
	gt->hashes[g] = h;
	for (int k = 0; k < gt->nkeys; k++)
	{
		const GrScanKey *key = &gt->keys[k];
		GrGroupKeyValue *kv = &gt->kv[(size_t) g * gt->nkeys + k];

		*kv = probe[k];
		if (kv->isnull)
			kv->value = (Datum) 0;
		else if (gr_key_fixed(key->kind))
			kv->value = gr_bits_datum((uint64) probe[k].value, key->len);
		else
		{
			MemoryContext old = MemoryContextSwitchTo(gt->cxt);
			struct varlena *v = (struct varlena *) DatumGetPointer(probe[k].value);

			if (kv->len > GR_GROUP_INLINE_BYTES)
			{
				uint8	   *copy = palloc(kv->len);

				memcpy(copy, (const void *) (uintptr_t) probe[k].norm, kv->len);
				kv->norm = (uint64) (uintptr_t) copy;
			}
			if (VARATT_IS_EXTERNAL(v) || VARATT_IS_COMPRESSED(v))
				kv->value = PointerGetDatum(detoast_attr(v));
			else
				kv->value = datumCopy(PointerGetDatum(v), false, -1);
			MemoryContextSwitchTo(old);
		}
	}
	for (i = (uint32) h & gt->mask; gt->slots[i] != 0; i = (i + 1) & gt->mask)
		;
	gt->slots[i] = slot_of(g, h);
	*added = true;
	return g;
}

/* A group's value of key k, as its first row had it. */
Datum
gr_group_key(GrGroupTable *gt, int group, int key, bool *isnull)
{
	const GrGroupKeyValue *kv = &gt->kv[(size_t) group * gt->nkeys + key];

	*isnull = kv->isnull;
	return kv->value;
}
