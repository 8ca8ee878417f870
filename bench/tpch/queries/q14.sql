-- TPC-H Q14, exactly as DuckDB 1.4.4's tpch extension (PyPI duckdb-ext-tpch==1.4.4.20260205) gives it:
--   SELECT query FROM tpch_queries() WHERE query_nr = 14
-- the standard TPC-H text with the specification's default substitution
-- parameters (written by bench/tpch/gen.py --write-queries).
-- PostgreSQL runs it as written: no change.
SELECT
    100.00 * sum(
        CASE WHEN p_type LIKE 'PROMO%' THEN
            l_extendedprice * (1 - l_discount)
        ELSE
            0
        END) / sum(l_extendedprice * (1 - l_discount)) AS promo_revenue
FROM
    lineitem,
    part
WHERE
    l_partkey = p_partkey
    AND l_shipdate >= date '1995-09-01'
    AND l_shipdate < CAST('1995-10-01' AS date);
