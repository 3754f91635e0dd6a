#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"

void
fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: property broken: %s\n", file, line, what);
	abort();
}

char *
fuzz_str(const uint8_t *data, size_t size)
{
	char *s;

	if ((s = malloc(size + 1)) == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

int
fuzz_utf8_ok(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k, len;
	unsigned c, min;

	while (i < n) {
		c = p[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			len = 2, c &= 0x1f, min = 0x80;
		else if (c >= 0xe0 && c <= 0xef)
			len = 3, c &= 0x0f, min = 0x800;
		else if (c >= 0xf0 && c <= 0xf4)
			len = 4, c &= 0x07, min = 0x10000;
		else
			return 0;
		if (n - i < len)
			return 0;
		for (k = 1; k < len; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return 0;
			c = c << 6 | (p[i + k] & 0x3f);
		}
		if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			return 0;
		i += len;
	}
	return 1;
}

size_t
fuzz_step(size_t step)
{
	return step * 3 % 4096 + 1;
}

void
fuzz_msgs_add(struct fuzz_msgs *m, const char *msg, size_t len)
{
	size_t need = m->len + sizeof(len) + len;

	if (need > m->cap) {
		m->cap = need * 2;
		if ((m->data = realloc(m->data, m->cap)) == NULL)
			abort();
	}
	memcpy(m->data + m->len, &len, sizeof(len));
	memcpy(m->data + m->len + sizeof(len), msg, len);
	m->len = need;
	m->n++;
}

void
fuzz_msgs_release(struct fuzz_msgs *m)
{
	free(m->data);
	memset(m, 0, sizeof(*m));
}

int
fuzz_msgs_equal(const struct fuzz_msgs *a, const struct fuzz_msgs *b)
{
	return a->n == b->n && a->len == b->len &&
	    (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}
