/*
 * buf_hints.c
 *	  A large serial scan's pages found by where they sit in the buffer pool.
 *
 * Reading a page through ReadBufferExtended looks its tag up in the shared
 * buffer mapping table: a hash of the tag, a partition lock taken and
 * released, a probe that misses the CPU's caches.  For a table in
 * shared_buffers that lookup is most of the page path's cost per page
 * (bench/floor's gr_pin_walk measures it).  One pass over the buffer
 * descriptors, reading each tag without its lock, notes where each of the
 * table's blocks sat a moment ago; the scan then pins each block with
 * ReadRecentBuffer, which checks the tag under the buffer header's lock and
 * pins only a valid buffer that still holds that block.  A hint gone stale
 * (the buffer evicted or reused since) just fails that check, and the block
 * is read as before.  So the hints change where the scan looks, never what
 * it reads.
 *
 * The pass costs a few nanoseconds a buffer and saves some hundreds a page:
 * it is made for a table of at least 1/16 of shared_buffers, and at most
 * twice it (the hints take four bytes a block), when gpu_reduce.buffer_hints
 * is on (gpu_reduce.debug_buffer_hints lets tests make them for any table,
 * or make them all wrong).
 */
#include "postgres.h"

#include "pg_compat.h"

#include "pgstat.h"
#include "storage/buf_internals.h"
#include "utils/rel.h"

#include "buf_hints.h"
#include "state.h"

/* how far ahead the descriptor and the page of a block are fetched into the cache */
#define GR_HINT_AHEAD 16
#if defined(__GNUC__) || defined(__clang__)
#define gr_prefetch(p) __builtin_prefetch(p)
#else
#define gr_prefetch(p) ((void) 0)
#endif

struct GrBufHints
{
	GrRelFile	file;
	BlockNumber nblocks;
	uint64		found;			/* blocks pinned by their hint */
	Buffer		hint[FLEXIBLE_ARRAY_MEMBER];	/* per block: its buffer, or 0 */
};

/* The hints of REL's first NBLOCKS blocks in CXT, or NULL where they would not pay. */
GrBufHints *
gr_buf_hints_make(MemoryContext cxt, Relation rel, BlockNumber nblocks)
{
	GrRelFile	file = GR_REL_FILE(rel);
	GrBufHints *h;

	if (!gr_buffer_hints || RelationUsesLocalBuffers(rel) || nblocks == 0)
		return NULL;
	if (gr_debug_buffer_hints == GR_BUF_HINTS_AUTO &&
		(nblocks < (BlockNumber) NBuffers / 16 || nblocks > 2 * (BlockNumber) NBuffers))
		return NULL;
	h = MemoryContextAllocExtended(cxt, offsetof(GrBufHints, hint) + sizeof(Buffer) * (Size) nblocks,
								   MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	h->file = file;
	h->nblocks = nblocks;
	for (int i = 0; i < NBuffers; i++)
	{
		/* read without the header's lock: a hint, checked when the block is pinned */
		BufferTag	tag = GetBufferDescriptor(i)->tag;

		if (gr_buftag_is(tag, file, MAIN_FORKNUM) && GR_BUFTAG_BLOCK(tag) < nblocks)
			h->hint[GR_BUFTAG_BLOCK(tag)] =
				gr_debug_buffer_hints == GR_BUF_HINTS_STALE ? (i + 1) % NBuffers + 1 : i + 1;
	}
	return h;
}

/*
 * Block BLK of REL's main fork, pinned: by its hint where the buffer still
 * holds it, else as ReadBufferExtended reads it.  Counted in the relation's
 * statistics as a read and a hit, as ReadBufferExtended counts one.
 */
Buffer
gr_buf_hints_read(GrBufHints *h, Relation rel, BlockNumber blk, BufferAccessStrategy strategy)
{
	if (h != NULL && blk < h->nblocks)
	{
		Buffer		next = blk + GR_HINT_AHEAD < h->nblocks ? h->hint[blk + GR_HINT_AHEAD] : 0;
		Buffer		buf = h->hint[blk];

		if (next != 0)
		{
			gr_prefetch(GetBufferDescriptor(next - 1));
			gr_prefetch(BufferGetBlock(next));
		}
		if (buf != 0 && ReadRecentBuffer(h->file, MAIN_FORKNUM, blk, buf))
		{
			pgstat_count_buffer_read(rel);
			pgstat_count_buffer_hit(rel);
			h->found++;
			return buf;
		}
	}
	return ReadBufferExtended(rel, MAIN_FORKNUM, blk, RBM_NORMAL, strategy);
}

/* How many blocks were pinned by their hint. */
uint64
gr_buf_hints_found(const GrBufHints *h)
{
	return h != NULL ? h->found : 0;
}
