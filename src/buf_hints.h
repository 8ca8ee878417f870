/*
 * buf_hints.h
 *	  A large serial scan's pages found by where they sit in the buffer pool
 *	  (buf_hints.c) instead of through the buffer mapping table.
 */
#ifndef GR_BUF_HINTS_H
#define GR_BUF_HINTS_H

#include "postgres.h"

#include "storage/block.h"
#include "storage/buf.h"
#include "storage/bufmgr.h"
#include "utils/relcache.h"

typedef struct GrBufHints GrBufHints;

extern GrBufHints *gr_buf_hints_make(MemoryContext cxt, Relation rel, BlockNumber nblocks);
extern Buffer gr_buf_hints_read(GrBufHints *h, Relation rel, BlockNumber blk,
								BufferAccessStrategy strategy);
extern const void *gr_buf_hints_peek(const GrBufHints *h, BlockNumber blk);
extern uint64 gr_buf_hints_found(const GrBufHints *h);
extern void gr_buf_hints_free(GrBufHints *h);

#endif							/* GR_BUF_HINTS_H */
