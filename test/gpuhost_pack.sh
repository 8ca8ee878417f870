#!/usr/bin/env bash
# test/gpuhost_pack.sh MAJOR [OUTFILE] -- a relocatable PostgreSQL MAJOR for
# the GPU host, packed as shared/gpuhost/pg15.tar.xz is.
#
# The GPU host has no PostgreSQL and no network; test/gpu/start-pg.sh unpacks
# such a tarball there (GPU_HOST_PG=... bash test/gpu_host.sh).  This script
# takes Debian's source package of postgresql-MAJOR (17: trixie, 18: forky,
# 19: sid with experimental, see PG_SOURCES) with `apt-get source` in a
# throwaway debootstrap chroot of that suite (the mirror this machine's apt
# uses, as test/chroot_suite.sh does), applies Debian's patches, and builds it
# on this host, not in the chroot: a Debian 12 host (glibc 2.36) makes
# binaries that run on the GPU host's newer glibc.  The configure keeps it
# small: Debian's directory layout, no ICU, LLVM, OpenSSL, NLS or
# PL/Perl/Python/Tcl (the suite needs none: group_by.sql's ICU check is
# skipped without ICU), with readline, zlib and lz4 (PostgreSQL 19's default
# TOAST compression is lz4 where it is built in), and PostgreSQL's own
# time-zone database (so no /usr/share/zoneinfo is needed).  World-bin
# (server, client programs, contrib) and the isolation tester are installed
# into pgroot/ with the layout of Debian's packages:
#   pgroot/usr/lib/postgresql/MAJOR/{bin,lib}  (lib/pgxs/src/test/regress/pg_regress)
#   pgroot/usr/share/postgresql/MAJOR          pgroot/usr/include/postgresql/MAJOR/server
#   pgroot/syslib                              libpq and every library the ELF files
#                                              need beyond glibc (ldd)
#   pgroot/activate.sh                         PATH, LD_LIBRARY_PATH, PG_CONFIG
# Extensions build against it with `make PG_CONFIG=$PG_CONFIG with_llvm=no`.
#
# Run as root on Debian 12 (installs bison, flex, the -dev packages and
# debootstrap it needs).  OUTFILE defaults to ./pgMAJOR.tar.xz.  Environment:
# GPU_REDUCE_MIRROR (default: this machine's apt mirror), GPU_REDUCE_DSC (a
# Debian source package's .dsc, its tarballs beside it, taken instead of
# fetching one: for a mirror that lists the package but does not hold its
# files), GPU_REDUCE_KEEP_TMP=1 keeps the work directory.
set -euo pipefail

MAJOR=${1:-}
[[ "$MAJOR" =~ ^[0-9]+$ ]] || { echo "usage: $0 MAJOR [OUTFILE]   (17, 18 or 19)" >&2; exit 2; }
OUTFILE=$(realpath -m "${2:-pg$MAJOR.tar.xz}")

# MAJOR SUITE [FROM]: the Debian suite whose chroot fetches the source, and
# the suite of the same mirror the package comes from when SUITE has none yet
PG_SOURCES="
17 trixie
18 forky
19 sid experimental
"
read -r SUITE FROM < <(awk -v m="$MAJOR" '$1 == m { print $2, $3 }' <<<"$PG_SOURCES") || true
ROOT_DIR=$(cd "$(dirname "$0")/.." && pwd)
WORK=

pk_log() { printf '[pack %s] %s\n' "$MAJOR" "$*" >&2; }
pk_die() { printf '[pack %s] ERROR: %s\n' "$MAJOR" "$*" >&2; exit 1; }

[ -n "${SUITE:-}" ] || [ -n "${GPU_REDUCE_DSC:-}" ] ||
	pk_die "no Debian suite known for PostgreSQL $MAJOR (PG_SOURCES knows $(awk 'NF { printf "%s ", $1 }' <<<"$PG_SOURCES"))"
[ "$(id -u)" -eq 0 ] || pk_die "needs root (apt-get, debootstrap, chroot)"

# shellcheck source=test/debian_mirror.sh
source "$ROOT_DIR/test/debian_mirror.sh"
MIRROR=${GPU_REDUCE_MIRROR:-$(host_mirror | sed -n 1p)}
[ -n "$MIRROR" ] || [ -n "${GPU_REDUCE_DSC:-}" ] || pk_die "no Debian mirror in this machine's apt sources; set GPU_REDUCE_MIRROR"

cleanup() {
	local rc=$?
	if [ -n "$WORK" ] && [ -d "$WORK" ]; then
		if [ "${GPU_REDUCE_KEEP_TMP:-0}" = 1 ]; then
			pk_log "kept $WORK"
		else
			rm -rf --one-file-system "$WORK"
		fi
	fi
	exit "$rc"
}

# what the build needs on this host (dpkg-dev: dpkg-source unpacks the source)
need=()
for p in bison flex make gcc binutils perl xz-utils dpkg-dev debootstrap libreadline-dev zlib1g-dev liblz4-dev; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	pk_log "installing ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends "${need[@]}" </dev/null >/dev/null ||
		{ apt-get update </dev/null >/dev/null && apt-get install -y --no-install-recommends "${need[@]}" </dev/null >/dev/null; } ||
		pk_die "cannot install ${need[*]}"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gpuhost_pack_$MAJOR.XXXXXX")
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
CR=$WORK/chroot
start=$(date +%s)

# Run a command in the chroot's /src with a clean environment.
cr_apt() {
	chroot "$CR" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive sh -c 'cd /src && "$@"' sh "$@" </dev/null
}

# 1. Debian's source package, fetched by the suite's own apt (its keyring
#    checks the suite's signatures) into $CR/src; nothing is mounted in the chroot
fetch_source() {
	local s pkg script=()
	[ -e "/usr/share/debootstrap/scripts/$SUITE" ] || script=(/usr/share/debootstrap/scripts/sid)
	pk_log "debootstrap --variant=minbase $SUITE from $MIRROR"
	debootstrap --variant=minbase "$SUITE" "$CR" "$MIRROR" "${script[@]}" >"$WORK/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$WORK/debootstrap.log" >&2; pk_die "debootstrap failed"; }
	# a dated snapshot mirror's Release files may have expired (as in chroot_suite.sh)
	printf 'Acquire::Check-Valid-Until "false";\nAcquire::Check-Date "false";\n' \
		>"$CR/etc/apt/apt.conf.d/99gpu-reduce-snapshot"
	for s in "$SUITE" ${FROM:+"$FROM"}; do
		echo "deb-src $MIRROR $s main"
	done >"$CR/etc/apt/sources.list.d/gpu-reduce-src.list"
	mkdir -p "$CR/src"
	cr_apt apt-get update >"$WORK/apt.log" 2>&1 || { tail -n 20 "$WORK/apt.log" >&2; pk_die "apt-get update failed"; }
	pkg=postgresql-$MAJOR
	# the suite's own package where it has one, else FROM's
	if [ -n "${FROM:-}" ] && ! cr_apt apt-get source --download-only --print-uris "$pkg/$SUITE" >/dev/null 2>&1; then
		pkg=$pkg/$FROM
	fi
	pk_log "apt-get source --download-only $pkg"
	if ! cr_apt apt-get source --download-only "$pkg" >>"$WORK/apt.log" 2>&1; then
		tail -n 20 "$WORK/apt.log" >&2
		# a caching mirror may list a source package it does not hold
		! grep -q "404" "$WORK/apt.log" ||
			pk_die "$MIRROR lists $pkg but does not serve its files (404): set GPU_REDUCE_MIRROR to a mirror that has them, or GPU_REDUCE_DSC to its .dsc (orig and debian tarballs beside it)"
		pk_die "apt-get source $pkg failed"
	fi
}

if [ -n "${GPU_REDUCE_DSC:-}" ]; then
	dsc=$(realpath "$GPU_REDUCE_DSC")
else
	fetch_source
	dsc=$(ls "$CR"/src/postgresql-"$MAJOR"_*.dsc)
fi
VERSION=$(sed -n 's/^Version: //p' "$dsc")
pk_log "Debian's postgresql-$MAJOR $VERSION in $(($(date +%s) - start)) s"
SRC=$WORK/src
dpkg-source --no-check -x "$dsc" "$SRC" >"$WORK/dpkg-source.log" 2>&1 ||
	{ tail -n 20 "$WORK/dpkg-source.log" >&2; pk_die "dpkg-source -x failed"; }
rm -rf --one-file-system "$CR"

# 2. build on this host with Debian's directories (its 50-per-version-dirs
#    patch puts pkglibdir and the server headers under MAJOR) and few libraries
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
BUILD=$WORK/build
mkdir -p "$BUILD"
pk_log "configure"
(cd "$BUILD" && "$SRC/configure" \
	--prefix=/usr \
	--mandir="/usr/share/postgresql/$MAJOR/man" \
	--docdir="/usr/share/doc/postgresql-doc-$MAJOR" \
	--sysconfdir=/etc/postgresql-common \
	--datarootdir=/usr/share/ \
	--datadir="/usr/share/postgresql/$MAJOR" \
	--bindir="/usr/lib/postgresql/$MAJOR/bin" \
	--libdir="/usr/lib/$multiarch/" \
	--libexecdir=/usr/lib/postgresql/ \
	--includedir=/usr/include/postgresql/ \
	--with-extra-version=" (Debian $VERSION, relocatable)" \
	--disable-rpath --with-pgport=5432 \
	--without-icu --without-llvm --with-lz4 --with-readline --with-zlib \
	CFLAGS="-O2 -fno-omit-frame-pointer" >"$WORK/configure.log" 2>&1) ||
	{ tail -n 30 "$WORK/configure.log" >&2; pk_die "configure failed"; }
jobs=$(nproc 2>/dev/null || echo 2)
pk_log "make world-bin and the isolation tester (-j$jobs)"
{ make -C "$BUILD" -j"$jobs" world-bin && make -C "$BUILD/src/test/isolation" -j"$jobs"; } >"$WORK/make.log" 2>&1 ||
	{ grep -E "error|Error" "$WORK/make.log" | head -n 20 >&2; tail -n 20 "$WORK/make.log" >&2; pk_die "make failed"; }
STAGE=$WORK/stage
PGROOT=$STAGE/pgroot
{ make -C "$BUILD" install-world-bin DESTDIR="$PGROOT" &&
	make -C "$BUILD/src/test/isolation" install DESTDIR="$PGROOT"; } >"$WORK/install.log" 2>&1 ||
	{ tail -n 20 "$WORK/install.log" >&2; pk_die "make install failed"; }
pk_log "built in $(($(date +%s) - start)) s"

# 3. the tree: the client libraries (libpq, ecpg's) and every library an ELF
#    file needs beyond glibc's own go to syslib
BIN=$PGROOT/usr/lib/postgresql/$MAJOR/bin
mkdir -p "$PGROOT/syslib"
for f in "$PGROOT/usr/lib/$multiarch"/lib*.so.*; do
	[ -L "$f" ] && continue
	cp "$f" "$PGROOT/syslib/$(objdump -p "$f" | awk '$1 == "SONAME" { print $2 }')"
done
rm -rf "${PGROOT:?}/usr/lib/$multiarch"
find "$PGROOT" -type f -perm -u+x -exec sh -c 'head -c 4 "$1" | grep -q ELF' sh {} \; -print >"$WORK/elf.list"
find "$PGROOT" -type f -name '*.so*' >>"$WORK/elf.list"
sort -u "$WORK/elf.list" >"$WORK/elf.sorted"
# the libraries each ELF file loads (ldd fails on a file that is not dynamic)
while read -r f; do
	LD_LIBRARY_PATH=$PGROOT/syslib ldd "$f" 2>/dev/null || true
done <"$WORK/elf.sorted" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u >"$WORK/needed"
while read -r lib; do
	case $lib in "$PGROOT"/*) continue ;; esac
	case $(basename "$lib") in
	# glibc's libraries: the GPU host's own (glibc 2.39 there)
	ld-linux*.so.* | libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | \
		libresolv.so.* | libutil.so.* | libanl.so.* | libmvec.so.* | libnss_*.so.*) continue ;;
	esac
	cp -L "$lib" "$PGROOT/syslib/$(basename "$lib")"
	pk_log "syslib: $(basename "$lib")"
done <"$WORK/needed"
# shellcheck disable=SC2046
strip --strip-unneeded "$PGROOT/syslib"/*.so* $(cat "$WORK/elf.sorted") 2>/dev/null || true
missing=$(while read -r f; do
	env -i LD_LIBRARY_PATH="$PGROOT/syslib" ldd "$f" 2>/dev/null | sed -n "s|^\(.*not found\)|$f: \1|p" || true
done <"$WORK/elf.sorted")
[ -z "$missing" ] || { echo "$missing" >&2; pk_die "libraries not found"; }

cat >"$PGROOT/activate.sh" <<EOF
# source me: puts the bundled PostgreSQL $MAJOR on PATH; run from anywhere
PGROOT=\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)
export PATH=\$PGROOT/usr/lib/postgresql/$MAJOR/bin:\$PATH
export LD_LIBRARY_PATH=\$PGROOT/syslib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
export PG_CONFIG=\$PGROOT/usr/lib/postgresql/$MAJOR/bin/pg_config
EOF

# 4. the tree runs from where it is unpacked: check its pg_config and initdb from here
(
	source "$PGROOT/activate.sh"
	[ "$(pg_config --bindir)" = "$BIN" ] || pk_die "pg_config is not relocatable: $(pg_config --bindir)"
	[ -x "$(dirname "$(pg_config --pgxs)")/../test/regress/pg_regress" ] || pk_die "no pg_regress beside PGXS"
	[ -x "$(dirname "$(pg_config --pgxs)")/../test/isolation/pg_isolation_regress" ] || pk_die "no pg_isolation_regress"
	[ -f "$(pg_config --includedir-server)/postgres.h" ] || pk_die "no server headers"
	pk_log "$(postgres --version)"
)

mkdir -p "$(dirname "$OUTFILE")"
XZ_OPT=-9 tar -C "$STAGE" --owner=0 --group=0 --numeric-owner --sort=name -cJf "$OUTFILE.part" pgroot
mv "$OUTFILE.part" "$OUTFILE"
pk_log "$OUTFILE: $(du -m "$OUTFILE" | cut -f1) MB ($(du -sm "$PGROOT" | cut -f1) MB unpacked) in $(($(date +%s) - start)) s"
