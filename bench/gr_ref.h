/*
 * gr_ref.h
 *	  CPU references for the kernel benchmark and tests: integer sums in
 *	  __int128 and sums of squares in 192 bits, min/max/top-k on order keys,
 *	  exact float sums and sums of squares via src/xsum.c.
 */
#ifndef GR_REF_H
#define GR_REF_H

#include <stdbool.h>
#include <stdint.h>

#include "../cuda/gr_cuda.h"

#ifdef __cplusplus
extern "C"
{
#endif

extern int	ref_type_bytes(GrCudaType type);
extern int64_t ref_key(GrCudaType type, const void *values, int64_t i);
extern void ref_sum_int(GrCudaType type, const void *values, int64_t n,
						int64_t *lo, int64_t *hi);
extern void ref_sumsq_int(GrCudaType type, const void *values, int64_t n,
						  int64_t *lo, int64_t *hi, uint64_t sq[3]);
extern int64_t ref_minmax(GrCudaType type, const void *values, int64_t n, bool is_max);
extern int	ref_top2(GrCudaType type, const void *values, int64_t n, int64_t key[2]);
extern int64_t ref_topk(GrCudaType type, const void *values, int64_t n, int64_t k,
						int64_t *keys);
extern void ref_xsum(GrCudaType type, const void *values, int64_t n, GrXsum *x);
extern void ref_xsum_squares(GrCudaType type, const void *values, int64_t n, GrXsum *x);
extern bool ref_xsum_equal(const GrXsum *a, const GrXsum *b);
extern bool ref_xsum_limbs_bounded(const GrXsum *x);

#ifdef __cplusplus
}
#endif

#endif							/* GR_REF_H */
