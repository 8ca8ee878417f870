# bench/pg/star_tables.sh -- the star schema of joins.sh and eager.sh (source it; needs pgb_psql and pgb_log).
#
# pgb_star_tables ROWS: a fact table of ROWS rows (jb_fact) with three
# dimensions (100 000 customers, 10 000 items, 100 stores) and a region table
# under the stores, all keyed, frozen and analyzed; kept where jb_fact already
# has ROWS rows.

pgb_star_tables() {
	local rows=$1 loaded
	loaded=$(pgb_psql -Atc "SELECT count(*) FROM pg_class WHERE relname = 'jb_fact' AND reltuples = $rows" 2>/dev/null || echo 0)
	[ "$loaded" != 1 ] || return 0
	pgb_log "loading $rows rows"
	pgb_psql -q <<SQL
SET client_min_messages = warning;
DROP TABLE IF EXISTS jb_fact, jb_customer, jb_item, jb_store, jb_region;
CREATE TABLE jb_region (r_id int PRIMARY KEY, r_name text);
INSERT INTO jb_region SELECT i, 'region' || i FROM generate_series(0, 4) i;
CREATE TABLE jb_store (s_id int PRIMARY KEY, s_region int, s_size int);
INSERT INTO jb_store SELECT i, i % 5, i % 7 FROM generate_series(1, 100) i;
CREATE TABLE jb_item (it_id int PRIMARY KEY, it_class int, it_price numeric(10,2));
INSERT INTO jb_item SELECT i, i % 40, (i % 500) + 0.99 FROM generate_series(1, 10000) i;
CREATE TABLE jb_customer (c_id int PRIMARY KEY, c_segment int, c_since date);
INSERT INTO jb_customer SELECT i, i % 5, date '2015-01-01' + (i % 2000) FROM generate_series(1, 100000) i;
CREATE TABLE jb_fact (f_id bigint, f_customer int, f_item int, f_store int, f_qty int,
                      f_amount numeric(12,2), f_day date) WITH (parallel_workers = 8);
INSERT INTO jb_fact SELECT i, (1 + (i * 7919) % 100000)::int, (1 + (i * 104729) % 10000)::int,
       (1 + i % 100)::int, (1 + i % 20)::int, ((i * 31) % 100000) / 100.0,
       date '2020-01-01' + (i % 1460)::int
FROM generate_series(1::bigint, $rows) i;
VACUUM (FREEZE, ANALYZE) jb_fact, jb_customer, jb_item, jb_store, jb_region;
SQL
}
