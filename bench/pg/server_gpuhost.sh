# bench/pg/server_gpuhost.sh -- the server on the GPU host (source it).
#
# That host has no PostgreSQL and no apt: the relocatable PostgreSQL 15 in
# .gpuhost/ (a copy of shared/gpuhost) is unpacked into PGB_GPUHOST_DIR
# (default /tmp/pg) and started by its start-pg.sh, then restarted with our
# options.  The extension is installed as test/gpu_host.sh does: a carried
# build ($GPU_REDUCE_SO, else .gpubuild/gpu_reduce.so, else gpu_reduce.so at
# the repository root) if there is one, else built here.  The floor probe
# (bench/floor) is built here with the bundle's PGXS, or carried as
# .gpubuild/gpu_reduce_floor.so.
# The server and the database gpu_reduce_bench are kept after the run, so a
# second run reuses the loaded tables.
# Defines: pgb_server_start OPTS..., pgb_psql ARGS...

PGB_PGDIR=${PGB_GPUHOST_DIR:-/tmp/pg}

# Install the floor probe (bench/floor): a carried build, else built with the bundle's PGXS.
pgb_floor_install() {
	local floor=$PGB_ROOT/bench/floor so=$PGB_ROOT/.gpubuild/gpu_reduce_floor.so
	if [ -f "$so" ]; then
		install -m 755 "$so" "$(pg_config --pkglibdir)/"
		install -m 644 "$floor/gpu_reduce_floor.control" "$floor/gpu_reduce_floor--1.0.sql" \
			"$(pg_config --sharedir)/extension/"
	elif [ "${PGB_NO_BUILD:-0}" != 1 ]; then
		make -C "$floor" PG_CONFIG="$PG_CONFIG" with_llvm=no install >>"$PGB_OUT/build.log" 2>&1 ||
			pgb_log "the floor probe did not build (see $PGB_OUT/build.log): floor_* cases will fail"
	fi
}

# Unpack, install the extension, (re)start the server with extra postgres options.
pgb_server_start() {
	local dir=$PGB_PGDIR opts so
	[ -f "$PGB_ROOT/.gpuhost/start-pg.sh" ] || pgb_die "no .gpuhost/ in the checkout (copy shared/gpuhost there)"
	# fails when a server already runs there: the restart below takes over
	bash "$PGB_ROOT/.gpuhost/start-pg.sh" "$dir" >/dev/null 2>&1 || true
	# shellcheck source=/dev/null
	source "$dir/pgroot/activate.sh"
	so=${GPU_REDUCE_SO:-$PGB_ROOT/.gpubuild/gpu_reduce.so}
	[ -f "$so" ] || so=$PGB_ROOT/gpu_reduce.so
	if [ -f "$so" ]; then
		pgb_log "installing the carried build $so"
		install -m 755 "$so" "$(pg_config --pkglibdir)/gpu_reduce.so"
		install -m 644 "$PGB_ROOT/gpu_reduce.control" "$PGB_ROOT"/gpu_reduce--*.sql \
			"$(pg_config --sharedir)/extension/"
	elif [ "${PGB_NO_BUILD:-0}" != 1 ]; then
		pgb_log "building gpu_reduce against $PG_CONFIG"
		make -C "$PGB_ROOT" PG_CONFIG="$PG_CONFIG" with_llvm=no >"$PGB_OUT/build.log" 2>&1 &&
			make -C "$PGB_ROOT" PG_CONFIG="$PG_CONFIG" with_llvm=no install >>"$PGB_OUT/build.log" 2>&1 ||
			{ tail -30 "$PGB_OUT/build.log"; pgb_die "build failed"; }
	fi
	pgb_floor_install
	opts="-k $dir/sock -c listen_addresses='' $*"
	# pg_ctl by its full path: su resets PATH on the GPU host's Ubuntu
	su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $(pg_config --bindir)/pg_ctl -D $dir/data -l $dir/log/server.log -o \"$opts\" restart -w -t 300" >/dev/null ||
		{ tail -30 "$dir/log/server.log"; pgb_die "server did not start"; }
	pgb_log "server running: socket $dir/sock $*"
	psql -X -h "$dir/sock" -U postgres -d postgres -Atc "SELECT 1 FROM pg_database WHERE datname = 'gpu_reduce_bench'" | grep -q 1 ||
		psql -X -h "$dir/sock" -U postgres -d postgres -qc "CREATE DATABASE gpu_reduce_bench" >/dev/null
	# the SQL objects follow the installed script (GPU_REDUCE_VERSION: an older
	# version's, for a build from before it)
	pgb_psql -qc "SET client_min_messages = warning" -c "DROP EXTENSION IF EXISTS gpu_reduce" \
		-c "CREATE EXTENSION gpu_reduce${GPU_REDUCE_VERSION:+ VERSION '$GPU_REDUCE_VERSION'}" >/dev/null
	pgb_psql -qc "CREATE EXTENSION IF NOT EXISTS gpu_reduce_floor" >/dev/null 2>&1 ||
		pgb_log "no gpu_reduce_floor extension: floor_* cases will fail"
	# the GPU service opens its GPUs after the server starts: wait for it
	for _ in $(seq 1 60); do
		[ "$(pgb_psql -At -c "SET client_min_messages = warning; SELECT count(*) FROM gpu_reduce_devices()" | tail -1)" != 0 ] && break
		sleep 0.5
	done
	pgb_log "GPUs in use: $(pgb_psql -At -c "SET client_min_messages = warning; SELECT count(*) FROM gpu_reduce_devices()" | tail -1)"
}

# psql on the benchmark database.
pgb_psql() {
	psql -X -v ON_ERROR_STOP=1 -h "$PGB_PGDIR/sock" -U postgres -d gpu_reduce_bench "$@"
}
