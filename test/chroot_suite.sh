#!/usr/bin/env bash
# test/chroot_suite.sh SUITE -- the regression suite on another Debian release,
# in a throwaway chroot.
#
# Makes a minimal Debian SUITE (e.g. trixie: PostgreSQL 17; forky: 18; sid:
# 19) with debootstrap from the mirror this machine's apt already uses, copies
# the working tree into it and runs test/run_tests.sh there with the CPU-only
# build (WITH_CUDA=no: no nvcc in the chroot).  The harness installs the
# release's own PostgreSQL, so this also checks the quick start on that
# release; a suite listed in PG_PINNED gets the major named there instead,
# installed here before the suite runs (from another suite of the mirror
# while the suite itself has no such package).  The
# chroot lives in one mktemp directory; its mounts (/proc, /dev, /dev/shm) are
# undone and the directory removed on every exit.  Run as root (CI does).
#
# Environment: GPU_REDUCE_MIRROR (default: read from /etc/apt/sources.list.d/*.sources
# or /etc/apt/sources.list), GPU_REDUCE_PASSES and GPU_REDUCE_TESTS (passed on),
# GPU_REDUCE_KEEP_TMP=1 keeps the chroot (unmounted), GPU_REDUCE_CHROOT_RUN
# runs that shell command in the tree's copy instead of the suite (with the
# same PG_CONFIG and WITH_CUDA=no, e.g. a benchmark: bench/pg/eager.sh).
# Ends with the line 'SUITE (PostgreSQL N): N passed, N failed' (for a command:
# 'SUITE: <command> exited RC'); exits non-zero on failure.
set -euo pipefail

SUITE=${1:-}
[ -n "$SUITE" ] || { echo "usage: $0 SUITE   (a Debian release name, e.g. trixie, forky or sid)" >&2; exit 2; }

# Suites whose tests run against a PostgreSQL major other than the one of
# their 'postgresql' metapackage: SUITE MAJOR [FROM].  While SUITE has no
# postgresql-MAJOR of its own, FROM (a suite of the same mirror) is added to
# its apt sources and the server, its client and headers and the libpq they
# need are taken from there (asking apt for the whole of FROM, e.g.
# experimental, would conflict elsewhere).  Once SUITE has the package, FROM
# goes unused; drop it, or the line once the metapackage points at MAJOR.
PG_PINNED="
sid 19 experimental
"
read -r PIN_MAJOR PIN_FROM < <(awk -v s="$SUITE" '$1 == s { print $2, $3 }' <<<"$PG_PINNED") || true
ROOT_DIR=$(cd "$(dirname "$0")/.." && pwd)
WORK=
CR=
MOUNTED=()

cr_log() { printf '[chroot %s] %s\n' "$SUITE" "$*" >&2; }
cr_die() { printf '[chroot %s] ERROR: %s\n' "$SUITE" "$*" >&2; echo "$SUITE: 0 passed, 1 failed"; exit 1; }

[ "$(id -u)" -eq 0 ] || cr_die "needs root (debootstrap, mount, chroot)"

# host_mirror: the mirror this machine's apt uses
# shellcheck source=test/debian_mirror.sh
source "$ROOT_DIR/test/debian_mirror.sh"

# Undo the mounts (innermost first) and remove the work directory, never through a mount.
cleanup() {
	local rc=$? i
	for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do
		umount "${MOUNTED[i]}" 2>/dev/null || umount -l "${MOUNTED[i]}" 2>/dev/null ||
			cr_log "could not unmount ${MOUNTED[i]}"
	done
	MOUNTED=()
	if [ -n "$WORK" ] && [ -d "$WORK" ]; then
		if awk -v r="$WORK/" 'index($2 "/", r) == 1 { found = 1 } END { exit !found }' /proc/mounts; then
			cr_log "mounts remain under $WORK; not removing it"
		elif [ "${GPU_REDUCE_KEEP_TMP:-0}" = 1 ]; then
			cr_log "kept $WORK"
		else
			rm -rf --one-file-system "$WORK"
		fi
	fi
	exit "$rc"
}

# Mount something inside the chroot and remember it for cleanup.
cr_mount() {
	local target=${*: -1}
	mount "$@"
	MOUNTED+=("$target")
}

if ! command -v debootstrap >/dev/null 2>&1; then
	cr_log "installing debootstrap"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap </dev/null >/dev/null ||
		{ apt-get update </dev/null >/dev/null &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap </dev/null >/dev/null; } ||
		cr_die "cannot install debootstrap"
fi

MIRROR=${GPU_REDUCE_MIRROR:-$(host_mirror | sed -n 1p)}
[ -n "$MIRROR" ] || cr_die "no Debian mirror found in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list; set GPU_REDUCE_MIRROR"

# a release newer than this debootstrap has no script of its own: sid's fits a testing release
SCRIPT=()
if [ ! -e "/usr/share/debootstrap/scripts/$SUITE" ]; then
	SCRIPT=(/usr/share/debootstrap/scripts/sid)
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gpu_reduce_chroot_$SUITE.XXXXXX")
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
CR=$WORK/root
mkdir -m 755 "$CR"

start=$(date +%s)
cr_log "debootstrap --variant=minbase $SUITE from $MIRROR ${SCRIPT[*]}"
debootstrap --variant=minbase "$SUITE" "$CR" "$MIRROR" "${SCRIPT[@]}" >"$WORK/debootstrap.log" 2>&1 ||
	{ tail -n 20 "$WORK/debootstrap.log" >&2; cr_die "debootstrap failed"; }
cr_log "debootstrap done in $(($(date +%s) - start)) s"

# the mirror may be a dated snapshot whose Release files have expired: apt in
# the chroot must accept them as the host's apt does
mkdir -p "$CR/etc/apt/apt.conf.d"
if [ -f /etc/apt/apt.conf.d/99artifact-registry ]; then
	cp /etc/apt/apt.conf.d/99artifact-registry "$CR/etc/apt/apt.conf.d/"
else
	printf 'Acquire::Check-Valid-Until "false";\nAcquire::Check-Date "false";\n' \
		>"$CR/etc/apt/apt.conf.d/99gpu-reduce-snapshot"
fi

cr_mount -t proc proc "$CR/proc"
cr_mount --bind /dev "$CR/dev"
mount --make-private "$CR/dev"
# PostgreSQL's dynamic shared memory lives in /dev/shm: a private one
cr_mount -t tmpfs -o mode=1777 shm "$CR/dev/shm"

# the working tree, without build outputs or .git
mkdir -p "$CR/src/gpu_reduce"
if git -C "$ROOT_DIR" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$ROOT_DIR" && git ls-files -z --cached --others --exclude-standard | tar -c --null -T - -f -)
else
	tar -c -C "$ROOT_DIR" --exclude=.git --exclude='*.o' --exclude='*.so' --exclude='*.a' --exclude='*.stamp' \
		--exclude=.buildflags -f - .
fi | tar -x -C "$CR/src/gpu_reduce"

# Run a command in the chroot with a clean environment.
cr_run() {
	chroot "$CR" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

# the pinned major (PG_PINNED), from the suite itself or else from PIN_FROM
PIN_ENV=()
if [ -n "${PIN_MAJOR:-}" ]; then
	pin_pkgs=(postgresql-$PIN_MAJOR postgresql-client-$PIN_MAJOR postgresql-server-dev-$PIN_MAJOR)
	cr_run apt-get update </dev/null >"$WORK/apt.log" 2>&1 ||
		{ tail -n 20 "$WORK/apt.log" >&2; cr_die "apt-get update failed"; }
	if [ -n "${PIN_FROM:-}" ] &&
		! cr_run apt-cache show "postgresql-$PIN_MAJOR" </dev/null >/dev/null 2>&1; then
		cr_log "$SUITE has no postgresql-$PIN_MAJOR: taking it from $PIN_FROM"
		echo "deb $MIRROR $PIN_FROM main" >"$CR/etc/apt/sources.list.d/gpu-reduce-$PIN_FROM.list"
		cr_run apt-get update </dev/null >>"$WORK/apt.log" 2>&1 ||
			{ tail -n 20 "$WORK/apt.log" >&2; cr_die "apt-get update with $PIN_FROM failed"; }
		pin_pkgs+=(libpq-dev libpq5)
		pin_pkgs=("${pin_pkgs[@]/%//$PIN_FROM}")
	fi
	cr_log "installing ${pin_pkgs[*]}"
	cr_run apt-get install -y --no-install-recommends "${pin_pkgs[@]}" </dev/null >>"$WORK/apt.log" 2>&1 ||
		{ tail -n 40 "$WORK/apt.log" >&2; cr_die "cannot install PostgreSQL $PIN_MAJOR"; }
	PIN_ENV=(PG_CONFIG="/usr/lib/postgresql/$PIN_MAJOR/bin/pg_config")
fi

rc=0
if [ -n "${GPU_REDUCE_CHROOT_RUN:-}" ]; then
	chroot "$CR" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 GPU_REDUCE_MAKEFLAGS=WITH_CUDA=no "${PIN_ENV[@]}" \
		bash -c "cd /src/gpu_reduce && $GPU_REDUCE_CHROOT_RUN" </dev/null 2>&1 | tee "$WORK/run.log" || rc=$?
	cr_log "done in $(($(date +%s) - start)) s"
	echo "$SUITE: $GPU_REDUCE_CHROOT_RUN exited $rc"
	exit "$rc"
fi
chroot "$CR" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 CI="${CI:-}" GPU_REDUCE_MAKEFLAGS=WITH_CUDA=no "${PIN_ENV[@]}" \
	GPU_REDUCE_PASSES="${GPU_REDUCE_PASSES:-all}" GPU_REDUCE_TESTS="${GPU_REDUCE_TESTS:-}" \
	bash /src/gpu_reduce/test/run_tests.sh </dev/null 2>&1 | tee "$WORK/suite.log" || rc=$?

# the GPU side is not built here (no nvcc): check that its PostgreSQL-facing C
# files at least compile against this major's headers
if chroot "$CR" /usr/bin/env -u PG_CONFIG "${PIN_ENV[@]}" sh -c 'cd /src/gpu_reduce &&
	pgc=${PG_CONFIG:-$(ls /usr/lib/postgresql/*/bin/pg_config | tail -n 1)} &&
	gcc -fsyntax-only -Wall -Werror -DGR_WITH_CUDA -Isrc -Icommon -Icuda -I"$($pgc --includedir-server)" \
		src/gpu_service.c src/gpu_client.c src/gpu_shmem.c' </dev/null; then
	cr_log "GPU-side sources compile with GR_WITH_CUDA (syntax only)"
else
	cr_log "GPU-side sources do NOT compile with GR_WITH_CUDA"
	rc=1
fi

major=$(sed -n 's/.*PostgreSQL \([0-9][0-9]*\): .*pg_config$/\1/p' "$WORK/suite.log" | sed -n 1p)
result=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$WORK/suite.log" | tail -n 1 || true)
[ -n "$result" ] || result="0 passed, 1 failed"
[ "$rc" -eq 0 ] || case $result in *", 0 failed") result="${result%, 0 failed}, 1 failed" ;; esac
cr_log "done in $(($(date +%s) - start)) s"
echo "$SUITE (PostgreSQL ${major:-?}): $result"
exit "$rc"
