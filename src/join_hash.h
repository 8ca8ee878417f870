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

typedef struct GrJoinHash
{
	int			nkeys;
	int			nvals;
	int64		nrows;
	uint64		mask;			/* buckets - 1 */
	int64	   *buckets;		/* each bucket's first row, or -1 */
	int64	   *next;			/* per row: the next in its bucket, or -1 */
	int64	   *keys;			/* nrows x nkeys */
	uint64	   *vals;			/* nrows x nvals */
	bool	   *nulls;			/* nrows x nvals */
	Size		bytes;			/* the memory it took */
} GrJoinHash;

extern GrJoinHash *gr_join_hash_build(PlanState *child, const GrScanJoin *j,
									  MemoryContext cxt);

/* The first row at or after row e (-1: none) in key's chain whose keys are key's. */
static inline int64
gr_join_hash_match(const GrJoinHash *h, int64 e, const int64 *key)
{
	for (; e >= 0; e = h->next[e])
	{
		const int64 *k = &h->keys[e * h->nkeys];
		int			i = 0;

		while (i < h->nkeys && k[i] == key[i])
			i++;
		if (i == h->nkeys)
			return e;
	}
	return -1;
}

extern uint64 gr_join_hash_key(const int64 *key, int nkeys);

/* The first row whose keys are key's, or -1. */
static inline int64
gr_join_hash_first(const GrJoinHash *h, const int64 *key)
{
	return h->nrows == 0 ? -1 :
		gr_join_hash_match(h, h->buckets[gr_join_hash_key(key, h->nkeys) & h->mask], key);
}

/* The next row after row e whose keys are key's, or -1. */
static inline int64
gr_join_hash_next(const GrJoinHash *h, int64 e, const int64 *key)
{
	return gr_join_hash_match(h, h->next[e], key);
}

#endif							/* GR_JOIN_HASH_H */
