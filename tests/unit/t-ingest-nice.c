/*
 * Parse workers run MLQ_INGEST_WORKER_NICE nicer than the thread that
 * started the import, so that the writer, the pipeline's narrow end, gets
 * a core first; the writer and the caller keep their nice value.  Linux
 * only (each thread has its own nice value there): elsewhere it skips.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "mlq-int.h"
#include "tap.h"
#include "tmp-dir.h"

#define WORKERS 2

/* Counts this process's threads at nice value want; -1 without /proc. */
static int
threads_at(int want)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0, nice;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		errno = 0;
		nice = getpriority(PRIO_PROCESS, (id_t)atoi(e->d_name));
		if (errno == 0 && nice == want)
			n++;
	}
	closedir(d);
	return n;
}

int
main(void)
{
	struct mlq_ingest_opts opts;
	struct mlq_ingest *ing = NULL;
	struct mlq_store *st = NULL;
	struct mlq_err err;
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	char dir[] = "/tmp/t-ingest-nice.XXXXXX";
	int base, want, n = 0, tries;

#ifndef __linux__
	plan_skip_all("thread nice values are Linux's");
	return done_testing();
#endif
	errno = 0;
	base = getpriority(PRIO_PROCESS, 0);
	if (errno != 0 || threads_at(base) < 0) {
		plan_skip_all("no /proc/self/task or getpriority");
		return done_testing();
	}
	want = base + MLQ_INGEST_WORKER_NICE;
	if (want > 19) {
		/* The workers could not be told from the rest. */
		plan_skip_all("already running at nice 19");
		return done_testing();
	}
	mlq_err_clear(&err);
	if ((st = tmp_store_open(dir)) == NULL)
		goto out;
	is_int(threads_at(want), 0, "no thread at nice %d before the import",
	    want);
	memset(&opts, 0, sizeof(opts));
	opts.workers = WORKERS;
	if (!ok(mlq_ingest_new(st, &opts, &ing, &err) == MLQ_OK, "ingest: %s",
		err.msg))
		goto out;
	/* Each worker lowers its own priority as it starts. */
	for (tries = 0; tries < 500 && (n = threads_at(want)) < WORKERS;
	     tries++)
		nanosleep(&pause, NULL);
	is_int(n, WORKERS, "both parse workers at nice %d", want);
	is_int(threads_at(base), 2, "the caller and the writer at nice %d",
	    base);
	ok(mlq_ingest_sync(ing, NULL, NULL, &err) == MLQ_OK, "sync: %s",
	    err.msg);
	mlq_ingest_free(ing);
	is_int(threads_at(base), 1, "the caller still at nice %d after it",
	    base);
out:
	mlq_store_close(st);
	tmp_dir_remove(dir);
	return done_testing();
}
