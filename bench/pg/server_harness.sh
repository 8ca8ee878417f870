# bench/pg/server_harness.sh -- the server on a Debian host, through test/harness.sh (source it).
#
# Installs what is missing, builds and installs the extension (unless
# PGB_NO_BUILD=1), starts a throwaway PostgreSQL 15 as an unprivileged user with
# gpu_reduce preloaded (so the GPU service runs where there is a GPU) and
# creates the database gpu_reduce_bench.  The floor probe (bench/floor) is
# built and installed beside it, for the floor_* cases.  The server and its files are removed
# when the script exits (test/harness.sh's trap).
# Defines: pgb_server_start OPTS..., pgb_psql ARGS...

# shellcheck source=test/harness.sh
source "$PGB_ROOT/test/harness.sh" "${PGB_ARGS[@]}"

# Start the server with extra postgres options (-c name=value ...).
pgb_server_start() {
	gr_ensure_packages
	if [ "${PGB_NO_BUILD:-0}" = 1 ]; then
		gr_log "not building (--no-build): using the installed gpu_reduce"
	else
		gr_build >"$PGB_OUT/build.log"
		make -C "$PGB_ROOT/bench/floor" PG_CONFIG="$PG_CONFIG" install >>"$PGB_OUT/build.log" 2>&1 ||
			pgb_log "the floor probe did not build (see $PGB_OUT/build.log): floor_* cases will fail"
	fi
	gr_start "$@"
	gr_psql -d postgres -qc "CREATE DATABASE gpu_reduce_bench" >/dev/null
	pgb_psql -qc "CREATE EXTENSION gpu_reduce" >/dev/null
	pgb_psql -qc "CREATE EXTENSION gpu_reduce_floor" >/dev/null 2>&1 ||
		pgb_log "no gpu_reduce_floor extension: floor_* cases will fail"
}

# psql on the benchmark database.
pgb_psql() {
	gr_psql -d gpu_reduce_bench "$@"
}
