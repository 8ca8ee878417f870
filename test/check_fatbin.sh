#!/usr/bin/env bash
# test/check_fatbin.sh [FILE] -- does the built library hold the kernels for
# every GPU it claims (README, "Requirements")?
#
# Lists the CUDA images in FILE (default: gpu_reduce.so at the repository
# root, else cuda/libgr_cuda.a) with cuobjdump and checks that every kernel
# object was compiled to machine code for each of sm_75, sm_80, sm_86, sm_89
# and sm_90 and carries compute_90 PTX (cuda/gencode.mk's default list): each
# of those appears, and each machine-code target as often as the others, so an
# object left over from a build with a shorter GENCODE fails too (PTX is only
# counted: an object without kernels may carry machine code but no PTX).
# More targets than these are fine.
#
# A CPU-only build (the top-level Makefile's stamp says WITH_CUDA=no, or no
# stamp and no .nv_fatbin section in the library) has no kernels: the check
# is skipped and passes.  FILE given on the command line is always checked.
#
# cuobjdump is taken from $CUOBJDUMP, the PATH, nvcc's directory or
# /usr/local/cuda/bin; where none is (the pip-installed toolkit has no
# cuobjdump), PyPI's nvidia-cuda-cuobjdump of nvcc's major is installed into
# a temporary directory and removed at the end.
#
# Prints one line 'check_fatbin: PASSED ...', 'check_fatbin: SKIPPED ...' or
# 'check_fatbin: FAILED ...'; exits non-zero only on FAILED.  CI runs it after
# test/run_tests.sh in .ci/run's pg15 stage, on the library that stage built.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WANT_ELF="sm_75 sm_80 sm_86 sm_89 sm_90"
WANT_PTX="compute_90"
TMP=
trap '[ -z "$TMP" ] || rm -rf "$TMP"' EXIT

pass() { echo "check_fatbin: PASSED $*"; exit 0; }
skip() { echo "check_fatbin: SKIPPED $*"; exit 0; }
fail() { echo "check_fatbin: FAILED $*"; exit 1; }

# The library to check, and whether it should have kernels at all.
FILE=${1:-}
if [ -z "$FILE" ]; then
	stamp=$(cat "$ROOT/src/build-config.stamp" 2>/dev/null || true)
	for f in "$ROOT/gpu_reduce.so" "$ROOT/cuda/libgr_cuda.a"; do
		if [ -f "$f" ]; then
			FILE=$f
			break
		fi
	done
	[ -n "$FILE" ] || fail "nothing built: no gpu_reduce.so or cuda/libgr_cuda.a in $ROOT (run make first)"
	case $stamp in
	WITH_CUDA=no) skip "($FILE is a CPU-only build, $stamp: no kernels to check)" ;;
	WITH_CUDA=yes) ;;
	*)
		if [ "${FILE##*.}" = so ] && ! readelf -S "$FILE" 2>/dev/null | grep -q '\.nv_fatbin'; then
			skip "($FILE has no .nv_fatbin section: a CPU-only build)"
		fi
		;;
	esac
fi
[ -f "$FILE" ] || fail "no such file: $FILE"

# nvcc of the build, for its directory and its CUDA major.
NVCC=$(command -v nvcc 2>/dev/null || true)
[ -n "$NVCC" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || NVCC=/usr/local/cuda/bin/nvcc

CUOBJDUMP=${CUOBJDUMP:-}
if [ -z "$CUOBJDUMP" ]; then
	for c in "$(command -v cuobjdump 2>/dev/null || true)" \
		"${NVCC:+$(dirname "$NVCC")/cuobjdump}" /usr/local/cuda/bin/cuobjdump; do
		if [ -n "$c" ] && [ -x "$c" ]; then
			CUOBJDUMP=$c
			break
		fi
	done
fi
if [ -z "$CUOBJDUMP" ]; then
	major=$([ -z "$NVCC" ] || "$NVCC" --version | sed -n 's/.*release \([0-9][0-9]*\)\..*/\1/p')
	major=${major:-13}
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpu_reduce_cuobjdump.XXXXXX")
	echo "check_fatbin: no cuobjdump here; installing nvidia-cuda-cuobjdump==$major.* from PyPI into $TMP" >&2
	PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check --no-deps \
		--target "$TMP" "nvidia-cuda-cuobjdump==$major.*" >&2 ||
		fail "cannot check $FILE: no cuobjdump (set CUOBJDUMP, or install the CUDA toolkit's cuobjdump)"
	CUOBJDUMP=$(find "$TMP" -type f -name cuobjdump | head -n 1)
	[ -n "$CUOBJDUMP" ] || fail "cannot check $FILE: the nvidia-cuda-cuobjdump wheel holds no cuobjdump"
	chmod +x "$CUOBJDUMP"
fi

elf=$("$CUOBJDUMP" --list-elf "$FILE" 2>&1) || fail "$CUOBJDUMP --list-elf $FILE: $elf"
ptx=$("$CUOBJDUMP" --list-ptx "$FILE" 2>&1) || fail "$CUOBJDUMP --list-ptx $FILE: $ptx"

# Count each target: ELF lines end in '.sm_NN.cubin', PTX lines in
# '.sm_NN.ptx' (cuobjdump names compute_NN PTX after its sm_NN).
missing=""
counts=""
first=""
uneven=0
for t in $WANT_ELF $WANT_PTX; do
	case $t in
	compute_*) n=$(grep -Ec "\.(sm|compute)_${t#compute_}\.ptx\$" <<<"$ptx" || true) ;;
	*) n=$(grep -Ec "\.${t}\.cubin\$" <<<"$elf" || true) ;;
	esac
	counts+=" $t:$n"
	if [ "$n" -eq 0 ]; then
		missing+=" $t"
	elif [ "${t#compute_}" != "$t" ]; then
		:
	elif [ -z "$first" ]; then
		first=$n
	elif [ "$n" -ne "$first" ]; then
		uneven=1
	fi
done

[ -z "$missing" ] || fail "$FILE lacks$missing (images per target:$counts; cuda/gencode.mk's GENCODE builds them all)"
[ "$uneven" -eq 0 ] || fail "$FILE: some kernel objects lack a target (images per target:$counts; make clean, then make)"
pass "$FILE holds SASS for $WANT_ELF and $WANT_PTX PTX (images per target:$counts)"
