# bench/pg/star_tables.sh -- the star schema and the harness joins.sh and
# eager.sh share (source it, with PGB_ROOT, PGB_DIR, PGB_NAME, PGB_SERVER,
# PGB_OUT and PGB_ARGS set).
#
# Sourcing it sources the server's script, PGB_SERVER's (harness or
# gpuhost: server_harness.sh, server_gpuhost.sh), and defines:
# pgb_log, pgb_die: messages tagged [PGB_NAME].
# pgb_star_start SHARED_BUFFERS ROWS: start the server with gpu_reduce
# preloaded, create the extensions and the star schema (pgb_star_tables).
# pgb_star_tables ROWS: a fact table of ROWS rows (jb_fact) with three
# dimensions (100 000 customers, 10 000 items, 100 stores) and a region table
# under the stores, all keyed, frozen and analyzed; kept where jb_fact already
# has ROWS rows.
# pgb_star_queries: joins.sh's five queries over it, "name | query" lines.
# pgb_run_ms OPTIONS QUERY: milliseconds of one run in a fresh session.
# pgb_median: the median of the numbers on stdin.
# pgb_answer OPTIONS QUERY: the md5 of the query's rows as sorted text.

pgb_log() { printf '[%s] %s\n' "$PGB_NAME" "$*" >&2; }
pgb_die() { printf '[%s] ERROR: %s\n' "$PGB_NAME" "$*" >&2; exit 1; }

case $PGB_SERVER in
harness) source "$PGB_DIR/server_harness.sh" ;;
gpuhost) source "$PGB_DIR/server_gpuhost.sh" ;;
*) pgb_die "unknown server '$PGB_SERVER' (harness or gpuhost)" ;;
esac

pgb_star_start() {
	pgb_server_start -c shared_preload_libraries=gpu_reduce -c max_worker_processes=32 \
		-c max_parallel_workers=16 -c shared_buffers="$1" -c work_mem=256MB
	pgb_psql -qc "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS gpu_reduce" >/dev/null
	pgb_psql -qc "CREATE EXTENSION IF NOT EXISTS pg_prewarm" >/dev/null 2>&1 || true
	pgb_star_tables "$2"
}

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

pgb_star_queries() {
	cat <<'Q'
star1   | SELECT s_region, sum(f_qty), sum(f_amount), count(*) FROM jb_fact JOIN jb_store ON s_id = f_store GROUP BY 1
star2   | SELECT it_class, sum(f_amount), count(*) FROM jb_fact JOIN jb_item ON it_id = f_item WHERE it_price < 100 GROUP BY 1
star3   | SELECT c_segment, r_name, sum(f_amount), count(*) FROM jb_fact JOIN jb_customer ON c_id = f_customer JOIN jb_store ON s_id = f_store JOIN jb_region ON r_id = s_region WHERE f_day >= date '2022-01-01' GROUP BY 1, 2
span    | SELECT s_region, sum(f_qty * it_price), count(*) FROM jb_fact JOIN jb_item ON it_id = f_item JOIN jb_store ON s_id = f_store GROUP BY 1
q3like  | SELECT f_customer, c_since, sum(f_amount * (1 - f_qty * 0.01)) AS rev FROM jb_fact JOIN jb_customer ON c_id = f_customer WHERE c_segment = 1 AND f_day < date '2021-06-01' GROUP BY 1, 2 ORDER BY rev DESC, f_customer LIMIT 10
Q
}

pgb_run_ms() {
	PGOPTIONS="$1" pgb_psql -X -q -c '\timing on' -c '\o /dev/null' -c "$2" |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
}

pgb_median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

pgb_answer() { PGOPTIONS="$1" pgb_psql -X -At -c "SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) FROM ($2) t"; }
