/*
 * join_hash.c
 *	  A hashed relation of the GpuReduce node's join: built once per scan
 *	  from the rows of its child plan (PostgreSQL's own plan for the
 *	  relation, so its rows are those PostgreSQL's join would see), probed by
 *	  bulk_scan.c for each row the table keeps.
 *
 * Open addressing over a bucket per distinct key (its first column inline,
 * its first row), the rows of one key chained, over arrays of the rows' keys
 * and values, all in the relation's own memory context.
 */
#include "pg_compat.h"

#include "executor/executor.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "utils/memutils.h"

#include "group_key.h"
#include "join_hash.h"

/* The hash of a row's keys. */
uint64
gr_join_hash_key(const int64 *key, int nkeys)
{
	uint64		h = 0;

	for (int i = 0; i < nkeys; i++)
		h = gr_key_hash_mix(h, (uint64) key[i]);
	return h;
}

/* A key's Datum as an int64: an integer or a date of the given width. */
static int64
key_value(Datum d, int width)
{
	switch (width)
	{
		case 2:
			return DatumGetInt16(d);
		case 4:
			return DatumGetInt32(d);
	}
	return DatumGetInt64(d);
}

/* A value as the decoder gives it: bits in its width, or its varlena copied whole. */
static uint64
value_bits(Datum d, int len, MemoryContext cxt)
{
	struct varlena *v;
	void	   *copy;

	if (len > 0)
		return len == 8 ? (uint64) d : (uint64) d & ((UINT64_C(1) << (8 * len)) - 1);
	v = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(d));
	copy = MemoryContextAlloc(cxt, VARSIZE_ANY(v));
	memcpy(copy, v, VARSIZE_ANY(v));
	return (uint64) (uintptr_t) copy;
}

/* Room for n rows. */
static void
grow(GrJoinHash *h, int64 n)
{
	h->keys = repalloc_huge(h->keys, sizeof(int64) * n * Max(h->nkeys, 1));
	h->vals = repalloc_huge(h->vals, sizeof(uint64) * n * Max(h->nvals, 1));
	h->nulls = repalloc_huge(h->nulls, sizeof(bool) * n * Max(h->nvals, 1));
}

/*
 * Hash every row the child plan produces (its first j->nkeys columns the
 * keys, then j->nvals values), in cxt.
 */
GrJoinHash *
gr_join_hash_build(PlanState *child, const GrScanJoin *j, MemoryContext cxt)
{
	GrJoinHash *h = MemoryContextAllocZero(cxt, sizeof(GrJoinHash));
	int64		cap = 1024;
	int64		nb;

	h->nkeys = j->nkeys;
	h->nvals = j->nvals;
	h->keys = MemoryContextAlloc(cxt, sizeof(int64) * cap * Max(h->nkeys, 1));
	h->vals = MemoryContextAlloc(cxt, sizeof(uint64) * cap * Max(h->nvals, 1));
	h->nulls = MemoryContextAlloc(cxt, sizeof(bool) * cap * Max(h->nvals, 1));
	for (;;)
	{
		TupleTableSlot *slot;
		int64		e = h->nrows;
		bool		null_key = false;

		CHECK_FOR_INTERRUPTS();
		slot = ExecProcNode(child);
		if (TupIsNull(slot))
			break;
		slot_getallattrs(slot);
		/* a NULL key equals nothing */
		for (int k = 0; k < h->nkeys; k++)
			null_key |= slot->tts_isnull[k];
		if (null_key)
			continue;
		if (e == cap)
		{
			cap *= 2;
			grow(h, cap);
		}
		for (int k = 0; k < h->nkeys; k++)
			h->keys[e * h->nkeys + k] = key_value(slot->tts_values[k], j->keywidth[k]);
		for (int v = 0; v < h->nvals; v++)
		{
			int			a = h->nkeys + v;

			h->nulls[e * h->nvals + v] = slot->tts_isnull[a];
			h->vals[e * h->nvals + v] = slot->tts_isnull[a] ? 0 :
				value_bits(slot->tts_values[a], j->vallen[v], cxt);
		}
		h->nrows++;
	}
	nb = (int64) pg_nextpower2_64((uint64) Max(h->nrows * 2, 2));
	h->mask = nb - 1;
	h->buckets = MemoryContextAllocHuge(cxt, sizeof(GrJoinBucket) * nb);
	h->next = MemoryContextAllocHuge(cxt, sizeof(int64) * Max(h->nrows, 1));
	for (int64 b = 0; b < nb; b++)
		h->buckets[b].first = -1;
	/* in reverse, so that each key's chain lists its rows in their order */
	for (int64 e = h->nrows - 1; e >= 0; e--)
	{
		const int64 *key = &h->keys[e * h->nkeys];
		GrJoinBucket *bk = (GrJoinBucket *) gr_join_hash_find(h, key);

		if (bk == NULL)
		{
			uint64		b = gr_join_hash_key(key, h->nkeys) & h->mask;

			while (h->buckets[b].first >= 0)
				b = (b + 1) & h->mask;
			bk = &h->buckets[b];
			bk->key0 = key[0];
			bk->first = -1;
		}
		h->next[e] = bk->first;
		bk->first = e;
	}
	h->bytes = MemoryContextMemAllocated(cxt, true);
	return h;
}
