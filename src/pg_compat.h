/*
 * pg_compat.h
 *	  Differences between the PostgreSQL major versions gpu_reduce supports
 *	  (15 to 19).  Every PG_VERSION_NUM test of the module lives here,
 *	  so the other files are written against one API.
 */
#ifndef GR_PG_COMPAT_H
#define GR_PG_COMPAT_H

#include "postgres.h"

#if PG_VERSION_NUM < 150000
#error "gpu_reduce needs PostgreSQL 15 or later"
#endif

/*
 * PostgreSQL 16 moved the varlena macros (VARDATA_ANY, VARSIZE_ANY_EXHDR, ...)
 * from postgres.h to varatt.h, which postgres.h no longer includes.
 */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * PostgreSQL 17 replaced PGPROC.pgprocno by the global MyProcNumber (this
 * process's index in ProcGlobal->allProcs).  The older spelling needs
 * storage/proc.h where it is used.
 */
#if PG_VERSION_NUM < 170000
#define MyProcNumber (MyProc->pgprocno)
#endif

/*
 * PostgreSQL 18 replaced pg_attribute_noreturn(), written after a
 * declarator, by pg_noreturn, written before the declaration; GCC and Clang
 * accept the older attribute in that place too.
 */
#if PG_VERSION_NUM < 180000
#define pg_noreturn pg_attribute_noreturn()
#endif

/*
 * PostgreSQL 18 moved the EXPLAIN property functions (ExplainPropertyText,
 * ...) from commands/explain.h to commands/explain_format.h.
 */
#if PG_VERSION_NUM >= 180000
#define GR_EXPLAIN_FORMAT_H "commands/explain_format.h"
#else
#define GR_EXPLAIN_FORMAT_H "commands/explain.h"
#endif

/*
 * PostgreSQL 16 gave generate_join_implied_equalities the outer join a
 * join clause is of (a SpecialJoinInfo); the node joins inner joins only.
 */
#if PG_VERSION_NUM >= 160000
#define gr_join_implied_equalities(root, join_relids, outer_relids, inner_rel) \
	generate_join_implied_equalities(root, join_relids, outer_relids, inner_rel, NULL)
#else
#define gr_join_implied_equalities(root, join_relids, outer_relids, inner_rel) \
	generate_join_implied_equalities(root, join_relids, outer_relids, inner_rel)
#endif

/*
 * PostgreSQL 16 numbers outer joins among the relations a clause requires
 * (root->outer_join_rels) and marks a Var an outer join may null
 * (varnullingrels); gr_base_relids keeps the base relations of a set.
 */
#if PG_VERSION_NUM >= 160000
#define gr_base_relids(root, relids) bms_difference((relids), (root)->outer_join_rels)
#define gr_var_unnulled(var) ((var)->varnullingrels = NULL)
#else
#define gr_base_relids(root, relids) (relids)
#define gr_var_unnulled(var) ((void) 0)
#endif

/*
 * PostgreSQL 17 removed old_snapshot_threshold, and with it the check a
 * page-mode scan made on each page it locked (TestForOldSnapshot).
 */
#if PG_VERSION_NUM < 170000
#define gr_test_old_snapshot(snapshot, rel, page) TestForOldSnapshot(snapshot, rel, page)
#else
#define gr_test_old_snapshot(snapshot, rel, page) ((void) 0)
#endif

/*
 * PostgreSQL 16 keeps the GROUP BY clause the planner works from (without
 * keys made redundant by others) apart from the query's.
 */
#if PG_VERSION_NUM >= 160000
#define gr_group_clause(root) ((root)->processed_groupClause)
#else
#define gr_group_clause(root) ((root)->parse->groupClause)
#endif

/*
 * PostgreSQL 16 names a relation's files by a RelFileLocator (rd_locator)
 * instead of a RelFileNode (rd_node), and reads a buffer tag's parts
 * through functions.  The users include storage/buf_internals.h.
 */
#if PG_VERSION_NUM >= 160000
#include "storage/relfilelocator.h"
typedef RelFileLocator GrRelFile;
#define GR_REL_FILE(rel) ((rel)->rd_locator)
#define gr_buftag_is(tag, file, fork) \
	(BufTagMatchesRelFileLocator(&(tag), &(file)) && BufTagGetForkNum(&(tag)) == (fork))
#else
#include "storage/relfilenode.h"
typedef RelFileNode GrRelFile;
#define GR_REL_FILE(rel) ((rel)->rd_node)
#define gr_buftag_is(tag, file, fork) \
	(RelFileNodeEquals((tag).rnode, (file)) && (tag).forkNum == (fork))
#endif
#define GR_BUFTAG_BLOCK(tag) ((tag).blockNum)

/*
 * PostgreSQL 16 keeps every Aggref of an aggregate the planner deduplicated
 * (AggInfo.aggrefs) instead of the first (representative_aggref).
 */
#if PG_VERSION_NUM >= 160000
#define gr_agginfo_aggref(agginfo) linitial_node(Aggref, (agginfo)->aggrefs)
#else
#define gr_agginfo_aggref(agginfo) ((agginfo)->representative_aggref)
#endif

/*
 * PostgreSQL 18 gave index_beginscan the scan's instrumentation (none here:
 * the node counts its own lookups), and 19 its ScanOptions (none).  The
 * users include access/genam.h and access/tableam.h.
 */
#if PG_VERSION_NUM >= 190000
#define gr_index_beginscan(heap, index, snapshot, nkeys) \
	index_beginscan(heap, index, snapshot, NULL, nkeys, 0, SO_NONE)
#elif PG_VERSION_NUM >= 180000
#define gr_index_beginscan(heap, index, snapshot, nkeys) \
	index_beginscan(heap, index, snapshot, NULL, nkeys, 0)
#else
#define gr_index_beginscan(heap, index, snapshot, nkeys) \
	index_beginscan(heap, index, snapshot, nkeys, 0)
#endif

/*
 * PostgreSQL 18 counts a path's disabled nodes apart from its cost, and
 * cost_agg takes its input's count (0 here: agg_space.c compares two costs
 * of one path that differ only in its transition space).
 */
#if PG_VERSION_NUM >= 180000
#define gr_cost_agg(path, root, strategy, costs, ncols, groups, quals, \
					in_startup, in_total, in_rows, in_width) \
	cost_agg(path, root, strategy, costs, ncols, groups, quals, 0, \
			 in_startup, in_total, in_rows, in_width)
#else
#define gr_cost_agg(path, root, strategy, costs, ncols, groups, quals, \
					in_startup, in_total, in_rows, in_width) \
	cost_agg(path, root, strategy, costs, ncols, groups, quals, \
			 in_startup, in_total, in_rows, in_width)
#endif

/*
 * PostgreSQL 19 widened a shared buffer's state word to 64 bits (the content
 * lock moved into it), and UnlockBufHdr no longer takes the state to store:
 * a change of flags goes through UnlockBufHdrExt.  gr_unlock_buf_hdr_clear
 * unlocks a header locked by LockBufHdr, whose answer was STATE, clearing
 * the flags UNSET.  The users include storage/buf_internals.h.
 */
#if PG_VERSION_NUM >= 190000
typedef uint64 GrBufState;
#define gr_buf_state_read(desc) pg_atomic_read_u64(&(desc)->state)
#define gr_buf_state_cas(desc, expected, newval) \
	pg_atomic_compare_exchange_u64(&(desc)->state, (expected), (newval))
#define gr_unlock_buf_hdr_clear(desc, state, unset) \
	((void) UnlockBufHdrExt(desc, state, 0, unset, 0))
#else
typedef uint32 GrBufState;
#define gr_buf_state_read(desc) pg_atomic_read_u32(&(desc)->state)
#define gr_buf_state_cas(desc, expected, newval) \
	pg_atomic_compare_exchange_u32(&(desc)->state, (expected), (newval))
#define gr_unlock_buf_hdr_clear(desc, state, unset) \
	UnlockBufHdr(desc, (state) & ~(unset))
#endif

/*
 * PostgreSQL 19 changed four executor and heap calls of the bulk scan:
 * ExecAllocTableSlot takes the slot's TTS_FLAG_* bits (none here);
 * table_beginscan_parallel takes ScanOptions beyond the scan's type (none:
 * no SO_HINT_REL_READ_ONLY, so pruning leaves the visibility map alone);
 * table_block_parallelscan_startblock_init takes a first block and a count
 * (InvalidBlockNumber for both: the whole table, from where a synchronized
 * scan would start); heap_page_prune_opt takes the scan's visibility map
 * buffer and whether the relation is read only, as heapgetpage passes them.
 * The users include access/heapam.h and access/tableam.h.
 */
#if PG_VERSION_NUM >= 190000
#define gr_alloc_table_slot(table, desc, ops) ExecAllocTableSlot(table, desc, ops, 0)
#define gr_beginscan_parallel(rel, pscan) table_beginscan_parallel(rel, pscan, SO_NONE)
#define gr_parallelscan_startblock_init(rel, work, pbscan) \
	table_block_parallelscan_startblock_init(rel, work, pbscan, \
											 InvalidBlockNumber, InvalidBlockNumber)
#define gr_heap_page_prune_opt(scan, buf) \
	heap_page_prune_opt((scan)->rs_base.rs_rd, buf, &(scan)->rs_vmbuffer, \
						((scan)->rs_base.rs_flags & SO_HINT_REL_READ_ONLY) != 0)
#else
#define gr_alloc_table_slot(table, desc, ops) ExecAllocTableSlot(table, desc, ops)
#define gr_beginscan_parallel(rel, pscan) table_beginscan_parallel(rel, pscan)
#define gr_parallelscan_startblock_init(rel, work, pbscan) \
	table_block_parallelscan_startblock_init(rel, work, pbscan)
#define gr_heap_page_prune_opt(scan, buf) heap_page_prune_opt((scan)->rs_base.rs_rd, buf)
#endif

/*
 * PostgreSQL 19 serializes the int128 sums of Int128AggState
 * (int8_avg_serialize, numeric_poly_serialize) as themselves, 16 bytes,
 * where 15 to 18 converted them to a NumericVar (native_partial.c).
 */
#if PG_VERSION_NUM >= 190000
#define GR_INT128_AGG_STATE_RAW 1
#endif

#endif							/* GR_PG_COMPAT_H */
