/*
 * join_hash.h
 *	  A hashed relation of the GpuReduce node's join (join_hash.c): the rows
 *	  its child plan produces, or the node reads from its pages, by their
 *	  keys, with the values the node reads.
 *
 * Keys are integers or dates compared as int64s (PostgreSQL's equality of
 * the integer types and of dates); a row with a NULL key never matches, as
 * in an inner hash join: it is left out, but for a marked anti join, whose
 * rows the scan's end walks (it is kept in no bucket).  Values are as the decoder gives a column's
 * (tuple_decode.h): fixed-width ones their bits in their width, a varlena
 * the offset of its copy, whole (detoasted), from the image's start (the
 * prober adds the image's address: gr_join_hash_values).
 *
 * A relation is one image, a block of memory with no pointers in it, so
 * that one process lays it out (in a parallel plan from every
 * participant's share of the rows: gr_join_hash_share) and every
 * participant reads it where it lies (in the query's dynamic shared
 * memory), each through a GrJoinHash of its own.
 */
#ifndef GR_JOIN_HASH_H
#define GR_JOIN_HASH_H

#include "postgres.h"

#include "nodes/execnodes.h"
#include "storage/spin.h"
#include "utils/dsa.h"

#include "group_key.h"
#include "join_image.h"
#include "scan_desc.h"
#include "tuple_decode.h"

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
	uint32		varmask;		/* the values that are varlenas (bit i: value i) */
} GrJoinHash;

/*
 * A bitmap of a one-key image's keys, a bit per value from its least key
 * to its greatest (gr_join_key_bits): where a key's bit is clear no row
 * has it, a test of one word that is mostly in the cache where a probe of
 * the buckets is mostly a miss.
 */
typedef struct GrJoinKeyBits
{
	int64		lo;				/* the least key */
	uint64		span;			/* the greatest less the least, plus one */
	uint64	   *words;
} GrJoinKeyBits;

/* Memory for an image of 'size' bytes (arg: the caller's). */
typedef void *(*GrJoinAlloc) (Size size, void *arg);

/*
 * A source of a relation's rows: the next one's keys, then its values, as
 * Datums (valid until the next call), or false after the last.
 */
typedef bool (*GrJoinNextRow) (void *arg, const Datum **values, const bool **isnull);

extern int64 gr_join_key_value(Datum d, int width);
extern bool gr_join_child_row(void *arg, const Datum **values, const bool **isnull);
extern GrJoinHash *gr_join_hash_build(GrJoinNextRow next, void *arg, const GrScanJoin *j,
									  MemoryContext cxt);
extern void gr_join_hash_share(GrJoinNextRow next, void *arg, const GrScanJoin *j,
							   MemoryContext cxt, dsa_area *area, slock_t *mutex,
							   dsa_pointer *shares);
extern GrJoinHash *gr_join_hash_build_shares(dsa_area *area, dsa_pointer *shares,
											 const GrScanJoin *j, MemoryContext cxt,
											 GrJoinAlloc alloc, void *arg);
extern void gr_join_hash_free_shares(dsa_area *area, dsa_pointer *shares);
extern GrJoinKeyBits *gr_join_key_bits(const GrJoinHash *h, MemoryContext cxt);
extern GrJoinHash *gr_join_hash_attach(const GrJoinImage *image, const GrScanJoin *j,
									   MemoryContext cxt);

/* A relation's values that are varlenas: bit i, value i. */
static inline uint32
gr_join_varmask(const GrScanJoin *j)
{
	uint32		m = 0;

	for (int v = 0; v < j->nvals; v++)
		if (j->vallen[v] <= 0)
			m |= UINT32_C(1) << v;
	return m;
}

/* The first row whose keys are key's, or -1. */
static inline int64
gr_join_hash_first(const GrJoinHash *h, const int64 *key)
{
	return gr_join_image_first((const uint8 *) h->image, key);
}

/* Whether a row of kb's image may have the key: false where none has. */
static inline bool
gr_join_key_bits_may(const GrJoinKeyBits *kb, int64 key)
{
	uint64		o = (uint64) key - (uint64) kb->lo;

	return o < kb->span && ((kb->words[o >> 6] >> (o & 63)) & 1) != 0;
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
	gr_join_image_values((const uint8 *) h->image, e, h->varmask, v, n);
}

#endif							/* GR_JOIN_HASH_H */
