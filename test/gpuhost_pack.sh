#!/usr/bin/env bash
# test/gpuhost_pack.sh MAJOR [OUTFILE] -- a relocatable PostgreSQL MAJOR for
# the GPU host, packed as shared/gpuhost/pg15.tar.xz is.
#
# The GPU host has no PostgreSQL and no network; test/gpu/start-pg.sh unpacks
# such a tarball there (GPU_HOST_PG=... bash test/gpu_host.sh).  Both ways
# below start from a throwaway debootstrap chroot of the Debian suite that has
# postgresql-MAJOR (17: trixie, 18: forky, 19: sid with experimental, see
# PG_SOURCES), made from the mirror this machine's apt uses (as
# test/chroot_suite.sh does).
#
# From source (GPU_REDUCE_PACK_FROM=source): Debian's source package, fetched
# with `apt-get source` in the chroot, Debian's patches applied, built on this
# host, not in the chroot: a Debian 12 host (glibc 2.36) makes binaries that
# run on the GPU host's newer glibc.  The configure keeps it small: Debian's
# directory layout, no ICU, LLVM, OpenSSL, NLS or PL/Perl/Python/Tcl (the
# suite needs none: group_by.sql's ICU check is skipped without ICU), with
# readline, zlib and lz4 (PostgreSQL 19's default TOAST compression is lz4
# where it is built in), and PostgreSQL's own time-zone database (so no
# /usr/share/zoneinfo is needed).  World-bin (server, client programs,
# contrib) and the isolation tester are installed into pgroot/.
#
# From Debian's binary packages (GPU_REDUCE_PACK_FROM=binary): for a mirror
# that lists a source package but does not serve its files.  The suite's
# postgresql-MAJOR, -client-MAJOR (it ships pg_isolation_regress and
# isolationtester), -server-dev-MAJOR, libpq5 and libpq-dev are downloaded in
# the chroot and unpacked with dpkg -x (no maintainer script runs).  They are
# built against the suite's glibc (sid: 2.43, trixie: 2.41), newer than the
# GPU host's (2.39), so the tree brings that glibc with it: every library the
# ELF files need (the chroot's ldd), glibc's own included, is copied from the
# chroot, and every executable is patched (patchelf): its ELF interpreter is
# /tmp/.grMAJOR/glibc/ld-linux-x86-64.so.2 and its DT_RPATH (not RUNPATH: it
# also serves libraries loaded later by dlopen, gpu_reduce.so and the GPU
# host's libcuda.so.1, whose librt, libpthread and libdl must be the packed
# glibc's) is $ORIGIN/.../syslib/glibc:$ORIGIN/.../syslib.  /tmp/.grMAJOR is
# a link to the unpacked pgroot/syslib that pgroot/activate.sh makes
# (test/gpu/start-pg.sh sources it as root).  Nothing goes on LD_LIBRARY_PATH:
# the host's own programs started from that environment (the /bin/sh of
# pg_ctl, tar, compute-sanitizer) must keep their own libc.  The suite's
# tzdata goes to pgroot/syslib/zoneinfo, and the server's compiled-in
# /usr/share/zoneinfo is rewritten in place to /tmp/.grMAJOR/zoneinfo (same
# length), so no host zoneinfo is needed either.  The packed PGXS is fitted
# to this host's gcc and glibc headers (fit_pgxs_to_host), so extensions
# build with a plain `make PG_CONFIG=$PG_CONFIG`.  Without the LLVM JIT and
# NLS messages, with ICU (the server links it) but only its collation and
# locale tables (trim_icu_data): 17 MB for 19, 16 for 17.
#
# GPU_REDUCE_PACK_FROM=auto (the default) takes the source package where the
# mirror serves it, else the binary packages.  Either way the tree has the
# layout of Debian's packages:
#   pgroot/usr/lib/postgresql/MAJOR/{bin,lib}  (lib/pgxs/src/test/regress/pg_regress,
#                                              lib/pgxs/src/test/isolation/pg_isolation_regress)
#   pgroot/usr/share/postgresql/MAJOR          pgroot/usr/include/postgresql/MAJOR/server
#   pgroot/syslib                              libpq and every library the ELF files
#                                              need beyond glibc (ldd); from binaries
#                                              also syslib/glibc and syslib/zoneinfo
#   pgroot/activate.sh                         PATH, PG_CONFIG (from source also
#                                              LD_LIBRARY_PATH; from binaries the link)
# Extensions build against it with `make PG_CONFIG=$PG_CONFIG with_llvm=no`.
#
# Run as root on Debian 12 (installs bison, flex, the -dev packages,
# debootstrap and patchelf it needs).  OUTFILE defaults to ./pgMAJOR.tar.xz.
# Environment: GPU_REDUCE_PACK_FROM (auto, source or binary),
# GPU_REDUCE_MIRROR (default: this machine's apt mirror), GPU_REDUCE_DSC (a
# Debian source package's .dsc, its tarballs beside it, taken instead of
# fetching one: for a mirror that lists the package but does not hold its
# files), GPU_REDUCE_KEEP_TMP=1 keeps the work directory.
set -euo pipefail

MAJOR=${1:-}
[[ "$MAJOR" =~ ^[0-9]+$ ]] || { echo "usage: $0 MAJOR [OUTFILE]   (17, 18 or 19)" >&2; exit 2; }
OUTFILE=$(realpath -m "${2:-pg$MAJOR.tar.xz}")
PACK_FROM=${GPU_REDUCE_PACK_FROM:-auto}
[ -z "${GPU_REDUCE_DSC:-}" ] || PACK_FROM=source
case $PACK_FROM in auto | source | binary) ;; *) echo "GPU_REDUCE_PACK_FROM: auto, source or binary, not '$PACK_FROM'" >&2; exit 2 ;; esac

# MAJOR SUITE [FROM]: the Debian suite whose chroot fetches the packages, and
# the suite of the same mirror they come from when SUITE has none yet
PG_SOURCES="
17 trixie
18 forky
19 sid experimental
"
read -r SUITE FROM < <(awk -v m="$MAJOR" '$1 == m { print $2, $3 }' <<<"$PG_SOURCES") || true
ROOT_DIR=$(cd "$(dirname "$0")/.." && pwd)
WORK=
# the link a tree from binaries finds its loader and time zones through: as
# long as /usr/share, which the server's zoneinfo path has in its place
GLIBC_LINK=/tmp/.gr$MAJOR

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
	# the check's link to the tree (an unpacked tree's activate.sh makes its own)
	case $(readlink "$GLIBC_LINK" 2>/dev/null) in "$WORK"/*) rm -f "$GLIBC_LINK" ;; esac
	if [ -n "$WORK" ] && [ -d "$WORK" ]; then
		if [ "${GPU_REDUCE_KEEP_TMP:-0}" = 1 ]; then
			pk_log "kept $WORK"
		else
			rm -rf --one-file-system "$WORK"
		fi
	fi
	exit "$rc"
}

# install what is missing of these packages on this host
need_packages() {
	local p need=()
	for p in "$@"; do
		dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
	done
	[ ${#need[@]} -gt 0 ] || return 0
	pk_log "installing ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends "${need[@]}" </dev/null >/dev/null ||
		{ apt-get update </dev/null >/dev/null && apt-get install -y --no-install-recommends "${need[@]}" </dev/null >/dev/null; } ||
		pk_die "cannot install ${need[*]}"
}
# both ways (dpkg-dev: dpkg-source unpacks the source; binutils: objdump)
need_packages make gcc binutils perl xz-utils dpkg-dev debootstrap

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gpuhost_pack_$MAJOR.XXXXXX")
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
CR=$WORK/chroot
STAGE=$WORK/stage
PGROOT=$STAGE/pgroot
BIN=$PGROOT/usr/lib/postgresql/$MAJOR/bin
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
start=$(date +%s)

# Run a command in the chroot's /src with a clean environment.
cr_apt() {
	chroot "$CR" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive sh -c 'cd /src && "$@"' sh "$@" </dev/null
}

# 1. a minimal chroot of SUITE whose apt knows SUITE's and FROM's packages
#    (its keyring checks their signatures); nothing is mounted in it
make_chroot() {
	local s script=()
	[ -e "/usr/share/debootstrap/scripts/$SUITE" ] || script=(/usr/share/debootstrap/scripts/sid)
	pk_log "debootstrap --variant=minbase $SUITE from $MIRROR"
	debootstrap --variant=minbase "$SUITE" "$CR" "$MIRROR" "${script[@]}" >"$WORK/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$WORK/debootstrap.log" >&2; pk_die "debootstrap failed"; }
	# a dated snapshot mirror's Release files may have expired (as in chroot_suite.sh)
	printf 'Acquire::Check-Valid-Until "false";\nAcquire::Check-Date "false";\n' \
		>"$CR/etc/apt/apt.conf.d/99gpu-reduce-snapshot"
	for s in "$SUITE" ${FROM:+"$FROM"}; do
		[ "$s" = "$SUITE" ] || echo "deb $MIRROR $s main"
		echo "deb-src $MIRROR $s main"
	done >"$CR/etc/apt/sources.list.d/gpu-reduce.list"
	mkdir -p "$CR/src"
	cr_apt apt-get update >"$WORK/apt.log" 2>&1 || { tail -n 20 "$WORK/apt.log" >&2; pk_die "apt-get update failed"; }
}

# the suite a package is taken from: SUITE where it has one, else FROM
# ($1: the package; $2: the apt-cache madison index kind, Sources or Packages)
pkg_suite() {
	if [ -z "${FROM:-}" ] || cr_apt apt-cache madison "$1" | grep -E "[ /]$SUITE/main .*$2" >/dev/null; then
		echo "$SUITE"
	else
		echo "$FROM"
	fi
}

# 2a. Debian's source package into $CR/src; fails (1) where the mirror lists
#     it but does not serve its files, or has none
fetch_source() {
	local pkg=postgresql-$MAJOR
	pkg=$pkg/$(pkg_suite "$pkg" Sources)
	pk_log "apt-get source --download-only $pkg"
	if ! cr_apt apt-get source --download-only "$pkg" >>"$WORK/apt.log" 2>&1; then
		tail -n 5 "$WORK/apt.log" >&2
		# a caching mirror may list a source package it does not hold
		if grep -q "404" "$WORK/apt.log"; then
			pk_log "$MIRROR lists $pkg but does not serve its files (404)"
		else
			pk_log "apt-get source $pkg failed"
		fi
		return 1
	fi
}

# 2b. build the source package on this host with Debian's directories (its
#     50-per-version-dirs patch puts pkglibdir and the server headers under
#     MAJOR) and few libraries, into $PGROOT
build_source() {
	local dsc=$1 VERSION SRC BUILD jobs f lib missing
	need_packages bison flex libreadline-dev zlib1g-dev liblz4-dev
	VERSION=$(sed -n 's/^Version: //p' "$dsc")
	pk_log "Debian's postgresql-$MAJOR $VERSION in $(($(date +%s) - start)) s"
	SRC=$WORK/src
	dpkg-source --no-check -x "$dsc" "$SRC" >"$WORK/dpkg-source.log" 2>&1 ||
		{ tail -n 20 "$WORK/dpkg-source.log" >&2; pk_die "dpkg-source -x failed"; }
	rm -rf --one-file-system "$CR"
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
	{ make -C "$BUILD" install-world-bin DESTDIR="$PGROOT" &&
		make -C "$BUILD/src/test/isolation" install DESTDIR="$PGROOT"; } >"$WORK/install.log" 2>&1 ||
		{ tail -n 20 "$WORK/install.log" >&2; pk_die "make install failed"; }
	pk_log "built in $(($(date +%s) - start)) s"

	# the client libraries (libpq, ecpg's) and every library an ELF file
	# needs beyond glibc's own go to syslib
	mkdir -p "$PGROOT/syslib"
	for f in "$PGROOT/usr/lib/$multiarch"/lib*.so.*; do
		[ -L "$f" ] && continue
		cp "$f" "$PGROOT/syslib/$(objdump -p "$f" | awk '$1 == "SONAME" { print $2 }')"
	done
	rm -rf "${PGROOT:?}/usr/lib/$multiarch"
	list_elf_files
	# the libraries each ELF file loads (ldd fails on a file that is not dynamic)
	while read -r f; do
		LD_LIBRARY_PATH=$PGROOT/syslib ldd "$f" 2>/dev/null || true
	done <"$WORK/elf.sorted" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u >"$WORK/needed"
	while read -r lib; do
		case $lib in "$PGROOT"/*) continue ;; esac
		# glibc's libraries: the GPU host's own (glibc 2.39 there)
		is_glibc "$(basename "$lib")" && continue
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
}

# glibc's own libraries, by file name: the packed ones go to syslib/glibc
GLIBC_LIBS="ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1
libresolv.so.2 libutil.so.1 libanl.so.1 libnss_files.so.2 libnss_dns.so.2"
is_glibc() {
	case $1 in
	ld-linux*.so.* | libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | \
		libresolv.so.* | libutil.so.* | libanl.so.* | libmvec.so.* | libnss_*.so.*) return 0 ;;
	esac
	return 1
}

# every ELF file of the tree into $WORK/elf.sorted
list_elf_files() {
	find "$PGROOT" -type f \( -perm -u+x -o -name '*.so*' \) -exec sh -c 'head -c 4 "$1" | grep -q ELF' sh {} \; -print |
		sort -u >"$WORK/elf.sorted"
}

# The packed PGXS describes the suite's compiler and C library (sid: gcc 16,
# glibc 2.43); an extension is built against it with this host's (gcc 12,
# glibc 2.36) or the GPU host's.  Makefile.global keeps the flags this host's
# gcc accepts (-Wmissing-variable-declarations is gcc 14's) and says
# with_llvm = no (no JIT is packed); pg_config.h forgets typeof_unqual where
# this gcc lacks it (gcc 14), and declares no function these headers lack
# (strlcpy is glibc 2.38's: port.h declares it then, and the server's packed
# glibc defines it at run time).  A module using both must then compile.
fit_pgxs_to_host() {
	local mk=$PGROOT/usr/lib/postgresql/$MAJOR/lib/pgxs/src/Makefile.global
	local h=$PGROOT/usr/include/postgresql/$MAJOR/server/pg_config.h
	local v lang flags kept w fn
	perl -i -pe 's/^with_llvm\s*=.*/with_llvm = no/' "$mk"
	for v in CFLAGS CXXFLAGS; do
		lang=c kept=""
		[ $v = CFLAGS ] || lang=c++
		# (no C++ compiler here: CXXFLAGS stay as they are)
		echo 'int x;' | gcc -x "$lang" -c -o /dev/null - 2>/dev/null || continue
		flags=$(sed -n "s/^$v = //p" "$mk")
		for w in $flags; do
			# (-Werror=format-security wants -Wformat beside it)
			if echo 'int x;' | gcc -x "$lang" -Wformat "$w" -c -o /dev/null - 2>/dev/null; then
				kept="$kept $w"
			else
				pk_log "Makefile.global $v: dropped $w (gcc $(gcc -dumpfullversion 2>/dev/null) rejects it)"
			fi
		done
		W=${kept# } V=$v perl -i -pe 's/^$ENV{V} = .*/$ENV{V} = $ENV{W}/' "$mk"
	done
	if grep -q '^#define HAVE_TYPEOF_UNQUAL 1' "$h" &&
		! echo 'int x; typeof_unqual(x) y;' | gcc -x c -c -o /dev/null - 2>/dev/null; then
		pk_log "pg_config.h: no typeof_unqual"
		GV=$(gcc -dumpfullversion) perl -i -pe 's|^#define HAVE_TYPEOF_UNQUAL 1|/* #undef HAVE_TYPEOF_UNQUAL (not in gcc $ENV{GV}) */|' "$h"
	fi
	# (LLVM's declarations matter only to the JIT, which is not packed)
	for fn in $(sed -n 's/^#define HAVE_DECL_\([A-Z0-9_]*\) 1$/\1/p' "$h" | grep -v '^LLVM'); do
		printf '#define _GNU_SOURCE\n#include <string.h>\n#include <stdlib.h>\n#include <unistd.h>\n#include <fcntl.h>\n#include <sys/uio.h>\nvoid *p = (void *) %s;\n' \
			"$(tr 'A-Z' 'a-z' <<<"$fn")" | gcc -x c -c -o /dev/null - 2>/dev/null && continue
		pk_log "pg_config.h: HAVE_DECL_$fn 0 (not in this host's headers)"
		perl -i -pe "s/^#define HAVE_DECL_$fn 1\$/#define HAVE_DECL_$fn 0/" "$h"
	done
	mkdir -p "$WORK/pgxs_check"
	cat >"$WORK/pgxs_check/check.c" <<'EOC'
#include "postgres.h"
#include "fmgr.h"
#include "nodes/pg_list.h"
#include "utils/memutils.h"
PG_MODULE_MAGIC;
extern List *check_copy(List *l, char *buf, size_t n);
List *
check_copy(List *l, char *buf, size_t n)
{
	strlcpy(buf, "copied", n);
	return copyObject(l);
}
EOC
	printf 'MODULES = check\nPG_CONFIG = pg_config\nPGXS := $(shell $(PG_CONFIG) --pgxs)\ninclude $(PGXS)\n' >"$WORK/pgxs_check/Makefile"
	make -C "$WORK/pgxs_check" PG_CONFIG="$BIN/pg_config" COPT=-Werror >"$WORK/pgxs_check.log" 2>&1 ||
		{ cat "$WORK/pgxs_check.log" >&2; pk_die "a module does not build against the packed PGXS with this host's gcc"; }
}

# The server needs ICU (libicuuc, libicui18n) but not most of its 33 MB of
# data: keep collation, normalization, locale aliases and the supplemental
# tables; drop break iteration, converters, and the display names, currency,
# unit, zone and number-spelling data of every locale (8 MB of the tarball).
# icupkg (icu-devtools, of the same ICU) runs in the chroot; the trimmed data
# becomes a libicudata of the same soname and entry point.
trim_icu_data() {
	local lib so sym dat
	lib=$(cd "$PGROOT/syslib" && ls libicudata.so.* 2>/dev/null) || return 0
	so=$PGROOT/syslib/$lib
	sym=$(objdump -T "$so" | awk '$NF ~ /^icudt[0-9]+_dat$/ { print $NF }')
	[ -n "$sym" ] || pk_die "$lib exports no icudtNN_dat"
	cr_apt apt-get install -y --download-only --no-install-recommends icu-devtools >>"$WORK/apt.log" 2>&1 ||
		{ tail -n 20 "$WORK/apt.log" >&2; pk_die "cannot download icu-devtools"; }
	dpkg -x "$(ls "$CR"/var/cache/apt/archives/icu-devtools_*.deb)" "$CR"
	# (icupkg wants a package's file named as its items' prefix: icudt78l.dat)
	mkdir -p "$CR/icu/small"
	dat=${sym%_dat}l.dat
	objcopy -O binary --only-section=.rodata "$so" "$CR/icu/$dat"
	cr_apt icupkg -l "/icu/$dat" >"$CR/icu/list" 2>>"$WORK/apt.log" ||
		{ tail -n 5 "$WORK/apt.log" >&2; pk_die "icupkg -l failed"; }
	grep -E '^(brkitr|curr|lang|rbnf|region|translit|unit|zone)/|\.(cnv|spp|cfu)$|^[a-z]{2,3}(_[A-Za-z0-9]+)*\.res$' "$CR/icu/list" |
		grep -vx 'res_index.res' >"$CR/icu/remove.txt"
	cr_apt icupkg -r /icu/remove.txt "/icu/$dat" "/icu/small/$dat" >>"$WORK/apt.log" 2>&1 ||
		{ tail -n 20 "$WORK/apt.log" >&2; pk_die "icupkg failed"; }
	[ "$(stat -c %s "$CR/icu/small/$dat")" -lt "$(($(stat -c %s "$CR/icu/$dat") / 2))" ] ||
		pk_die "icupkg dropped too little of $dat"
	cat >"$CR/icu/data.S" <<EOS
	.section .rodata
	.balign 16
	.globl $sym
	.type $sym, @object
$sym:
	.incbin "$CR/icu/small/$dat"
	.size $sym, . - $sym
	.section .note.GNU-stack,"",@progbits
EOS
	gcc -shared -nostdlib -Wl,-soname,"$lib" -o "$so" "$CR/icu/data.S" || pk_die "cannot link the trimmed $lib"
	pk_log "$lib: $(wc -l <"$CR/icu/remove.txt") of $(wc -l <"$CR/icu/list") items dropped, $(($(stat -c %s "$so") / 1048576)) MB left"
}

# 2c. Debian's binary packages of the suite, unpacked into $PGROOT with the
#     chroot's libraries and glibc; the executables patched to use those
pack_binary() {
	local s pkgs=() p f d rel interp n real lib bad
	need_packages patchelf
	s=$(pkg_suite "postgresql-$MAJOR" Packages)
	for p in "postgresql-$MAJOR" "postgresql-client-$MAJOR" "postgresql-server-dev-$MAJOR" libpq-dev libpq5; do
		pkgs+=("$p/$s")
	done
	pk_log "apt-get install --download-only ${pkgs[*]}"
	cr_apt apt-get install -y --download-only --no-install-recommends "${pkgs[@]}" >>"$WORK/apt.log" 2>&1 ||
		{ tail -n 20 "$WORK/apt.log" >&2; pk_die "cannot download ${pkgs[*]}"; }
	# PostgreSQL and the libraries it may need, unpacked over the chroot so
	# that its ldd sees them (the toolchain, LLVM and scripting languages that
	# postgresql-server-dev drags in are not)
	for f in "$CR"/var/cache/apt/archives/*.deb; do
		case $(basename "$f") in
		postgresql-"$MAJOR"_* | postgresql-client-"$MAJOR"_* | postgresql-server-dev-"$MAJOR"_* | libpq5_* | libpq-dev_* | tzdata_*) ;;
		*-dev_* | libllvm* | libclang* | libpython* | libperl* | lib*san[0-9]* | libgprofng*) continue ;;
		lib*) ;;
		*) continue ;;
		esac
		dpkg -x "$f" "$CR"
	done
	pk_log "Debian's postgresql-$MAJOR $(dpkg-deb -f "$CR"/var/cache/apt/archives/postgresql-"$MAJOR"_*.deb Version) (binaries) in $(($(date +%s) - start)) s"

	# the tree: what the five packages put under these, without man pages
	mkdir -p "$PGROOT/usr/lib/postgresql" "$PGROOT/usr/share/postgresql" "$PGROOT/usr/include" "$PGROOT/syslib/glibc"
	cp -a "$CR/usr/lib/postgresql/$MAJOR" "$PGROOT/usr/lib/postgresql/"
	cp -a "$CR/usr/share/postgresql/$MAJOR" "$PGROOT/usr/share/postgresql/"
	cp -a "$CR/usr/include/postgresql" "$PGROOT/usr/include/"
	# no JIT (17 ships llvmjit.so in postgresql-17; 19 in a -jit package not
	# taken): the server runs without it, and libLLVM alone would double the tarball
	rm -rf "$PGROOT/usr/share/postgresql/$MAJOR/man" "$BIN/pgindent" "$PGROOT/usr/lib/postgresql/$MAJOR/lib/bitcode" \
		"$PGROOT/usr/lib/postgresql/$MAJOR/lib"/llvmjit*.so
	bad=$(find "$PGROOT" -type l -lname '/*' -printf '%p -> %l\n')
	[ -z "$bad" ] || { echo "$bad" >&2; pk_die "links out of the tree"; }
	list_elf_files

	# every library an ELF file loads (the chroot's ldd, its paths resolved
	# in the chroot: /lib64/ld-linux-x86-64.so.2 is an absolute link there),
	# and glibc's whole set, beside libstdc++ and libgcc_s that a CUDA build
	# of an extension needs
	while read -r f; do
		chroot "$CR" /usr/bin/ldd "${f#"$PGROOT"}" 2>&1 || true
	done <"$WORK/elf.sorted" >"$WORK/ldd.out"
	if grep "not found" "$WORK/ldd.out" >&2; then pk_die "libraries not found in the chroot"; fi
	{
		awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// && $2 ~ /^\(/ { print $1 }' "$WORK/ldd.out"
		for n in $GLIBC_LIBS libstdc++.so.6 libgcc_s.so.1; do echo "/usr/lib/$multiarch/$n"; done
	} | sort -u >"$WORK/needed"
	while read -r lib; do
		n=$(basename "$lib")
		real=$(chroot "$CR" /usr/bin/readlink -f "$lib")
		[ -f "$CR$real" ] || pk_die "no $lib in the chroot"
		if is_glibc "$n"; then d=$PGROOT/syslib/glibc; else d=$PGROOT/syslib; fi
		[ -e "$d/$n" ] || cp "$CR$real" "$d/$n"
	done <"$WORK/needed"
	pk_log "syslib: $(cd "$PGROOT/syslib" && ls -d glibc/* ./*.so* | sed 's|^\./||' | tr '\n' ' ')"
	# a library's or module's own RUNPATH would send its lookups past the
	# executables' RPATH to the host's directories
	for f in "$PGROOT"/syslib/*.so* "$PGROOT"/syslib/glibc/*.so* $(grep '\.so' "$WORK/elf.sorted"); do
		[ -z "$(patchelf --print-rpath "$f" 2>/dev/null)" ] || { pk_log "removing the rpath of $f"; patchelf --remove-rpath "$f"; }
	done

	# the executables: the packed loader (through the link) and the packed
	# libraries first, for every object the process loads
	interp=$GLIBC_LINK/glibc/ld-linux-x86-64.so.2
	while read -r f; do
		patchelf --print-interpreter "$f" >/dev/null 2>&1 || continue
		rel=$(realpath --relative-to="$(dirname "$f")" "$PGROOT/syslib")
		patchelf --set-interpreter "$interp" --force-rpath --set-rpath "\$ORIGIN/$rel/glibc:\$ORIGIN/$rel" "$f"
	done <"$WORK/elf.sorted"
	# (the tree runs here from now on)
	ln -sfn "$PGROOT/syslib" "$GLIBC_LINK"

	# time zones: the suite's tzdata, and the compiled-in directory of the
	# server and initdb (a string of its own, NUL before and after) pointed
	# at it through the link; "/usr/share" and "/tmp/.grNN" are as long
	[ ${#GLIBC_LINK} -eq 10 ] || pk_die "$GLIBC_LINK is not as long as /usr/share"
	cp -a "$CR/usr/share/zoneinfo" "$PGROOT/syslib/zoneinfo"
	rm -rf "$PGROOT/syslib/zoneinfo/right"
	for f in "$BIN/postgres" "$BIN/initdb"; do
		n=$(TZLINK=$GLIBC_LINK perl -0777 -i -pe '$n = s{(?<=\0)/usr/share(?=/zoneinfo\0)}{$ENV{TZLINK}}g; END { print STDERR "$n\n" }' "$f" 2>&1 >/dev/null)
		[ "$n" = 1 ] || pk_die "$f: /usr/share/zoneinfo found $n times, not once"
	done

	fit_pgxs_to_host
	trim_icu_data

	cat >"$PGROOT/activate.sh" <<EOF
# source me: puts the bundled PostgreSQL $MAJOR on PATH; run from anywhere.
# Its programs run on the glibc packed in syslib/glibc: their ELF interpreter
# is $GLIBC_LINK/glibc/ld-linux-x86-64.so.2, and $GLIBC_LINK must be a link
# to this tree's syslib (made here; the first to source this should be root,
# /tmp's sticky bit keeps others from replacing a link they do not own).
# LD_LIBRARY_PATH stays as it is (set, for scripts under set -u): the host's
# own programs must not load the packed libc.
PGROOT=\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)
if [ "\$(readlink $GLIBC_LINK 2>/dev/null)" != "\$PGROOT/syslib" ]; then
	ln -sfn "\$PGROOT/syslib" $GLIBC_LINK 2>/dev/null ||
		echo "activate.sh: cannot point $GLIBC_LINK at \$PGROOT/syslib; the programs will not start" >&2
fi
export PATH=\$PGROOT/usr/lib/postgresql/$MAJOR/bin:\$PATH
export LD_LIBRARY_PATH=\${LD_LIBRARY_PATH:-}
export PG_CONFIG=\$PGROOT/usr/lib/postgresql/$MAJOR/bin/pg_config
EOF

	# every ELF file resolves each library inside the tree, with the packed
	# loader of the tree (the executables through their RPATH; the modules as
	# the server's RPATH would find them)
	while read -r f; do
		if patchelf --print-interpreter "$f" >/dev/null 2>&1; then
			"$interp" --list "$f"
		else
			"$interp" --library-path "$PGROOT/syslib/glibc:$PGROOT/syslib" --list "$f"
		fi 2>&1 | awk -v f="$f" -v r="$PGROOT/" -v l="$GLIBC_LINK/" '
			/not found/ { print f ": " $0; next }
			$2 == "=>" && $3 ~ /^\// && index($3, r) != 1 && index($3, l) != 1 { print f ": " $0 }'
	done <"$WORK/elf.sorted" >"$WORK/outside"
	[ ! -s "$WORK/outside" ] || { cat "$WORK/outside" >&2; pk_die "libraries resolved outside the tree"; }
}

if [ -n "${GPU_REDUCE_DSC:-}" ]; then
	build_source "$(realpath "$GPU_REDUCE_DSC")"
else
	make_chroot
	if [ "$PACK_FROM" != binary ] && fetch_source; then
		build_source "$(ls "$CR"/src/postgresql-"$MAJOR"_*.dsc)"
	elif [ "$PACK_FROM" = source ]; then
		pk_die "no source package: set GPU_REDUCE_MIRROR to a mirror that has its files, GPU_REDUCE_DSC to its .dsc (orig and debian tarballs beside it), or GPU_REDUCE_PACK_FROM=binary"
	else
		pk_log "packing Debian's binary packages of $SUITE${FROM:+/$FROM} with their glibc"
		pack_binary
	fi
fi

# 3. the tree runs from where it is unpacked: check its pg_config and initdb from here
(
	source "$PGROOT/activate.sh"
	[ "$(pg_config --bindir)" = "$BIN" ] || pk_die "pg_config is not relocatable: $(pg_config --bindir)"
	[ -x "$(dirname "$(pg_config --pgxs)")/../test/regress/pg_regress" ] || pk_die "no pg_regress beside PGXS"
	[ -x "$(dirname "$(pg_config --pgxs)")/../test/isolation/pg_isolation_regress" ] || pk_die "no pg_isolation_regress"
	[ -x "$(dirname "$(pg_config --pgxs)")/../test/isolation/isolationtester" ] || pk_die "no isolationtester"
	[ -f "$(pg_config --includedir-server)/postgres.h" ] || pk_die "no server headers"
	pk_log "$(postgres --version)"
)

mkdir -p "$(dirname "$OUTFILE")"
XZ_OPT="-9 -T$(nproc 2>/dev/null || echo 2)" tar -C "$STAGE" --owner=0 --group=0 --numeric-owner --sort=name -cJf "$OUTFILE.part" pgroot
mv "$OUTFILE.part" "$OUTFILE"
pk_log "$OUTFILE: $(du -m "$OUTFILE" | cut -f1) MB ($(du -sm "$PGROOT" | cut -f1) MB unpacked) in $(($(date +%s) - start)) s"
