#include "config.h"

#include <string.h>

#include "mlq-int.h"

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t
utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len, i;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are invalid. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

void
mlq_text_utf8_clean(struct mlq_buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, start = 0, l;

	while (i < n) {
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		l = utf8_seq_len(p + i, n - i);
		if (l != 0) {
			i += l;
			continue;
		}
		mlq_buf_add(b, s + start, i - start);
		mlq_buf_addstr(b, "\xef\xbf\xbd");
		start = ++i;
	}
	mlq_buf_add(b, s + start, i - start);
}

void
mlq_text_escape(struct mlq_buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, l;
	uint32_t cp;

	while (i < n) {
		if (p[i] == '\t') {
			mlq_buf_addch(b, ' ');
			i++;
		} else if (p[i] == 0x1b) {
			mlq_buf_addstr(b, "\\e");
			i++;
		} else if (p[i] < 0x20 || p[i] == 0x7f) {
			mlq_buf_addf(b, "\\x%02x", p[i]);
			i++;
		} else if (p[i] < 0x80) {
			mlq_buf_addch(b, (char)p[i]);
			i++;
		} else if ((l = utf8_seq_len(p + i, n - i)) == 0) {
			mlq_buf_addstr(b, "\xef\xbf\xbd");
			i++;
		} else {
			/* C1 controls (U+0080..U+009F) act as escapes on some terminals. */
			cp = l == 2 ? ((uint32_t)(p[i] & 0x1f) << 6) | (p[i + 1] & 0x3f) : 0x100;
			if (cp >= 0x80 && cp <= 0x9f)
				mlq_buf_addf(b, "\\u%04x", (unsigned)cp);
			else
				mlq_buf_add(b, s + i, l);
			i += l;
		}
	}
}

bool
mlq_text_has_prefix(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(s, prefix, k) == 0;
}

bool
mlq_text_has_prefix_ci(const char *s, size_t n, const char *prefix)
{
	size_t i;

	for (i = 0; prefix[i] != '\0'; i++)
		if (i >= n || mlq__lower(s[i]) != mlq__lower(prefix[i]))
			return false;
	return true;
}

void
mlq__rdomain(struct mlq_buf *b, const char *domain)
{
	const char *end = domain + strlen(domain), *dot;

	while (end > domain && end[-1] == '.')
		end--;
	while (end > domain) {
		for (dot = end; dot > domain && dot[-1] != '.'; dot--)
			;
		for (; dot < end; dot++)
			mlq_buf_addch(b, mlq__lower(*dot));
		mlq_buf_addch(b, '.');
		for (dot = end; dot > domain && dot[-1] != '.'; dot--)
			;
		end = dot > domain ? dot - 1 : domain;
	}
}

void
mlq__hex(char *out, const unsigned char *in, size_t n)
{
	static const char digit[] = "0123456789abcdef";
	unsigned char c;

	/* From the end, so that out may be in itself (expanding in place). */
	while (n-- > 0) {
		c = in[n];
		out[2 * n] = digit[c >> 4];
		out[2 * n + 1] = digit[c & 15];
	}
}

void
mlq__addr_term(struct mlq_buf *b, char role, const char *domain,
    const char *local, size_t local_len)
{
	size_t from, n, i;
	char c[2];

	mlq_buf_addch(b, role);
	from = b->len;
	mlq__rdomain(b, domain);
	n = b->len - from;
	for (i = 0; i < n; i++)
		mlq_buf_addch(b, ' ');
	if (b->oom)
		return;
	mlq__hex(b->data + from, (const unsigned char *)b->data + from, n);
	if (local == NULL)
		return;
	mlq_buf_addch(b, 'g');
	for (i = 0; i < local_len; i++) {
		c[0] = mlq__lower(local[i]);
		mlq__hex(c, (const unsigned char *)c, 1);
		mlq_buf_add(b, c, 2);
	}
}

/* Edit distance of a and b, at most 9: enough to tell a typo. */
static size_t
distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d[32], prev, tmp;

	if (la > 30 || lb > 30)
		return 9;
	for (j = 0; j <= lb; j++)
		d[j] = j;
	for (i = 1; i <= la; i++) {
		prev = d[0];
		d[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = d[j];
			d[j] = a[i - 1] == b[j - 1] ? prev :
			    1 + (prev < d[j] ? (prev < d[j - 1] ? prev : d[j - 1])
					     : (d[j] < d[j - 1] ? d[j] : d[j - 1]));
			prev = tmp;
		}
	}
	return d[lb] > 9 ? 9 : d[lb];
}

const char *
mlq_nearest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t i, d, bestd = 3;

	for (i = 0; i < n; i++) {
		if (names[i] == NULL)
			continue;
		d = distance(word, names[i]);
		/* "form" for "format": a cut-off name is a near miss too. */
		if (strncmp(names[i], word, strlen(word)) == 0 && *word != '\0')
			d = 1;
		if (d < bestd) {
			bestd = d;
			best = names[i];
		}
	}
	return best;
}
