/* Fuzz target: the chunked mbox splitter, fed in uneven pieces. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "mlq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static enum mlq_status
count(const char *msg, size_t len, void *arg)
{
	(void)msg;
	*(size_t *)arg += len;
	return MLQ_OK;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mlq_mbox_split *s;
	size_t off = 0, step = 1, total = 0;

	if (mlq_mbox_split_new(count, &total, &s, NULL) != MLQ_OK)
		return 0;
	while (off < size) {
		size_t n = size - off < step ? size - off : step;

		mlq_mbox_split_feed(s, (const char *)data + off, n, NULL);
		off += n;
		step = step * 3 % 4096 + 1; /* 1, 4, 13, 40, ...: cuts everywhere */
	}
	mlq_mbox_split_finish(s, NULL);
	mlq_mbox_split_free(s);
	return 0;
}
