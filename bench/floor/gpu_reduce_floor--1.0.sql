-- gpu_reduce_floor 1.0: the page-walk floor probe (bench/floor/README.md).
\echo Use "CREATE EXTENSION gpu_reduce_floor" to load this file. \quit

-- Sum of column COL of heap table REL, read straight from its pages through
-- the buffer manager; blocks FIRST_BLOCK .. FIRST_BLOCK + NBLOCKS - 1 (NULL: to the end).
CREATE FUNCTION gr_floor_sum(rel regclass, col name,
                             first_block bigint DEFAULT 0, nblocks bigint DEFAULT NULL)
RETURNS numeric
AS 'MODULE_PATHNAME', 'gr_floor_sum'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

-- The page path's zero-copy floor (issue 14): run query Q (one text column)
-- with gpu_reduce.debug_page_read_only on, so that the page path's kernel
-- reads exactly the scan's pinned pages out of the buffer pool and decodes
-- nothing: the time of pinning plus the GPU's reading.  The answer is empty
-- (NULL).  RETURN QUERY lets Q use parallel workers (PostgreSQL 14 on);
-- needs a superuser (the setting is).
CREATE FUNCTION gr_page_floor(q text) RETURNS SETOF text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE AS $$
BEGIN
    PERFORM set_config('gpu_reduce.debug_page_read_only', 'on', true);
    RETURN QUERY EXECUTE q;
    PERFORM set_config('gpu_reduce.debug_page_read_only', 'off', true);
END
$$;

-- The page path's per-page CPU work alone (pin, prune, share lock, header,
-- unlock, pins kept HOLD at a time), timed inside the backend; VARIANT 0 is
-- today's buffer lookup, 1-3 use a block -> buffer hint map (gpu_reduce_floor.c).
CREATE FUNCTION gr_pin_walk(rel regclass, variant int, hold int DEFAULT 8192)
RETURNS text
AS 'MODULE_PATHNAME', 'gr_pin_walk'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
