-- TPC-H Q16, exactly as DuckDB 1.4.4's tpch extension (PyPI duckdb-ext-tpch==1.4.4.20260205) gives it:
--   SELECT query FROM tpch_queries() WHERE query_nr = 16
-- the standard TPC-H text with the specification's default substitution
-- parameters (written by bench/tpch/gen.py --write-queries).
-- PostgreSQL runs it as written: no change.
SELECT
    p_brand,
    p_type,
    p_size,
    count(DISTINCT ps_suppkey) AS supplier_cnt
FROM
    partsupp,
    part
WHERE
    p_partkey = ps_partkey
    AND p_brand <> 'Brand#45'
    AND p_type NOT LIKE 'MEDIUM POLISHED%'
    AND p_size IN (49, 14, 23, 45, 19, 3, 36, 9)
    AND ps_suppkey NOT IN (
        SELECT
            s_suppkey
        FROM
            supplier
        WHERE
            s_comment LIKE '%Customer%Complaints%')
GROUP BY
    p_brand,
    p_type,
    p_size
ORDER BY
    supplier_cnt DESC,
    p_brand,
    p_type,
    p_size;
