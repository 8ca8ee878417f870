# test/harness.sh -- shared by test/run_tests.sh and test/demo.sh (source it).
#
# Makes sure a PostgreSQL server (15 or later), its PGXS files, make and gcc
# are present, builds and installs the extension, and runs a throwaway
# PostgreSQL cluster as an unprivileged OS user (PostgreSQL refuses to run as
# root).  Everything the cluster writes lives in one mktemp directory, removed
# on exit.  Missing packages are the distribution's own PostgreSQL major
# (Debian 12: 15, Debian 13: 17, testing: 18), whichever it is.
#
# Environment:
#   PG_CONFIG              pg_config of the PostgreSQL to use (default: that of
#                          the distribution's major in /usr/lib/postgresql, else
#                          the newest complete one there)
#   GPU_REDUCE_MAKEFLAGS   extra make arguments, e.g. 'WITH_CUDA=no'
#   GPU_REDUCE_OS_USER     unprivileged user that runs the server (default gpu_reduce)
#   GPU_REDUCE_KEEP_TMP    set to 1 to keep the temporary directory
#
# Functions:
#   gr_ensure_packages     install what is missing (root), re-exec via sudo, or explain and exit 1
#   gr_build               make (clean first when the make flags changed) and make install
#   gr_start [-c k=v ...]  initdb once, start the server with extra settings
#   gr_stop                stop the server
#   gr_restart [-c k=v ..] stop, then start with new settings
#   gr_psql ARGS...        psql as the server's user against the private socket
#   gr_as_user CMD...      run a command as the server's user

GR_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GR_SCRIPT=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
GR_SCRIPT_ARGS=("$@")
GR_PG_CONFIG_GIVEN=${PG_CONFIG:+1}
PG_CONFIG=${PG_CONFIG:-}
GR_OS_USER=${GPU_REDUCE_OS_USER:-gpu_reduce}
GR_DB=${GR_DB:-gpu_reduce_regress}
GR_TMP=
GR_PORT=
GR_SOCK=
GR_DATA=
GR_RUNNING=0

if [ -d /usr/local/cuda/bin ]; then PATH=/usr/local/cuda/bin:$PATH; fi
export PATH PG_CONFIG

gr_log() { printf '[gpu_reduce] %s\n' "$*" >&2; }
gr_die() { printf '[gpu_reduce] ERROR: %s\n' "$*" >&2; exit 1; }

# The PostgreSQL major the distribution's apt would install (the candidate of
# the "postgresql" metapackage), or nothing when apt does not know it.
gr_dist_major() {
	command -v apt-cache >/dev/null 2>&1 || return 0
	{ apt-cache depends postgresql 2>/dev/null || true; } |
		sed -n 's/^ *Depends: postgresql-\([0-9][0-9]*\)$/\1/p' | sed -n 1p
}

# Does this pg_config belong to a server we can build for and run (binaries and PGXS)?
gr_pg_complete() {
	[ -x "$1" ] && [ -x "$("$1" --bindir)/postgres" ] && [ -x "$("$1" --bindir)/initdb" ] &&
		[ -f "$("$1" --pgxs)" ] && [ -f "$("$1" --includedir-server)/postgres.h" ]
}

# Choose PG_CONFIG unless the caller set it: the distribution's major when it is
# installed completely, else the newest complete one in /usr/lib/postgresql.
gr_pick_pg_config() {
	local major c
	[ -n "$GR_PG_CONFIG_GIVEN" ] && return 0
	major=$(gr_dist_major)
	if [ -n "$major" ] && gr_pg_complete "/usr/lib/postgresql/$major/bin/pg_config"; then
		PG_CONFIG=/usr/lib/postgresql/$major/bin/pg_config
		return 0
	fi
	for c in $(ls -d /usr/lib/postgresql/*/bin/pg_config 2>/dev/null | sort -t/ -k5,5nr); do
		if gr_pg_complete "$c"; then
			PG_CONFIG=$c
			return 0
		fi
	done
	PG_CONFIG=
}

# The major version the missing packages are for: PG_CONFIG's, else the distribution's.
gr_wanted_major() {
	if [ -x "${PG_CONFIG:-}" ]; then
		"$PG_CONFIG" --version | sed -n 's/^PostgreSQL \([0-9][0-9]*\).*/\1/p'
	else
		gr_dist_major
	fi
}

# Which Debian packages are needed but missing (printed one a line); $1 = the
# PostgreSQL major, or empty for the distribution's default metapackages.
gr_missing_packages() {
	local server=postgresql-${1:-} dev=postgresql-server-dev-${1:-all} bindir
	[ -n "${1:-}" ] || server=postgresql
	if [ -x "${PG_CONFIG:-}" ]; then
		bindir=$("$PG_CONFIG" --bindir)
		[ -x "$bindir/postgres" ] && [ -x "$bindir/initdb" ] || echo "$server"
		[ -f "$("$PG_CONFIG" --pgxs)" ] && [ -f "$("$PG_CONFIG" --includedir-server)/postgres.h" ] ||
			echo "$dev"
	else
		echo "$server"
		echo "$dev"
	fi
	command -v make >/dev/null 2>&1 || echo make
	command -v gcc >/dev/null 2>&1 || echo gcc
	# nvcc preprocesses with the host C++ compiler: a CUDA build needs g++
	if command -v nvcc >/dev/null 2>&1 && [[ "${GPU_REDUCE_MAKEFLAGS:-}" != *WITH_CUDA=no* ]]; then
		command -v g++ >/dev/null 2>&1 || echo g++
	fi
	[ -f /usr/include/stdio.h ] || echo libc6-dev
}

# Install missing packages as root, re-run the calling script under sudo, or explain and stop.
gr_ensure_packages() {
	local missing major
	gr_pick_pg_config
	major=$(gr_wanted_major)
	missing=$(gr_missing_packages "$major" | sort -u | tr '\n' ' ')
	missing=${missing% }
	if [ -z "$missing" ]; then
		gr_log "PostgreSQL $major: $PG_CONFIG"
		return 0
	fi
	if [ "$(id -u)" -eq 0 ]; then
		command -v apt-get >/dev/null 2>&1 ||
			gr_die "missing packages: $missing (and no apt-get to install them; set PG_CONFIG to the pg_config of PostgreSQL 15 or later)"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update </dev/null
		if [ -z "$major" ]; then
			major=$(gr_wanted_major)
			[ -n "$major" ] || gr_die "apt knows no 'postgresql' package to take the PostgreSQL major from; set PG_CONFIG"
			missing=$(gr_missing_packages "$major" | sort -u | tr '\n' ' ')
		fi
		gr_log "missing: $missing; installing them (PostgreSQL $major)"
		# shellcheck disable=SC2086
		apt-get install -y --no-install-recommends $missing </dev/null
		[ -n "$GR_PG_CONFIG_GIVEN" ] || PG_CONFIG=/usr/lib/postgresql/$major/bin/pg_config
		missing=$(gr_missing_packages "$major" | sort -u | tr '\n' ' ')
		[ -z "${missing% }" ] || gr_die "still missing after apt-get install: $missing"
		gr_log "PostgreSQL $major: $PG_CONFIG"
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		gr_log "missing packages ($missing); re-running as root via sudo"
		exec sudo -n -E bash "$GR_SCRIPT" "${GR_SCRIPT_ARGS[@]}"
	else
		echo "gpu_reduce tests need these packages, which are missing: $missing" >&2
		echo "install them as root:  apt-get install -y $missing" >&2
		echo "(or set PG_CONFIG to the pg_config of PostgreSQL 15 or later)" >&2
		exit 1
	fi
}

# Build and install the extension; a change of GPU_REDUCE_MAKEFLAGS forces a clean build.
gr_build() {
	local flags=${GPU_REDUCE_MAKEFLAGS:-} stamp="$GR_ROOT/test/.buildflags"
	local -a mk=(make -C "$GR_ROOT" "PG_CONFIG=$PG_CONFIG")
	# shellcheck disable=SC2206
	if [ -n "$flags" ]; then mk+=($flags); fi
	if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$flags" ]; then
		gr_log "make clean (make flags now: '${flags}')"
		"${mk[@]}" clean >/dev/null 2>&1 || true
	fi
	gr_log "building: ${mk[*]}"
	"${mk[@]}" -j"$(nproc 2>/dev/null || echo 2)" || gr_die "build failed"
	printf '%s' "$flags" >"$stamp"
	if [ -w "$("$PG_CONFIG" --pkglibdir)" ] && [ -w "$("$PG_CONFIG" --sharedir)/extension" ]; then
		"${mk[@]}" install >/dev/null || gr_die "make install failed"
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		sudo -n "${mk[@]}" install >/dev/null || gr_die "make install failed"
	else
		gr_die "cannot write $("$PG_CONFIG" --pkglibdir); run as root"
	fi
	gr_log "installed into $("$PG_CONFIG" --pkglibdir)"
}

# Run a command as the unprivileged server user (or as ourselves when not root).
gr_as_user() {
	if [ "$(id -u)" -eq 0 ]; then
		# from a directory the user can enter (the repository may be under /root)
		(cd "${GR_TMP:-/}" && runuser -u "$GR_OS_USER" -- env "PATH=$PATH" "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}" \
			"PGOPTIONS=${PGOPTIONS:-}" "HOME=${GR_TMP:-/}" "$@")
	else
		"$@"
	fi
}

# Stop the server and delete the temporary directory.
gr_cleanup() {
	local rc=$?
	if [ "$GR_RUNNING" = 1 ]; then
		gr_as_user "$GR_BINDIR/pg_ctl" -D "$GR_DATA" -m immediate -w stop >/dev/null 2>&1 || true
		GR_RUNNING=0
	fi
	if [ -n "$GR_TMP" ] && [ -d "$GR_TMP" ]; then
		if [ "${GPU_REDUCE_KEEP_TMP:-0}" = 1 ]; then
			gr_log "kept $GR_TMP"
		else
			rm -rf "$GR_TMP"
		fi
	fi
	return $rc
}

# Create the user and the temporary directory, initdb a cluster there.
gr_init_cluster() {
	GR_BINDIR=$("$PG_CONFIG" --bindir)
	if [ "$(id -u)" -eq 0 ]; then
		if ! id "$GR_OS_USER" >/dev/null 2>&1; then
			useradd --system --no-create-home --shell /usr/sbin/nologin "$GR_OS_USER" 2>/dev/null ||
				useradd -M -s /bin/false "$GR_OS_USER" ||
				gr_die "cannot create user $GR_OS_USER"
		fi
	fi
	GR_TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpu_reduce_test.XXXXXX")
	trap gr_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	chmod 755 "$GR_TMP"
	GR_SOCK=$GR_TMP/sock
	GR_DATA=$GR_TMP/data
	mkdir -p "$GR_SOCK" "$GR_TMP/suite" "$GR_TMP/out"
	if [ "$(id -u)" -eq 0 ]; then chown -R "$GR_OS_USER" "$GR_TMP"; fi
	# a port number only names the socket file in our private directory
	GR_PORT=${GPU_REDUCE_PORT:-$((54000 + RANDOM % 1000))}
	gr_as_user "$GR_BINDIR/initdb" -D "$GR_DATA" --no-sync --auth=trust -E UTF8 --no-locale \
		-U "$GR_OS_USER" >"$GR_TMP/initdb.log" 2>&1 || { cat "$GR_TMP/initdb.log" >&2; gr_die "initdb failed"; }
}

# Start the server; arguments are extra postgres options such as -c shared_preload_libraries=gpu_reduce.
gr_start() {
	[ -n "$GR_TMP" ] || gr_init_cluster
	local opts="-c listen_addresses='' -k $GR_SOCK -p $GR_PORT -c fsync=off -c max_worker_processes=16 -c max_parallel_workers=8"
	local a
	for a in "$@"; do opts+=" $a"; done
	gr_as_user "$GR_BINDIR/pg_ctl" -D "$GR_DATA" -l "$GR_TMP/server.log" -o "$opts" -w -t 120 start >/dev/null ||
		{ tail -n 30 "$GR_TMP/server.log" >&2; gr_die "server did not start"; }
	GR_RUNNING=1
	gr_log "server running: socket $GR_SOCK port $GR_PORT ${*}"
}

# Stop the server (fast shutdown).
gr_stop() {
	[ "$GR_RUNNING" = 1 ] || return 0
	gr_as_user "$GR_BINDIR/pg_ctl" -D "$GR_DATA" -m fast -w stop >/dev/null
	GR_RUNNING=0
}

# Restart with a new set of extra options.
gr_restart() {
	gr_stop
	gr_start "$@"
}

# psql as the server user, against the private socket.
gr_psql() {
	gr_as_user "$GR_BINDIR/psql" -X -v ON_ERROR_STOP=1 -h "$GR_SOCK" -p "$GR_PORT" "$@"
}
