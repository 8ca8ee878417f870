/*
 * gpu_reduce.c
 *	  Module entry point.
 */
#include "state.h"
#include "gpu_shared.h"
#include "bulk.h"

#include "miscadmin.h"
#include "utils/guc.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/*
 * Define the GUCs and install the planner hook.  Loaded by
 * shared_preload_libraries, also reserve the slot memory and register the
 * GPU service (never touching CUDA here: this runs in the postmaster), or,
 * built without CUDA, say so once in the server log.
 */
void
_PG_init(void)
{
	gr_guc_define();
	gr_bulk_plan_init();
	MarkGUCPrefixReserved("gpu_reduce");

#ifdef GR_WITH_CUDA
	if (process_shared_preload_libraries_in_progress)
		gr_shmem_init();
#else
	/* the one case the GPU service cannot log itself: there is none */
	if (process_shared_preload_libraries_in_progress)
		ereport(LOG,
				(errmsg("gpu_reduce was built without CUDA; aggregates and the bulk scan run on the CPU"),
				 errhint("Build it where nvcc is (on PATH or in /usr/local/cuda) to use a GPU.")));
#endif
}
