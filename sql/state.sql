--
-- gpu_reduce_state_info(bytea) runs the checks of the state deserializer
-- (what parallel workers send to the leader) and describes a valid state.
-- Layout, integers big-endian: version (1 byte, = 1), op (1 byte: 1 sum,
-- 2 min, 3 max, 4 avg, 5 topk), type (1 byte: 1 int2, 2 int4, 3 int8,
-- 4 float4, 5 float8), count (int64), then
--   sum, avg of integer types: hi int64, lo int64 (128-bit sum)
--   min, max: order key int64
--   topk: k int32, n int32, n keys int64
-- Nothing may follow.  Malformed input is an error 22P03 whose message
-- starts with 'invalid gpu_reduce state'.
--
-- SQLSTATE and message prefix of an error, or the description
CREATE FUNCTION st_check(s bytea) RETURNS text LANGUAGE plpgsql AS
$$ BEGIN RETURN 'valid: ' || gpu_reduce_state_info(s);
   EXCEPTION WHEN OTHERS THEN
     RETURN SQLSTATE || CASE WHEN SQLERRM LIKE 'invalid gpu_reduce state%' THEN ' invalid gpu_reduce state'
                             ELSE ' unexpected message: ' || SQLERRM END; END $$;

-- valid states
SELECT gpu_reduce_state_info('\x010102'::bytea || int8send(3) || int8send(0) || int8send(6));   -- op=sum type=int4 count=3
SELECT st_check('\x010101'::bytea || int8send(1) || int8send(-1) || int8send(-7)) AS sum_int2_negative,
       st_check('\x010103'::bytea || int8send(2) || int8send(1) || int8send(0)) AS sum_int8_2_to_64,
       st_check('\x010102'::bytea || int8send(0) || int8send(0) || int8send(0)) AS sum_empty;
SELECT st_check('\x010402'::bytea || int8send(4) || int8send(0) || int8send(10)) AS avg_int4;
SELECT st_check('\x010403'::bytea || int8send(2) || int8send(-1) || int8send(0)) AS avg_int8;
SELECT st_check('\x010201'::bytea || int8send(5) || int8send(0)) AS min_int2;
SELECT st_check('\x010305'::bytea || int8send(5) || int8send(0)) AS max_float8;
SELECT st_check('\x010503'::bytea || int8send(2) || int4send(3) || int4send(2) || int8send(9) || int8send(4)) AS topk_int8;
SELECT st_check('\x010502'::bytea || int8send(1) || int4send(2) || int4send(1) || int8send(9)) AS top2_int4;

-- malformed: errors
SELECT gpu_reduce_state_info('\x'::bytea);
SELECT gpu_reduce_state_info('\x020102'::bytea || int8send(3) || int8send(0) || int8send(6));
SELECT gpu_reduce_state_info('\x010102'::bytea || int8send(3) || int8send(0) || int8send(6) || '\x00'::bytea);
SELECT name, st_check(s) FROM (VALUES
  ('empty',            '\x'::bytea),
  ('version only',     '\x01'::bytea),
  ('no type',          '\x0101'::bytea),
  ('no count',         '\x010102'::bytea),
  ('version 0',        '\x000102'::bytea || int8send(3) || int8send(0) || int8send(6)),
  ('version 2',        '\x020102'::bytea || int8send(3) || int8send(0) || int8send(6)),
  ('version 255',      '\xff0102'::bytea || int8send(3) || int8send(0) || int8send(6)),
  ('op 0',             '\x010002'::bytea || int8send(3) || int8send(0) || int8send(6)),
  ('op 6',             '\x010602'::bytea || int8send(3) || int8send(0) || int8send(6)),
  ('op 255',           '\x01ff02'::bytea || int8send(3) || int8send(0) || int8send(6)),
  ('type 0',           '\x010100'::bytea || int8send(3) || int8send(0) || int8send(6)),
  ('type 6',           '\x010106'::bytea || int8send(3) || int8send(0) || int8send(6)),
  ('type 255',         '\x0101ff'::bytea || int8send(3) || int8send(0) || int8send(6)),
  ('sum no lo',        '\x010102'::bytea || int8send(3) || int8send(0)),
  ('sum short lo',     '\x010102'::bytea || int8send(3) || int8send(0) || '\x00000000000006'::bytea),
  ('sum trailing',     '\x010102'::bytea || int8send(3) || int8send(0) || int8send(6) || '\x00'::bytea),
  ('sum trailing int8','\x010102'::bytea || int8send(3) || int8send(0) || int8send(6) || int8send(0)),
  ('min no key',       '\x010202'::bytea || int8send(1)),
  ('max trailing',     '\x010302'::bytea || int8send(1) || int8send(0) || '\xffff'::bytea),
  ('avg no sum',       '\x010402'::bytea || int8send(1)),
  ('topk no n',        '\x010502'::bytea || int8send(1) || int4send(2)),
  ('topk missing key', '\x010502'::bytea || int8send(2) || int4send(2) || int4send(2) || int8send(9)),
  ('topk extra key',   '\x010502'::bytea || int8send(2) || int4send(2) || int4send(1) || int8send(9) || int8send(4)),
  ('topk k 0',         '\x010502'::bytea || int8send(0) || int4send(0) || int4send(0)),
  ('topk k 100001',    '\x010502'::bytea || int8send(0) || int4send(100001) || int4send(0)),
  ('topk n > k',       '\x010502'::bytea || int8send(3) || int4send(2) || int4send(3) || int8send(9) || int8send(8) || int8send(7)),
  ('topk n < 0',       '\x010502'::bytea || int8send(3) || int4send(2) || int4send(-1)),
  ('topk huge n',      '\x010502'::bytea || int8send(3) || int4send(2) || int4send(2147483647)),
  ('negative count',   '\x010102'::bytea || int8send(-1) || int8send(0) || int8send(0)),
  ('topk n > count',   '\x010502'::bytea || int8send(1) || int4send(2) || int4send(2) || int8send(9) || int8send(4)),
  ('float sum cut',    '\x010105'::bytea || int8send(1)),
  ('float4 avg cut',   '\x010404'::bytea || int8send(1) || int8send(0) || int8send(0))
) v(name, s);
-- every proper prefix of a valid state is rejected
SELECT count(*) AS prefixes, count(*) FILTER (WHERE st_check(substring(s FROM 1 FOR n)) = '22P03 invalid gpu_reduce state') AS rejected
FROM (SELECT '\x010503'::bytea || int8send(2) || int4send(3) || int4send(2) || int8send(9) || int8send(4) AS s) v,
     generate_series(0, 34) n;
SELECT gpu_reduce_state_info(NULL) IS NULL AS null_in_null_out;

DROP FUNCTION st_check(bytea);
