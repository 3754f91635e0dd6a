/*
 * The classifier on real list mail, read in place from ../shared/corpus.
 * A small mbox reader lives here (lib's parser is not this test's
 * subject): mboxrd "From " lines, one level of multipart, base64 and
 * quoted-printable text/plain.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlq.h"
#include "mbox-util.h"
#include "tap.h"

struct part {
	const char *p;
	size_t n;
};

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static bool
prefix_ci(const char *s, const char *end, const char *pre)
{
	for (; *pre != '\0'; s++, pre++)
		if (s >= end ||
		    lower((unsigned char)*s) != lower((unsigned char)*pre))
			return false;
	return true;
}

/* The value of header 'name' in hdr (unfolded into out), or false. */
static bool
header(struct part hdr, const char *name, char *out, size_t outlen)
{
	const char *p = hdr.p, *end = hdr.p + hdr.n, *e;
	size_t k = 0;

	for (; p < end; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		e = e ? e : end;
		if (!prefix_ci(p, e, name))
			continue;
		for (p += strlen(name); p < e && (*p == ' ' || *p == '\t'); p++)
			;
		for (;;) {
			for (; p < e; p++)
				if (k + 1 < outlen && *p != '\r')
					out[k++] = *p;
			if (e + 1 >= end || (e[1] != ' ' && e[1] != '\t'))
				break;
			p = e + 1;
			e = memchr(p, '\n', (size_t)(end - p));
			e = e ? e : end;
		}
		out[k] = '\0';
		return true;
	}
	return false;
}

/* Splits headers from body at the first empty line. */
static void
split(struct part m, struct part *hdr, struct part *body)
{
	const char *p = m.p, *end = m.p + m.n, *e;

	for (; p < end; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		e = e ? e : end;
		if (e == p || (e == p + 1 && *p == '\r')) {
			hdr->p = m.p;
			hdr->n = (size_t)(p - m.p);
			body->p = e + 1 < end ? e + 1 : end;
			body->n = (size_t)(end - body->p);
			return;
		}
	}
	*hdr = m;
	body->p = end;
	body->n = 0;
}

static int
b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = lower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Decodes body per its Content-Transfer-Encoding into a new string. */
static char *
decode(struct part hdr, struct part body, size_t *outlen)
{
	char cte[64] = "";
	char *out = malloc(body.n + 1);
	size_t i, k = 0;
	unsigned acc = 0;
	int bits = 0, v, h1, h2;

	if (out == NULL)
		return NULL;
	header(hdr, "Content-Transfer-Encoding:", cte, sizeof(cte));
	if (strstr(cte, "base64") || strstr(cte, "BASE64")) {
		for (i = 0; i < body.n; i++) {
			if ((v = b64val((unsigned char)body.p[i])) < 0)
				continue;
			acc = (acc << 6) | (unsigned)v;
			if ((bits += 6) >= 8) {
				bits -= 8;
				out[k++] = (char)((acc >> bits) & 0xff);
			}
		}
	} else if (strstr(cte, "quoted-printable") ||
	    strstr(cte, "Quoted-Printable")) {
		for (i = 0; i < body.n; i++) {
			if (body.p[i] != '=') {
				out[k++] = body.p[i];
				continue;
			}
			if (i + 1 < body.n && body.p[i + 1] == '\n') {
				i++;
				continue;
			}
			if (i + 2 < body.n && body.p[i + 1] == '\r' &&
			    body.p[i + 2] == '\n') {
				i += 2;
				continue;
			}
			if (i + 2 < body.n &&
			    (h1 = hexval((unsigned char)body.p[i + 1])) >= 0 &&
			    (h2 = hexval((unsigned char)body.p[i + 2])) >= 0) {
				out[k++] = (char)(h1 * 16 + h2);
				i += 2;
			} else
				out[k++] = '=';
		}
	} else {
		memcpy(out, body.p, body.n);
		k = body.n;
	}
	out[k] = '\0';
	*outlen = k;
	return out;
}

/* The first text/plain part, decoded; NULL if none. */
static char *
text_body(struct part msg, size_t *len)
{
	struct part hdr, body, ph, pb;
	char ct[512] = "", bnd[256], *b, *q;
	const char *p, *next, *end;
	size_t bl;

	split(msg, &hdr, &body);
	header(hdr, "Content-Type:", ct, sizeof(ct));
	for (q = ct; *q; q++)
		*q = (char)lower((unsigned char)*q);
	if (strncmp(ct, "multipart/", 10) != 0) {
		if (ct[0] != '\0' && strncmp(ct, "text/plain", 10) != 0)
			return NULL;
		return decode(hdr, body, len);
	}
	/* The boundary, case kept: read it again from the raw header. */
	header(hdr, "Content-Type:", ct, sizeof(ct));
	if ((b = strstr(ct, "boundary=")) == NULL &&
	    (b = strstr(ct, "BOUNDARY=")) == NULL)
		return NULL;
	b += 9;
	if (*b == '"') {
		b++;
		if ((q = strchr(b, '"')) != NULL)
			*q = '\0';
	} else if ((q = strpbrk(b, "; \t")) != NULL)
		*q = '\0';
	snprintf(bnd, sizeof(bnd), "--%s", b);
	bl = strlen(bnd);
	end = body.p + body.n;
	for (p = body.p; p < end; p = next) {
		const char *h = NULL;

		next = memchr(p, '\n', (size_t)(end - p));
		next = next ? next + 1 : end;
		if ((size_t)(end - p) < bl || memcmp(p, bnd, bl) != 0)
			continue;
		/* A part runs from here to the next boundary. */
		for (h = next; h < end; h = q ? (const char *)q + 1 : end) {
			q = memchr(h, '\n', (size_t)(end - h));
			if ((size_t)(end - h) >= bl && memcmp(h, bnd, bl) == 0)
				break;
			if (q == NULL)
				break;
		}
		split((struct part){ next, (size_t)(h - next) }, &ph, &pb);
		ct[0] = '\0';
		header(ph, "Content-Type:", ct, sizeof(ct));
		for (q = ct; *q; q++)
			*q = (char)lower((unsigned char)*q);
		if (ct[0] == '\0' || strncmp(ct, "text/plain", 10) == 0)
			return decode(ph, pb, len);
		next = h;
	}
	return NULL;
}

/* Calls fn on a copy of the message with one '>' off ">+From " lines. */
static void
unescape(const char *m, size_t n, void (*fn)(struct part msg, void *arg),
    void *arg)
{
	const char *p, *e, *end = m + n, *g;
	char *copy, *w;

	if ((copy = malloc(n + 1)) == NULL)
		return;
	for (p = m, w = copy; p < end; p = e) {
		e = memchr(p, '\n', (size_t)(end - p));
		e = e ? e + 1 : end;
		for (g = p; g < e && *g == '>'; g++)
			;
		if (g > p && (size_t)(e - g) >= 5 && memcmp(g, "From ", 5) == 0)
			p++;
		memcpy(w, p, (size_t)(e - p));
		w += e - p;
	}
	fn((struct part){ copy, (size_t)(w - copy) }, arg);
	free(copy);
}

/* Calls fn for each message of an mboxrd file. */
static size_t
each_message(const char *mbox, size_t len,
    void (*fn)(struct part msg, void *arg), void *arg)
{
	const char *p, *end = mbox + len, *start = NULL, *e;
	size_t count = 0;

	for (p = mbox; p <= end; p = e) {
		e = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
		e = e ? e + 1 : end;
		if (p == end ||
		    ((size_t)(end - p) >= 5 && memcmp(p, "From ", 5) == 0 &&
			(p == mbox || p[-1] == '\n'))) {
			if (start != NULL) {
				unescape(start, (size_t)(p - start), fn, arg);
				count++;
			}
			start = e;
		}
		if (p == end)
			break;
	}
	return count;
}

struct nacked {
	size_t with_trailer; /* messages with a Nacked-by: line of their own */
	size_t tagged;	     /* ... of which the classifier tagged nack */
	size_t quoted;	     /* messages with Nacked-by: only in quotes */
	size_t quoted_hits;  /* ... that the trailer rule wrongly took */
	size_t undecoded;
};

/* "Nacked-by:", "NAKed-by :" at the start of an unquoted line. */
static bool
has_nacked_by_line(const char *s, size_t n, bool quoted)
{
	const char *p = s, *end = s + n, *e, *q;

	for (; p < end; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		e = e ? e : end;
		if (quoted) {
			if (p == e || *p != '>')
				continue;
			while (p < e && (*p == '>' || *p == ' '))
				p++;
		}
		if (!prefix_ci(p, e, "nacked-by") &&
		    !prefix_ci(p, e, "naked-by") && !prefix_ci(p, e, "nak-by"))
			continue;
		for (q = (const char *)memchr(p, '-', (size_t)(e - p)) + 3;
		     q < e && *q == ' '; q++)
			;
		if (q < e && *q == ':')
			return true;
	}
	return false;
}

static void
count_nacked(struct part msg, void *arg)
{
	struct nacked *nk = arg;
	struct mlq_arena *a;
	struct mlq_evidence *ev;
	unsigned tags;
	size_t len, nev;
	char *body;

	if ((body = text_body(msg, &len)) == NULL) {
		nk->undecoded++;
		return;
	}
	if (!has_nacked_by_line(body, len, false) &&
	    has_nacked_by_line(body, len, true)) {
		nk->quoted++;
		a = mlq_arena_new();
		if (mlq_classify_reply(body, len, false, a, &tags, &ev, &nev,
			NULL) == MLQ_OK &&
		    nev > 0 && ev[0].tag == MLQ_TAG_NACK &&
		    strcmp(ev[0].rule, "nack-trailer") == 0)
			nk->quoted_hits++;
		mlq_arena_free(a);
	}
	if (has_nacked_by_line(body, len, false)) {
		nk->with_trailer++;
		a = mlq_arena_new();
		if (mlq_classify_reply(body, len, false, a, &tags, &ev, &nev,
			NULL) == MLQ_OK &&
		    (tags & MLQ_TAG_NACK))
			nk->tagged++;
		else
			diag("no nack for a message with Nacked-by: %.60s",
			    body);
		mlq_arena_free(a);
	}
	free(body);
}

struct find {
	const char *msgid;
	unsigned tags;
	bool found;
	char line[160];
	char rule[40];
};

static void
find_msg(struct part msg, void *arg)
{
	struct find *f = arg;
	struct part hdr, body;
	struct mlq_arena *a;
	struct mlq_evidence *ev;
	char id[512];
	size_t len, nev;
	char *text;

	split(msg, &hdr, &body);
	if (!header(hdr, "Message-ID:", id, sizeof(id)) ||
	    strstr(id, f->msgid) == NULL)
		return;
	if ((text = text_body(msg, &len)) == NULL)
		return;
	f->found = true;
	a = mlq_arena_new();
	if (mlq_classify_reply(text, len, false, a, &f->tags, &ev, &nev,
		NULL) == MLQ_OK &&
	    nev > 0) {
		snprintf(f->line, sizeof(f->line), "%s", ev[0].line);
		snprintf(f->rule, sizeof(f->rule), "%s", ev[0].rule);
	}
	mlq_arena_free(a);
	free(text);
}

int
main(void)
{
	const char *shared = tap_shared_dir();
	struct nacked nk = { 0, 0, 0, 0, 0 };
	struct find f;
	char path[4096], *mbox;
	size_t len, n;

	if (shared == NULL) {
		plan_skip_all("../shared/corpus is absent (set MLQ_SHARED)");
		return 0;
	}

	snprintf(path, sizeof(path), "%s/corpus/lists/umn-2019-2021.mbox",
	    shared);
	if ((mbox = tmail_read(path, &len)) == NULL) {
		plan_skip_all("cannot read umn-2019-2021.mbox");
		return 0;
	}
	memset(&f, 0, sizeof(f));
	f.msgid = "20210407153458.GA28924@fieldses.org";
	n = each_message(mbox, len, find_msg, &f);
	is_int(n, 240, "umn-2019-2021.mbox holds 240 messages");
	ok(f.found, "J. Bruce Fields's first reply is there");
	is_int(f.tags, MLQ_TAG_QUESTION, "... and is exactly a question");
	is_str(f.line,
	    "Did you see an actual bug or warning from some tool, and if so, "
	    "could you share the details?",
	    "... earned by its question, the whole sentence over two lines");
	memset(&f, 0, sizeof(f));
	f.msgid =
	    "c0de0985c0bf09a96efc538da2146f86e6fa7037.camel@hammerspace.com";
	each_message(mbox, len, find_msg, &f);
	ok(f.found, "Trond Myklebust's first reply is there (base64)");
	is_int(f.tags, MLQ_TAG_NACK, "... and is exactly a nack");
	is_str(f.rule, "nack-verdict", "... by the NACK opening it");
	is_str(f.line, "NACK. There's no double free there.",
	    "... with the sentence after it");
	free(mbox);

	snprintf(path, sizeof(path), "%s/corpus/lists/tags-and-reverts.mbox",
	    shared);
	if ((mbox = tmail_read(path, &len)) == NULL) {
		ok(0, "cannot read %s", path);
		return done_testing();
	}
	n = each_message(mbox, len, count_nacked, &nk);
	is_int(n, 896, "tags-and-reverts.mbox holds 896 messages");
	is_int(nk.with_trailer, 9,
	    "9 messages carry a Nacked-by: line of their own");
	is_int(nk.tagged, nk.with_trailer, "every one of them is tagged nack");
	ok(nk.quoted > 0, "some messages quote a Nacked-by: (%zu)", nk.quoted);
	is_int(nk.quoted_hits, 0, "a quoted Nacked-by: is never a trailer");
	diag("%zu messages without a text/plain body were skipped",
	    nk.undecoded);
	free(mbox);
	return done_testing();
}
