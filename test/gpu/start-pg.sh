#!/bin/bash
# shared/gpuhost/start-pg.sh for any packed major: unpacks the relocatable
# PostgreSQL of GPU_HOST_PG (default .gpuhost/pg15.tar.xz, shared/gpuhost's;
# test/gpuhost_pack.sh makes those of 17, 18 and 19) into DIR (default
# /tmp/pg) and starts a server there as user pgrun, unless one runs there
# already.  A DIR holding another major is stopped and emptied first (its
# cluster cannot run on this one).  A tarball packed from Debian's binaries
# (19 today) brings its own glibc: its programs' ELF interpreter is
# /tmp/.grMAJOR/glibc/ld-linux-x86-64.so.2, and sourcing its activate.sh (as
# root, here) points that link at DIR/pgroot/syslib; nothing of it goes on
# LD_LIBRARY_PATH, which this host's own programs (su, sh, tar) share.
# usage: [GPU_HOST_PG=TARBALL] start-pg.sh [DIR] [postgres options, e.g. -c shared_preload_libraries=gpu_reduce]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tarball=${GPU_HOST_PG:-$root/.gpuhost/pg15.tar.xz}
dir=${1:-/tmp/pg}; shift || true
[ -f "$tarball" ] || { echo "start-pg.sh: no $tarball" >&2; exit 1; }
major=$(tar -tJf "$tarball" --wildcards 'pgroot/usr/lib/postgresql/*/bin/postgres' |
	sed -n 's|^pgroot/usr/lib/postgresql/\([0-9]*\)/bin/postgres$|\1|p' | sed -n 1p)
[ -n "$major" ] || { echo "start-pg.sh: $tarball holds no pgroot/usr/lib/postgresql/N/bin/postgres" >&2; exit 1; }
mkdir -p "$dir"
run() { su pgrun -c "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; $*"; }
if [ ! -x "$dir/pgroot/usr/lib/postgresql/$major/bin/postgres" ]; then
	# another major's server goes first, stopped by its own pg_ctl
	if [ -f "$dir/data/postmaster.pid" ] && [ -f "$dir/pgroot/activate.sh" ]; then
		(source "$dir/pgroot/activate.sh" && run "$(pg_config --bindir)/pg_ctl -D $dir/data stop -m fast -w") >/dev/null || true
	fi
	rm -rf --one-file-system "$dir/pgroot" "$dir/data"
	tar -C "$dir" -xJf "$tarball"
fi
source "$dir/pgroot/activate.sh"
# (a missing ELF interpreter reads as "No such file or directory")
"$dir/pgroot/usr/lib/postgresql/$major/bin/postgres" --version >/dev/null || {
	[ ! -d "$dir/pgroot/syslib/glibc" ] || echo "start-pg.sh: /tmp/.gr$major -> $(readlink "/tmp/.gr$major"), not $dir/pgroot/syslib?" >&2
	echo "start-pg.sh: the packed postgres does not run here" >&2
	exit 1
}
id pgrun >/dev/null 2>&1 || useradd -m pgrun
chmod 755 "$dir" "$dir/pgroot"
mkdir -p "$dir/sock" "$dir/data" "$dir/log" && chown pgrun "$dir/sock" "$dir/data" "$dir/log"
bin=$(pg_config --bindir)
[ -f "$dir/data/PG_VERSION" ] || run "$bin/initdb -D $dir/data --no-locale -E UTF8 -U postgres" >/dev/null
# a server already running there is left as it is
run "$bin/pg_ctl -D $dir/data status" >/dev/null 2>&1 ||
	run "$bin/pg_ctl -D $dir/data -l $dir/log/server.log -o \"-k $dir/sock -c listen_addresses='' $*\" start -w" >/dev/null || { tail -20 "$dir/log/server.log"; exit 1; }
cat <<EOS
PostgreSQL $major is running: data $dir/data, log $dir/log/server.log
  source $dir/pgroot/activate.sh
  psql -h $dir/sock -U postgres
  restart: su pgrun -c "export LD_LIBRARY_PATH=\$LD_LIBRARY_PATH; $bin/pg_ctl -D $dir/data restart -w"
EOS
