/*
 * Local mail: an mbox re-read from the byte offset where the last
 * complete message ended ("ino=I off=O": a new inode or a shorter file
 * starts over), or a maildir whose files are read by modification time
 * ("mtime=T": files changed at or after T minus a little, since a
 * second holds many deliveries; duplicates collapse by Message-Id).
 * Work is cut into batches, each a transaction with its cursor, and the
 * loop runs between batches so signals are heard during a long import.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "util/log.h"
#include "mlqd.h"

/* Messages per transaction. */
#define FILE_BATCH 500
/* Maildir files this many seconds older than the cursor are re-read. */
#define FILE_MTIME_SLACK 2

struct file_entry {
	char *path;
	int64_t mtime;
};

struct file {
	struct source *src;
	struct event *cont; /* runs the next batch from the loop */
	bool maildir;

	/* mbox */
	int fd;
	const char *map;
	size_t size;
	size_t off; /* start of the next message */
	uint64_t ino;

	/* maildir */
	struct file_entry *ents;
	size_t nents, ient;

	uint64_t pos;	    /* message number in this poll, for reports */
	struct mlq_err err; /* of the splitter's callback */
};

static enum mlq_status
file_on_message(const char *msg, size_t len, void *arg)
{
	struct file *f = arg;

	f->pos++;
	return source_ingest(f->src, msg, len, f->src->name, f->pos, &f->err);
}

/* Hands one mbox segment ("From " line and all) to the splitter. */
static enum mlq_status
file_feed_segment(struct file *f, const char *p, size_t n, struct mlq_err *err)
{
	struct mlq_mbox_split *sp;
	enum mlq_status st;

	if ((st = mlq_mbox_split_new(file_on_message, f, &sp, err)) != MLQ_OK)
		return st;
	st = mlq_mbox_split_feed(sp, p, n, err);
	if (st == MLQ_OK)
		st = mlq_mbox_split_finish(sp, err);
	mlq_mbox_split_free(sp);
	return st;
}

/* The end of the message at 'from': the next "From " after a blank line. */
static size_t
file_next_boundary(const char *map, size_t size, size_t from)
{
	const char *q;

	q = memmem(map + from, size - from, "\n\nFrom ", 7);
	return q == NULL ? size : (size_t)(q + 2 - map);
}

static void
file_unmap(struct file *f)
{
	if (f->map != NULL)
		munmap((void *)(uintptr_t)f->map, f->size);
	f->map = NULL;
	if (f->fd != -1)
		close(f->fd);
	f->fd = -1;
}

static void
file_maildir_free(struct file *f)
{
	size_t i;

	for (i = 0; i < f->nents; i++)
		free(f->ents[i].path);
	free(f->ents);
	f->ents = NULL;
	f->nents = f->ient = 0;
}

static void
file_end(struct file *f, enum mlq_status st, const char *why)
{
	file_unmap(f);
	file_maildir_free(f);
	source_done(f->src, st, why);
}

/* One batch of an mbox; re-arms itself until the end of the file. */
static void
file_mbox_batch(struct file *f)
{
	struct mlq_err err = { MLQ_OK, "" };
	char cursor[64];
	size_t end, n = 0;

	while (f->off < f->size && n < FILE_BATCH) {
		end = file_next_boundary(f->map, f->size, f->off);
		/* A last message without its newline may be half-written. */
		if (end == f->size && f->map[f->size - 1] != '\n')
			break;
		mlq_err_clear(&f->err);
		if (file_feed_segment(f, f->map + f->off, end - f->off, &err) !=
		    MLQ_OK) {
			if (f->err.status != MLQ_OK)
				err = f->err;
			if (err.status == MLQ_EINPUT) {
				mlq_warnx("source '%s': at byte %zu: %s",
				    f->src->name, f->off, err.msg);
				mlq_err_clear(&err);
			} else {
				file_end(f, err.status, err.msg);
				return;
			}
		}
		f->off = end;
		n++;
	}
	snprintf(cursor, sizeof(cursor), "ino=%llu off=%zu",
	    (unsigned long long)f->ino, f->off);
	if (source_commit(f->src, cursor, &err) != MLQ_OK) {
		file_end(f, err.status, err.msg);
		return;
	}
	if (n == FILE_BATCH && f->off < f->size && !f->src->stopping) {
		event_active(f->cont, EV_TIMEOUT, 0);
		return;
	}
	file_end(f, MLQ_OK, NULL);
}

static void
file_mbox_poll(struct file *f, const struct stat *sb, const char *cur)
{
	unsigned long long ino, off;
	int n = 0;

	f->ino = (uint64_t)sb->st_ino;
	f->off = 0;
	if (cur != NULL &&
	    sscanf(cur, "ino=%llu off=%llu%n", &ino, &off, &n) == 2 &&
	    cur[n] == '\0') {
		if (ino == f->ino && off <= (unsigned long long)sb->st_size)
			f->off = (size_t)off;
		else
			mlq_warnx(
			    "source '%s': %s was replaced or truncated: reading it again",
			    f->src->name, f->src->url);
	}
	f->size = (size_t)sb->st_size;
	if (f->off == f->size) {
		file_end(f, MLQ_OK, NULL);
		return;
	}
	f->map = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, f->fd, 0);
	if (f->map == MAP_FAILED) {
		f->map = NULL;
		file_end(f, MLQ_EIO, strerror(errno));
		return;
	}
	file_mbox_batch(f);
}

static int
file_ent_cmp(const void *a, const void *b)
{
	const struct file_entry *x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* The files of new/ and cur/ changed at or after 'since'. */
static enum mlq_status
file_maildir_scan(struct file *f, int64_t since, struct mlq_err *err)
{
	static const char *const subs[] = { "new", "cur" };
	char path[4096];
	struct dirent *de;
	struct stat sb;
	size_t i;
	DIR *dir;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", f->src->url, subs[i]);
		if ((dir = opendir(path)) == NULL) {
			if (errno == ENOENT)
				continue;
			return mlq_err_set(err, MLQ_EIO, "%s: %s", path,
			    strerror(errno));
		}
		while ((de = readdir(dir)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			if (snprintf(path, sizeof(path), "%s/%s/%s",
				f->src->url, subs[i],
				de->d_name) >= (int)sizeof(path) ||
			    stat(path, &sb) == -1 || !S_ISREG(sb.st_mode) ||
			    (int64_t)sb.st_mtime < since)
				continue;
			f->ents = reallocarray(f->ents, f->nents + 1,
			    sizeof(*f->ents));
			if (f->ents == NULL ||
			    (f->ents[f->nents].path = strdup(path)) == NULL)
				mlq_fatal("out of memory");
			f->ents[f->nents++].mtime = (int64_t)sb.st_mtime;
		}
		closedir(dir);
	}
	if (f->nents > 1)
		qsort(f->ents, f->nents, sizeof(*f->ents), file_ent_cmp);
	return MLQ_OK;
}

static enum mlq_status
file_read_one(struct file *f, const char *path, struct mlq_err *err)
{
	struct mlq_buf b;
	enum mlq_status st;
	char chunk[65536];
	ssize_t n;
	int fd;

	/* Moved from new/ to cur/ since the scan: the next poll sees it. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return errno == ENOENT ? MLQ_OK
				       : mlq_err_set(err, MLQ_EIO, "%s: %s",
					     path, strerror(errno));
	mlq_buf_init(&b);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		mlq_buf_add(&b, chunk, (size_t)n);
	close(fd);
	if (n < 0 || b.oom) {
		mlq_buf_release(&b);
		return mlq_err_set(err, MLQ_EIO, "%s: %s", path,
		    n < 0 ? strerror(errno) : "out of memory");
	}
	f->pos++;
	st = source_ingest(f->src, b.data, b.len, path, f->pos, err);
	mlq_buf_release(&b);
	return st;
}

static void
file_maildir_batch(struct file *f)
{
	struct mlq_err err = { MLQ_OK, "" };
	char cursor[64];
	size_t n = 0;
	int64_t last = 0;

	while (f->ient < f->nents && n < FILE_BATCH) {
		if (file_read_one(f, f->ents[f->ient].path, &err) != MLQ_OK) {
			file_end(f, err.status, err.msg);
			return;
		}
		last = f->ents[f->ient].mtime;
		f->ient++;
		n++;
	}
	if (n > 0) {
		snprintf(cursor, sizeof(cursor), "mtime=%lld", (long long)last);
		if (source_commit(f->src, cursor, &err) != MLQ_OK) {
			file_end(f, err.status, err.msg);
			return;
		}
	}
	if (f->ient < f->nents && !f->src->stopping) {
		event_active(f->cont, EV_TIMEOUT, 0);
		return;
	}
	file_end(f, MLQ_OK, NULL);
}

static void
file_on_cont(evutil_socket_t fd, short kind, void *arg)
{
	struct file *f = arg;

	if (f->maildir)
		file_maildir_batch(f);
	else
		file_mbox_batch(f);
}

static void
file_poll(struct source *src)
{
	struct file *f = src->drv;
	struct mlq_err err = { MLQ_OK, "" };
	char why[512], *cur = NULL;
	long long t;
	struct stat sb;
	int n = 0;

	f->pos = 0;
	if (source_cursor(src, &cur, &err) != MLQ_OK) {
		source_done(src, err.status, err.msg);
		return;
	}
	if (stat(src->url, &sb) == -1) {
		snprintf(why, sizeof(why), "%s: %s", src->url, strerror(errno));
		free(cur);
		source_done(src, MLQ_EIO, why);
		return;
	}
	f->maildir = S_ISDIR(sb.st_mode);
	src->kind = f->maildir ? "maildir" : "mbox";
	if (f->maildir) {
		t = 0;
		if (cur != NULL &&
		    (sscanf(cur, "mtime=%lld%n", &t, &n) != 1 ||
			cur[n] != '\0'))
			t = 0;
		free(cur);
		if (file_maildir_scan(f,
			t > FILE_MTIME_SLACK ? t - FILE_MTIME_SLACK : 0,
			&err) != MLQ_OK) {
			file_end(f, err.status, err.msg);
			return;
		}
		file_maildir_batch(f);
		return;
	}
	if ((f->fd = open(src->url, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(f->fd, &sb) == -1) {
		snprintf(why, sizeof(why), "%s: %s", src->url, strerror(errno));
		free(cur);
		file_end(f, MLQ_EIO, why);
		return;
	}
	file_mbox_poll(f, &sb, cur);
	free(cur);
}

static void
file_stop(struct source *src)
{
	struct file *f = src->drv;

	/* Batches run whole in one callback, so we are between two. */
	event_del(f->cont);
	file_end(f, MLQ_OK, NULL);
}

static enum mlq_status
file_start(struct source *src, struct mlq_err *err)
{
	struct stat sb;
	struct file *f;

	if ((f = calloc(1, sizeof(*f))) == NULL)
		mlq_fatal("calloc");
	f->src = src;
	f->fd = -1;
	if ((f->cont = event_new(src->d->base, -1, 0, file_on_cont, f)) == NULL)
		mlq_fatalx("event_new");
	src->drv = f;
	/* Each poll looks again: the path may not exist yet. */
	src->kind = stat(src->url, &sb) == 0 && S_ISDIR(sb.st_mode) ? "maildir"
								    : "mbox";
	return MLQ_OK;
}

static void
file_free(struct source *src)
{
	struct file *f = src->drv;

	if (f == NULL)
		return;
	event_free(f->cont);
	file_unmap(f);
	file_maildir_free(f);
	free(f);
	src->drv = NULL;
}

const struct source_ops src_file_ops = {
	.kind = "mbox",
	.counted = "messages fetched",
	.start = file_start,
	.poll = file_poll,
	.stop = file_stop,
	.free = file_free,
};
