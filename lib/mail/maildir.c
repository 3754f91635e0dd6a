#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlq-int.h"

/* The files found so far. */
struct dir_list {
	char **files;
	size_t n;
	size_t cap;
	uint64_t total;
};

/* "dir/name" in a new string; NULL on ENOMEM. */
static char *
dir_join(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	char *p;

	if (dl > SIZE_MAX - nl - 2 || (p = malloc(dl + nl + 2)) == NULL)
		return NULL;
	memcpy(p, dir, dl);
	p[dl] = '/';
	memcpy(p + dl + 1, name, nl + 1);
	return p;
}

static int
dir_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Takes path into the list. */
static enum mlq_status
dir_push(struct dir_list *l, char *path, struct mlq_err *err)
{
	char **p;
	size_t cap;

	if (l->n == l->cap) {
		cap = l->cap ? l->cap : 64;
		if (cap > SIZE_MAX / 2 / sizeof(*p) ||
		    (p = reallocarray(l->files, cap * 2, sizeof(*p))) == NULL) {
			mlq_err_set(err, MLQ_ENOMEM, "'%s': out of memory",
			    path);
			free(path);
			return MLQ_ENOMEM;
		}
		l->files = p;
		l->cap = cap * 2;
	}
	l->files[l->n++] = path;
	return MLQ_OK;
}

/* The names in dir but dotfiles, sorted; the caller frees them. */
static enum mlq_status
dir_names(const char *dir, char ***out, size_t *nout, struct mlq_err *err)
{
	struct dirent *de;
	char **names = NULL, **p;
	size_t n = 0, cap = 0, i;
	enum mlq_status st;
	DIR *d;

	*out = NULL;
	*nout = 0;
	if ((d = opendir(dir)) == NULL)
		return mlq_err_set(err, MLQ_EIO, "'%s': %s", dir,
		    strerror(errno));
	for (;;) {
		errno = 0;
		if ((de = readdir(d)) == NULL)
			break;
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			if ((p = reallocarray(names, cap, sizeof(*p))) == NULL)
				goto nomem;
			names = p;
		}
		if ((names[n] = strdup(de->d_name)) == NULL)
			goto nomem;
		n++;
	}
	if (errno != 0) {
		st =
		    mlq_err_set(err, MLQ_EIO, "'%s': %s", dir, strerror(errno));
		goto fail;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof(*names), dir_cmp);
	*out = names;
	*nout = n;
	return MLQ_OK;
nomem:
	st = mlq_err_set(err, MLQ_ENOMEM, "'%s': out of memory", dir);
fail:
	closedir(d);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return st;
}

static bool
dir_is_dir(const char *dir, const char *name)
{
	struct stat sb;
	char *p;
	bool yes;

	if ((p = dir_join(dir, name)) == NULL)
		return false;
	yes = lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
	free(p);
	return yes;
}

bool
mlq__dir_is_maildir(const char *dir)
{
	return dir_is_dir(dir, "cur") || dir_is_dir(dir, "new");
}

/*
 * Adds the regular files of dir, and with 'deep' those below it.
 * Symbolic links to files count; links to directories are not followed,
 * so a loop cannot trap the walk.
 */
static enum mlq_status
dir_walk(struct dir_list *l, const char *dir, bool deep, struct mlq_err *err)
{
	enum mlq_status st = MLQ_OK;
	struct stat sb;
	char **names, *path;
	size_t n, i;
	bool maildir;

	if ((st = dir_names(dir, &names, &n, err)) != MLQ_OK)
		return st;
	maildir = deep && mlq__dir_is_maildir(dir);
	for (i = 0; i < n && st == MLQ_OK; i++) {
		if ((path = dir_join(dir, names[i])) == NULL) {
			st = mlq_err_set(err, MLQ_ENOMEM, "'%s': out of memory",
			    dir);
			break;
		}
		if (lstat(path, &sb) == -1) {
			st = mlq_err_set(err, MLQ_EIO, "'%s': %s", path,
			    strerror(errno));
			free(path);
			break;
		}
		if (S_ISLNK(sb.st_mode) && stat(path, &sb) == -1)
			sb.st_mode = 0; /* dangling: skipped */
		if (S_ISREG(sb.st_mode)) {
			l->total += (uint64_t)sb.st_size;
			st = dir_push(l, path, err);
			continue;
		}
		/* A maildir's tmp/ holds mail still being delivered. */
		if (deep && S_ISDIR(sb.st_mode) &&
		    !(maildir && strcmp(names[i], "tmp") == 0))
			st = dir_walk(l, path, deep, err);
		free(path);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return st;
}

enum mlq_status
mlq__dir_list(const char *dir, char ***files, size_t *nfiles, uint64_t *total,
    struct mlq_err *err)
{
	static const char *const sub[] = { "cur", "new" };
	struct dir_list l = { NULL, 0, 0, 0 };
	enum mlq_status st = MLQ_OK;
	char *path;
	size_t i;

	if (mlq__dir_is_maildir(dir)) {
		for (i = 0; i < MLQ__ARRAY_SIZE(sub) && st == MLQ_OK; i++) {
			if (!dir_is_dir(dir, sub[i]))
				continue;
			if ((path = dir_join(dir, sub[i])) == NULL) {
				st = mlq_err_set(err, MLQ_ENOMEM,
				    "'%s': out of memory", dir);
				break;
			}
			st = dir_walk(&l, path, false, err);
			free(path);
		}
	} else
		st = dir_walk(&l, dir, true, err);
	if (st != MLQ_OK) {
		for (i = 0; i < l.n; i++)
			free(l.files[i]);
		free(l.files);
		return st;
	}
	*files = l.files;
	*nfiles = l.n;
	*total = l.total;
	return MLQ_OK;
}
