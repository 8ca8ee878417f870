#!/bin/sh
# Build kernel_bench variants of the exact-sum kernel (bins per value, loads
# per thread) into bench/var/, for comparing them in one device run:
#   sh bench/variants.sh && for v in bench/var/*; do $v --only=xsum; done
set -e
cd "$(dirname "$0")"
make -s
mkdir -p var
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
GEN="-gencode=arch=compute_90a,code=sm_90a"
build() {
	name=$1; shift
	$NVCC -O3 -std=c++17 $GEN -Xcompiler -fPIC "$@" -c ../cuda/gr_xsum.cu -o var/$name.o
	$NVCC -O3 -std=c++17 $GEN -Xcompiler -fopenmp kernel_bench.cu var/$name.o gr_ref.o xsum.o \
		../cuda/libgr_cuda.a -o var/$name -lgomp -lm
	rm -f var/$name.o
}
build nb3_u4 -DGR_XSUM_NB8=3 -DGR_XSUM_NB4=2 -DGR_XSUM_UNROLL8=4 &
build nb4_u4 -DGR_XSUM_NB8=4 -DGR_XSUM_NB4=3 -DGR_XSUM_UNROLL8=4 &
wait
build nb3_u8 -DGR_XSUM_NB8=3 -DGR_XSUM_NB4=2 -DGR_XSUM_UNROLL8=8 &
build nb4_u8 -DGR_XSUM_NB8=4 -DGR_XSUM_NB4=3 -DGR_XSUM_UNROLL8=8 &
wait
