/*
 * The parts of src-http.c and src-imap.c that only read bytes: kept apart
 * so that tests/fuzz can feed them hostile input without a server.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "util/log.h"
#include "wire.h"

bool
wire_is_gzip(const char *p, size_t n)
{
	return n >= 2 && (unsigned char)p[0] == 0x1f &&
	    (unsigned char)p[1] == 0x8b;
}

enum mlq_status
wire_gunzip_feed(struct z_stream_s *z, struct mlq_mbox_split *split,
    const char *p, size_t n, const char *what, struct mlq_err *err)
{
	unsigned char out[65536];
	enum mlq_status st;
	size_t have;
	int zr;

	z->next_in = (unsigned char *)(uintptr_t)p;
	z->avail_in = (uInt)n;
	while (z->avail_in > 0) {
		z->next_out = out;
		z->avail_out = sizeof(out);
		zr = inflate(z, Z_NO_FLUSH);
		if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR)
			return mlq_err_set(err, MLQ_ENET,
			    "%s: bad gzip data: %s", what,
			    z->msg != NULL ? z->msg : "inflate failed");
		have = sizeof(out) - z->avail_out;
		if (have > 0 &&
		    (st = mlq_mbox_split_feed(split, (const char *)out, have,
			 err)) != MLQ_OK)
			return st;
		/* Concatenated gzip members are one stream. */
		if (zr == Z_STREAM_END && inflateReset(z) != Z_OK)
			return mlq_err_set(err, MLQ_ENET, "inflateReset");
		if (zr == Z_BUF_ERROR && have == 0)
			break;
	}
	return MLQ_OK;
}

/* Atom's "2021-04-06T19:16:56Z"; false for anything else. */
static bool
wire_rfc3339(const char *s, int64_t *out)
{
	int y, mo, d, h, mi, se;
	char z;

	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &se,
		&z) != 7 ||
	    z != 'Z' || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
	    mi > 59 || se > 60)
		return false;
	*out = mlq_date_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 +
	    se;
	return true;
}

/* The feed is our server's own markup, read with a few fixed tags. */
void
wire_atom_parse(const char *feed, bool have_since, int64_t since,
    wire_atom_fn fn, void *arg)
{
	const char *p = feed, *e, *l, *q, *u;
	int64_t t;
	size_t n;
	char *url, *w;

	while ((p = strstr(p, "<entry>")) != NULL) {
		if ((e = strstr(p, "</entry>")) == NULL)
			break;
		/*
		 * Tags are looked for inside the entry only: a search to the
		 * end of the feed for each entry is quadratic.  "<link" and
		 * "href" may be a line apart.
		 */
		l = memmem(p, (size_t)(e - p), "<link", 5);
		if (l != NULL) {
			l += 5;
			l += strspn(l, " \t\r\n");
			l = strncmp(l, "href=\"", 6) == 0 ? l + 6 : NULL;
		}
		u = memmem(p, (size_t)(e - p), "<updated>", 9);
		if (l == NULL || l > e || u == NULL || u > e ||
		    !wire_rfc3339(u + 9, &t)) {
			p = e;
			continue;
		}
		q = memchr(l, '"', (size_t)(e - l));
		/* An empty link names no message: "raw" alone is no url. */
		if (q == NULL || q == l || (have_since && t < since)) {
			p = e;
			continue;
		}
		n = (size_t)(q - l);
		/* The url, maybe a '/', then "raw" and its NUL. */
		if ((url = malloc(n + 5)) == NULL)
			mlq_fatal("malloc");
		/* Undo the one entity a url in an attribute carries. */
		for (w = url; l < q; l++) {
			*w++ = *l;
			if (*l == '&' && (size_t)(q - l) >= 5 &&
			    strncmp(l, "&amp;", 5) == 0)
				l += 4;
		}
		if (w > url && w[-1] != '/')
			*w++ = '/';
		memcpy(w, "raw", 4);
		fn(url, t, arg);
		p = e;
	}
}

/* IMAP hands CRLF; the rest of mlq sees LF, as from HTTP and files. */
char *
wire_unfold_crlf(const char *p, size_t n, size_t *outlen)
{
	char *out, *w;
	size_t i;

	if ((out = malloc(n + 1)) == NULL)
		return NULL;
	for (i = 0, w = out; i < n; i++)
		if (!(p[i] == '\r' && i + 1 < n && p[i + 1] == '\n'))
			*w++ = p[i];
	*w = '\0';
	*outlen = (size_t)(w - out);
	return out;
}

enum mlq_status
wire_imap_url(const char *url, bool *tls, char *host, size_t hostsz,
    uint16_t *port, char *mailbox, size_t mailboxsz, struct mlq_err *err)
{
	const char *p, *h, *end, *colon, *at;
	char *w;
	unsigned long num;
	size_t n;

	*tls = strncmp(url, "imaps://", 8) == 0;
	p = url + (*tls ? 8 : 7);
	end = p + strcspn(p, "/");
	at = memchr(p, '@', (size_t)(end - p));
	h = at != NULL ? at + 1 : p;
	colon = memchr(h, ':', (size_t)(end - h));
	n = (size_t)((colon != NULL ? colon : end) - h);
	if (n == 0 || n >= hostsz)
		return mlq_err_set(err, MLQ_EINPUT, "%s: bad host", url);
	memcpy(host, h, n);
	host[n] = '\0';
	*port = *tls ? 993 : 143;
	if (colon != NULL) {
		num = strtoul(colon + 1, NULL, 10);
		if (num == 0 || num > 65535)
			return mlq_err_set(err, MLQ_EINPUT, "%s: bad port",
			    url);
		*port = (uint16_t)num;
	}
	if (*end != '/' || end[1] == '\0' || strlen(end + 1) >= mailboxsz)
		return mlq_err_set(err, MLQ_EINPUT, "%s: no mailbox", url);
	for (p = end + 1, w = mailbox; *p != '\0'; p++) {
		unsigned hi, lo;

		if (*p == '%' && sscanf(p + 1, "%1x%1x", &hi, &lo) == 2) {
			*w++ = (char)(hi * 16 + lo);
			p += 2;
		} else {
			*w++ = *p;
		}
		/* "%00" would cut the name short, "%0d%0a" end the command
		 * it is sent in. */
		if ((unsigned char)w[-1] < ' ' || w[-1] == 0x7f)
			return mlq_err_set(err, MLQ_EINPUT,
			    "%s: a control character in the mailbox name", url);
	}
	*w = '\0';
	return MLQ_OK;
}

/* The number at s, past an optional '~' (an estimate counts as is). */
static bool
count_at(const char *s, uint64_t *count)
{
	uint64_t v = 0;
	const char *p = s;

	if (*p == '~')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*count = v;
	return true;
}

bool
wire_search_count(const char *page, uint64_t *count)
{
	const char *p;

	if (strstr(page, "[No results found]") != NULL) {
		*count = 0;
		return true;
	}
	if ((p = strstr(page, "No more results, only ")) != NULL)
		return count_at(p + 22, count);
	for (p = page; (p = strstr(p, "Results ")) != NULL; p += 8) {
		const char *q = p + 8;

		while ((*q >= '0' && *q <= '9') || *q == '-')
			q++;
		if (q > p + 8 && strncmp(q, " of ", 4) == 0)
			return count_at(q + 4, count);
	}
	return false;
}
