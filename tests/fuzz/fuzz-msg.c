/* Fuzz target: one message through the whole parser (libetpan included). */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "mlq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mlq_msg *m = NULL;

	if (mlq_msg_parse((const char *)data, size, &m, NULL) == MLQ_OK)
		mlq_msg_free(m);
	return 0;
}
