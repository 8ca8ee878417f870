/*
 * join_hash.h
 *	  A hashed relation of the GpuReduce node's join (join_hash.c): the rows
 *	  its child plan produces, by their keys, with the values the node reads.
 *
 * Keys are integers or dates compared as int64s (PostgreSQL's equality of
 * the integer types and of dates); a row with a NULL key never matches, as
 * in an inner hash join.  Values are as the decoder gives a column's
 * (tuple_decode.h): fixed-width ones their bits in their width, a varlena
 * the offset of its copy, whole (detoasted), from the image's start (the
 * prober adds the image's address: gr_join_hash_values).
 *
 * A relation is one image, a block of memory with no pointers in it, so
 * that one process builds it and every participant of a parallel plan reads
 * it where it lies (in the query's dynamic shared memory), each through a
 * GrJoinHash of its own.
 */
#ifndef GR_JOIN_HASH_H
#define GR_JOIN_HASH_H

#include "postgres.h"

#include "nodes/execnodes.h"

#include "group_key.h"
#include "scan_desc.h"
#include "tuple_decode.h"

/* One distinct key of a hashed relation: its first column inline, its rows chained. */
typedef struct GrJoinBucket
{
	int64		key0;
	int64		first;			/* its first row, or -1: an empty bucket */
} GrJoinBucket;

/* The image's header: its parts, as offsets from its start. */
typedef struct GrJoinImage
{
	int32		nkeys;
	int32		nvals;
	int64		nrows;
	uint64		mask;			/* buckets - 1 */
	Size		bytes;			/* the whole image */
	Size		buckets;		/* open addressing, a bucket per distinct key */
	Size		next;			/* per row: the next row of its key, or -1 */
	Size		keys;			/* nrows x nkeys int64s */
	Size		vals;			/* nrows x nvals uint64s */
	Size		nulls;			/* nrows x nvals bools */
} GrJoinImage;

/* A process's view of an image. */
typedef struct GrJoinHash
{
	const GrJoinImage *image;
	int			nkeys;
	int			nvals;
	int64		nrows;
	uint64		mask;
	const GrJoinBucket *buckets;
	const int64 *next;
	const int64 *keys;
	const uint64 *vals;
	const bool *nulls;
	int			nvar;			/* the values that are varlenas */
	int16		var[GR_DECODE_MAX_COLS];
} GrJoinHash;

/* Memory for an image of 'size' bytes (arg: the caller's). */
typedef void *(*GrJoinAlloc) (Size size, void *arg);

extern GrJoinHash *gr_join_hash_build(PlanState *child, const GrScanJoin *j,
									  MemoryContext cxt, GrJoinAlloc alloc, void *arg);
extern GrJoinHash *gr_join_hash_attach(const GrJoinImage *image, const GrScanJoin *j,
									   MemoryContext cxt);

/* The hash of a row's keys. */
static inline uint64
gr_join_hash_key(const int64 *key, int nkeys)
{
	uint64		h = 0;

	for (int i = 0; i < nkeys; i++)
		h = gr_key_hash_mix(h, (uint64) key[i]);
	return h;
}

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

/* Row e's values and NULL flags into v and n, a varlena as its address. */
static inline void
gr_join_hash_values(const GrJoinHash *h, int64 e, uint64 *v, bool *n)
{
	memcpy(v, &h->vals[e * h->nvals], sizeof(uint64) * h->nvals);
	memcpy(n, &h->nulls[e * h->nvals], sizeof(bool) * h->nvals);
	for (int i = 0; i < h->nvar; i++)
		if (!n[h->var[i]])
			v[h->var[i]] += (uint64) (uintptr_t) h->image;
}

#endif							/* GR_JOIN_HASH_H */
