/*
 * Bulk writes without syncs.  `mlq import` and `mlq reindex` write the
 * index with synchronous=OFF and make it durable once, as they finish:
 * the syncs of SQLite's checkpoints cost a tenth of an import of ten
 * times linux-nfs and little of one of linux-nfs (README, Performance).
 *
 * A process that dies leaves its writes with the kernel, which loses
 * nothing; a system that goes down may leave the index file torn.  So a
 * bulk writer first leaves a marker naming the boot it runs in
 * (PATH-unsynced-PID, synced), and removes it once its writes are on
 * disk.  A marker naming another boot means the index may be damaged:
 * the store refuses to open it, and `mlq reindex` rebuilds it from the
 * mail file, which is always synced before the index names its mail.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store-int.h"

#define MARKER "-unsynced-"
#define BOOT_ID_FILE "/proc/sys/kernel/random/boot_id"

/* The first line of the file at path, without its newline. */
static bool
read_line(const char *path, char *buf, size_t size)
{
	FILE *f;
	bool ok;

	if ((f = fopen(path, "r")) == NULL)
		return false;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* This boot's id (Linux); false where the system has none. */
static bool
boot_id(char *out, size_t size)
{
	return read_line(BOOT_ID_FILE, out, size) && *out != '\0';
}

/* The directory and file name of path, split into dir and base. */
static void
split_path(const char *path, struct mlq_buf *dir, const char **base)
{
	const char *slash = strrchr(path, '/');

	mlq_buf_reset(dir);
	if (slash == NULL) {
		mlq_buf_addstr(dir, ".");
		*base = path;
	} else {
		mlq_buf_add(dir, path,
		    slash == path ? 1 : (size_t)(slash - path));
		*base = slash + 1;
	}
}

/* fsync(2) of path; one that is not there has nothing to sync. */
static int
sync_path(const char *path, int flags)
{
	int fd, rc;

	if ((fd = open(path, flags | O_CLOEXEC)) < 0)
		return errno == ENOENT ? 0 : -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/* Syncs the directory path is in, so that names made or removed stay. */
static int
sync_dir_of(const char *path)
{
	struct mlq_buf dir;
	const char *base;
	int rc = -1;

	mlq_buf_init(&dir);
	split_path(path, &dir, &base);
	if (!dir.oom)
		rc = sync_path(dir.data, O_RDONLY | O_DIRECTORY);
	mlq_buf_release(&dir);
	return rc;
}

/*
 * Calls fn for every marker of the database at path, with its full name,
 * the boot it names and the pid in its name.  Stops at a non-zero return.
 */
typedef int (*marker_fn)(const char *file, const char *boot, long pid,
    void *arg);

static int
each_marker(const char *path, marker_fn fn, void *arg)
{
	struct mlq_buf dir, file;
	const char *base, *tail;
	struct dirent *e;
	DIR *d;
	char boot[64], *end;
	size_t n;
	long pid;
	int rc = 0;

	mlq_buf_init(&dir);
	mlq_buf_init(&file);
	split_path(path, &dir, &base);
	n = strlen(base);
	if (dir.oom || (d = opendir(dir.data)) == NULL) {
		mlq_buf_release(&dir);
		return 0;
	}
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, base, n) != 0 ||
		    strncmp(e->d_name + n, MARKER, strlen(MARKER)) != 0)
			continue;
		tail = e->d_name + n + strlen(MARKER);
		pid = strtol(tail, &end, 10);
		if (end == tail || *end != '\0')
			continue;
		mlq_buf_reset(&file);
		mlq_buf_addf(&file, "%s/%s", dir.data, e->d_name);
		if (file.oom)
			continue;
		if (!read_line(file.data, boot, sizeof(boot)))
			boot[0] = '\0';
		rc = fn(file.data, boot, pid, arg);
	}
	closedir(d);
	mlq_buf_release(&dir);
	mlq_buf_release(&file);
	return rc;
}

struct foreign {
	const char *boot;
	char file[4096];
};

static int
find_foreign(const char *file, const char *boot, long pid, void *arg)
{
	struct foreign *f = arg;

	(void)pid;
	if (strcmp(boot, f->boot) == 0)
		return 0;
	snprintf(f->file, sizeof(f->file), "%s", file);
	return 1;
}

enum mlq_status
mlq__sync_check(const char *path, struct mlq_err *err)
{
	struct foreign f;
	char boot[64];

	if (!boot_id(boot, sizeof(boot)))
		return MLQ_OK;
	f.boot = boot;
	if (each_marker(path, find_foreign, &f) == 0)
		return MLQ_OK;
	return mlq_err_set(err, MLQ_EDB,
	    "database '%s': the system went down while an import was "
	    "writing it (%s): run 'mlq reindex' to rebuild it from its mail",
	    path, f.file);
}

enum mlq_status
mlq__sync_begin(struct mlq_store *st, const char *path, struct mlq_err *err)
{
	char boot[64];
	int fd, e;
	size_t n;

	/* No boot id, no way to tell a later boot: stay synced. */
	if (!boot_id(boot, sizeof(boot)))
		return MLQ_OK;
	mlq_buf_init(&st->marker);
	mlq_buf_addf(&st->marker, "%s" MARKER "%ld", path, (long)getpid());
	if (st->marker.oom) {
		mlq_buf_release(&st->marker);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	n = strlen(boot);
	boot[n++] = '\n';
	fd = open(st->marker.data, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644);
	if (fd < 0)
		goto fail;
	errno = EIO; /* a short write sets none */
	if (write(fd, boot, n) != (ssize_t)n || fsync(fd) != 0) {
		e = errno;
		close(fd);
		errno = e;
		goto fail;
	}
	close(fd);
	/* The marker's name must be on disk before any unsynced page. */
	if (sync_dir_of(path) != 0)
		goto fail;
	return mlq__store_exec(st, "PRAGMA synchronous = OFF", err);
fail:
	e = errno;
	unlink(st->marker.data);
	mlq_buf_release(&st->marker);
	return mlq_err_set(err, MLQ_EIO, "database '%s': marker: %s", path,
	    strerror(e));
}

static int
drop_foreign(const char *file, const char *boot, long pid, void *arg)
{
	(void)pid;
	if (strcmp(boot, arg) != 0)
		unlink(file);
	return 0;
}

void
mlq__sync_forget(const char *path)
{
	char boot[64];

	if (!boot_id(boot, sizeof(boot)))
		return;
	each_marker(path, drop_foreign, boot);
	sync_dir_of(path);
}

struct stale {
	const char *boot;
	const char *own;
};

/* Same boot, process gone: its writes are in the files just synced. */
static int
drop_stale(const char *file, const char *boot, long pid, void *arg)
{
	struct stale *s = arg;

	if (strcmp(file, s->own) != 0 && strcmp(boot, s->boot) == 0 &&
	    pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		unlink(file);
	return 0;
}

enum mlq_status
mlq__sync_end(struct mlq_store *st, struct mlq_err *err)
{
	struct mlq_buf wal;
	struct stale s;
	const char *path;
	char boot[64];
	bool ok;

	if (st->marker.len == 0)
		return MLQ_OK;
	path = sqlite3_db_filename(st->db, "main");
	/* Copy what the WAL holds back, then make both files durable (a
	 * checkpoint at OFF syncs neither). */
	sqlite3_wal_checkpoint_v2(st->db, NULL, SQLITE_CHECKPOINT_PASSIVE,
	    NULL, NULL);
	mlq_buf_init(&wal);
	mlq_buf_addf(&wal, "%s-wal", path);
	ok = !wal.oom && sync_path(wal.data, O_RDONLY) == 0 &&
	    sync_path(path, O_RDONLY) == 0;
	mlq_buf_release(&wal);
	if (!ok)
		return mlq_err_set(err, MLQ_EIO, "database '%s': sync: %s",
		    path, strerror(errno));
	unlink(st->marker.data);
	if (boot_id(boot, sizeof(boot))) {
		s.boot = boot;
		s.own = st->marker.data;
		each_marker(path, drop_stale, &s);
	}
	sync_dir_of(path);
	mlq_buf_release(&st->marker);
	return mlq__store_exec(st, "PRAGMA synchronous = NORMAL", err);
}
