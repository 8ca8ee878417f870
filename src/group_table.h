/*
 * group_table.h
 *	  The GpuReduce node's group table: a row's GROUP BY key values to its
 *	  group number, and each group's key values for the node's output.
 *
 * Groups are numbered 0, 1, ... in the order their first row arrives; the
 * sink (sink.h) keeps each group's aggregate values by that number.  Keys
 * compare as PostgreSQL's hash grouping compares them (group_key.h); a
 * group's output values are its first row's, as a hash aggregate's are.
 */
#ifndef GR_GROUP_TABLE_H
#define GR_GROUP_TABLE_H

#include "scan_desc.h"

/* One key value of a group. */
typedef struct GrGroupKeyValue
{
	uint64		norm;			/* fixed: its bits as compared; variable: its
								 * compared bytes, if 8 or fewer, else their
								 * address */
	int32		len;			/* variable: how many compared bytes */
	bool		isnull;
	Datum		value;			/* the first row's value (a copy) */
} GrGroupKeyValue;

typedef struct GrGroupTable
{
	MemoryContext cxt;			/* everything below; reset by gr_group_reset */
	MemoryContext scratch;		/* a row's detoasted keys, numerics' bytes */
	bool		scratch_used;	/* scratch holds something: reset it */
	int			nkeys;
	const GrScanKey *keys;
	int			ngroups;
	int			cap;			/* groups the arrays have room for */
	uint64	   *hashes;			/* per group */
	GrGroupKeyValue *kv;		/* per group, nkeys each */
	/*
	 * open addressing: 0, or a group + 1 in the low 32 bits and its hash's
	 * high 32 bits above (a probe passes most other groups without reading
	 * their hashes: a cache miss each in a table of 10^6 groups)
	 */
	uint64	   *slots;
	uint32		mask;			/* slots - 1 */
	/*
	 * The keys' hashes this table takes (a final-mode pass, bulk_scan.c):
	 * those whose high 32 bits lie in [lo, hi); [0, 2^32) takes every one
	 */
	uint64		lo;
	uint64		hi;
} GrGroupTable;

/* the hash space a table's passes share out: the hashes' high 32 bits */
#define GR_GROUP_HASH_SPACE (UINT64CONST(1) << 32)

extern bool gr_group_key_kind(Oid type, Oid collation, GrKeyKind *kind);
extern Size gr_group_block_size(Size budget);
extern GrGroupTable *gr_group_create(MemoryContext parent, int nkeys, const GrScanKey *keys,
									 Size budget);
extern void gr_group_prefetch(const GrGroupTable *gt, const uint64 *vals, const bool *nulls);
extern int	gr_group_of(GrGroupTable *gt, const uint64 *vals, const bool *nulls,
						bool *added);
extern void gr_group_set_share(GrGroupTable *gt, uint64 lo, uint64 hi);
extern void gr_group_reserve(GrGroupTable *gt, int64 more);
extern Datum gr_group_key(GrGroupTable *gt, int group, int key, bool *isnull);
extern Size gr_group_memory(GrGroupTable *gt);
extern void gr_group_reset(GrGroupTable *gt);
extern Datum gr_bits_datum(uint64 bits, int len);

#endif							/* GR_GROUP_TABLE_H */
