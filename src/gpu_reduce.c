/*
 * gpu_reduce.c
 *	  Module entry point and the GUCs.
 */
#include "gpu_reduce.h"

#include <limits.h>

#include "utils/guc.h"

PG_MODULE_MAGIC;

bool		gr_enabled = true;
int			gr_batch_rows = 65536;
int			gr_min_gpu_rows = 65536;
int			gr_buffer_memory_kb = 64 * 1024;

void		_PG_init(void);

/* Define the GUCs; the GPU service is set up by gr_gpu_init. */
void
_PG_init(void)
{
	DefineCustomBoolVariable("gpu_reduce.enabled",
							 "Lets gpu_reduce aggregates send batches to the GPU.",
							 "When off, every batch is reduced on the CPU; answers are the same.",
							 &gr_enabled, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpu_reduce.batch_rows",
							"Values an aggregate collects before reducing them as one batch.",
							NULL,
							&gr_batch_rows, 65536, 1, 64 * 1024 * 1024,
							PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpu_reduce.min_gpu_rows",
							"Batches with fewer values than this are reduced on the CPU.",
							NULL,
							&gr_min_gpu_rows, 65536, 1, INT_MAX,
							PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpu_reduce.buffer_memory",
							"Upper bound on the batch-buffer memory of one backend, all groups together.",
							"Past it, aggregates reduce their batches early instead of growing them.",
							&gr_buffer_memory_kb, 64 * 1024, 8, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
	MarkGUCPrefixReserved("gpu_reduce");
}
