/*
 * join_hash.c
 *	  A hashed relation of the GpuReduce node's join: built once per scan
 *	  from the rows of a source, its child plan (PostgreSQL's own plan for
 *	  the relation, so its rows are those PostgreSQL's join would see) or
 *	  the node's own read of its pages (bulk_scan.c: the same rows, by the
 *	  query's snapshot and the relation's WHERE), probed by bulk_scan.c for
 *	  each row the table keeps.
 *
 * The rows are gathered into arrays of their keys and values, then laid out
 * as one image (join_hash.h): open addressing over a bucket per distinct key
 * (its first column inline, its first row), the rows of one key chained,
 * the keys, the values and the varlenas' copies, in memory the caller gives
 * (its own context, or a parallel query's shared memory).  In a parallel
 * query each participant may read a share of the rows (a partial child
 * plan's, or a whole plan's that it alone runs) into the shared memory,
 * and one lays the image out from all the shares.
 */
#include "pg_compat.h"

#include "executor/executor.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "utils/memutils.h"

#include "join_hash.h"

/* The rows as read, before the image is laid out. */
typedef struct RowsRead
{
	int64		nrows;
	int64		cap;
	int64	   *keys;
	uint64	   *vals;			/* a varlena: the address of its copy */
	bool	   *nulls;
	bool	   *keyless;		/* per row: a NULL key (kept for a marked anti join) */
	Size		varbytes;		/* the copies' room in the image */
	MemoryContext cxt;			/* all of it, and the copies: */
	char	   *copies;			/* the free end of the block they are made in */
	Size		copies_left;
} RowsRead;

/* the least block varlena copies are made in (RowsRead.copies) */
#define GR_JOIN_COPY_BLOCK (64 * 1024)

/* A key's Datum as an int64: an integer or a date of the given width. */
int64
gr_join_key_value(Datum d, int width)
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

/*
 * A value as the decoder gives it: bits in its width, or its varlena copied
 * whole.  One stored inline (a page's, in its short or long form) is copied
 * as it is, into blocks of r's copies (a palloc and detoast_attr per value
 * took half of TPC-H Q10's customer build: 150 000 rows of four texts); a
 * compressed or external one is detoasted.
 */
static uint64
value_bits(Datum d, int len, RowsRead *r)
{
	struct varlena *src = (struct varlena *) DatumGetPointer(d);
	struct varlena *v;
	Size		size;

	if (len > 0)
		return len == 8 ? (uint64) d : (uint64) d & ((UINT64_C(1) << (8 * len)) - 1);
	if (VARATT_IS_EXTERNAL(src) || VARATT_IS_COMPRESSED(src))
	{
		MemoryContext old = MemoryContextSwitchTo(r->cxt);

		v = pg_detoast_datum_copy(src);
		MemoryContextSwitchTo(old);
		size = VARSIZE_ANY(v);
	}
	else
	{
		size = VARSIZE_ANY(src);
		if (MAXALIGN(size) > r->copies_left)
		{
			r->copies_left = Max(MAXALIGN(size), GR_JOIN_COPY_BLOCK);
			r->copies = MemoryContextAllocHuge(r->cxt, r->copies_left);
		}
		v = (struct varlena *) r->copies;
		memcpy(v, src, size);
		r->copies += MAXALIGN(size);
		r->copies_left -= MAXALIGN(size);
	}
	r->varbytes += MAXALIGN(size);
	return (uint64) (uintptr_t) v;
}

/* Room for n rows. */
static void
grow(RowsRead *r, const GrScanJoin *j, int64 n)
{
	r->keys = repalloc_huge(r->keys, sizeof(int64) * n * Max(j->nkeys, 1));
	r->vals = repalloc_huge(r->vals, sizeof(uint64) * n * Max(j->nvals, 1));
	r->nulls = repalloc_huge(r->nulls, sizeof(bool) * n * Max(j->nvals, 1));
	r->keyless = repalloc_huge(r->keyless, sizeof(bool) * n);
	r->cap = n;
}

/* No rows yet, room for n. */
static void
start_rows(RowsRead *r, const GrScanJoin *j, int64 n)
{
	r->nrows = 0;
	r->cap = 0;
	r->varbytes = 0;
	r->copies = NULL;
	r->copies_left = 0;
	r->keys = MemoryContextAlloc(r->cxt, sizeof(int64));
	r->vals = MemoryContextAlloc(r->cxt, sizeof(uint64));
	r->nulls = MemoryContextAlloc(r->cxt, sizeof(bool));
	r->keyless = MemoryContextAlloc(r->cxt, sizeof(bool));
	grow(r, j, Max(n, 1));
}

/*
 * Append one row (its keys, then its values, as Datums) to r, but one with
 * a NULL key, which equals nothing (a marked anti join's is kept: it
 * matches no row of the table, so it is the join's).
 */
static void
append_row(RowsRead *r, const GrScanJoin *j, const Datum *values, const bool *isnull)
{
	int64		e = r->nrows;
	bool		null_key = false;

	for (int k = 0; k < j->nkeys; k++)
		null_key |= isnull[k];
	if (null_key && j->marked != JOIN_ANTI)
		return;
	if (e == r->cap)
		grow(r, j, r->cap * 2);
	r->keyless[e] = null_key;
	for (int k = 0; k < j->nkeys; k++)
		r->keys[e * j->nkeys + k] = null_key ? 0 : gr_join_key_value(values[k], j->keywidth[k]);
	for (int v = 0; v < j->nvals; v++)
	{
		int			a = j->nkeys + v;

		r->nulls[e * j->nvals + v] = isnull[a];
		r->vals[e * j->nvals + v] = isnull[a] ? 0 : value_bits(values[a], j->vallen[v], r);
	}
	r->nrows++;
}

/*
 * Every row the source gives, in r->cxt (the source runs in the caller's
 * context: a child plan's node may make its memory there).
 */
static void
read_rows(GrJoinNextRow next, void *arg, const GrScanJoin *j, RowsRead *r)
{
	const Datum *values;
	const bool *isnull;

	start_rows(r, j, 1024);
	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		if (!next(arg, &values, &isnull))
			break;
		append_row(r, j, values, isnull);
	}
}

/* A row source (GrJoinNextRow) of a child plan: its next row, keys first (arg: its PlanState). */
bool
gr_join_child_row(void *arg, const Datum **values, const bool **isnull)
{
	TupleTableSlot *slot = ExecProcNode((PlanState *) arg);

	if (TupIsNull(slot))
		return false;
	slot_getallattrs(slot);
	*values = slot->tts_values;
	*isnull = slot->tts_isnull;
	return true;
}

/* Fill h as a view of the image. */
static void
view_image(GrJoinHash *h, const GrJoinImage *image, const GrScanJoin *j)
{
	const char *base = (const char *) image;

	h->image = image;
	h->nkeys = image->nkeys;
	h->nvals = image->nvals;
	h->nrows = image->nrows;
	h->mask = image->mask;
	h->buckets = (const GrJoinBucket *) (base + image->buckets);
	h->next = (const int64 *) (base + image->next);
	h->keys = (const int64 *) (base + image->keys);
	h->vals = (const uint64 *) (base + image->vals);
	h->nulls = (const bool *) (base + image->nulls);
	h->varmask = gr_join_varmask(j);
}

/* a key bitmap takes at most this many bits per row of its image (8 bytes: a key's) */
#define GR_JOIN_KEY_BITS_PER_ROW 64

/*
 * The bitmap of the keys of h, an image of one key, in cxt; NULL where it
 * has no row, or its keys span more than GR_JOIN_KEY_BITS_PER_ROW values
 * per row (a row of a NULL key, whose key reads 0, widens it: a bitmap
 * clears no bit of a key a row has).
 */
GrJoinKeyBits *
gr_join_key_bits(const GrJoinHash *h, MemoryContext cxt)
{
	GrJoinKeyBits *kb;
	int64		lo;
	int64		hi;

	if (h->nkeys != 1 || h->nrows == 0)
		return NULL;
	lo = hi = h->keys[0];
	for (int64 e = 1; e < h->nrows; e++)
	{
		lo = Min(lo, h->keys[e]);
		hi = Max(hi, h->keys[e]);
	}
	/* (the difference as unsigned: exact, where as int64 it may overflow) */
	if ((uint64) hi - (uint64) lo >= (uint64) h->nrows * GR_JOIN_KEY_BITS_PER_ROW)
		return NULL;
	kb = MemoryContextAlloc(cxt, sizeof(GrJoinKeyBits));
	kb->lo = lo;
	kb->span = (uint64) hi - (uint64) lo + 1;
	kb->words = MemoryContextAllocHuge(cxt, sizeof(uint64) * ((kb->span + 63) / 64));
	memset(kb->words, 0, sizeof(uint64) * ((kb->span + 63) / 64));
	for (int64 e = 0; e < h->nrows; e++)
	{
		uint64		o = (uint64) h->keys[e] - (uint64) lo;

		kb->words[o >> 6] |= UINT64_C(1) << (o & 63);
	}
	return kb;
}

/* A process's view of an image. */
GrJoinHash *
gr_join_hash_attach(const GrJoinImage *image, const GrScanJoin *j, MemoryContext cxt)
{
	GrJoinHash *h = MemoryContextAllocZero(cxt, sizeof(GrJoinHash));

	view_image(h, image, j);
	return h;
}

/*
 * Store r's values at base + vals, each varlena copied from var on (its
 * value then its copy's offset from base).
 */
static void
copy_values(const RowsRead *r, const GrScanJoin *j, char *base, Size vals, Size var)
{
	for (int64 i = 0; i < r->nrows * j->nvals; i++)
	{
		uint64		v = r->vals[i];

		if (j->vallen[i % j->nvals] <= 0 && !r->nulls[i])
		{
			const struct varlena *src = (const struct varlena *) (uintptr_t) v;

			memcpy(base + var, src, VARSIZE_ANY(src));
			v = var;
			var += MAXALIGN(VARSIZE_ANY(src));
		}
		((uint64 *) (base + vals))[i] = v;
	}
}

/* rows ahead whose buckets lay_out prefetches */
#define GR_JOIN_LAY_AHEAD 16

/*
 * Lay the rows read out as an image in memory from alloc: the header, the
 * buckets, the chains, keys, values (a varlena's as its copy's offset from
 * the image's start), NULL flags and the copies.
 */
static GrJoinImage *
lay_out(const RowsRead *r, const GrScanJoin *j, GrJoinAlloc alloc, void *arg)
{
	int64		nb = (int64) pg_nextpower2_64((uint64) Max(r->nrows * 2, 2));
	int64		nv = r->nrows * j->nvals;
	GrJoinImage hdr = {0};
	GrJoinImage *im;
	GrJoinHash	h;
	char	   *base;
	GrJoinBucket *buckets;
	Size		var;

	hdr.nkeys = j->nkeys;
	hdr.nvals = j->nvals;
	hdr.nrows = r->nrows;
	hdr.mask = nb - 1;
	hdr.buckets = MAXALIGN(sizeof(GrJoinImage));
	hdr.next = hdr.buckets + sizeof(GrJoinBucket) * nb;
	hdr.keys = hdr.next + sizeof(int64) * r->nrows;
	hdr.vals = hdr.keys + sizeof(int64) * r->nrows * j->nkeys;
	hdr.nulls = hdr.vals + sizeof(uint64) * nv;
	var = MAXALIGN(hdr.nulls + sizeof(bool) * nv);
	hdr.bytes = var + r->varbytes;
	im = alloc(hdr.bytes, arg);
	base = (char *) im;
	*im = hdr;
	memcpy(base + hdr.keys, r->keys, sizeof(int64) * r->nrows * j->nkeys);
	memcpy(base + hdr.nulls, r->nulls, sizeof(bool) * nv);
	/* the values, each varlena copied after the rest */
	copy_values(r, j, base, hdr.vals, var);
	/* the buckets and chains, in reverse so that each key's chain lists its rows in order */
	view_image(&h, im, j);
	buckets = (GrJoinBucket *) (base + hdr.buckets);
	for (int64 b = 0; b < nb; b++)
		buckets[b].first = -1;
	for (int64 e = r->nrows - 1; e >= 0; e--)
	{
		const int64 *key = &h.keys[e * h.nkeys];
		GrJoinBucket *bk;

		/* a bucket is a cache miss: ask for a later row's ahead of its turn */
		if (e >= GR_JOIN_LAY_AHEAD)
			__builtin_prefetch(&buckets[gr_join_key_hash(key - GR_JOIN_LAY_AHEAD * h.nkeys, h.nkeys) &
										h.mask], 1);

		/* a NULL key's row is in no bucket: no probe finds it */
		if (r->keyless[e])
		{
			((int64 *) (base + hdr.next))[e] = -1;
			continue;
		}
		bk = (GrJoinBucket *) gr_join_image_find((const uint8 *) base, key);
		if (bk == NULL)
		{
			uint64		b = gr_join_key_hash(key, h.nkeys) & h.mask;

			im->nkeyed++;
			while (buckets[b].first >= 0)
				b = (b + 1) & h.mask;
			bk = &buckets[b];
			bk->key0 = key[0];
			bk->first = -1;
		}
		((int64 *) (base + hdr.next))[e] = bk->first;
		bk->first = e;
	}
	return im;
}

/* An image's memory in the context arg. */
static void *
context_alloc(Size size, void *arg)
{
	return MemoryContextAllocHuge((MemoryContext) arg, size);
}

/*
 * Hash every row the source gives (its first j->nkeys columns the keys,
 * then j->nvals values) into an image in cxt, and view it there.
 */
GrJoinHash *
gr_join_hash_build(GrJoinNextRow next, void *arg, const GrScanJoin *j, MemoryContext cxt)
{
	RowsRead	r;
	GrJoinImage *im;

	r.cxt = AllocSetContextCreate(cxt, "gpu_reduce join rows read", ALLOCSET_DEFAULT_SIZES);
	read_rows(next, arg, j, &r);
	im = lay_out(&r, j, context_alloc, cxt);
	MemoryContextDelete(r.cxt);
	return gr_join_hash_attach(im, j, cxt);
}

/*
 * One participant's rows in a parallel query's shared memory: this header,
 * then at their offsets the keys, the values (a varlena's as its copy's
 * offset from the header), the NULL flags, the keyless flags and the
 * copies; the shares of a relation are a list.
 */
typedef struct RowsShared
{
	dsa_pointer next;
	int64		nrows;
	Size		varbytes;
	Size		keys;
	Size		vals;
	Size		nulls;
	Size		keyless;
	Size		var;
} RowsShared;

/* Copy the rows read into a share in area's memory. */
static dsa_pointer
share_rows(const RowsRead *r, const GrScanJoin *j, dsa_area *area)
{
	int64		nv = r->nrows * j->nvals;
	RowsShared	hdr = {InvalidDsaPointer, r->nrows, r->varbytes};
	dsa_pointer dp;
	char	   *base;

	hdr.keys = MAXALIGN(sizeof(RowsShared));
	hdr.vals = hdr.keys + sizeof(int64) * r->nrows * j->nkeys;
	hdr.nulls = hdr.vals + sizeof(uint64) * nv;
	hdr.keyless = hdr.nulls + sizeof(bool) * nv;
	hdr.var = MAXALIGN(hdr.keyless + sizeof(bool) * r->nrows);
	dp = dsa_allocate_extended(area, hdr.var + r->varbytes, DSA_ALLOC_HUGE);
	base = dsa_get_address(area, dp);
	*(RowsShared *) base = hdr;
	memcpy(base + hdr.keys, r->keys, sizeof(int64) * r->nrows * j->nkeys);
	memcpy(base + hdr.nulls, r->nulls, sizeof(bool) * nv);
	memcpy(base + hdr.keyless, r->keyless, sizeof(bool) * r->nrows);
	/* the values, each varlena copied (r's are this process's addresses) */
	copy_values(r, j, base, hdr.vals, hdr.var);
	return dp;
}

/*
 * Read this participant's share of the rows of a parallel query's hashed
 * relation (every row its source gives: its copy of the child plan, or its
 * share of the relation's pages) into area's memory, and add it to the
 * relation's list *shares under mutex.
 */
void
gr_join_hash_share(GrJoinNextRow next, void *arg, const GrScanJoin *j, MemoryContext cxt,
				   dsa_area *area, slock_t *mutex, dsa_pointer *shares)
{
	RowsRead	r;
	dsa_pointer dp;

	r.cxt = AllocSetContextCreate(cxt, "gpu_reduce join rows read", ALLOCSET_DEFAULT_SIZES);
	read_rows(next, arg, j, &r);
	dp = r.nrows > 0 ? share_rows(&r, j, area) : InvalidDsaPointer;
	MemoryContextDelete(r.cxt);
	if (!DsaPointerIsValid(dp))
		return;
	SpinLockAcquire(mutex);
	((RowsShared *) dsa_get_address(area, dp))->next = *shares;
	*shares = dp;
	SpinLockRelease(mutex);
}

/* Every share's rows as rows read, a varlena's value its copy's address in the share. */
static void
gather_shares(dsa_area *area, dsa_pointer shares, const GrScanJoin *j, RowsRead *r)
{
	int64		n = 0;

	for (dsa_pointer dp = shares; DsaPointerIsValid(dp);)
	{
		const RowsShared *sh = dsa_get_address(area, dp);

		n += sh->nrows;
		dp = sh->next;
	}
	start_rows(r, j, n);
	for (dsa_pointer dp = shares; DsaPointerIsValid(dp);)
	{
		const char *base = dsa_get_address(area, dp);
		const RowsShared *sh = (const RowsShared *) base;
		int64		e = r->nrows;
		int64		nv = sh->nrows * j->nvals;

		memcpy(&r->keys[e * j->nkeys], base + sh->keys, sizeof(int64) * sh->nrows * j->nkeys);
		memcpy(&r->nulls[e * j->nvals], base + sh->nulls, sizeof(bool) * nv);
		memcpy(&r->keyless[e], base + sh->keyless, sizeof(bool) * sh->nrows);
		for (int64 i = 0; i < nv; i++)
		{
			uint64		v = ((const uint64 *) (base + sh->vals))[i];

			if (j->vallen[i % j->nvals] <= 0 && !r->nulls[e * j->nvals + i])
				v = (uint64) (uintptr_t) (base + v);
			r->vals[e * j->nvals + i] = v;
		}
		r->nrows += sh->nrows;
		r->varbytes += sh->varbytes;
		dp = sh->next;
	}
}

/*
 * Lay a parallel query's hashed relation out as one image from all the
 * participants' shares (gr_join_hash_share) in memory from alloc, free the
 * shares, and view the image in cxt.
 */
GrJoinHash *
gr_join_hash_build_shares(dsa_area *area, dsa_pointer *shares, const GrScanJoin *j,
						  MemoryContext cxt, GrJoinAlloc alloc, void *arg)
{
	RowsRead	r;
	GrJoinImage *im;

	r.cxt = AllocSetContextCreate(cxt, "gpu_reduce join rows read", ALLOCSET_DEFAULT_SIZES);
	gather_shares(area, *shares, j, &r);
	im = lay_out(&r, j, alloc, arg);
	MemoryContextDelete(r.cxt);
	gr_join_hash_free_shares(area, shares);
	return gr_join_hash_attach(im, j, cxt);
}

/* Free a relation's shares (a build cut short leaves them). */
void
gr_join_hash_free_shares(dsa_area *area, dsa_pointer *shares)
{
	while (DsaPointerIsValid(*shares))
	{
		dsa_pointer next = ((RowsShared *) dsa_get_address(area, *shares))->next;

		dsa_free(area, *shares);
		*shares = next;
	}
}
