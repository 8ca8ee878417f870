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
 * GPU service (never touching CUDA here: this runs in the postmaster).
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
#endif
}
