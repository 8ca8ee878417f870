/*
 * gpu_shmem.c
 *	  Reserving the batch-slot shared memory and registering the GPU service.
 *
 * Runs in the postmaster (from _PG_init with shared_preload_libraries), which
 * must never touch CUDA: it only sizes and zeroes memory and registers the
 * background worker that will.
 */
#include "state.h"
#include "gpu_shared.h"

#include <unistd.h>

#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"

/* top-k keys a slot can carry back from the GPU; larger k go to the CPU */
#define GR_SLOT_TOPK_KEYS 16384

GrShared   *gr_shared = NULL;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/*
 * Whether the machine has an NVIDIA GPU the service could open: the
 * driver's control node (or WSL's GPU node) exists.  The postmaster asks
 * the file system, never CUDA.  Without one no slot is reserved (64 slots
 * of 8 MB: 520 MB of shared memory no batch would use) and the service
 * does not look for a GPU.
 */
static bool
gpu_device_nodes(void)
{
	return access("/dev/nvidiactl", F_OK) == 0 || access("/dev/dxg", F_OK) == 0;
}

/* Slots to reserve: gpu_reduce.slots where a GPU may be, else none. */
static int
slots_wanted(void)
{
	static int	wanted = -1;

	if (wanted < 0)
		wanted = gpu_device_nodes() ? gr_slots : 0;
	return wanted;
}

/* Bytes of the pinned area for the slots reserved. */
static Size
area_size(void)
{
	int			nslots = slots_wanted();
	Size		descriptors = MAXALIGN(sizeof(GrSlot) * (Size) nslots);
	Size		topk = TYPEALIGN(4096, sizeof(int64) * GR_SLOT_TOPK_KEYS * (Size) nslots);
	Size		values = (Size) gr_slot_size_kb * 1024 * nslots;

	return TYPEALIGN(4096, descriptors + topk + values);
}

/* Total shared memory: the header, page alignment, the area. */
static Size
shared_size(void)
{
	return add_size(sizeof(GrShared) + 4096, area_size());
}

/* shmem_request_hook: ask for our memory. */
static void
request_shmem(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(shared_size());
}

/* shmem_startup_hook: lay out the slots, all FREE. */
static void
startup_shmem(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	gr_shared = ShmemInitStruct("gpu_reduce", shared_size(), &found);
	if (!found)
	{
		char	   *area;

		memset(gr_shared, 0, sizeof(GrShared));
		pg_atomic_init_u32(&gr_shared->ready, GR_SERVICE_STARTING);
		pg_atomic_init_u32(&gr_shared->next_slot, 0);
		gr_shared->nslots = slots_wanted();
		gr_shared->slot_bytes = (int64) gr_slot_size_kb * 1024;
		gr_shared->topk_keys = GR_SLOT_TOPK_KEYS;
		area = (char *) TYPEALIGN(4096, (char *) gr_shared + sizeof(GrShared));
		gr_shared->area_offset = area - (char *) gr_shared;
		gr_shared->area_bytes = area_size();
		for (int i = 0; i < gr_shared->nslots; i++)
		{
			GrSlot	   *slot = gr_slot(i);

			memset(slot, 0, sizeof(GrSlot));
			pg_atomic_init_u32(&slot->state, GR_SLOT_FREE);
		}
	}
	LWLockRelease(AddinShmemInitLock);
}

/* Called from _PG_init while shared_preload_libraries is processed. */
void
gr_shmem_init(void)
{
	BackgroundWorker worker;

	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = request_shmem;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = startup_shmem;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS;
	worker.bgw_start_time = BgWorkerStart_PostmasterStart;
	worker.bgw_restart_time = 1;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "gpu_reduce");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "gr_service_main");
	snprintf(worker.bgw_name, BGW_MAXLEN, "gpu_reduce service");
	snprintf(worker.bgw_type, BGW_MAXLEN, "gpu_reduce service");
	RegisterBackgroundWorker(&worker);
}
