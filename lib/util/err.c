#include "config.h"

#include <stdio.h>
#include <string.h>

#include "mlq.h"

enum mlq_status
mlq_err_set(struct mlq_err *err, enum mlq_status st, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || err->status != MLQ_OK)
		return st;
	err->status = st;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return st;
}

void
mlq_err_clear(struct mlq_err *err)
{
	if (err == NULL)
		return;
	err->status = MLQ_OK;
	err->msg[0] = '\0';
}

int
mlq_status_exit(enum mlq_status st)
{
	switch (st) {
	case MLQ_OK:
		return 0;
	case MLQ_NOTFOUND:
		return 1;
	case MLQ_EUSAGE:
	case MLQ_EINPUT:
		return 2;
	default:
		return 3;
	}
}
