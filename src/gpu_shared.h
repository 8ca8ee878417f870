/*
 * gpu_shared.h
 *	  Shared memory between backends and the GPU service: the batch slots.
 *
 * A slot is a fixed-size buffer in shared memory that a backend fills with
 * raw values in place and then submits; the service copies it to a GPU from
 * there (the area is registered as pinned memory), reduces it, and writes the
 * small result back into the slot's descriptor.  A slot's life:
 *
 *	 FREE -> FILLING (a backend took it) -> SUBMITTED -> RUNNING (on a GPU)
 *	   -> DONE or FAILED -> FREE (the backend folded the result)
 *
 * A backend that gives up a slot it no longer wants (an aborted query) marks
 * a RUNNING slot ABANDONED, and the service frees it when the GPU is done.
 * Every transition is a compare-and-swap on the slot's state, so no lock is
 * held while values are copied or reduced.
 */
#ifndef GPU_SHARED_H
#define GPU_SHARED_H

#include "port/atomics.h"

#include "gr_cuda.h"

#define GR_MAX_DEVICES 16

typedef enum GrSlotState
{
	GR_SLOT_FREE = 0,
	GR_SLOT_FILLING,
	GR_SLOT_SUBMITTED,
	GR_SLOT_RUNNING,
	GR_SLOT_DONE,
	GR_SLOT_FAILED,
	GR_SLOT_ABANDONED
} GrSlotState;

/* What the GPU service is doing. */
typedef enum GrServiceState
{
	GR_SERVICE_STARTING = 0,	/* not running, or opening the GPUs */
	GR_SERVICE_READY = 1,		/* reducing on at least one GPU */
	GR_SERVICE_NO_GPU = 2		/* running, but found no usable GPU */
} GrServiceState;

/* slot->op of a page job (page_job.h) rather than a batch of values */
#define GR_SLOT_OP_PAGES 100

/* Whether the service registered the buffer pool for the page path. */
typedef enum GrPoolState
{
	GR_POOL_UNKNOWN = 0,		/* not yet tried (no GPU, or starting) */
	GR_POOL_REGISTERED = 1,
	GR_POOL_FAILED = 2			/* tried and refused, or turned off */
} GrPoolState;

/* One slot's descriptor; its values and top-k keys live in the data area. */
typedef struct GrSlot
{
	pg_atomic_uint32 state;		/* GrSlotState */
	int			owner_procno;	/* pgprocno of the backend using it */
	int			op;				/* GrCudaOp */
	int			type;			/* GrCudaType */
	int64		k;				/* top-k only */
	int64		n;				/* values in the slot */
	int			device;			/* GPU that reduced it */
	int			want_device;	/* the GPU that must (a scan's table is there), or -1 */
	bool		inject_failure; /* gpu_reduce.debug_fail_gpu of the owner */
	char		error[128];		/* why it FAILED */
	GrCudaResult result;		/* written by the GPU */
} GrSlot;

/* Device list as the service found it. */
typedef struct GrDeviceEntry
{
	int			ordinal;		/* CUDA device number */
	char		name[64];
	int			sm_count;
	int64		memory_mb;
	pg_atomic_uint64 batches;	/* batches reduced since the service started */
	pg_atomic_uint64 rows;		/* their values */
} GrDeviceEntry;

typedef struct GrShared
{
	pg_atomic_uint32 ready;		/* GrServiceState */
	pid_t		service_pid;	/* 0 while no service runs */
	int			service_procno; /* pgprocno of the service, for its latch */
	int			ndevices;
	GrDeviceEntry devices[GR_MAX_DEVICES];
	int			nslots;
	int64		slot_bytes;		/* bytes of values per slot */
	int64		topk_keys;		/* top-k keys a slot can return */
	pg_atomic_uint32 next_slot; /* where the next search for a free slot starts */
	/* the buffer pool as the service registered it, and why not */
	pg_atomic_uint32 pool_state;	/* GrPoolState */
	void	   *pool_addr;		/* BufferBlocks in the service */
	char		pool_error[192];
	/* the pinned area: descriptors, then top-k keys, then values */
	Size		area_offset;	/* from the start of this struct */
	Size		area_bytes;
} GrShared;

extern GrShared *gr_shared;

/* GUCs that size the service (guc.c) */
extern int	gr_slot_size_kb;
extern int	gr_slots;
extern int	gr_streams_per_device;
extern char *gr_devices;
extern bool gr_fallback;
extern bool gr_debug_fail_gpu;
extern bool gr_register_buffers;

/* addresses of a slot's parts */
static inline GrSlot *
gr_slot(int i)
{
	return (GrSlot *) ((char *) gr_shared + gr_shared->area_offset) + i;
}

static inline int64 *
gr_slot_topk(int i)
{
	return (int64 *) ((char *) gr_shared + gr_shared->area_offset +
					  MAXALIGN(sizeof(GrSlot) * gr_shared->nslots)) +
		(int64) i * gr_shared->topk_keys;
}

static inline void *
gr_slot_values(int i)
{
	return (char *) gr_shared + gr_shared->area_offset +
		MAXALIGN(sizeof(GrSlot) * gr_shared->nslots) +
		TYPEALIGN(4096, sizeof(int64) * gr_shared->topk_keys * gr_shared->nslots) +
		(Size) i * gr_shared->slot_bytes;
}

/* shared memory set-up and the service's registration (gpu_shmem.c) */
extern void gr_shmem_init(void);

/* the service's entry point (gpu_service.c) */
extern PGDLLEXPORT void gr_service_main(Datum arg);

#endif							/* GPU_SHARED_H */
