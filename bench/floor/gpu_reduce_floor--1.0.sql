-- gpu_reduce_floor 1.0: the page-walk floor probe (bench/floor/README.md).
\echo Use "CREATE EXTENSION gpu_reduce_floor" to load this file. \quit

-- Sum of column COL of heap table REL, read straight from its pages through
-- the buffer manager; blocks FIRST_BLOCK .. FIRST_BLOCK + NBLOCKS - 1 (NULL: to the end).
CREATE FUNCTION gr_floor_sum(rel regclass, col name,
                             first_block bigint DEFAULT 0, nblocks bigint DEFAULT NULL)
RETURNS numeric
AS 'MODULE_PATHNAME', 'gr_floor_sum'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
