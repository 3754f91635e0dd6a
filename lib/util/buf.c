#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlq.h"

static char buf_empty[1];

void
mlq_buf_init(struct mlq_buf *b)
{
	b->data = buf_empty;
	b->len = b->cap = 0;
	b->oom = false;
}

void
mlq_buf_release(struct mlq_buf *b)
{
	if (b->cap != 0)
		free(b->data);
	mlq_buf_init(b);
}

void
mlq_buf_reset(struct mlq_buf *b)
{
	b->len = 0;
	if (b->cap != 0)
		b->data[0] = '\0';
	b->oom = false;
}

bool
mlq_buf_grow(struct mlq_buf *b, size_t n)
{
	size_t want, cap;
	char *p;

	if (b->oom)
		return false;
	if (n > SIZE_MAX - b->len - 1)
		goto fail;
	want = b->len + n + 1;
	if (want <= b->cap)
		return true;
	cap = b->cap ? b->cap : 64;
	while (cap < want)
		cap = cap > SIZE_MAX / 2 ? want : cap * 2;
	p = realloc(b->cap ? b->data : NULL, cap);
	if (p == NULL)
		goto fail;
	if (b->cap == 0)
		p[0] = '\0';
	b->data = p;
	b->cap = cap;
	return true;
fail:
	b->oom = true;
	return false;
}

void
mlq_buf_add(struct mlq_buf *b, const void *p, size_t n)
{
	if (n == 0 || !mlq_buf_grow(b, n))
		return;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
mlq_buf_addstr(struct mlq_buf *b, const char *s)
{
	mlq_buf_add(b, s, strlen(s));
}

void
mlq_buf_addch(struct mlq_buf *b, char c)
{
	mlq_buf_add(b, &c, 1);
}

void
mlq_buf_addf(struct mlq_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !mlq_buf_grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *
mlq_buf_detach(struct mlq_buf *b)
{
	char *p;

	p = b->cap ? b->data : strdup("");
	mlq_buf_init(b);
	return p;
}
