# Sourced by the GPU host's scripts (test/gpu/*.sh): with $root the
# repository and $dir the server's folder, gpu_server_install puts the carried
# build (GPU_REDUCE_SO, default .gpubuild/gpu_reduce.so) and the SQL files
# into the bundled PostgreSQL of .gpuhost/ (GPU_HOST_PG: another packed major,
# test/gpu/start-pg.sh), unpacking and starting it first if need be;
# gpu_server_restart (re)starts it with gpu_reduce preloaded, 8 GB of
# shared_buffers on huge pages where root may reserve them; psql_ runs psql
# against it; gpu_server_wait waits until the GPU service has registered the
# buffer pool (the page path's condition) and shows the devices.

gpu_server_install() {
	bash "$root/test/gpu/start-pg.sh" "$dir" >/dev/null || return 1
	source "$dir/pgroot/activate.sh"
	install -m 755 "${GPU_REDUCE_SO:-$root/.gpubuild/gpu_reduce.so}" "$(pg_config --pkglibdir)/gpu_reduce.so"
	install -m 644 "$root/gpu_reduce.control" "$root"/gpu_reduce--*.sql "$(pg_config --sharedir)/extension/"
}

gpu_server_restart() {
	local opts="-k $dir/sock -c listen_addresses='' -c shared_preload_libraries=gpu_reduce -c shared_buffers=8GB"
	opts="$opts -c max_connections=100 -c max_worker_processes=32 -c max_parallel_workers=16"
	if [ "$(id -u)" = 0 ]; then
		sysctl -qw vm.nr_hugepages=4200 2>/dev/null || true
		opts="$opts -c huge_pages=try"
	fi
	su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $(pg_config --bindir)/pg_ctl -D $dir/data -l $dir/log/server.log -o \"$opts\" restart -w" >/dev/null ||
		{ tail -30 "$dir/log/server.log"; return 1; }
}

psql_() { psql -h "$dir/sock" -U postgres -X "$@"; }

gpu_server_wait() {
	psql_ -q -c "CREATE EXTENSION IF NOT EXISTS gpu_reduce"
	for t in $(seq 1 240); do
		psql_ -At -c "SET client_min_messages = warning; SELECT page_path FROM gpu_reduce_devices()" 2>/dev/null |
			grep -qx 'buffer pool registered' && break
		sleep 0.5
	done
	psql_ -c "SELECT device, name, page_path FROM gpu_reduce_devices()"
}
