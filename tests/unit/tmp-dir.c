/* Temporary directories and stores for the unit tests. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tmp-dir.h"

bool
tmp_dir_make(char *tmpl)
{
	if (mkdtemp(tmpl) != NULL)
		return true;
	ok(0, "temporary directory %s: %s", tmpl, strerror(errno));
	return false;
}

void
tmp_dir_remove(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		diag("could not remove %s", dir);
}

struct mlq_store *
tmp_store_open(char *tmpl)
{
	struct mlq_store *st = NULL;
	struct mlq_err err;
	char path[4200];

	if (!tmp_dir_make(tmpl))
		return NULL;
	mlq_err_clear(&err);
	snprintf(path, sizeof(path), "%s/mlq.db", tmpl);
	if (mlq_store_open(path, MLQ_STORE_WRITE, &st, &err) != MLQ_OK) {
		ok(0, "store %s opens: %s", path, err.msg);
		return NULL;
	}
	return st;
}
