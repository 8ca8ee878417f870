# gpu_reduce: PGXS build.
#
# With nvcc (on PATH or in /usr/local/cuda) the CUDA kernels (cuda/) and the
# GPU service are linked in, with the CUDA runtime linked statically so the
# library still loads on machines without a driver.  `make WITH_CUDA=no`, or
# no nvcc at all, builds the CPU-only library with the same SQL surface.
# `make GENCODE="-gencode=arch=compute_80,code=sm_80"` compiles the kernels
# for other GPUs than cuda/gencode.mk's list (sm_75 to sm_90).

EXTENSION = gpu_reduce
MODULE_big = gpu_reduce
# 1.2 on: the install and upgrade scripts are generated from sqlgen/ (the
# type x aggregate matrix and the hand-written parts) and committed, so that
# a copy of the scripts without make (test/gpu_host.sh) has them too; an
# install script of an older version stays as it was released
GENERATED_SQL = gpu_reduce--1.3.sql gpu_reduce--1.4.sql gpu_reduce--1.1--1.2.sql \
	gpu_reduce--1.2--1.3.sql gpu_reduce--1.3--1.4.sql
DATA = gpu_reduce--1.0.sql gpu_reduce--1.1.sql gpu_reduce--1.0--1.1.sql \
	gpu_reduce--1.2.sql $(GENERATED_SQL)
OBJS = src/gpu_reduce.o src/agg_catalog.o src/agg_space.o src/group_table.o src/guc.o src/types.o src/kinds.o src/finals.o src/wire.o src/agg.o src/batch.o src/partial.o \
	src/cpu_reduce.o src/numeric_state.o src/serial.o src/stats.o src/xsum.o \
	src/gpu_client.o src/gpu_shmem.o src/bulk_plan.o src/bulk_scan.o src/join_plan.o src/join_hash.o \
	src/page_path.o src/buf_hints.o src/held_pins.o src/variance.o src/scan_desc.o src/sink.o src/native_partial.o src/expr_compile.o \
	src/time_range.o src/decline.o

REGRESS = $(sort $(basename $(notdir $(wildcard sql/*.sql))))
REGRESS_OPTS = --inputdir=. --load-extension=gpu_reduce

# Debian's PGXS would want LLVM bitcode of every object, .cu ones included.
override with_llvm = no

PG_CONFIG ?= pg_config
PG_CPPFLAGS = -I$(srcdir)/src -I$(srcdir)/common -I$(srcdir)/cuda

NVCC ?= $(firstword $(wildcard $(addsuffix /nvcc,$(subst :, ,$(PATH)))) \
	$(wildcard /usr/local/cuda/bin/nvcc))
ifeq ($(WITH_CUDA),)
WITH_CUDA := $(if $(NVCC),yes,no)
endif

ifeq ($(WITH_CUDA),yes)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
OBJS += src/gpu_service.o
PG_CPPFLAGS += -DGR_WITH_CUDA
SHLIB_LINK += cuda/libgr_cuda.a -L$(CUDA_HOME)/lib64 -lcudart_static \
	-lrt -ldl -lpthread -lstdc++
endif

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

all: $(GENERATED_SQL)
gpu_reduce--1.3.sql: sqlgen/gen.sh sqlgen/matrix.txt sqlgen/head.sql
	sh sqlgen/gen.sh install 1.3 > $@.tmp && mv $@.tmp $@
gpu_reduce--1.1--1.2.sql: sqlgen/gen.sh sqlgen/matrix.txt sqlgen/upgrade-1.2.sql
	sh sqlgen/gen.sh upgrade 1.1 1.2 > $@.tmp && mv $@.tmp $@
gpu_reduce--1.2--1.3.sql: sqlgen/gen.sh sqlgen/matrix.txt sqlgen/upgrade-1.3.sql
	sh sqlgen/gen.sh upgrade 1.2 1.3 > $@.tmp && mv $@.tmp $@
gpu_reduce--1.4.sql: sqlgen/gen.sh sqlgen/matrix.txt sqlgen/head.sql
	sh sqlgen/gen.sh install 1.4 > $@.tmp && mv $@.tmp $@
gpu_reduce--1.3--1.4.sql: sqlgen/gen.sh sqlgen/matrix.txt sqlgen/upgrade-1.4.sql
	sh sqlgen/gen.sh upgrade 1.3 1.4 > $@.tmp && mv $@.tmp $@

ifeq ($(WITH_CUDA),yes)
$(shlib): cuda/libgr_cuda.a
# GENCODE (the GPUs to compile for, cuda/gencode.mk) goes on to cuda/ when given
cuda/libgr_cuda.a: FORCE
	$(MAKE) -C cuda NVCC=$(NVCC) $(if $(GENCODE),GENCODE='$(GENCODE)')
FORCE:
endif

# objects depend on the shared headers, and on the build's CUDA choice: the
# stamp is rewritten when WITH_CUDA changes, which recompiles them
BUILD_STAMP := src/build-config.stamp
$(shell echo 'WITH_CUDA=$(WITH_CUDA)' | cmp -s - $(BUILD_STAMP) || \
	echo 'WITH_CUDA=$(WITH_CUDA)' > $(BUILD_STAMP))
$(OBJS): $(wildcard src/*.h common/*.h) cuda/gr_cuda.h $(BUILD_STAMP)
EXTRA_CLEAN = $(BUILD_STAMP)

clean: clean-cuda
clean-cuda:
	$(MAKE) -C cuda clean

# kernel benchmark against CUB (needs a GPU to run)
bench-kernels:
	$(MAKE) -C bench

.PHONY: clean-cuda bench-kernels FORCE
