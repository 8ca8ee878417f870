/*
 * tuple_decode.h
 *	  Reading aggregated columns straight out of a heap page, and the simple
 *	  WHERE comparisons of the bulk scan: one decoder for every value source.
 *
 * Plain C99 with no PostgreSQL or CUDA headers (like xsum.h), and every
 * function GR_HOSTDEV, so that the same rules can be compiled for the GPU's
 * page path: the CPU-only build runs the very decoding logic a kernel would.
 * The layout constants below are PostgreSQL's on-disk format (bufpage.h,
 * itemid.h, htup_details.h, varatt.h); bulk_scan.c checks them against the
 * server's headers at compile time.  Little-endian only: the planner offers
 * the bulk scan nowhere else.
 *
 * A GrDecodeDesc describes the table's attributes up to the last one a
 * query needs (length, alignment, the default of an attribute added later)
 * and which of them the query reads (cols).  gr_decode_tuple() fills each
 * needed column's value bits (zero-extended, in the attribute's own width)
 * and NULL flag; gr_quals_pass() evaluates the comparisons on them.  A
 * variable-length column's value is the address of its varlena in the page
 * (numeric: on the host, where the states read the varlena where it lies,
 * and where the expression program parses it; on the GPU, in the kernel's
 * shared copy of the page, for the program only).
 */
#ifndef GR_TUPLE_DECODE_H
#define GR_TUPLE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gr_hostdev.h"

/* on-disk layout */
#define GR_PAGE_LINP_OFFSET		24	/* SizeOfPageHeaderData */
#define GR_TUP_INFOMASK2_OFFSET	18	/* offsetof(HeapTupleHeaderData, t_infomask2) */
#define GR_TUP_INFOMASK_OFFSET	20
#define GR_TUP_HOFF_OFFSET		22
#define GR_TUP_BITS_OFFSET		23
#define GR_HEAP_HASNULL			0x0001
#define GR_HEAP_HASVARWIDTH		0x0002
#define GR_HEAP_NATTS_MASK		0x07FF
#define GR_VARHDRSZ_EXTERNAL	2
#define GR_VARTAG_ONDISK_SIZE	16	/* sizeof(varatt_external) */

/* most columns one scan reads */
#define GR_DECODE_MAX_COLS		32
/* most WHERE comparisons one scan evaluates */
#define GR_MAX_QUALS			32

/* One attribute of the table, as the decoder walks it. */
typedef struct GrAttr
{
	/* offset from the data start when no attribute before it is NULL or
	 * variable-length, else -1 (PostgreSQL's attcacheoff) */
	int32_t		cacheoff;
	int16_t		len;			/* attlen: > 0 fixed, -1 varlena, -2 cstring */
	uint8_t		align;			/* alignment in bytes: 1, 2, 4 or 8 */
	uint8_t		dropped;		/* a dropped column (still on disk) */
	uint8_t		has_missing;	/* added later with a default: tuples with
								 * fewer attributes read missing instead */
	uint64_t	missing;		/* that default's bits (fixed-length types) */
} GrAttr;

/* What one scan decodes: sized for its attributes (GR_DECODE_DESC_SIZE). */
typedef struct GrDecodeDesc
{
	int			natts;			/* attributes described (up to the last col) */
	int			ncols;			/* columns the scan reads */
	/*
	 * Where the walk of a tuple without NULLs starts: the attributes before
	 * walk_att are fixed-length and lie at their cached offsets, ending at
	 * walk_off (unaligned), so the walk need not step through them
	 */
	int			walk_att;
	uint32_t	walk_off;
	int16_t		col_attno[GR_DECODE_MAX_COLS];	/* 0-based attribute numbers */
	GrAttr		att[];			/* natts of them */
} GrDecodeDesc;

#define GR_DECODE_DESC_SIZE(natts) \
	(offsetof(GrDecodeDesc, att) + sizeof(GrAttr) * (size_t) (natts))

/* A comparison of one column with a constant. */
typedef enum GrQualOp
{
	GR_QUAL_EQ,
	GR_QUAL_NE,
	GR_QUAL_LT,
	GR_QUAL_LE,
	GR_QUAL_GT,
	GR_QUAL_GE,
	GR_QUAL_ISNULL,
	GR_QUAL_NOTNULL,
	GR_QUAL_FALSE				/* compared with NULL: no row passes */
} GrQualOp;

/* How a column's bits compare: as a signed integer or as a double. */
typedef enum GrValueKind
{
	GR_KIND_INT,
	GR_KIND_FLOAT
} GrValueKind;

typedef struct GrQual
{
	int			col;			/* index into the desc's columns */
	uint8_t		op;				/* GrQualOp */
	uint8_t		kind;			/* GrValueKind of the comparison */
	uint8_t		width;			/* the column's width in bytes */
	int64_t		ival;			/* the constant, for GR_KIND_INT */
	double		fval;			/* the constant, for GR_KIND_FLOAT */
} GrQual;

GR_HOSTDEV uint16_t
gr_load16(const uint8_t *p)
{
	uint16_t	v;

	memcpy(&v, p, sizeof(v));
	return v;
}

GR_HOSTDEV uint32_t
gr_load32(const uint8_t *p)
{
	uint32_t	v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The bits of a fixed-length value of len bytes at p, zero-extended. */
GR_HOSTDEV uint64_t
gr_load_value(const uint8_t *p, int len)
{
	uint64_t	v = 0;

	switch (len)
	{
		case 1:
			v = *p;
			break;
		case 2:
			v = gr_load16(p);
			break;
		case 4:
			v = gr_load32(p);
			break;
		case 8:
			memcpy(&v, p, 8);
			break;
	}
	return v;
}

/* The tuple at line pointer 'off' (1-based) of a page. */
GR_HOSTDEV const uint8_t *
gr_page_tuple(const uint8_t *page, int off)
{
	uint32_t	lp = gr_load32(page + GR_PAGE_LINP_OFFSET + 4 * (off - 1));

	return page + (lp & 0x7FFF);	/* lp_off: the low 15 bits */
}

/* Whether line pointer 'off' (1-based) is LP_NORMAL (ItemIdIsNormal). */
GR_HOSTDEV bool
gr_page_lp_normal(const uint8_t *page, int off)
{
	uint32_t	lp = gr_load32(page + GR_PAGE_LINP_OFFSET + 4 * (off - 1));

	return ((lp >> 15) & 3) == 1;	/* lp_flags == LP_NORMAL */
}

/*
 * The length of that tuple (lp_len, the high 15 bits), or 0 when it would
 * not lie inside a page of page_size bytes.
 */
GR_HOSTDEV uint32_t
gr_page_tuple_len(const uint8_t *page, int off, uint32_t page_size)
{
	uint32_t	lp = gr_load32(page + GR_PAGE_LINP_OFFSET + 4 * (off - 1));
	uint32_t	lp_off = lp & 0x7FFF;
	uint32_t	lp_len = lp >> 17;

	return lp_off + lp_len <= page_size ? lp_len : 0;
}

/* Total size of the varlena at p, any header form (VARSIZE_ANY). */
GR_HOSTDEV uint32_t
gr_varsize_any(const uint8_t *p)
{
	if (p[0] == 0x01)			/* 1-byte external: a TOAST pointer */
		return GR_VARHDRSZ_EXTERNAL + GR_VARTAG_ONDISK_SIZE;
	if (p[0] & 0x01)			/* 1-byte header */
		return (p[0] >> 1) & 0x7F;
	return (gr_load32(p) >> 2) & 0x3FFFFFFF;
}

/* Round off up to a multiple of align (a power of two). */
GR_HOSTDEV uint32_t
gr_align(uint32_t off, int align)
{
	return (off + (uint32_t) align - 1) & ~((uint32_t) align - 1);
}

/*
 * Find the varlena of an attribute at *off in a tuple's datalen data bytes:
 * aligned first unless it has a short or external header (no pad byte
 * then).  Sets *off to its start and *size to its total size; false when its
 * header or its bytes would lie outside the data.  Inlined into the decoder's
 * walk, with the common 1-byte header (not a TOAST pointer's) tested first.
 */
GR_HOSTDEV_INLINE bool
gr_varlena_at(const uint8_t *data, uint32_t datalen, int align, uint32_t *off,
			  uint32_t *size)
{
	uint32_t	o = *off;

	if (o >= datalen)
		return false;
	if ((data[o] & 0x01) && data[o] != 0x01)
	{
		*size = data[o] >> 1;
		return o + *size <= datalen;
	}
	if (data[o] == 0)
		o = gr_align(o, align);
	if (o >= datalen || (!(data[o] & 0x01) && o + 4 > datalen))
		return false;
	*size = gr_varsize_any(data + o);
	if (o + *size > datalen)
		return false;
	*off = o;
	return true;
}

/*
 * Step *off past a non-NULL attribute of a tuple's datalen data bytes, as
 * heap_deform_tuple does: aligned for a fixed-length one or a varlena with a
 * 4-byte header, not for one with a 1-byte header (the common case, taken
 * first).  False when its header or its bytes would lie outside the data.
 */
GR_HOSTDEV_INLINE bool
gr_step_att(const GrAttr *pa, const uint8_t *data, uint32_t datalen, uint32_t *off)
{
	uint32_t	o = *off;

	if (pa->len > 0)
		o = gr_align(o, pa->align) + (uint32_t) pa->len;
	else if (pa->len == -1)
	{
		uint32_t	size;

		if (!gr_varlena_at(data, datalen, pa->align, &o, &size))
			return false;
		o += size;
	}
	else
	{
		const uint8_t *s = data + o;

		while (o + (uint32_t) (s - (data + o)) < datalen && *s)
			s++;
		o += (uint32_t) (s - (data + o)) + 1;
	}
	if (o > datalen)
		return false;
	*off = o;
	return true;
}

/*
 * Decode the desc's columns of one heap tuple of tuplen bytes (the line
 * pointer's lp_len): vals[i] gets column i's bits, nulls[i] whether it is
 * NULL.  Columns are fixed-length by-value types, or varlenas whose address
 * in the tuple is their value (numeric).  A tuple without NULLs
 * or variable-length attributes reads each column at its cached offset; any
 * other walks the attributes before it, as heap_deform_tuple does, from the
 * first one past the leading fixed-length attributes when it has no NULLs
 * (walk_att: their offsets are cached, as slot_deform_heap_tuple uses
 * them).  Every read stays inside the tuple: false when the tuple's own header or
 * lengths would lead outside it (a corrupt tuple, or on the GPU a page that
 * is no longer pinned), and then nothing it says is used.
 */
GR_HOSTDEV bool
gr_decode_tuple(const GrDecodeDesc *d, const uint8_t *tup, uint32_t tuplen,
				uint64_t *vals, bool *nulls)
{
	uint16_t	infomask2;
	uint16_t	infomask;
	int			natts;
	uint32_t	hoff;
	uint32_t	datalen;
	const uint8_t *data;
	const uint8_t *bits = tup + GR_TUP_BITS_OFFSET;
	bool		hasnulls;
	uint32_t	off = 0;
	int			a = 0;

	if (tuplen <= GR_TUP_BITS_OFFSET)
		return false;
	infomask2 = gr_load16(tup + GR_TUP_INFOMASK2_OFFSET);
	infomask = gr_load16(tup + GR_TUP_INFOMASK_OFFSET);
	natts = infomask2 & GR_HEAP_NATTS_MASK;
	hoff = tup[GR_TUP_HOFF_OFFSET];
	hasnulls = (infomask & GR_HEAP_HASNULL) != 0;
	if (hoff > tuplen || (hasnulls && GR_TUP_BITS_OFFSET + (uint32_t) (natts + 7) / 8 > hoff))
		return false;
	data = tup + hoff;
	datalen = tuplen - hoff;

	if (!(infomask & (GR_HEAP_HASNULL | GR_HEAP_HASVARWIDTH)))
	{
		for (int c = 0; c < d->ncols; c++)
		{
			int			attno = d->col_attno[c];
			const GrAttr *att = &d->att[attno];

			if (attno < natts)
			{
				if ((uint32_t) att->cacheoff + (uint32_t) att->len > datalen)
					return false;
				nulls[c] = false;
				vals[c] = gr_load_value(data + att->cacheoff, att->len);
			}
			else
			{
				nulls[c] = !att->has_missing;
				vals[c] = att->missing;
			}
		}
		return true;
	}

	/* no NULLs: the leading fixed-length attributes are where cacheoff says */
	if (!hasnulls)
	{
		a = d->walk_att;
		off = d->walk_off;
	}

	/* columns are in attribute order: walk once up to the last */
	for (int c = 0; c < d->ncols; c++)
	{
		int			attno = d->col_attno[c];
		const GrAttr *att = &d->att[attno];

		if (attno >= natts)
		{
			nulls[c] = !att->has_missing;
			vals[c] = att->missing;
			continue;
		}
		/* the bitmap's test out of the loop: most tuples have no NULLs */
		if (hasnulls)
		{
			for (; a < attno; a++)
				if ((bits[a >> 3] & (1 << (a & 7))) &&
					!gr_step_att(&d->att[a], data, datalen, &off))
					return false;
		}
		else
		{
			for (; a < attno; a++)
				if (!gr_step_att(&d->att[a], data, datalen, &off))
					return false;
		}
		if (hasnulls && !(bits[attno >> 3] & (1 << (attno & 7))))
		{
			nulls[c] = true;
			vals[c] = 0;
		}
		else if (att->len == -1)
		{
			uint32_t	size;

			if (!gr_varlena_at(data, datalen, att->align, &off, &size))
				return false;
			nulls[c] = false;
			vals[c] = (uint64_t) (uintptr_t) (data + off);
		}
		else
		{
			off = gr_align(off, att->align);
			if (off + (uint32_t) att->len > datalen)
				return false;
			nulls[c] = false;
			vals[c] = gr_load_value(data + off, att->len);
		}
	}
	return true;
}

/* A column's bits as a signed integer of its width. */
GR_HOSTDEV int64_t
gr_value_int(uint64_t bits, int width)
{
	switch (width)
	{
		case 1:
			return (int8_t) bits;
		case 2:
			return (int16_t) bits;
		case 4:
			return (int32_t) bits;
	}
	return (int64_t) bits;
}

/* A float4 or float8 column's bits as a double (exact for float4). */
GR_HOSTDEV double
gr_value_float(uint64_t bits, int width)
{
	if (width == 4)
	{
		uint32_t	b = (uint32_t) bits;
		float		f;

		memcpy(&f, &b, sizeof(f));
		return (double) f;
	}
	else
	{
		double		v;

		memcpy(&v, &bits, sizeof(v));
		return v;
	}
}

/* PostgreSQL's float comparison: NaN equals NaN and sorts above all. */
GR_HOSTDEV int
gr_float_cmp(double a, double b)
{
	if (a != a)
		return b != b ? 0 : 1;
	if (b != b)
		return -1;
	return a > b ? 1 : (a < b ? -1 : 0);
}

/* Whether a row's columns pass every comparison. */
GR_HOSTDEV bool
gr_quals_pass(const GrQual *q, int nquals, const uint64_t *vals,
			  const bool *nulls)
{
	for (int i = 0; i < nquals; i++)
	{
		int			c = q[i].col;
		int			cmp;

		if (q[i].op == GR_QUAL_ISNULL)
		{
			if (!nulls[c])
				return false;
			continue;
		}
		if (nulls[c] || q[i].op == GR_QUAL_FALSE)
			return false;
		if (q[i].op == GR_QUAL_NOTNULL)
			continue;
		if (q[i].kind == GR_KIND_INT)
		{
			int64_t		v = gr_value_int(vals[c], q[i].width);

			cmp = v > q[i].ival ? 1 : (v < q[i].ival ? -1 : 0);
		}
		else
			cmp = gr_float_cmp(gr_value_float(vals[c], q[i].width), q[i].fval);
		switch (q[i].op)
		{
			case GR_QUAL_EQ:
				if (cmp != 0)
					return false;
				break;
			case GR_QUAL_NE:
				if (cmp == 0)
					return false;
				break;
			case GR_QUAL_LT:
				if (cmp >= 0)
					return false;
				break;
			case GR_QUAL_LE:
				if (cmp > 0)
					return false;
				break;
			case GR_QUAL_GT:
				if (cmp <= 0)
					return false;
				break;
			case GR_QUAL_GE:
				if (cmp < 0)
					return false;
				break;
		}
	}
	return true;
}

#endif							/* GR_TUPLE_DECODE_H */
