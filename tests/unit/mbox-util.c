#include "config.h"

#include <dirent.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbox-util.h"
#include "mlq.h"

char *
tmail_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL, *p;
	size_t cap = 0, n = 0, got;

	if (f == NULL)
		return NULL;
	do {
		if (cap - n < 65536) {
			cap = cap * 2 + 65536;
			if ((p = realloc(data, cap + 1)) == NULL) {
				free(data);
				fclose(f);
				return NULL;
			}
			data = p;
		}
		got = fread(data + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	data[n] = '\0';
	*len = n;
	return data;
}

/* Headers end at the first empty line. */
void
tmail_one(const char *data, size_t len, struct tmail *m)
{
	const char *p = data, *end = data + len, *nl;

	m->hdr = data;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			break;
		if (nl == p || (nl == p + 1 && *p == '\r')) {
			m->hdr_len = (size_t)(p - data);
			m->body = nl + 1;
			m->body_len = (size_t)(end - m->body);
			return;
		}
		p = nl + 1;
	}
	m->hdr_len = len;
	m->body = end;
	m->body_len = 0;
}

/* Where the next "From " separator line starts, or end. */
static const char *
tmail_next_from(const char *p, const char *end)
{
	for (; p < end; p++) {
		p = memchr(p, '\n', (size_t)(end - p));
		if (p == NULL)
			return end;
		if ((size_t)(end - p) > 5 && memcmp(p + 1, "From ", 5) == 0)
			return p + 1;
	}
	return end;
}

struct tmail *
tmail_split_mbox(const char *data, size_t len, size_t *n)
{
	const char *p = data, *end = data + len, *next, *start;
	struct tmail *v = NULL, *nv;
	size_t cnt = 0;

	if (len < 5 || memcmp(data, "From ", 5) != 0)
		p = tmail_next_from(data, end);
	while (p < end) {
		next = tmail_next_from(p, end);
		start = memchr(p, '\n', (size_t)(next - p));
		start = (start != NULL) ? start + 1 : next;
		if ((nv = realloc(v, (cnt + 1) * sizeof(*v))) == NULL)
			break;
		v = nv;
		tmail_one(start, (size_t)(next - start), &v[cnt++]);
		p = next;
	}
	*n = cnt;
	return v;
}

bool
tmail_header(const struct tmail *m, const char *name, struct mlq_buf *out)
{
	const char *p = m->hdr, *end = m->hdr + m->hdr_len, *nl;
	size_t nlen = strlen(name);

	mlq_buf_reset(out);
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if ((size_t)(nl - p) > nlen && p[nlen] == ':' &&
		    mlq_text_has_prefix_ci(p, nlen, name)) {
			p += nlen + 1;
			for (;;) {
				while (p < nl && (*p == ' ' || *p == '\t'))
					p++;
				mlq_buf_add(out, p, (size_t)(nl - p));
				if (out->len > 0 &&
				    out->data[out->len - 1] == '\r')
					out->data[--out->len] = '\0';
				/* A folded line continues the header. */
				if (nl >= end || nl + 1 >= end ||
				    (nl[1] != ' ' && nl[1] != '\t'))
					return true;
				mlq_buf_addch(out, ' ');
				p = nl + 1;
				nl = memchr(p, '\n', (size_t)(end - p));
				if (nl == NULL)
					nl = end;
			}
		}
		p = nl + 1;
	}
	return false;
}

static int
list_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

char **
tmail_list_dir(const char *dir, const char *suffix, size_t *n)
{
	struct dirent *d;
	char **names = NULL, **nn;
	size_t k = strlen(suffix), l;
	DIR *dp;

	*n = 0;
	if ((dp = opendir(dir)) == NULL)
		return NULL;
	while ((d = readdir(dp)) != NULL) {
		l = strlen(d->d_name);
		if (l <= k || strcmp(d->d_name + l - k, suffix) != 0)
			continue;
		if ((nn = realloc(names, (*n + 1) * sizeof(*names))) == NULL)
			break;
		names = nn;
		if ((names[*n] = strdup(d->d_name)) == NULL)
			break;
		(*n)++;
	}
	closedir(dp);
	if (names != NULL)
		qsort(names, *n, sizeof(*names), list_cmp);
	return names;
}
