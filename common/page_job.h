/*
 * page_job.h
 *	  A page job: what a backend hands the GPU service so that a kernel reads
 *	  a run of pinned shared buffers itself (the page path of the bulk scan).
 *
 * Plain C99 with no PostgreSQL or CUDA headers, shared by src/page_path.c
 * (which builds a job in a slot, or in local memory for the CPU), the GPU
 * service and cuda/gr_page.cu.  One job lives in one slot's data area, the
 * pinned shared memory both sides see:
 *
 *	 GrPageJob | GrDecodeDesc | GrExprProg (if any) | GrPageEntry x npages |
 *	 GrPageFallback x fallback_cap | GrCudaResult x nouts |
 *	 top-k keys of each top-k output
 *
 * The first 'bytes_in' bytes (the header, the decoder's description, the
 * table's expression program with its constants as bound for this scan, and
 * the page entries) go to the device; the kernel adds into the device copy
 * of 'counts', which comes back, then the rows the program handed back are
 * copied into the fallback list, and each output's reduction writes its
 * result (and keys) back into the slot.  An entry names a buffer by its
 * index in the buffer pool and lists the line pointers the backend found
 * visible under the content lock, as a bitmap; the backend keeps the buffer
 * pinned until the job is done, so those tuples stay where they are.
 *
 * On the device the kept rows (those passing the quals) are aligned by row,
 * as the CPU decoder's GrRowBlock (src/sink.h) aligns them: row r, for r
 * below counts[GR_PAGE_COUNT_ROWS], has column c's value at index r of
 * column c's array (col_cap values of col_width[c] bytes) and its NULL flag
 * (one byte, 1: NULL) at index r of column c's flags, whatever its other
 * columns hold.  counts[c] is how many of those rows have column c non-NULL;
 * a reduction reads those values, gathered without holes.  Rows keep no
 * order of pages or line pointers.  None of this reaches the host, which
 * sees only the counts and the results.
 *
 * With a program, a row that passes the comparisons is evaluated by it (as
 * the CPU decoder does): a row it rejects is dropped, a row it passes has
 * its outputs as the columns after the decoded ones (decoded columns, then
 * outputs, at most GR_PAGE_MAX_COLS in all), and a row it is not certain of
 * is dropped from the GPU's results and listed, (page, line pointer), for
 * the host, which decodes and evaluates it again with PostgreSQL's help
 * while the page is still pinned.  The list holds fallback_cap rows; the
 * count goes on past that, and a job whose count exceeds its list
 * (gr_page_fallback_overflow) is decoded by the host as a whole.
 */
#ifndef GR_PAGE_JOB_H
#define GR_PAGE_JOB_H

#include "expr.h"
#include "join_image.h"
#include "tuple_decode.h"

/* the only page size the kernel reads (BLCKSZ; the planner checks it) */
#define GR_PAGE_SIZE			8192
/* line pointers of one page the bitmap covers (MaxHeapTuplesPerPage: 291) */
#define GR_PAGE_MAX_TUPLES		291
#define GR_PAGE_VIS_WORDS		((GR_PAGE_MAX_TUPLES + 63) / 64)
/*
 * most columns (decoded and computed) of one job, and of a job that stores
 * them aligned by row (one that does not group): the device's room
 */
#define GR_PAGE_MAX_COLS		16
#define GR_PAGE_STORE_COLS		8
#define GR_PAGE_MAX_OUTS		16
/* most pages in one job */
#define GR_PAGE_JOB_MAX_PAGES	2048
/* a grouping job (page_group.h): most keys, running words of a group, groups */
#define GR_PAGE_MAX_KEYS		8
#define GR_PAGE_MAX_GWORDS		384
#define GR_PAGE_MAX_GROUPS		16384
/* most groups of a scan's table on one device (scan_id) */
#define GR_PAGE_MAX_SCAN_GROUPS	(1 << 26)

/* rows of one job the program may hand back before the host decodes the whole job */
#define GR_PAGE_MAX_FALLBACK	4096
/* a job that folds into its scan's table lists every row it hands back: at most all */
#define GR_PAGE_MAX_FALLBACK_ALL	(GR_PAGE_JOB_MAX_PAGES * GR_PAGE_MAX_TUPLES)

/*
 * counts[] beyond the columns' own: rows kept, tuples not decodable, visible
 * tuples, rows the program handed back
 */
#define GR_PAGE_COUNT_ROWS(ncols)	(ncols)
#define GR_PAGE_COUNT_BAD(ncols)	((ncols) + 1)
#define GR_PAGE_COUNT_VIS(ncols)	((ncols) + 2)
#define GR_PAGE_COUNT_FALLBACK(ncols)	((ncols) + 3)
/* a grouping job: groups made (past group_cap: the job overflowed), rows that found no room */
#define GR_PAGE_COUNT_GROUPS(ncols)	((ncols) + 4)
#define GR_PAGE_COUNT_GFULL(ncols)	((ncols) + 5)
/*
 * a collect job's: groups of the table its checks dropped (GrPageCheck); a
 * list job's: rows its semi joins left out
 */
#define GR_PAGE_COUNT_DROPPED(ncols)	((ncols) + 6)
/* a join's: rows that went on past hashed relation j (a match, or none for an anti join) */
#define GR_PAGE_COUNT_MATCHES(ncols, j)	((ncols) + 7 + (j))
#define GR_PAGE_NCOUNTS			(GR_PAGE_MAX_COLS + 7 + GR_PAGE_MAX_JOINS)

/* a join (GrPageJoin): hashed relations, keys of one */
#define GR_PAGE_MAX_JOINS		8
#define GR_PAGE_JOIN_KEYS		4

/* a column's type, as the kernels' GrCudaType numbers it */
typedef enum GrPageType
{
	GR_PAGE_INT2 = 1,
	GR_PAGE_INT4 = 2,
	GR_PAGE_INT8 = 3,
	GR_PAGE_FLOAT4 = 4,
	GR_PAGE_FLOAT8 = 5
} GrPageType;

/* the reductions a grouping job folds per group, as GrCudaOp numbers them */
#define GR_PAGE_OP_SUM			1
#define GR_PAGE_OP_MIN			2
#define GR_PAGE_OP_MAX			3

/*
 * GrPageJob.flags: the kernel only reads the pages, decoding nothing (the
 * floor probe of bench/: gpu_reduce.debug_page_read_only; answers are empty)
 */
#define GR_PAGE_JOB_READ_ONLY	0x0001
/*
 * a grouping job with a scan_id that brings no pages: it copies the scan's
 * table's groups [collect_first, collect_first + group_cap) into its own
 * groups, sets counts[GROUPS] to the groups the table holds and
 * counts[GFULL] to the rows it had no room for, and frees the table once
 * the copy reaches its last group
 */
#define GR_PAGE_JOB_COLLECT		0x0002
/*
 * a job that brings no pages but bytes [upload_off, upload_off +
 * upload_len) of hashed relation image_index's image (image_bytes in all)
 * of the join join_key, after the header (GR_PAGE_ALIGN(sizeof(GrPageJob)));
 * the service keeps the image on the device that runs it, for the page
 * jobs of that join, until a release job names the key or the process
 * that named it (join_key's high 32 bits) has gone.  With marks_len (the
 * first chunk's), the relation is a marked join's: the image gets
 * marks_len bytes of marks beside it there, zeroed, which its page jobs
 * set (GR_PAGE_JOIN_MARK) and which go with it
 */
#define GR_PAGE_JOB_UPLOAD		0x0004
/* a job that brings no pages: free join_key's images on the device that runs it */
#define GR_PAGE_JOB_RELEASE		0x0008
/*
 * a list job (a hashed relation read from its pages, filtered on the GPU):
 * no output, no GROUP BY, and no join but semi joins (GR_PAGE_JOIN_SEMI:
 * the later relations that leave a hashed relation's rows out, probed by
 * its keys, which its WHERE's rows must match, the rows left out counted);
 * every row that passes the comparisons, the program and the semi joins,
 * or that the program hands back, is listed as a handed back row is, and
 * only those rows are decoded by the host (which evaluates each again, as
 * it would every row of the page).  Its list holds every tuple of its
 * pages (GR_PAGE_MAX_FALLBACK_ALL at most).
 */
#define GR_PAGE_JOB_LIST		0x0020
/*
 * a list job that brings back the values of the rows it keeps (with
 * GR_PAGE_JOB_LIST): a row that passes the comparisons, the program and
 * the semi joins is
 * kept, not listed, its columns of col_width 8 (the values the host hashes:
 * fixed-width columns and the program's outputs, their bits as decoded or
 * computed) stored as any job's; after the kernel, counts[ROWS] rows of
 * each such column come back into the job at values_off
 * (gr_page_job_value_columns), values_cap rows of room each, so the host
 * decodes none of them.  A row the program hands back is listed as ever.
 */
#define GR_PAGE_JOB_VALUES		0x0040
/*
 * a job that brings no pages: copy bytes [upload_off, upload_off +
 * upload_len) of the marks of hashed relation image_index of join_key on
 * the device that runs it into the job after the header, where an upload
 * brings its bytes (the backend ORs them into its own marks once every
 * page job of the scan is done)
 */
#define GR_PAGE_JOB_MARKS		0x0010

/* GrPageEntry.flags: every normal line pointer up to nlp is visible */
#define GR_PAGE_ALL_NORMAL		0x0001

/*
 * One pinned page: its buffer and which of its line pointers are visible,
 * as a bitmap, or (GR_PAGE_ALL_NORMAL: an all-visible page whose unused
 * line pointers cannot be reused while it is pinned) every normal one.
 */
typedef struct GrPageEntry
{
	uint32_t	buf;			/* 0-based index into the buffer pool */
	uint16_t	nlp;			/* line pointers to look at (1..nlp) */
	uint16_t	flags;
	uint64_t	vis[GR_PAGE_VIS_WORDS]; /* bit i-1: line pointer i is visible */
} GrPageEntry;

/* A row the program handed back: its page (index in the job) and line pointer. */
typedef struct GrPageFallback
{
	uint16_t	page;
	uint16_t	off;
} GrPageFallback;

/* GrPageJoin.type: what a row does where its keys match a row of the relation, or none */
#define GR_PAGE_JOIN_INNER		0	/* takes the match's values; none: dropped */
#define GR_PAGE_JOIN_LEFT		1	/* and none: goes on, the values NULL */
#define GR_PAGE_JOIN_SEMI		2	/* goes on where one matches */
#define GR_PAGE_JOIN_ANTI		3	/* goes on where none does */
#define GR_PAGE_JOIN_MARK		4	/* marks every row it matches (a byte of marks
									 * each, set to 1) and goes no further: a
									 * marked join (the marks are the host's
									 * in its run of a job, the device's copy
									 * beside the image on a GPU) */

/*
 * One hashed relation a job's rows are probed against, in order, after the
 * WHERE comparisons and the table's program: its keys are columns of the
 * row (the table's, or values of a relation before it), its values become
 * the row's columns [valpos, valpos + nvals).  A key matching more than one
 * row hands the row back: the host makes a joined row of each.
 */
typedef struct GrPageJoin
{
	uint64_t	image;			/* the image's address where the job runs (the
								 * service sets a device's) */
	uint8_t		type;			/* GR_PAGE_JOIN_* */
	uint8_t		nkeys;
	int16_t		valpos;
	int16_t		nvals;
	int16_t		keycol[GR_PAGE_JOIN_KEYS];
	uint8_t		keywidth[GR_PAGE_JOIN_KEYS];	/* the row's column's width */
	uint32_t	varmask;		/* values that are varlenas (bit i: value i) */
	uint64_t	marks;			/* GR_PAGE_JOIN_MARK: the marks' address where
								 * the job runs (the service sets a device's) */
} GrPageJoin;

/*
 * A check of HAVING on a scan table's group, made on its running words
 * (page_group.h's gr_page_group_rejected) before any group is copied out:
 * a count's word, an integer min's or max's (its value), or an integer
 * sum's two words, against an integer constant (a sum of numerics: both
 * times 10^scale).
 */
#define GR_PAGE_MAX_CHECKS		4
typedef struct GrPageCheck
{
	uint16_t	word;			/* the running word: a count's, a min's or max's,
								 * or a sum's first */
	int16_t		nonnull;		/* a min, max or sum: its column's non-NULL rows'
								 * word (0 of them: NULL, rejected); -1: a count */
	uint8_t		wide;			/* 1: a sum's two words; 0: one word */
	uint8_t		pass;			/* bit 0, 1, 2: the group passes where the value
								 * is below, equal to, above the constant */
	uint64_t	klo;			/* the constant: an int128, low and high words */
	int64_t		khi;
} GrPageCheck;

/* One reduction of a job: an output aggregate over one of the columns. */
typedef struct GrPageOut
{
	int16_t		col;			/* index into the desc's columns */
	uint8_t		op;				/* GrCudaOp */
	uint8_t		type;			/* GrCudaType of the column */
	int32_t		k;				/* top-k */
	uint32_t	result_off;		/* GrCudaResult, from the job's start */
	uint32_t	topk_off;		/* k keys (GR_CUDA_TOPK), from the job's start */
	uint16_t	word;			/* a grouping job: its first running word */
} GrPageOut;

typedef struct GrPageJob
{
	uint32_t	bytes_in;		/* header + desc + entries: what the device reads */
	uint32_t	bytes_all;		/* and the results after them */
	uint32_t	npages;
	uint16_t	ncols;			/* decoded columns, then the program's outputs */
	uint16_t	nquals;
	uint16_t	nouts;
	uint16_t	flags;			/* GR_PAGE_JOB_READ_ONLY */
	uint32_t	desc_off;
	uint32_t	prog_off;		/* the GrExprProg, or 0: none */
	uint32_t	entries_off;
	uint32_t	fallback_off;	/* the GrPageFallback list (fallback_cap rows) */
	uint32_t	fallback_cap;
	uint32_t	values_off;		/* GR_PAGE_JOB_VALUES: the values brought back */
	uint32_t	values_cap;		/* and the rows each column has room for */
	/* bytes of each column's values; 0: not stored (no output reduces it) */
	uint8_t		col_width[GR_PAGE_MAX_COLS];
	/*
	 * non-NULL values of each column among the rows kept, then rows kept,
	 * undecodable and visible tuples, and rows handed back
	 */
	uint64_t	counts[GR_PAGE_NCOUNTS];
	GrQual		quals[GR_MAX_QUALS];
	GrPageOut	outs[GR_PAGE_MAX_OUTS];
	/* GROUP BY (page_group.h): 0 keys, the job reduces per output */
	uint16_t	ngkeys;
	uint16_t	gwords;			/* running words of a group */
	uint32_t	group_cap;		/* groups the job holds; more: it overflows */
	uint32_t	group_off;		/* the groups, group_cap entries, from the job's start */
	int8_t		gkey_col[GR_PAGE_MAX_KEYS]; /* each key's column */
	uint8_t		gkey_kind[GR_PAGE_MAX_KEYS];	/* and GrKeyKind (BITS for a computed numeric) */
	/*
	 * 0, or 1 + the hashed relation whose value (a varlena in its image)
	 * the key is: one no word holds is grouped as the image row it lies in
	 * (page_group.h's GR_PG_KEY_REF)
	 */
	uint8_t		gkey_rel[GR_PAGE_MAX_KEYS];
	int16_t		col_word[GR_PAGE_MAX_COLS]; /* a column's non-NULL rows' word, or -1 */
	uint8_t		gword_op[GR_PAGE_MAX_GWORDS];	/* each running word's GrPageWordOp */
	/*
	 * A scan's table (scan_id not 0): the job folds its rows into a table
	 * the service keeps on the device that runs it for this scan (made by
	 * the scan's first job there, scan_cap groups, and grown, as far as
	 * scan_max, before a job that could find it full), not into a table of
	 * its own; a row that finds no room is handed back, never lost, so its
	 * list holds every row (GR_PAGE_MAX_FALLBACK_ALL), and the job's own
	 * groups are filled only by a GR_PAGE_JOB_COLLECT job.  The id's high
	 * 32 bits are the scanning process's pid: a table whose process has
	 * gone, or has begun another scan, is freed by the service.
	 */
	uint64_t	scan_id;
	uint32_t	scan_cap;
	uint32_t	scan_max;
	uint32_t	collect_first;
	/*
	 * A collect job's checks: the first (collect_first 0) drops the groups
	 * of the table they reject, keeping the rest in order, so counts[GROUPS]
	 * and the copies are of the kept ones; counts[DROPPED] says how many
	 * went.  The same checks must come with every collect job of the table.
	 */
	uint16_t	ncheck;
	GrPageCheck checks[GR_PAGE_MAX_CHECKS];
	/*
	 * A join: each row that passes the table's program (a job with joins
	 * has one, if only an empty one) is probed against njoins hashed
	 * relations (GrPageJoin), then evaluated by the joined-row program at
	 * jprog_off (0: none), whose outputs are the columns from jbase on;
	 * ncols counts them all.  join_key names the join's images where the
	 * service keeps them; also an upload's (GR_PAGE_JOB_UPLOAD).
	 */
	uint16_t	njoins;
	uint16_t	jbase;
	uint32_t	jprog_off;
	uint64_t	join_key;
	GrPageJoin	joins[GR_PAGE_MAX_JOINS];
	uint32_t	image_index;	/* an upload: its relation, its image's size */
	uint32_t	upload_len;		/* and the bytes it brings, from upload_off */
	uint64_t	image_bytes;
	uint64_t	upload_off;
	uint64_t	marks_len;		/* an upload: its relation's marks (0: none) */
} GrPageJob;

/* Round up to 16 bytes: every part of a job starts aligned for the device. */
#define GR_PAGE_ALIGN(n)	(((n) + 15) & ~(size_t) 15)

/* The job's decoder description and page entries. */
static inline GrDecodeDesc *
gr_page_job_desc(GrPageJob *job)
{
	return (GrDecodeDesc *) ((char *) job + job->desc_off);
}

static inline GrPageEntry *
gr_page_job_entries(GrPageJob *job)
{
	return (GrPageEntry *) ((char *) job + job->entries_off);
}

/* The job's expression program, or NULL. */
static inline GrExprProg *
gr_page_job_prog(GrPageJob *job)
{
	return job->prog_off == 0 ? NULL : (GrExprProg *) ((char *) job + job->prog_off);
}

/* The job's joined-row program, or NULL. */
static inline GrExprProg *
gr_page_job_jprog(GrPageJob *job)
{
	return job->jprog_off == 0 ? NULL : (GrExprProg *) ((char *) job + job->jprog_off);
}

/* An upload job's bytes (a marks job's too). */
static inline uint8_t *
gr_page_upload_data(GrPageJob *job)
{
	return (uint8_t *) job + GR_PAGE_ALIGN(sizeof(GrPageJob));
}

/*
 * Probe a row (its columns vals, nulls, as the table's program left them)
 * against the job's hashed relations in order, then evaluate the joined-row
 * program: PASS, the row goes on with the relations' values and the
 * program's outputs in its columns; REJECT, the join or the program drops
 * it; FALLBACK, the host makes it (a key matched several rows, or the
 * program is not sure).  *went: bit j, the row went on past relation j
 * (what EXPLAIN counts as its matches, a dropped row's too).
 */
GR_HOSTDEV GrExprResult
gr_page_join_row(const GrPageJob *job, const GrExprProg *jprog, uint64_t *vals, bool *nulls,
				 uint32_t *went)
{
	for (int j = 0; j < job->njoins; j++)
	{
		const GrPageJoin *pj = &job->joins[j];
		const uint8_t *base = (const uint8_t *) (uintptr_t) pj->image;
		int64_t		key[GR_PAGE_JOIN_KEYS];
		int64_t		e = 0;

		for (int k = 0; k < pj->nkeys && e >= 0; k++)
		{
			if (nulls[pj->keycol[k]])
				e = -1;			/* a NULL key matches none */
			else
				key[k] = gr_value_int(vals[pj->keycol[k]], pj->keywidth[k]);
		}
		if (e >= 0)
			e = gr_join_image_first(base, key);
		if (pj->type == GR_PAGE_JOIN_MARK)
		{
			if (e >= 0)
				*went |= UINT32_C(1) << j;
			gr_join_image_mark(base, e, (uint8_t *) (uintptr_t) pj->marks);
			return GR_EXPR_REJECT;
		}
		if (pj->type == GR_PAGE_JOIN_SEMI || pj->type == GR_PAGE_JOIN_ANTI)
		{
			if ((e >= 0) != (pj->type == GR_PAGE_JOIN_SEMI))
				return GR_EXPR_REJECT;
			*went |= UINT32_C(1) << j;
			continue;
		}
		if (e < 0)
		{
			if (pj->type != GR_PAGE_JOIN_LEFT)
				return GR_EXPR_REJECT;
			for (int v = 0; v < pj->nvals; v++)
			{
				vals[pj->valpos + v] = 0;
				nulls[pj->valpos + v] = true;
			}
			continue;
		}
		if (gr_join_image_next(base, e) >= 0)
			return GR_EXPR_FALLBACK;
		*went |= UINT32_C(1) << j;
		gr_join_image_values(base, e, pj->varmask, vals + pj->valpos, nulls + pj->valpos);
	}
	if (jprog == NULL)
		return GR_EXPR_PASS;
	return gr_expr_eval(jprog, vals, nulls, vals + job->jbase, nulls + job->jbase, NULL);
}

/* The rows the program handed back, as listed. */
static inline GrPageFallback *
gr_page_job_fallbacks(GrPageJob *job)
{
	return (GrPageFallback *) ((char *) job + job->fallback_off);
}

/* Whether more rows were handed back than the list holds: the host decodes the job. */
static inline bool
gr_page_fallback_overflow(const GrPageJob *job)
{
	return job->counts[GR_PAGE_COUNT_FALLBACK(job->ncols)] > job->fallback_cap;
}

/* The columns a values job brings back (col_width 8). */
static inline int
gr_page_job_stored(const GrPageJob *job)
{
	int			k = 0;

	for (int c = 0; c < job->ncols; c++)
		k += job->col_width[c] != 0;
	return k;
}

/* The bytes a values job brings back for 'stored' columns of 'cap' rows each: values, then flags. */
static inline size_t
gr_page_values_bytes(int stored, size_t cap)
{
	return GR_PAGE_ALIGN((size_t) stored * cap * 8) + GR_PAGE_ALIGN((size_t) stored * cap);
}

/*
 * A values job's columns as brought back, per column (NULL: not stored):
 * counts[ROWS] values of 8 bytes, and their NULL flags (1: NULL), which
 * follow every column's values.
 */
static inline void
gr_page_job_value_columns(GrPageJob *job, uint64_t **vals, uint8_t **nulls)
{
	uint64_t   *v = (uint64_t *) ((char *) job + job->values_off);
	uint8_t    *n = (uint8_t *) job + job->values_off +
		GR_PAGE_ALIGN((size_t) gr_page_job_stored(job) * job->values_cap * 8);

	for (int c = 0; c < job->ncols; c++)
	{
		vals[c] = NULL;
		nulls[c] = NULL;
		if (job->col_width[c] == 0)
			continue;
		vals[c] = v;
		nulls[c] = n;
		v += job->values_cap;
		n += job->values_cap;
	}
}

/* Rows one column's values and flags must hold: every tuple of every page. */
static inline int64_t
gr_page_job_col_cap(const GrPageJob *job)
{
	return (int64_t) job->npages * GR_PAGE_MAX_TUPLES;
}

/* Whether line pointer 'off' (1-based) of an entry's page is visible. */
GR_HOSTDEV bool
gr_page_visible(const GrPageEntry *e, const uint8_t *page, int off)
{
	if (e->flags & GR_PAGE_ALL_NORMAL)
		return gr_page_lp_normal(page, off);
	return (e->vis[(off - 1) >> 6] >> ((off - 1) & 63)) & 1;
}

/* The visible line pointers of an entry's page, in order, into offs: how many. */
static inline int
gr_page_entry_offsets(const GrPageEntry *e, const uint8_t *page, uint16_t *offs)
{
	int			n = 0;

	for (int off = 1; off <= e->nlp; off++)
		if (gr_page_visible(e, page, off))
			offs[n++] = (uint16_t) off;
	return n;
}

#endif							/* GR_PAGE_JOB_H */
