-- The zero-copy floor of a scan of lineitem (timing.sh's tpch_floor runs it
-- with gpu_reduce.debug_page_read_only on: every page read, nothing decoded).
SELECT gpu_sum(l_orderkey) FROM lineitem;
