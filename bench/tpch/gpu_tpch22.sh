#!/bin/bash
# bench/tpch/tpch22.sh on the GPU host: all 22 TPC-H queries, PostgreSQL's own
# plan against the node's, with every join, grouping and page job the node
# takes on the GPU, in one device call.
#
# The GPU host has no PostgreSQL, no apt and no registry, and a call carries at
# most 64 MiB, so this takes:
#   - a relocatable PostgreSQL of test/gpuhost_pack.sh (GPU_HOST_PG, default
#     .gpuhost18/pg18.tar.xz: 7 MB where the bundled 15 is 23 MB), unpacked and
#     started as test/gpu_host.sh does (test/gpu/start-pg.sh), then stopped:
#     tpch22.sh starts its own server with that major's binaries;
#   - the extension built against that major (GPU_REDUCE_SO, default
#     .gpubuild18/gpu_reduce.so), installed into it;
#   - DuckDB 1.4.4 (cp312) and its tpch extension for dbgen and DuckDB's own
#     times, as .tpchpy/: the wheel's files with its 57 MB library and the
#     extension file xz-compressed (14 + 9 MB), which this script unpacks into
#     /tmp/tpchpy.  Make it on a machine with PyPI:
#         bash bench/tpch/gpu_tpch22.sh --make-tpchpy
# Then, on the GPU host (carry .gpuhost18, .gpubuild18 and .tpchpy):
#         bash bench/tpch/gpu_tpch22.sh SF [RUNS]      (results under $OUT/tpch)
# Environment as tpch22.sh's (TPCH_WORKERS defaults to "0 8" here,
# TPCH_QUERIES, TPCH_TIMEOUT, TPCH_SERVER_OPTS ...).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
py=$root/.tpchpy

if [ "${1:-}" = --make-tpchpy ]; then
	# the cp312 manylinux wheels from PyPI, re-packed smaller
	work=$(mktemp -d)
	python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
		--platform manylinux_2_28_x86_64 -d "$work" duckdb==1.4.4 duckdb-ext-tpch==1.4.4.20260205
	rm -rf "$py"
	mkdir -p "$py"
	unzip -q "$work"/duckdb-1.4.4-*.whl -d "$py"
	unzip -q "$work"/duckdb_ext_tpch-*.whl -d "$work/ext"
	rm -rf "$py/_duckdb-stubs" "$py/adbc_driver_duckdb" "$py/duckdb/experimental"
	xz -T0 -6 "$py"/_duckdb.cpython-312-x86_64-linux-gnu.so
	ext=$(cd "$work/ext" && find . -name tpch.duckdb_extension | head -n 1)
	[ -n "$ext" ] || { echo "no tpch.duckdb_extension in the wheel" >&2; exit 1; }
	mkdir -p "$py/$(dirname "$ext")"
	xz -T0 -6 -c "$work/ext/$ext" >"$py/$ext.xz"
	touch "$py/duckdb_ext/__init__.py"
	rm -rf "$work"
	du -sh "$py"
	exit 0
fi

sf=${1:?usage: gpu_tpch22.sh SF [RUNS] | --make-tpchpy}
runs=${2:-3}
out=${OUT:-/tmp/gpu_tpch22}
pg=$(realpath "${GPU_HOST_PG:-$root/.gpuhost18/pg18.tar.xz}")
so=$(realpath "${GPU_REDUCE_SO:-$root/.gpubuild18/gpu_reduce.so}")
dir=/tmp/pg
[ -d "$py" ] || { echo "no .tpchpy/ in the checkout (bash $0 --make-tpchpy)" >&2; exit 1; }
[ -f "$so" ] || { echo "no $so: build the extension against the tarball's major" >&2; exit 1; }
mkdir -p "$out"

# DuckDB where python3 finds it (tpch22.sh's check: duckdb, and the extension beside it)
rm -rf /tmp/tpchpy
cp -r "$py" /tmp/tpchpy
find /tmp/tpchpy -name '*.xz' -exec xz -d -T0 {} +
export PYTHONPATH=/tmp/tpchpy${PYTHONPATH:+:$PYTHONPATH}

# the packed PostgreSQL, as test/gpu_host.sh unpacks it; its server is not ours
export GPU_HOST_PG=$pg
bash "$root/test/gpu/start-pg.sh" "$dir" >/dev/null
# shellcheck source=/dev/null
source "$dir/pgroot/activate.sh"
su pgrun -c "export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}; $(pg_config --bindir)/pg_ctl -D $dir/data stop -m fast" >/dev/null || true
install -m 755 "$so" "$(pg_config --pkglibdir)/gpu_reduce.so"
install -m 644 "$root/gpu_reduce.control" "$root"/gpu_reduce--*.sql "$(pg_config --sharedir)/extension/"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader >"$out/gpu.txt" || true

# huge pages for shared_buffers where the host gives them (as test/gpu_host.sh)
sb=$(awk -v sf="$sf" 'BEGIN {m = int(sf * 2560); print (m < 1024 ? 1024 : m)}')
sysctl -qw vm.nr_hugepages=$((sb / 2 + 512)) 2>/dev/null || true
huge=try
[ "$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo 0)" -gt $((sb / 2)) ] && huge=on
PG_CONFIG=$(command -v pg_config) TPCH_NO_BUILD=1 TPCH_WORKERS=${TPCH_WORKERS:-0 8} \
	TPCH_SHARED_BUFFERS=${sb}MB TPCH_DATA=${TPCH_DATA:-/tmp/tpch_sf$sf} \
	TPCH_SERVER_OPTS="-c huge_pages=$huge -c max_worker_processes=32 -c max_parallel_workers=16 ${TPCH_SERVER_OPTS:-}" \
	bash "$root/bench/tpch/tpch22.sh" "$sf" "$out/tpch" "$runs"
