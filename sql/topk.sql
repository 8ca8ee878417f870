--
-- gpu_top2(x) and gpu_topk(x, k): the largest non-NULL values, descending,
-- duplicates counted; fewer than k when there are fewer values; NULL when
-- there are none.  Floats in PostgreSQL's order (NaN greatest), -0 below +0.
-- Reference: the first k values of ORDER BY x DESC.
--
CREATE FUNCTION topk_error(q text) RETURNS text LANGUAGE plpgsql AS
$$ BEGIN EXECUTE q; RETURN 'no error';
   EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ': ' || SQLERRM; END $$;

CREATE TABLE topk_t (i int, g int, a int2, b int4, c int8, r float4, d float8);
-- few distinct values per type, so ties are everywhere
INSERT INTO topk_t
SELECT i, i % 503,
       CASE WHEN i % 9 <> 0 THEN ((i * 7919) % 1000 - 500)::int2 END,
       CASE WHEN i % 9 <> 1 THEN ((i::bigint * 2654435761) % 100003 - 50000)::int4 END,
       CASE WHEN i % 9 <> 2 THEN ((i::bigint * 2654435761) % 100003 - 50000) * 92233720368547 END,
       CASE WHEN i % 9 <> 3 THEN ((i * 7919) % 2000 - 1000) / 8.0 END,
       CASE WHEN i % 9 <> 4 THEN ((i::bigint * 2654435761) % 100003 - 50000) * 1.25e-5 END
FROM generate_series(1, 100000) i;

-- whole table, several k, every type
SELECT k,
       gpu_topk(a, k) = (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT a x FROM topk_t WHERE a IS NOT NULL ORDER BY a DESC LIMIT k) s) AS int2,
       gpu_topk(b, k) = (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT b x FROM topk_t WHERE b IS NOT NULL ORDER BY b DESC LIMIT k) s) AS int4,
       gpu_topk(c, k) = (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT c x FROM topk_t WHERE c IS NOT NULL ORDER BY c DESC LIMIT k) s) AS int8,
       gpu_topk(r, k) = (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT r x FROM topk_t WHERE r IS NOT NULL ORDER BY r DESC LIMIT k) s) AS float4,
       gpu_topk(d, k) = (SELECT array_agg(x ORDER BY x DESC) FROM (SELECT d x FROM topk_t WHERE d IS NOT NULL ORDER BY d DESC LIMIT k) s) AS float8
FROM topk_t, (VALUES (1), (2), (3), (10), (257), (5000)) ks(k)
GROUP BY k ORDER BY k;
SELECT gpu_top2(a) AS int2, gpu_top2(b) AS int4, gpu_top2(c) AS int8, gpu_top2(r) AS float4, gpu_top2(d) AS float8
FROM topk_t;
SELECT gpu_top2(a) = gpu_topk(a, 2) AND gpu_top2(b) = gpu_topk(b, 2) AND gpu_top2(c) = gpu_topk(c, 2)
       AND gpu_top2(r) = gpu_topk(r, 2) AND gpu_top2(d) = gpu_topk(d, 2) AS top2_is_topk_2
FROM topk_t;
SELECT gpu_topk(a, 12) AS int2_top12, gpu_topk(r, 6) AS float4_top6 FROM topk_t;
-- k larger than the number of values: all of them, descending
SELECT gpu_topk(b, 100000) = (SELECT array_agg(b ORDER BY b DESC) FROM topk_t WHERE b IS NOT NULL) AS all_values,
       cardinality(gpu_topk(b, 100000)) AS n, count(b) AS count
FROM topk_t;

-- per group
SELECT count(*) AS groups,
       count(*) FILTER (WHERE q.top2_a = ref.top2_a AND q.top2_b = ref.top2_b AND q.top2_c = ref.top2_c
                          AND q.top2_r = ref.top2_r AND q.top2_d = ref.top2_d
                          AND q.top5_b = ref.top5_b AND q.top5_d = ref.top5_d) AS equal
FROM (SELECT g, gpu_top2(a) top2_a, gpu_top2(b) top2_b, gpu_top2(c) top2_c, gpu_top2(r) top2_r, gpu_top2(d) top2_d,
             gpu_topk(b, 5) top5_b, gpu_topk(d, 5) top5_d
      FROM topk_t GROUP BY g) q
JOIN (SELECT g, (array_agg(a ORDER BY a DESC) FILTER (WHERE a IS NOT NULL))[1:2] top2_a,
                (array_agg(b ORDER BY b DESC) FILTER (WHERE b IS NOT NULL))[1:2] top2_b,
                (array_agg(c ORDER BY c DESC) FILTER (WHERE c IS NOT NULL))[1:2] top2_c,
                (array_agg(r ORDER BY r DESC) FILTER (WHERE r IS NOT NULL))[1:2] top2_r,
                (array_agg(d ORDER BY d DESC) FILTER (WHERE d IS NOT NULL))[1:2] top2_d,
                (array_agg(b ORDER BY b DESC) FILTER (WHERE b IS NOT NULL))[1:5] top5_b,
                (array_agg(d ORDER BY d DESC) FILTER (WHERE d IS NOT NULL))[1:5] top5_d
      FROM topk_t GROUP BY g) ref USING (g);

-- small sets a reviewer can check by eye
SELECT gpu_top2(x) FROM (VALUES (5), (3), (5)) v(x);                         -- {5,5}
SELECT gpu_top2(x) FROM (VALUES (3), (5), (4), (NULL)) v(x);                 -- {5,4}
SELECT gpu_top2(x) FROM (VALUES (7::int8), (NULL)) v(x);                     -- {7}
SELECT gpu_top2(x) FROM (VALUES (NULL::int2)) v(x);                          -- NULL
SELECT gpu_top2(x) FROM (VALUES (1::float8)) v(x) WHERE false;               -- NULL
SELECT gpu_topk(x, 3) FROM (VALUES (1), (9), (9), (2), (9), (8)) v(x);       -- {9,9,9}
SELECT gpu_topk(x, 4) FROM (VALUES (1::int2), (2)) v(x);                     -- {2,1}
SELECT gpu_topk(x, 1) FROM (VALUES (-1::int8), (-2)) v(x);                   -- {-1}
-- extremes of each type
SELECT gpu_top2(x) FROM (VALUES ((-32768)::int2), (32767), (0)) v(x);                                -- {32767,0}
SELECT gpu_topk(x, 3) FROM (VALUES ((-2147483648)::int4), (2147483647), (-2147483648)) v(x);        -- {2147483647,-2147483648,-2147483648}
SELECT gpu_topk(x, 3) FROM (VALUES ((-9223372036854775808)::int8), (9223372036854775807), (-1)) v(x); -- {9223372036854775807,-1,-9223372036854775808}
SELECT gpu_topk(x, 5) FROM (VALUES ('NaN'::float8), ('Infinity'), ('-Infinity'), (1), ('NaN')) v(x);   -- {NaN,NaN,Infinity,1,-Infinity}
SELECT gpu_topk(x, 5) FROM (VALUES ('-Infinity'::float4), ('NaN'), ('Infinity'), (3e38)) v(x);        -- {NaN,Infinity,3e+38,-Infinity}
SELECT gpu_topk(x, 3) FROM (VALUES (5e-324::float8), (-5e-324), (0), (1e-323)) v(x);                   -- {1e-323,5e-324,0}
SELECT gpu_topk(x, 3) FROM (VALUES (1.4e-45::float4), (-1.4e-45), ('-0')) v(x);                        -- {1e-45,-0,-1e-45}
-- -0 below +0 whatever the row order
SELECT gpu_top2(x) FROM (VALUES ('-0'::float8), ('0')) v(x);                  -- {0,-0}
SELECT gpu_top2(x) FROM (VALUES ('0'::float8), ('-0')) v(x);                  -- {0,-0}
SELECT gpu_topk(x, 1) FROM (VALUES ('-0'::float4), ('0'), ('-0')) v(x);       -- {0}
SELECT gpu_topk(x, 3) FROM (VALUES ('-0'::float4), ('0'), ('-0')) v(x);       -- {0,-0,-0}
SELECT gpu_topk(x, 2) FROM (VALUES (-1::float8), ('-0'), ('-0')) v(x);        -- {-0,-0}
-- a NaN with its sign bit set is NaN all the same
SELECT gpu_topk(x, 3) FROM (VALUES (1::float8), (-('NaN'::float8)), (2)) v(x);         -- {NaN,2,1}
SELECT gpu_top2(x) FROM (VALUES (1::float4), (-('NaN'::float4)), (2)) v(x);            -- {NaN,2}
-- NaN greatest, across many rows and batches
SELECT gpu_top2(CASE WHEN g = 777 THEN 'NaN'::float8 ELSE g END) FROM generate_series(1, 2000) g;   -- {NaN,2000}
SELECT gpu_topk(CASE WHEN g % 1000 = 0 THEN 'NaN'::float4 ELSE g END, 3) FROM generate_series(1, 5000) g; -- {NaN,NaN,NaN}

-- k must be a constant between 1 and 100000, the same for every row of a group
SELECT gpu_topk(x, NULL) FROM (VALUES (1), (2)) v(x);
SELECT gpu_topk(x, 0) FROM (VALUES (1), (2)) v(x);
SELECT gpu_topk(x, -1) FROM (VALUES (1::float8)) v(x);
SELECT gpu_topk(x, 100001) FROM (VALUES (1::int8)) v(x);
SELECT gpu_topk(x, x) FROM (VALUES (1), (2)) v(x);
SELECT topk_error('SELECT gpu_topk(x, NULL) FROM (VALUES (1), (2)) v(x)');
SELECT topk_error('SELECT gpu_topk(x::int2, 0) FROM (VALUES (1), (2)) v(x)');
SELECT topk_error('SELECT gpu_topk(x::float4, 100001) FROM (VALUES (1), (2)) v(x)');
SELECT topk_error('SELECT gpu_topk(x::int8, (x % 2)::int + 1) FROM generate_series(1, 10) v(x)');
SELECT topk_error('SELECT g, gpu_topk(x::float8, CASE WHEN x > 500 THEN 3 ELSE 2 END) FROM generate_series(1, 1000) x, generate_series(1, 2) g GROUP BY g');
-- k is checked on every row, a NULL value too; over no rows there is no error
-- (the table: through the bulk scan, or the row path in its pass, alike)
SELECT gpu_topk(x, 0) AS no_rows FROM generate_series(1, 0) x;
SELECT topk_error('SELECT gpu_topk(x, 0) FROM (VALUES (NULL::int8), (NULL)) v(x)');
CREATE TABLE topk_nulls AS SELECT g, NULL::int8 AS x FROM generate_series(1, 2000) g;
ANALYZE topk_nulls;
SELECT topk_error('SELECT gpu_topk(x, 0) FROM topk_nulls');
SELECT gpu_topk(x, 0) AS no_rows FROM topk_nulls WHERE g < 0;
DROP TABLE topk_nulls;
-- k may differ between groups
SELECT g, gpu_topk(x, g) FROM generate_series(1, 10) x, generate_series(1, 3) g GROUP BY g ORDER BY g;
SELECT gpu_topk(x, 100000) = (SELECT array_agg(y ORDER BY y DESC) FROM generate_series(1, 1000) y) AS k_max
FROM generate_series(1, 1000) x;

DROP TABLE topk_t;
DROP FUNCTION topk_error(text);
