/*
 * gpu_client.c
 *	  The GPU reducer as seen from a backend.
 *
 * No GPU service exists yet, so no batch is ever submitted: every batch is
 * reduced on the CPU, and gpu_reduce_devices() lists no device.
 */
#include "gpu_reduce.h"

#include "funcapi.h"

PG_FUNCTION_INFO_V1(gpu_reduce_devices);

/* Submit the state's full batch to the GPU; false: reduce it on the CPU. */
bool
gr_gpu_submit(GrState *st)
{
	return false;
}

/* Wait for the state's batches still on the GPU and fold their results. */
void
gr_gpu_wait(GrState *st)
{
}

/* gpu_reduce_devices(): the GPUs the service uses; none without a service. */
Datum
gpu_reduce_devices(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	InitMaterializedSRF(fcinfo, 0);
	ereport(NOTICE,
			(errmsg("gpu_reduce has no GPU service in this build; batches are reduced on the CPU")));
	(void) rsinfo;
	return (Datum) 0;
}
