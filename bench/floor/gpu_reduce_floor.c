/*
 * gpu_reduce_floor.c
 *	  The page-walk floor of issue 10: the least work that sums one column of
 *	  a heap table inside PostgreSQL, to measure gpu_reduce's bulk scan
 *	  against on the same table in the same run.
 *
 * gr_floor_sum walks the table's blocks through the buffer manager with the
 * bulk-read ring, as a sequential scan does: pin and share-lock each page,
 * decide visibility a page at a time (an all-visible page, outside a hot
 * standby, needs no per-tuple check; on any other page each tuple is checked
 * against the active snapshot), read the column from each visible tuple
 * (heap_getattr: the cached fixed offset when the tuple has no NULLs), add it
 * up, unlock and release.  No executor, no slots, no aggregate states, no
 * predicate locks: it is a probe, not a substitute for the scan.
 * int2/int4/int8 are summed exactly in an int128; float8 in a double, only
 * so that every value is touched (its answer is not the exact sum).
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(gr_floor_sum);

/* The decimal text of an int128, for numeric_in. */
static char *
int128_to_cstring(int128 v)
{
	char		buf[48];
	char	   *p = buf + sizeof(buf) - 1;
	bool		neg = v < 0;

	*p = '\0';
	do
	{
		int			digit = (int) (v % 10);

		*--p = '0' + (neg ? -digit : digit);
		v /= 10;
	} while (v != 0);
	if (neg)
		*--p = '-';
	return pstrdup(p);
}

/* gr_floor_sum(rel, col, first_block, nblocks): the column's sum over the blocks, as numeric. */
Datum
gr_floor_sum(PG_FUNCTION_ARGS)
{
	Oid			relid;
	Relation	rel;
	AttrNumber	attnum;
	Oid			atttype;
	TupleDesc	tupdesc;
	Snapshot	snapshot;
	BufferAccessStrategy strategy;
	BlockNumber relblocks;
	int64		first;
	int64		last;
	int128		isum = 0;
	double		fsum = 0.0;
	int64		nvalues = 0;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_NULL();
	relid = PG_GETARG_OID(0);
	rel = relation_open(relid, AccessShareLock);
	if (rel->rd_rel->relkind != RELKIND_RELATION && rel->rd_rel->relkind != RELKIND_MATVIEW)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a table", RelationGetRelationName(rel))));
	if (rel->rd_rel->relam != HEAP_TABLE_AM_OID)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("\"%s\" is not a heap table", RelationGetRelationName(rel))));
	attnum = get_attnum(relid, NameStr(*PG_GETARG_NAME(1)));
	if (attnum <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("no column \"%s\" in \"%s\"", NameStr(*PG_GETARG_NAME(1)),
						RelationGetRelationName(rel))));
	atttype = get_atttype(relid, attnum);
	if (atttype != INT2OID && atttype != INT4OID && atttype != INT8OID && atttype != FLOAT8OID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("gr_floor_sum reads smallint, integer, bigint or double precision columns")));

	tupdesc = RelationGetDescr(rel);
	snapshot = GetActiveSnapshot();
	strategy = GetAccessStrategy(BAS_BULKREAD);
	relblocks = RelationGetNumberOfBlocks(rel);
	first = PG_GETARG_INT64(2);
	last = PG_ARGISNULL(3) ? (int64) relblocks : first + PG_GETARG_INT64(3);
	first = Max(first, 0);
	last = Min(last, (int64) relblocks);

	for (int64 blkno = first; blkno < last; blkno++)
	{
		Buffer		buf;
		Page		page;
		bool		all_visible;
		OffsetNumber maxoff;
		HeapTupleData tup;

		CHECK_FOR_INTERRUPTS();
		buf = ReadBufferExtended(rel, MAIN_FORKNUM, (BlockNumber) blkno, RBM_NORMAL, strategy);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		all_visible = PageIsAllVisible(page) && !snapshot->takenDuringRecovery;
		maxoff = PageGetMaxOffsetNumber(page);
		tup.t_tableOid = relid;

		for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off++)
		{
			ItemId		lp = PageGetItemId(page, off);
			Datum		value;
			bool		isnull;

			if (!ItemIdIsNormal(lp))
				continue;
			tup.t_data = (HeapTupleHeader) PageGetItem(page, lp);
			tup.t_len = ItemIdGetLength(lp);
			ItemPointerSet(&tup.t_self, (BlockNumber) blkno, off);
			if (!all_visible && !HeapTupleSatisfiesVisibility(&tup, snapshot, buf))
				continue;
			value = heap_getattr(&tup, attnum, tupdesc, &isnull);
			if (isnull)
				continue;
			switch (atttype)
			{
				case INT2OID:
					isum += DatumGetInt16(value);
					break;
				case INT4OID:
					isum += DatumGetInt32(value);
					break;
				case INT8OID:
					isum += DatumGetInt64(value);
					break;
				default:
					fsum += DatumGetFloat8(value);
					break;
			}
			nvalues++;
		}
		LockBuffer(buf, BUFFER_LOCK_UNLOCK);
		ReleaseBuffer(buf);
	}
	FreeAccessStrategy(strategy);
	relation_close(rel, AccessShareLock);

	/* as sum() does: NULL when no value was read */
	if (nvalues == 0)
		PG_RETURN_NULL();
	if (atttype == FLOAT8OID)
		return DirectFunctionCall1(float8_numeric, Float8GetDatum(fsum));
	return DirectFunctionCall3(numeric_in, CStringGetDatum(int128_to_cstring(isum)),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

/*
 * gr_pin_walk(rel, variant, hold): the page path's per-page CPU work alone,
 * timed inside the backend: every block of REL read through the buffer
 * manager, pruned if worth it, share-locked, its header read, unlocked, and
 * its pin kept until HOLD pins are held (then the oldest 2 048, or HOLD, are
 * released), as the page path keeps its jobs' pins.  VARIANT says how a
 * block finds its buffer:
 *   0  ReadBufferExtended with the bulk-read ring (what the scan does today)
 *   1  the same, with the descriptors and pages of blocks 16 ahead prefetched
 *      from a block -> buffer hint map built by one pass over the descriptors
 *   2  ReadRecentBuffer with the hint (no mapping-table lookup), prefetching
 *   3  ReadRecentBuffer with the hint, no prefetch
 *   4  as 2, each pin then handed over to a held pin (src/held_pins.c: the
 *      count in the buffer's header alone, without the backend's private
 *      refcount and resource owner entries), as the page path holds its pins
 * A block whose hint is stale falls back to ReadBufferExtended.  Returns the
 * times as text: the hint map's pass, the walk, and ns per page.
 */
#include "portability/instr_time.h"
#include "storage/buf_internals.h"
/* variant 4: gpu_reduce's own held pins, the very code the page path runs */
#include "held_pins.c"

PG_FUNCTION_INFO_V1(gr_pin_walk);

Datum
gr_pin_walk(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	int			variant = PG_GETARG_INT32(1);
	int			hold = Max(PG_GETARG_INT32(2), 1);
	int			chunk = Min(hold, 2048);
	Relation	rel = relation_open(relid, AccessShareLock);
	BlockNumber nblocks = RelationGetNumberOfBlocks(rel);
	BufferAccessStrategy strategy = GetAccessStrategy(BAS_BULKREAD);
	Buffer	   *ring = palloc(sizeof(Buffer) * hold);
	Buffer	   *hint = NULL;
	int			head = 0,
				held = 0;
	uint64		allvis = 0,
				recent = 0;
	instr_time	t0,
				t1,
				t2;

	INSTR_TIME_SET_CURRENT(t0);
	if (variant >= 1)
	{
		hint = palloc_extended(sizeof(Buffer) * (Size) Max(nblocks, 1),
							   MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
		for (int i = 0; i < NBuffers; i++)
		{
			BufferDesc *d = GetBufferDescriptor(i);
			BufferTag	tag = d->tag;	/* unlocked: a hint, checked by the pin */

			if (RelFileNodeEquals(tag.rnode, rel->rd_node) && tag.forkNum == MAIN_FORKNUM &&
				tag.blockNum < nblocks)
				hint[tag.blockNum] = i + 1;
		}
	}
	INSTR_TIME_SET_CURRENT(t1);
	/* no cancel while variant 4 holds pins nothing else would drop */
	if (variant == 4)
		HOLD_INTERRUPTS();
	for (BlockNumber blk = 0; blk < nblocks; blk++)
	{
		Buffer		buf = InvalidBuffer;
		Page		page;

		CHECK_FOR_INTERRUPTS();
		if ((variant == 1 || variant == 2 || variant == 4) && blk + 16 < nblocks && hint[blk + 16] != 0)
		{
			__builtin_prefetch(GetBufferDescriptor(hint[blk + 16] - 1));
			__builtin_prefetch(BufferGetBlock(hint[blk + 16]));
		}
		if (variant >= 2 && hint[blk] != 0 &&
			ReadRecentBuffer(rel->rd_node, MAIN_FORKNUM, blk, hint[blk]))
		{
			buf = hint[blk];
			recent++;
		}
		else
			buf = ReadBufferExtended(rel, MAIN_FORKNUM, blk, RBM_NORMAL, strategy);
		heap_page_prune_opt(rel, buf);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		allvis += PageIsAllVisible(page) && PageGetMaxOffsetNumber(page) > 0;
		LockBuffer(buf, BUFFER_LOCK_UNLOCK);
		if (variant == 4)
			gr_pin_hold(buf);
		if (held == hold)
		{
			for (int i = 0; i < chunk; i++)
				if (variant == 4)
					gr_pin_drop(ring[(head + i) % hold]);
				else
					ReleaseBuffer(ring[(head + i) % hold]);
			head = (head + chunk) % hold;
			held -= chunk;
		}
		ring[(head + held) % hold] = buf;
		held++;
	}
	for (int i = 0; i < held; i++)
		if (variant == 4)
			gr_pin_drop(ring[(head + i) % hold]);
		else
			ReleaseBuffer(ring[(head + i) % hold]);
	if (variant == 4)
		RESUME_INTERRUPTS();
	INSTR_TIME_SET_CURRENT(t2);
	INSTR_TIME_SUBTRACT(t2, t1);
	INSTR_TIME_SUBTRACT(t1, t0);
	relation_close(rel, AccessShareLock);
	PG_RETURN_TEXT_P(cstring_to_text(psprintf("variant %d hold %d: %u pages (%lu all-visible, %lu by hint), "
											  "map %.1f ms, walk %.1f ms, %.0f ns a page",
											  variant, hold, nblocks, (unsigned long) allvis,
											  (unsigned long) recent,
											  INSTR_TIME_GET_MILLISEC(t1),
											  INSTR_TIME_GET_MILLISEC(t2),
											  nblocks ? INSTR_TIME_GET_MILLISEC(t2) * 1e6 / nblocks : 0.0)));
}
