/*
 * accum.h
 *	  The functions of the accumulators, which the kinds table (kinds.c)
 *	  names: each file that keeps accumulators defines its own here.
 */
#ifndef GR_ACCUM_H
#define GR_ACCUM_H

#include "state.h"
#include "wire.h"

#include "utils/numeric.h"

struct GrCudaResult;

/* the accumulators' functions, by the file that keeps them */
/* partial.c: the fixed-width accumulators */
extern void gr_isum_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src);
extern void gr_isum_send(StringInfo buf, GrState *st);
extern void gr_isum_recv(GrReader *r, GrState *st);
extern void gr_isum_from_gpu(GrPartial *p, const struct GrCudaResult *r, int cuda_op, int64 *topk);
extern void gr_xsum_acc_init(GrPartial *p, int32 k);
extern void gr_xsum_acc_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src);
extern void gr_xsum_acc_send(StringInfo buf, GrState *st);
extern void gr_xsum_acc_recv(GrReader *r, GrState *st);
extern void gr_xsum_acc_from_gpu(GrPartial *p, const struct GrCudaResult *r, int cuda_op, int64 *topk);
extern void gr_key_min_init(GrPartial *p, int32 k);
extern void gr_key_max_init(GrPartial *p, int32 k);
extern void gr_key_min_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src);
extern void gr_key_max_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src);
extern void gr_key_send(StringInfo buf, GrState *st);
extern void gr_key_recv(GrReader *r, GrState *st);
extern void gr_key_from_gpu(GrPartial *p, const struct GrCudaResult *r, int cuda_op, int64 *topk);
extern void gr_topk_init(GrPartial *p, int32 k);
extern void gr_topk_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src);
extern void gr_topk_send(StringInfo buf, GrState *st);
extern void gr_topk_recv(GrReader *r, GrState *st);
extern int32 gr_topk_recv_head(GrReader *r, GrPartial *p);
extern void gr_topk_from_gpu(GrPartial *p, const struct GrCudaResult *r, int cuda_op, int64 *topk);
extern double gr_topk_heap_cap(int32 k, double values);
extern double gr_xsum_acc_side(int32 k, double values, double width);
extern double gr_topk_side(int32 k, double values, double width);
extern void gr_xsum_send(StringInfo buf, GrXsum *x);
extern void gr_xsum_recv(GrReader *r, GrXsum *x, int64 count);

/* cpu_reduce.c: the CPU's batch folds */
extern void gr_cpu_isum(GrState *st, const void *values, int32 n);
extern void gr_cpu_xsum(GrState *st, const void *values, int32 n);
extern void gr_cpu_key_min(GrState *st, const void *values, int32 n);
extern void gr_cpu_key_max(GrState *st, const void *values, int32 n);
extern void gr_cpu_key_topk(GrState *st, const void *values, int32 n);

/* numeric_state.c: the numeric accumulators */
extern void gr_num_sum_fold(GrPartial *p, MemoryContext mcxt, Datum value);
extern void gr_num_min_fold(GrPartial *p, MemoryContext mcxt, Datum value);
extern void gr_num_max_fold(GrPartial *p, MemoryContext mcxt, Datum value);
extern void gr_num_topk_fold(GrPartial *p, MemoryContext mcxt, Datum value);
extern void gr_num_sum_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src);
extern void gr_num_min_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src);
extern void gr_num_max_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src);
extern void gr_num_topk_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src);
extern void gr_num_sum_send(StringInfo buf, GrState *st);
extern void gr_num_sum_recv(GrReader *r, GrState *st);
extern void gr_num_best_send(StringInfo buf, GrState *st);
extern void gr_num_min_recv(GrReader *r, GrState *st);
extern void gr_num_max_recv(GrReader *r, GrState *st);
extern void gr_num_topk_send(StringInfo buf, GrState *st);
extern void gr_num_topk_recv(GrReader *r, GrState *st);
extern double gr_num_best_side(int32 k, double values, double width);
extern double gr_num_topk_side(int32 k, double values, double width);
extern void gr_num_sum_send_partial(StringInfo buf, const GrPartial *p);
extern void gr_num_sum_recv_partial(GrReader *r, GrPartial *p, int64 count);
extern Datum gr_num_sum_exact(GrPartial *p);
extern bool gr_num_sum_cmp(const GrPartial *p, Datum c, int *cmp);
extern bool gr_num_scaled_const(Datum c, int scale, int128 *x);

/* variance.c: the variance family's accumulators and results */
extern void gr_ivar_fold(GrState *st, const void *values, int32 n);
extern void gr_ivar_fold_key(GrPartial *p, int64 key);
extern void gr_ivar_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src);
extern void gr_ivar_send(StringInfo buf, GrState *st);
extern void gr_ivar_recv(GrReader *r, GrState *st);
extern void gr_ivar_from_gpu(GrPartial *p, const struct GrCudaResult *r, int cuda_op, int64 *topk);
extern void gr_fvar_fold(GrState *st, const void *values, int32 n);
extern void gr_fvar_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src);
extern void gr_fvar_send(StringInfo buf, GrState *st);
extern void gr_fvar_recv(GrReader *r, GrState *st);
extern void gr_fvar_from_gpu(GrPartial *p, const struct GrCudaResult *r, int cuda_op, int64 *topk);
extern void gr_nvar_fold(GrPartial *p, MemoryContext mcxt, Datum value);
extern void gr_nvar_combine(GrPartial *dst, MemoryContext mcxt, const GrPartial *src);
extern void gr_nvar_send(StringInfo buf, GrState *st);
extern void gr_nvar_recv(GrReader *r, GrState *st);
extern double gr_fvar_side(int32 k, double values, double width);
extern double gr_nvar_side(int32 k, double values, double width);
#define GR_VAR_FINALS(name) \
	extern Datum gr_final_##name##_int(GrState *st, bool *isnull); \
	extern Datum gr_final_##name##_float(GrState *st, bool *isnull); \
	extern Datum gr_final_##name##_numeric(GrState *st, bool *isnull)
GR_VAR_FINALS(variance);
GR_VAR_FINALS(var_pop);
GR_VAR_FINALS(stddev);
GR_VAR_FINALS(stddev_pop);
/* an integer or numeric variance's sums of the values and of their squares */
extern void gr_var_sums(GrState *st, Datum *sumx, Datum *sumx2);

/* results (finals.c, numeric_state.c) */
extern Numeric gr_int128_to_numeric(int128 v);
extern Datum gr_final_sum_int(GrState *st, bool *isnull);
extern Datum gr_final_sum_float(GrState *st, bool *isnull);
extern Datum gr_final_avg_int(GrState *st, bool *isnull);
extern Datum gr_final_avg_float(GrState *st, bool *isnull);
extern Datum gr_final_key(GrState *st, bool *isnull);
extern Datum gr_final_key_array(GrState *st, bool *isnull);
extern Datum gr_numeric_sum_final(GrState *st, bool *isnull);
extern Datum gr_numeric_avg_final(GrState *st, bool *isnull);
extern Datum gr_numeric_best_final(GrState *st, bool *isnull);
extern Datum gr_numeric_array_final(GrState *st, bool *isnull);

#endif							/* GR_ACCUM_H */
