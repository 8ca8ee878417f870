/*
 * join_hash.h
 *	  A hashed relation of the GpuReduce node's join (join_hash.c): the rows
 *	  its child plan produces, by their keys, with the values the node reads.
 *
 * Keys are integers or dates compared as int64s (PostgreSQL's equality of
 * the integer types and of dates); a row with a NULL key never matches, as
 * in an inner hash join.  Values are as the decoder gives a column's
 * (tuple_decode.h): fixed-width ones their bits in their width, a varlena
 * the address of its copy, whole (detoasted), in the table's memory.
 */
#ifndef GR_JOIN_HASH_H
#define GR_JOIN_HASH_H

#include "postgres.h"

#include "nodes/execnodes.h"

#include "scan_desc.h"

/* One distinct key of a hashed relation: its first column inline, its rows chained. */
typedef struct GrJoinBucket
{
	int64		key0;
	int64		first;			/* its first row, or -1: an empty bucket */
} GrJoinBucket;

typedef struct GrJoinHash
{
	int			nkeys;
	int			nvals;
	int64		nrows;
	uint64		mask;			/* buckets - 1 */
	GrJoinBucket *buckets;		/* open addressing, a bucket per distinct key */
	int64	   *next;			/* per row: the next row of its key, or -1 */
	int64	   *keys;			/* nrows x nkeys */
	uint64	   *vals;			/* nrows x nvals */
	bool	   *nulls;			/* nrows x nvals */
	Size		bytes;			/* the memory it took */
} GrJoinHash;

extern GrJoinHash *gr_join_hash_build(PlanState *child, const GrScanJoin *j,
									  MemoryContext cxt);
extern uint64 gr_join_hash_key(const int64 *key, int nkeys);

/*
 * The bucket of key (linear probing from its hash: a miss touches one cache
 * line where the key's first column is unique), or NULL.
 */
static inline const GrJoinBucket *
gr_join_hash_find(const GrJoinHash *h, const int64 *key)
{
	uint64		b = gr_join_hash_key(key, h->nkeys) & h->mask;

	for (;; b = (b + 1) & h->mask)
	{
		const GrJoinBucket *bk = &h->buckets[b];
		int			i = 1;

		if (bk->first < 0)
			return NULL;
		if (bk->key0 != key[0])
			continue;
		while (i < h->nkeys && h->keys[bk->first * h->nkeys + i] == key[i])
			i++;
		if (i == h->nkeys)
			return bk;
	}
}

/* The first row whose keys are key's, or -1. */
static inline int64
gr_join_hash_first(const GrJoinHash *h, const int64 *key)
{
	const GrJoinBucket *bk = h->nrows == 0 ? NULL : gr_join_hash_find(h, key);

	return bk == NULL ? -1 : bk->first;
}

/* The next row after row e with the same keys, or -1. */
static inline int64
gr_join_hash_next(const GrJoinHash *h, int64 e)
{
	return h->next[e];
}

#endif							/* GR_JOIN_HASH_H */
