#include "config.h"

#include <string.h>

#include "mlq-int.h"

/*
 * Trailers are "Key: value" lines at the start of a line, for a fixed set
 * of keys.  Unlike git's interpret-trailers we do not insist on the last
 * paragraph: reviewers drop "Reviewed-by: X <x@y>" anywhere in their own
 * text.  What is not their own text is skipped: quoted lines, and
 * everything after the signature separator or the start of the diff.
 */

struct trailer_key {
	const char *match; /* lower case */
	const char *canon;
	bool person; /* the value names someone */
};

static const struct trailer_key trailer_keys[] = {
	{ "signed-off-by", "Signed-off-by", true },
	{ "acked-by", "Acked-by", true },
	{ "reviewed-by", "Reviewed-by", true },
	{ "tested-by", "Tested-by", true },
	{ "nacked-by", "Nacked-by", true },
	{ "naked-by", "Nacked-by", true }, /* "NAKed-by" */
	{ "nak-by", "Nacked-by", true },
	{ "nack-by", "Nacked-by", true },
	{ "reported-by", "Reported-by", true },
	{ "suggested-by", "Suggested-by", true },
	{ "co-developed-by", "Co-developed-by", true },
	{ "cc", "Cc", true },
	{ "fixes", "Fixes", false },
	{ "link", "Link", false },
};

/* One line of the text, without its end of line. */
struct trailer_line {
	const char *s;
	size_t n;
};

struct trailer_list {
	struct mlq_arena *a;
	struct mlq_trailer *v;
	size_t n;
};

static bool
trailer_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool
trailer_starts(const struct trailer_line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->n >= n && memcmp(l->s, prefix, n) == 0;
}

/* Trims white space on both ends of s[0..*n). */
static const char *
trailer_trim(const char *s, size_t *n)
{
	while (*n > 0 && trailer_is_space(*s))
		s++, (*n)--;
	while (*n > 0 && trailer_is_space(s[*n - 1]))
		(*n)--;
	return s;
}

/* The line at *pos (advanced past it); false at the end of the text. */
static bool
trailer_next_line(const char *text, size_t len, size_t *pos,
    struct trailer_line *l)
{
	const char *nl;

	if (*pos >= len)
		return false;
	l->s = text + *pos;
	nl = memchr(l->s, '\n', len - *pos);
	l->n = (nl != NULL) ? (size_t)(nl - l->s) : len - *pos;
	*pos += l->n + (nl != NULL);
	if (l->n > 0 && l->s[l->n - 1] == '\r')
		l->n--;
	return true;
}

/* A line that starts a git, plain or quilt diff. */
static bool
trailer_is_diff_start(const struct trailer_line *l)
{
	return trailer_starts(l, "diff --git ") ||
	    trailer_starts(l, "diff -") || trailer_starts(l, "Index: ") ||
	    trailer_starts(l, "--- a/");
}

/* "-- " (or "--" from clients that strip trailing blanks) opens a signature. */
static bool
trailer_is_sig_line(const struct trailer_line *l)
{
	return (l->n == 3 && memcmp(l->s, "-- ", 3) == 0) ||
	    (l->n == 2 && memcmp(l->s, "--", 2) == 0);
}

/* "---" alone: the cut between a commit message and its notes and diff. */
static bool
trailer_is_cut_line(const struct trailer_line *l)
{
	size_t n = l->n;

	trailer_trim(l->s, &n);
	return n == 3 && memcmp(l->s, "---", 3) == 0;
}

/* A line quoting someone else: '>' after optional blanks. */
static bool
trailer_is_quoted(const struct trailer_line *l)
{
	size_t i = 0;

	while (i < l->n && (l->s[i] == ' ' || l->s[i] == '\t'))
		i++;
	return i < l->n && l->s[i] == '>';
}

/* Offset of the first diff line in text, len when there is none. */
static size_t
trailer_diff_offset(const char *text, size_t len)
{
	struct trailer_line l;
	size_t pos = 0, start;

	for (start = 0; trailer_next_line(text, len, &pos, &l); start = pos)
		if (trailer_is_diff_start(&l))
			return start;
	return len;
}

/* The known key at the start of l, or NULL; *val gets the value's start. */
static const struct trailer_key *
trailer_match_key(const struct trailer_line *l, size_t *val)
{
	size_t i = 0, k, kn;

	while (i < l->n &&
	    (l->s[i] == '-' ||
		(mlq__lower(l->s[i]) >= 'a' && mlq__lower(l->s[i]) <= 'z')))
		i++;
	kn = i;
	while (i < l->n && (l->s[i] == ' ' || l->s[i] == '\t'))
		i++;
	if (kn == 0 || i == l->n || l->s[i] != ':')
		return NULL;
	for (k = 0; k < MLQ__ARRAY_SIZE(trailer_keys); k++) {
		if (strlen(trailer_keys[k].match) == kn &&
		    mlq_text_has_prefix_ci(l->s, kn, trailer_keys[k].match)) {
			*val = i + 1;
			return &trailer_keys[k];
		}
	}
	return NULL;
}

/* Copies a name, dropping the quotes of "\"Last, First\"". */
static const char *
trailer_name(struct mlq_arena *a, const char *s, size_t n)
{
	s = trailer_trim(s, &n);
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		s++;
		n -= 2;
		s = trailer_trim(s, &n);
	}
	return mlq_arena_strndup(a, s, n);
}

static const char *
trailer_email(struct mlq_arena *a, const char *s, size_t n)
{
	char *e;
	size_t i;

	s = trailer_trim(s, &n);
	if (memchr(s, '@', n) == NULL)
		n = 0;
	e = mlq_arena_strndup(a, s, n);
	for (i = 0; e != NULL && i < n; i++)
		e[i] = mlq__lower(e[i]);
	return e;
}

/* "a@b", "a@b (Name)", "Name a@b # note": the address is the word with '@'. */
static void
trailer_bare(struct mlq_arena *a, const char *v, size_t n,
    struct mlq_trailer *t)
{
	const char *at = memchr(v, '@', n), *ws, *we, *end = v + n, *rp;

	if (at == NULL) {
		t->name = trailer_name(a, v, n);
		t->email = "";
		return;
	}
	for (ws = at; ws > v && !trailer_is_space(ws[-1]) && ws[-1] != '(';)
		ws--;
	for (we = at; we < end && !trailer_is_space(*we) && *we != ')' &&
	     *we != ',' && *we != ';';)
		we++;
	t->email = trailer_email(a, ws, (size_t)(we - ws));
	t->name = trailer_name(a, v, (size_t)(ws - v));
	if (t->name != NULL && t->name[0] == '\0') {
		/* The old "a@b (Name)" form. */
		while (we < end && trailer_is_space(*we))
			we++;
		rp = (we < end && *we == '(')
		    ? memchr(we, ')', (size_t)(end - we))
		    : NULL;
		if (rp != NULL)
			t->name =
			    trailer_name(a, we + 1, (size_t)(rp - we - 1));
	}
}

/*
 * "Name <a@b>", "\"Last, First\" <a@b>", "Name (Co) <a@b> # 5.10": the
 * address ends at the first '>' or '<' (HTML junk adds "<mailto:...>>").
 */
static void
trailer_person(struct mlq_arena *a, const char *v, size_t n,
    struct mlq_trailer *t)
{
	const char *lt = memchr(v, '<', n), *e;

	if (lt == NULL) {
		trailer_bare(a, v, n, t);
		return;
	}
	for (e = lt + 1; e < v + n && *e != '>' && *e != '<'; e++)
		;
	t->email = trailer_email(a, lt + 1, (size_t)(e - lt - 1));
	t->name = trailer_name(a, v, (size_t)(lt - v));
}

/* Appends the trailer of line l (number lineno) to the list. */
static enum mlq_status
trailer_add(struct trailer_list *tl, const struct trailer_key *key,
    const struct trailer_line *l, size_t val, size_t lineno)
{
	struct mlq_trailer *t;
	const char *v;
	size_t vn = l->n - val;

	/* A NUL would cut the stored string short: the value ends there. */
	vn = strnlen(l->s + val, vn);
	v = trailer_trim(l->s + val, &vn);
	if (vn == 0 || tl->n >= MLQ_MAX_ADDRS)
		return MLQ_OK;
	tl->v = mlq_arena_grow(tl->a, tl->v, tl->n, sizeof(*tl->v));
	if (tl->v == NULL)
		return MLQ_ENOMEM;
	t = &tl->v[tl->n];
	t->key = key->canon;
	t->line = lineno;
	t->value = mlq_arena_strndup(tl->a, v, vn);
	t->name = t->email = "";
	if (key->person)
		trailer_person(tl->a, v, vn, t);
	if (t->value == NULL || t->name == NULL || t->email == NULL)
		return MLQ_ENOMEM;
	tl->n++;
	return MLQ_OK;
}

enum mlq_status
mlq_trailer_parse(const char *text, size_t len, struct mlq_arena *a,
    struct mlq_trailer **out, size_t *n, struct mlq_err *err)
{
	struct trailer_list tl = { a, NULL, 0 };
	const struct trailer_key *key;
	struct trailer_line l;
	size_t pos = 0, start = 0, lineno = 0, diff, val;

	*out = NULL;
	*n = 0;
	diff = trailer_diff_offset(text, len);
	for (; trailer_next_line(text, len, &pos, &l); start = pos) {
		lineno++;
		if (start >= diff || trailer_is_sig_line(&l))
			break;
		/* "---" ends the message only when a diff follows it. */
		if (trailer_is_cut_line(&l) && diff < len)
			break;
		if (trailer_is_quoted(&l))
			continue;
		key = trailer_match_key(&l, &val);
		if (key != NULL &&
		    trailer_add(&tl, key, &l, val, lineno) != MLQ_OK)
			return mlq_err_set(err, MLQ_ENOMEM,
			    "trailers: out of memory");
	}
	*out = tl.v;
	*n = tl.n;
	return MLQ_OK;
}
