/*
 * Free text with lore/lei habits (s: b: f: a: dfn: d:) into a struct
 * mlq_query: words become a quoted FTS5 expression, so no user text is
 * ever FTS5 syntax, and prefixes become the matching filters.
 */
#include "config.h"

#include <string.h>

#include "mlq-int.h"

/* What unicode61 keeps in a token: letters and digits (any non-ASCII). */
static bool
is_token_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z') || c >= 0x80;
}

/*
 * Appends a word as FTS5 terms, each quoted so that no user text is FTS5
 * syntax.  The word is cut where the tokenizer would cut it ("nfs4_proc"
 * is nfs4 AND proc): the index keeps no positions (detail=column), so a
 * quoted string of several tokens, a phrase, cannot be asked.
 */
static void
fts_term(struct mlq_buf *b, const char *col, const char *w, size_t n)
{
	bool prefix = n > 1 && w[n - 1] == '*';
	size_t i, start;

	if (prefix)
		n--;
	for (i = 0; i < n;) {
		while (i < n && !is_token_byte((unsigned char)w[i]))
			i++;
		if (i == n)
			break;
		for (start = i; i < n && is_token_byte((unsigned char)w[i]);)
			i++;
		if (b->len > 0)
			mlq_buf_addstr(b, " AND ");
		if (col != NULL)
			mlq_buf_addf(b, "%s : ", col);
		mlq_buf_addch(b, '"');
		mlq_buf_add(b, w + start, i - start);
		mlq_buf_addch(b, '"');
		if (prefix && i == n)
			mlq_buf_addch(b, '*');
	}
}

/* d:A..B, d:A.., d:..B or d:A (that one day). */
static enum mlq_status
date_range(struct mlq_query *q, const char *v, int64_t now,
    struct mlq_arena *a, struct mlq_err *err)
{
	const char *dots = strstr(v, "..");
	char *lo, *hi;
	int64_t t;

	lo = mlq_arena_strndup(a, v, dots ? (size_t)(dots - v) : strlen(v));
	hi = mlq_arena_strdup(a, dots ? dots + 2 : v);
	if (lo == NULL || hi == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	if (*lo != '\0') {
		if (!mlq_date_parse_arg(lo, now, &t))
			return mlq_err_set(err, MLQ_EINPUT, "query: bad date '%s'", lo);
		q->has_since = true;
		q->since = t;
	}
	if (*hi != '\0') {
		if (!mlq_date_parse_arg(hi, now, &t))
			return mlq_err_set(err, MLQ_EINPUT, "query: bad date '%s'", hi);
		q->has_until = true;
		q->until = t + 86400; /* the end date is included */
	}
	return MLQ_OK;
}

enum mlq_status
mlq_query_text(struct mlq_query *q, const char *text, int64_t now,
    struct mlq_arena *a, struct mlq_err *err)
{
	struct mlq_buf fts;
	const char *p = text, *w, *colon;
	char *val;
	size_t n, pre;
	enum mlq_status rc = MLQ_OK;

	mlq_buf_init(&fts);
	if (q->fts != NULL)
		mlq_buf_addstr(&fts, q->fts);
	while (*p != '\0' && rc == MLQ_OK) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		w = p;
		if (*p == '"') {
			for (p++; *p != '\0' && *p != '"'; p++)
				;
			n = (size_t)(p - w - 1);
			fts_term(&fts, NULL, w + 1, n);
			if (*p == '"')
				p++;
			continue;
		}
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
		n = (size_t)(p - w);
		colon = memchr(w, ':', n);
		pre = colon ? (size_t)(colon - w) : 0;
		val = colon ? mlq_arena_strndup(a, colon + 1, n - pre - 1) : NULL;
		if (colon != NULL && val == NULL) {
			rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
		} else if (colon == NULL || pre == 0 || *val == '\0') {
			fts_term(&fts, NULL, w, n);
		} else if (pre == 1 && *w == 's') {
			fts_term(&fts, "subject", val, strlen(val));
		} else if (pre == 1 && *w == 'b') {
			fts_term(&fts, "body", val, strlen(val));
		} else if (pre == 1 && *w == 'f') {
			q->from = val;
		} else if (pre == 1 && (*w == 'a' || *w == 't' || *w == 'c')) {
			q->addr = val;
		} else if (pre == 3 && memcmp(w, "dfn", 3) == 0) {
			q->file = val;
		} else if (pre == 1 && *w == 'd') {
			rc = date_range(q, val, now, a, err);
		} else if (pre == 2 && memcmp(w, "rt", 2) == 0) {
			rc = date_range(q, val, now, a, err);
		} else {
			/* Not a prefix we know (a URL, "fix:"): plain text. */
			fts_term(&fts, NULL, w, n);
		}
	}
	if (rc == MLQ_OK && fts.oom)
		rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	if (rc == MLQ_OK && fts.len > 0 &&
	    (q->fts = mlq_arena_strndup(a, fts.data, fts.len)) == NULL)
		rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	mlq_buf_release(&fts);
	return rc;
}
