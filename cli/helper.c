/*
 * mlq's helpers, the programs that load what mlq itself does not:
 * mlq-ingest (libetpan, for import and reindex) and mlq-smtp (libcurl).
 * Every library a program links costs each run of it the time to load
 * and relocate; libetpan and libcurl bring forty between them, which
 * would be most of a search's 5 ms.  git keeps git-remote-http apart
 * for the same reason.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static bool
helper_in(const char *dir, const char *name, char *out, size_t n)
{
	return (size_t)snprintf(out, n, "%s/%s", dir, name) < n &&
	    access(out, X_OK) == 0;
}

enum mlq_status
cli_helper_path(const char *cmd, const char *name, char *out, size_t n,
    struct mlq_err *err)
{
	const char *env = getenv("MLQ_EXEC_PATH");
	char self[PATH_MAX], *slash;
	ssize_t len;

	/* $MLQ_EXEC_PATH, else beside this mlq (a build tree), else installed. */
	if (env != NULL && *env != '\0') {
		if (helper_in(env, name, out, n))
			return MLQ_OK;
	} else {
		len = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (len > 0) {
			self[len] = '\0';
			if ((slash = strrchr(self, '/')) != NULL) {
				*slash = '\0';
				if (helper_in(self, name, out, n))
					return MLQ_OK;
			}
		}
		if (helper_in(PKGLIBEXECDIR, name, out, n))
			return MLQ_OK;
	}
	return mlq_err_set(err, MLQ_EIO,
	    "%s: cannot find %s (not in $MLQ_EXEC_PATH, beside mlq or in %s)",
	    cmd, name, PKGLIBEXECDIR);
}

int
cli_exec_helper(const struct cli_cmd *cmd, char **argv)
{
	struct mlq_err err;
	char path[PATH_MAX];

	mlq_err_clear(&err);
	if (cli_helper_path(cmd->name, cmd->helper, path, sizeof(path), &err) !=
	    MLQ_OK)
		return cli_fail(&err);
	fflush(stdout);
	execv(path, argv);
	mlq_err_set(&err, MLQ_EIO, "%s: cannot run %s: %s", cmd->name, path,
	    strerror(errno));
	return cli_fail(&err);
}
