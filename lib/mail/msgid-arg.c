/*
 * What a user may give for a message, anywhere a command takes one: the
 * Message-Id bare or in <>, "id:ID", "m:ID", "mid:ID", or a public-inbox
 * URL (https://lore.kernel.org/LIST/ID/ with or without T/, t/, raw or a
 * #fragment; /r/ID; /all/ID; https://msgid.link/ID), percent-decoded as
 * public-inbox writes '/' and other bytes into the path.
 */
#include "config.h"

#include <string.h>

#include "mlq.h"

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The path component [p, p + n) percent-decoded into out. */
static void
decode_component(struct mlq_buf *out, const char *p, size_t n)
{
	size_t i;
	int hi, lo;

	for (i = 0; i < n; i++) {
		if (p[i] == '%' && i + 2 < n && (hi = hexval(p[i + 1])) >= 0 &&
		    (lo = hexval(p[i + 2])) >= 0) {
			mlq_buf_addch(out, (char)(hi * 16 + lo));
			i += 2;
		} else
			mlq_buf_addch(out, p[i]);
	}
}

/* The Message-Id a public-inbox URL names; false if it names none. */
static bool
url_msgid(const char *url, struct mlq_buf *out)
{
	const char *host = strstr(url, "://") + 3, *path, *end, *c[3];
	size_t nc = 0, len[3], hostlen;
	const char *p;

	path = host + strcspn(host, "/?#");
	hostlen = (size_t)(path - host);
	end = path + strcspn(path, "?#");
	for (p = path; p < end && nc < 3;) {
		while (p < end && *p == '/')
			p++;
		if (p == end)
			break;
		c[nc] = p;
		while (p < end && *p != '/')
			p++;
		len[nc] = (size_t)(p - c[nc]);
		nc++;
	}
	/* msgid.link/ID, patch.msgid.link/ID */
	if (hostlen >= 10 &&
	    memcmp(host + hostlen - 10, "msgid.link", 10) == 0 && nc >= 1) {
		decode_component(out, c[0], len[0]);
		return true;
	}
	if (nc < 2)
		return false;
	/* /LIST/ID/..., /r/ID, /all/ID: the id is the second component. */
	decode_component(out, c[1], len[1]);
	return true;
}

bool
mlq_msgid_arg(const char *arg, struct mlq_buf *out)
{
	const char *p = arg;
	size_t n;

	mlq_buf_reset(out);
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "http://", 7) == 0 || strncmp(p, "https://", 8) == 0) {
		if (!url_msgid(p, out))
			return false;
	} else {
		if (strncmp(p, "id:", 3) == 0 || strncmp(p, "m:", 2) == 0 ||
		    strncmp(p, "mid:", 4) == 0)
			p = strchr(p, ':') + 1;
		n = strlen(p);
		while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t' ||
				    p[n - 1] == '\n'))
			n--;
		if (n >= 2 && p[0] == '<' && p[n - 1] == '>') {
			p++;
			n -= 2;
		}
		mlq_buf_add(out, p, n);
	}
	return !out->oom && out->len > 0 && memchr(out->data, '\0', out->len) ==
	    NULL;
}
