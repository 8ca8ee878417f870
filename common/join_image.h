/*
 * join_image.h
 *	  The image of a hashed relation (src/join_hash.c builds it): one block of
 *	  memory with no pointers in it, read where it lies by the backend, by a
 *	  parallel plan's participants (in dynamic shared memory) and by a GPU
 *	  (a copy the service keeps per device), and the probe of a page job's
 *	  row against the job's images (page_job.h), run by the kernel and by
 *	  the host's run of a job alike.
 *
 * Plain C99, no PostgreSQL or CUDA headers.  See doc/architecture.md,
 * "Joins".
 *
 *	 GrJoinImage | buckets | next (per row) | keys | values | NULL flags |
 *	 varlena copies
 *
 * Keys are integers or dates compared as int64s.  A bucket holds one
 * distinct key (its first column inline) and its first row; the rows of one
 * key are chained by next, in the order the relation produced them.  A
 * value is its bits in its width, or a varlena's offset from the image's
 * start (its reader adds the image's address).
 */
#ifndef GR_JOIN_IMAGE_H
#define GR_JOIN_IMAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "gr_hostdev.h"
#include "group_key.h"

/* One distinct key of a hashed relation: its first column inline, its rows chained. */
typedef struct GrJoinBucket
{
	int64_t		key0;
	int64_t		first;			/* its first row, or -1: an empty bucket */
} GrJoinBucket;

/* The image's header: its parts, as offsets from its start. */
typedef struct GrJoinImage
{
	int32_t		nkeys;
	int32_t		nvals;
	int64_t		nrows;
	int64_t		nkeyed;			/* distinct keys: nrows where every key is unique */
	uint64_t	mask;			/* buckets - 1 */
	uint64_t	bytes;			/* the whole image */
	uint64_t	buckets;		/* open addressing, a bucket per distinct key */
	uint64_t	next;			/* per row: the next row of its key, or -1 */
	uint64_t	keys;			/* nrows x nkeys int64s */
	uint64_t	vals;			/* nrows x nvals uint64s */
	uint64_t	nulls;			/* nrows x nvals bools */
} GrJoinImage;

/* The hash of a row's keys. */
GR_HOSTDEV uint64_t
gr_join_key_hash(const int64_t *key, int nkeys)
{
	uint64_t	h = 0;

	for (int i = 0; i < nkeys; i++)
		h = gr_key_hash_mix(h, (uint64_t) key[i]);
	return h;
}

/*
 * The bucket of key in the image at base (linear probing from its hash: a
 * miss touches one cache line where the key's first column is unique), or
 * NULL.
 */
GR_HOSTDEV const GrJoinBucket *
gr_join_image_find(const uint8_t *base, const int64_t *key)
{
	const GrJoinImage *im = (const GrJoinImage *) base;
	const GrJoinBucket *buckets = (const GrJoinBucket *) (base + im->buckets);
	const int64_t *keys = (const int64_t *) (base + im->keys);
	int			nkeys = im->nkeys;
	uint64_t	b = gr_join_key_hash(key, nkeys) & im->mask;

	for (;; b = (b + 1) & im->mask)
	{
		const GrJoinBucket *bk = &buckets[b];
		int			i = 1;

		if (bk->first < 0)
			return NULL;
		if (bk->key0 != key[0])
			continue;
		while (i < nkeys && keys[bk->first * nkeys + i] == key[i])
			i++;
		if (i == nkeys)
			return bk;
	}
}

/* The first row whose keys are key's, or -1. */
GR_HOSTDEV int64_t
gr_join_image_first(const uint8_t *base, const int64_t *key)
{
	const GrJoinBucket *bk;

	if (((const GrJoinImage *) base)->nrows == 0)
		return -1;
	bk = gr_join_image_find(base, key);
	return bk == NULL ? -1 : bk->first;
}

/* The next row after row e with the same keys, or -1. */
GR_HOSTDEV int64_t
gr_join_image_next(const uint8_t *base, int64_t e)
{
	return ((const int64_t *) (base + ((const GrJoinImage *) base)->next))[e];
}

/*
 * A marked join's probe: mark row e and every later row of its keys, a
 * byte each set to 1 (on a GPU many threads may store the same byte: the
 * same value, in global memory), read first so that a marked row's line is
 * not written again.
 */
GR_HOSTDEV void
gr_join_image_mark(const uint8_t *base, int64_t e, uint8_t *marks)
{
	for (; e >= 0; e = gr_join_image_next(base, e))
		if (marks[e] == 0)
			marks[e] = 1;
}

/* Row e's values and NULL flags into v and n, a varlena (bit i of varmask: value i) as its address. */
GR_HOSTDEV void
gr_join_image_values(const uint8_t *base, int64_t e, uint32_t varmask, uint64_t *v, bool *n)
{
	const GrJoinImage *im = (const GrJoinImage *) base;
	const uint64_t *vals = (const uint64_t *) (base + im->vals) + e * im->nvals;
	const bool *nulls = (const bool *) (base + im->nulls) + e * im->nvals;

	for (int i = 0; i < im->nvals; i++)
	{
		n[i] = nulls[i];
		v[i] = vals[i];
		if (((varmask >> i) & 1) && !n[i])
			v[i] += (uint64_t) (uintptr_t) base;
	}
}

#endif							/* GR_JOIN_IMAGE_H */
