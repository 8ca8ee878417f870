/*
 * gr_hostdev.h
 *	  The macro that makes a header of common/ compile for both sides:
 *	  static inline C on the host, __host__ __device__ under nvcc.
 *
 * Everything in common/ is plain C99 with no PostgreSQL or CUDA headers, so
 * that src/ (the PostgreSQL side) and cuda/ (the kernels) share one
 * definition of each layout and rule, and the CPU-only build runs the very
 * code a kernel runs.
 */
#ifndef GR_HOSTDEV_H
#define GR_HOSTDEV_H

#ifdef __CUDACC__
#define GR_HOSTDEV __host__ __device__ __forceinline__
#else
#define GR_HOSTDEV static inline
#endif

/*
 * The same for a small helper of a hot loop, which the host's compiler must
 * not leave a call (nvcc inlines every GR_HOSTDEV function already)
 */
#ifdef __CUDACC__
#define GR_HOSTDEV_INLINE __host__ __device__ __forceinline__
#elif defined(__GNUC__)
#define GR_HOSTDEV_INLINE static inline __attribute__((always_inline))
#else
#define GR_HOSTDEV_INLINE static inline
#endif

#endif							/* GR_HOSTDEV_H */
