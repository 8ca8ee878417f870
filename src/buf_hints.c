/*
 * buf_hints.c
 *	  A large serial scan's pages found by where they sit in the buffer pool.
 *
 * Each block is pinned with ReadRecentBuffer on a hint instead of looked up
 * in the shared buffer mapping table: first a guess (the buffer after the
 * previous block's), and once guesses keep failing, the buffer one lockless
 * pass over the descriptors saw the block in.  A stale hint fails
 * ReadRecentBuffer's check and the block is read as before, so hints change
 * where the scan looks, never what it reads.  Why and what it saves:
 * doc/architecture.md, "Scan and page path" (Buffer hints).
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

/* failed guesses before the pass is made, and the share of blocks they must pass */
#define GR_GUESS_MISSES 64
#define GR_GUESS_MISS_RATE 32

struct GrBufHints
{
	MemoryContext cxt;
	GrRelFile	file;
	BlockNumber nblocks;
	uint64		found;			/* blocks pinned by their hint or guess */
	uint32		misses;			/* guesses that failed */
	Buffer		last;			/* while guessing: the previous block's buffer, or 0 */
	Buffer	   *hint;			/* once the pass is made: per block its buffer, or 0 */
};

/* The pass over the buffer descriptors: where each of the table's blocks sits. */
static void
make_pass(GrBufHints *h)
{
	h->hint = MemoryContextAllocExtended(h->cxt, sizeof(Buffer) * (Size) h->nblocks,
										 MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (int i = 0; i < NBuffers; i++)
	{
		/* read without the header's lock: a hint, checked when the block is pinned */
		BufferTag	tag = GetBufferDescriptor(i)->tag;

		if (gr_buftag_is(tag, h->file, MAIN_FORKNUM) && GR_BUFTAG_BLOCK(tag) < h->nblocks)
			h->hint[GR_BUFTAG_BLOCK(tag)] =
				gr_debug_buffer_hints == GR_BUF_HINTS_STALE ? (i + 1) % NBuffers + 1 : i + 1;
	}
}

/* The hints of REL's first NBLOCKS blocks in CXT, or NULL where they would not pay. */
GrBufHints *
gr_buf_hints_make(MemoryContext cxt, Relation rel, BlockNumber nblocks)
{
	GrBufHints *h;

	if (!gr_buffer_hints || RelationUsesLocalBuffers(rel) || nblocks == 0)
		return NULL;
	/* below 1/16 of the pool the pass costs more than it saves; past twice it the hints outgrow it */
	if (gr_debug_buffer_hints == GR_BUF_HINTS_AUTO &&
		(nblocks < (BlockNumber) NBuffers / 16 || nblocks > 2 * (BlockNumber) NBuffers))
		return NULL;
	h = MemoryContextAllocZero(cxt, sizeof(GrBufHints));
	h->cxt = cxt;
	h->file = GR_REL_FILE(rel);
	h->nblocks = nblocks;
	/* always: the pass first; auto, guess and stale: guesses first */
	if (gr_debug_buffer_hints == GR_BUF_HINTS_ALWAYS)
		make_pass(h);
	return h;
}

/*
 * The buffer to try for block BLK while guessing: the one after the previous
 * block's (stale: the previous block's own, which holds that block, pinned,
 * so every guess fails).  0 for the first block.
 */
static inline Buffer
guess_of(const GrBufHints *h, int ahead)
{
	if (h->last == 0)
		return 0;
	if (gr_debug_buffer_hints == GR_BUF_HINTS_STALE)
		return ahead == 0 ? h->last : 0;
	return (h->last + ahead) % NBuffers + 1;
}

/*
 * The buffer to try for block BLK + AHEAD, BLK being the next block the scan
 * reads: the guess while guessing, else the hint.  0 where there is none or
 * the block is past the table.
 */
static inline Buffer
buffer_to_try(const GrBufHints *h, BlockNumber blk, int ahead)
{
	if (blk + ahead >= h->nblocks)
		return 0;
	return h->hint == NULL ? guess_of(h, ahead) : h->hint[blk + ahead];
}

/* Whether BUF holds block BLK of H's relation: then it is pinned, and counted. */
static inline bool
pin_if_there(GrBufHints *h, Relation rel, BlockNumber blk, Buffer buf)
{
	if (buf != 0 && ReadRecentBuffer(h->file, MAIN_FORKNUM, blk, buf))
	{
		pgstat_count_buffer_read(rel);
		pgstat_count_buffer_hit(rel);
		h->found++;
		return true;
	}
	return false;
}

/*
 * Block BLK of REL's main fork, pinned: by the guess or the hint where that
 * buffer holds it, else as ReadBufferExtended reads it.  Counted in the
 * relation's statistics as a read and a hit, as ReadBufferExtended counts one.
 */
Buffer
gr_buf_hints_read(GrBufHints *h, Relation rel, BlockNumber blk, BufferAccessStrategy strategy)
{
	bool		guessing;
	Buffer		want,
				next,
				buf;

	if (h == NULL || blk >= h->nblocks)
		return ReadBufferExtended(rel, MAIN_FORKNUM, blk, RBM_NORMAL, strategy);
	guessing = h->hint == NULL;
	want = buffer_to_try(h, blk, 0);
	next = buffer_to_try(h, blk, GR_HINT_AHEAD);
	if (next != 0)
	{
		gr_prefetch(GetBufferDescriptor(next - 1));
		gr_prefetch(BufferGetBlock(next));
	}
	if (pin_if_there(h, rel, blk, want))
		buf = want;
	else
	{
		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blk, RBM_NORMAL, strategy);
		if (guessing && want != 0)
			h->misses++;
	}
	if (guessing)
	{
		h->last = buf;
		/* the table does not sit in order: the pass, for the blocks left */
		if (h->misses >= GR_GUESS_MISSES && (uint64) h->misses * GR_GUESS_MISS_RATE > blk)
			make_pass(h);
	}
	return buf;
}

/*
 * Where block BLK, the one after the block last read, probably lies in the
 * pool: its buffer's page, or NULL where no guess or hint names one.  The
 * page is not pinned and may hold anything by now: only for prefetching,
 * which a wrong guess costs some bandwidth, never a wrong answer.
 */
const void *
gr_buf_hints_peek(const GrBufHints *h, BlockNumber blk)
{
	Buffer		buf = h != NULL ? buffer_to_try(h, blk, 0) : 0;

	return buf != 0 ? BufferGetBlock(buf) : NULL;
}

/* The hints' memory given back (a scan of several tables makes hints for each). */
void
gr_buf_hints_free(GrBufHints *h)
{
	if (h == NULL)
		return;
	if (h->hint != NULL)
		pfree(h->hint);
	pfree(h);
}

/* How many blocks were pinned by their hint or guess. */
uint64
gr_buf_hints_found(const GrBufHints *h)
{
	return h != NULL ? h->found : 0;
}
