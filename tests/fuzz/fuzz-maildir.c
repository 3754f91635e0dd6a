/*
 * Fuzz target: a maildir read by mlq_reader (lib/mail/maildir.c lists
 * it, reader.c reads each file).  The input is files apart by NUL bytes,
 * each a name line then the content; a name with ":2," goes in cur/,
 * others in new/, a name starting with '.' is a dotfile.  They are
 * written to a fresh directory.  Checked: every file but dotfiles is one
 * message, cur/ before new/, by name, its content less a leading "From "
 * line, numbered by file.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/fuzz.h"
#include "mlq.h"

#define MAX_FILES 16

struct file {
	char path[160];
	size_t name; /* where the name starts in path (structs move) */
	const char *body;
	size_t len;
	bool cur;
};

static char dir[] = "/tmp/mlq-fuzz-maildir-XXXXXX";

static void
dir_remove(void)
{
	rmdir(dir);
}

static int
file_cmp(const void *a, const void *b)
{
	const struct file *x = a, *y = b;

	if (x->cur != y->cur)
		return x->cur ? -1 : 1;
	return strcmp(x->path + x->name, y->path + y->name);
}

/* The file's message as the reader must give it; false when none. */
static bool
expect(const struct file *f, const char **msg, size_t *len)
{
	const char *nl;

	*msg = f->body;
	*len = f->len;
	if (*len >= 5 && memcmp(*msg, "From ", 5) == 0) {
		nl = memchr(*msg, '\n', *len);
		*len = nl != NULL ? *len - (size_t)(nl + 1 - *msg) : 0;
		*msg = nl != NULL ? nl + 1 : *msg + f->len;
	}
	return *len > 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool made;
	struct file files[2 * MAX_FILES];
	const char *p = (const char *)data, *end = p + size, *e, *nl, *msg;
	char sub[160];
	struct mlq_reader *r;
	struct mlq_err err = { MLQ_OK, "" };
	size_t nfiles = 0, nread = 0, i, j, k, len, want_len;
	enum mlq_status st;
	struct file *fl;
	uint64_t pos;
	struct stat sb;
	const char *want;
	FILE *f;

	if (!made) {
		if (mkdtemp(dir) == NULL)
			abort();
		atexit(dir_remove);
		made = true;
	}
	snprintf(sub, sizeof(sub), "%s/cur", dir);
	mkdir(sub, 0700);
	snprintf(sub, sizeof(sub), "%s/new", dir);
	mkdir(sub, 0700);
	for (; p < end && nfiles < MAX_FILES; p = e + 1) {
		char name[64];

		fl = &files[nfiles];
		if ((e = memchr(p, '\0', (size_t)(end - p))) == NULL)
			e = end;
		nl = memchr(p, '\n', (size_t)(e - p));
		if (nl == NULL)
			nl = e;
		/* The name: what a file name can hold, at most 40 bytes. */
		for (i = 0, j = 0; p + i < nl && j < 40; i++)
			name[j++] = p[i] == '/' ? '_' : p[i];
		name[j] = '\0';
		if (j == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			snprintf(name, sizeof(name), "m%zu", nfiles);
		fl->cur = strstr(name, ":2,") != NULL;
		snprintf(fl->path, sizeof(fl->path), "%s/%s/%s", dir,
		    fl->cur ? "cur" : "new", name);
		fl->name = (size_t)(strrchr(fl->path, '/') + 1 - fl->path);
		fl->body = nl < e ? nl + 1 : e;
		fl->len = (size_t)(e - fl->body);
		if (stat(fl->path, &sb) == 0)
			continue; /* the name twice: one file */
		if ((f = fopen(fl->path, "wb")) == NULL)
			abort();
		if (fl->len > 0 && fwrite(fl->body, 1, fl->len, f) != fl->len)
			abort();
		fclose(f);
		nfiles++;
		if (e == end)
			break;
	}
	qsort(files, nfiles, sizeof(files[0]), file_cmp);
	/* Dotfiles are not read and not counted: last, out of the count. */
	for (i = j = 0; i < nfiles; i++)
		if (files[i].path[files[i].name] != '.')
			nread++;
		else
			files[MAX_FILES + j++] = files[i];
	for (i = j = 0; i < nfiles; i++)
		if (files[i].path[files[i].name] != '.')
			files[j++] = files[i];
	memcpy(files + j, files + MAX_FILES, (nfiles - j) * sizeof(files[0]));

	FUZZ_CHECK(mlq_reader_open(dir, &r, &err) == MLQ_OK);
	for (k = 0;; k = (size_t)pos) {
		st = mlq_reader_next(r, &msg, &len, &pos, &err);
		if (st == MLQ_NOTFOUND)
			break;
		FUZZ_CHECK(pos > k && pos <= nread);
		fl = &files[pos - 1];
		/* gzip is inflated as it is read: only the order is known. */
		if (fl->len >= 2 && (uint8_t)fl->body[0] == 0x1f &&
		    (uint8_t)fl->body[1] == 0x8b)
			continue;
		FUZZ_CHECK(st == MLQ_OK);
		FUZZ_CHECK(expect(fl, &want, &want_len));
		FUZZ_CHECK(len == want_len && memcmp(msg, want, len) == 0);
		/* Files between the last message and this one had none. */
		for (i = k; i + 1 < pos; i++)
			FUZZ_CHECK(!expect(&files[i], &want, &want_len) ||
			    (files[i].len >= 2 &&
				(uint8_t)files[i].body[0] == 0x1f));
	}
	mlq_reader_close(r);
	for (i = k; i < nread; i++)
		FUZZ_CHECK(!expect(&files[i], &want, &want_len) ||
		    (files[i].len >= 2 && (uint8_t)files[i].body[0] == 0x1f));
	for (i = 0; i < nfiles; i++)
		unlink(files[i].path);
	snprintf(sub, sizeof(sub), "%s/cur", dir);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/new", dir);
	rmdir(sub);
	return 0;
}
