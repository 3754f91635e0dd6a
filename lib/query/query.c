/*
 * Queries in lore's language (public-inbox 1.9, lei-q(1)) and the search
 * flags, into a tree of struct mlq_qnode that store-search.c turns into
 * SQL.  Words become quoted FTS5 terms, so no user text is ever FTS5 or
 * SQL syntax; what cannot be read is an error naming the part, never
 * searched as text.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "mlq-int.h"

/* Deeper nesting or more terms than any person types. */
#define QUERY_MAX_DEPTH 64
#define QUERY_MAX_TERMS 256
/* SQLite's and FTS5's parsers overflow their stacks on a search nested
 * deeper (24 levels of "(a OR (" do). */
#define QUERY_MAX_TREE 20

enum qtok { QT_END, QT_TERM, QT_AND, QT_OR, QT_NOT, QT_MINUS, QT_LP, QT_RP };

struct qparse {
	const char *text, *p;
	enum qtok tok;
	const char *ts; /* the current term */
	size_t tn;
	int depth, terms;
	int64_t now;
	struct mlq_arena *a;
	struct mlq_err *err;
	enum mlq_status rc;
};

/* What unicode61 keeps in a token: letters and digits (any non-ASCII). */
static bool
is_token_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '_' ||
	    (c >= 'A' && c <= 'Z') || c >= 0x80;
}

static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static enum mlq_status
qerr(struct qparse *x, const char *what, const char *s, size_t n)
{
	if (x->rc == MLQ_OK)
		x->rc = mlq_err_set(x->err, MLQ_EINPUT, "query: %s '%.*s'", what,
		    (int)(n > 60 ? 60 : n), s);
	return x->rc;
}

static enum mlq_status
qoom(struct qparse *x)
{
	if (x->rc == MLQ_OK)
		x->rc = mlq_err_set(x->err, MLQ_ENOMEM, "out of memory");
	return x->rc;
}

/*
 * The next token.  '(' opens a group at the start of a term, ')' closes
 * one at its end ("kfree()" is a word); a quote runs to its mate, also
 * after a prefix (s:"two words").
 */
static void
next(struct qparse *x)
{
	const char *p = x->p, *s;

	while (is_space(*p))
		p++;
	x->ts = p;
	x->tn = 0;
	if (*p == '\0') {
		x->tok = QT_END;
	} else if (*p == '(' || *p == ')') {
		x->tok = *p == '(' ? QT_LP : QT_RP;
		x->tn = 1;
		p++;
	} else if ((*p == '-' || *p == '+') && p[1] != '\0' &&
	    !is_space(p[1]) && p[1] != ')') {
		/* "+term" is the term: terms AND already. */
		x->tok = *p == '-' ? QT_MINUS : QT_TERM;
		if (*p == '+') {
			x->p = p + 1;
			next(x);
			return;
		}
		x->tn = 1;
		p++;
	} else {
		bool paren = false;

		for (s = p; *p != '\0' && !is_space(*p); p++) {
			paren |= *p == '(';
			if (*p == ')' && x->depth == 0 && !paren) {
				qerr(x, "unbalanced parenthesis in", s,
				    strcspn(s, " \t"));
				break;
			}
			if (*p == '"') {
				for (p++; *p != '\0' && *p != '"'; p++)
					;
				if (*p == '\0') {
					qerr(x, "unbalanced quote in", s,
					    (size_t)(p - s));
					break;
				}
			} else if (*p == ')' && x->depth > 0)
				break;
		}
		x->tn = (size_t)(p - s);
		x->tok = QT_TERM;
		if (x->tn == 3 && memcmp(s, "AND", 3) == 0)
			x->tok = QT_AND;
		else if (x->tn == 2 && memcmp(s, "OR", 2) == 0)
			x->tok = QT_OR;
		else if (x->tn == 3 && memcmp(s, "NOT", 3) == 0)
			x->tok = QT_NOT;
	}
	x->p = p;
}

static struct mlq_qnode *
node(struct qparse *x, enum mlq_qop op, const struct mlq_qnode *l,
    const struct mlq_qnode *r)
{
	struct mlq_qnode *n = mlq_arena_alloc(x->a, sizeof(*n));

	if (n == NULL) {
		qoom(x);
		return NULL;
	}
	memset(n, 0, sizeof(*n));
	n->op = op;
	n->l = l;
	n->r = r;
	return n;
}

static struct mlq_qnode *
leaf(struct qparse *x, enum mlq_qfield f, const char *s)
{
	struct mlq_qnode *n = node(x, MLQ_QOP_LEAF, NULL, NULL);

	if (n != NULL) {
		n->field = f;
		n->s = s;
	}
	return n;
}

/*
 * A word or a phrase as FTS5 terms, each quoted, cut where the tokenizer
 * cuts.  The index keeps no positions (detail=column), so a phrase, or a
 * word the tokenizer cuts in several ("fix-a", "a.b"), which lore reads
 * as a phrase too, is all of its words ANDed with a check of their order
 * in the mail itself (MLQ_QF_PHRASE, store-phrase.c).
 */
static bool
has_high_byte(const char *s, size_t n)
{
	while (n-- > 0)
		if ((unsigned char)*s++ >= 0x80)
			return true;
	return false;
}

struct terms_out {
	struct mlq_buf *b;
	size_t *k; /* words so far */
};

/* One word the tokenizer cut, ANDed in as a quoted FTS5 string; a '"'
 * cannot come out of it (unicode61 makes words of letters and digits). */
static int
add_token(const char *tok, size_t n, void *arg)
{
	struct terms_out *o = arg;

	if ((*o->k)++ > 0)
		mlq_buf_addstr(o->b, " AND ");
	mlq_buf_addch(o->b, '"');
	mlq_buf_add(o->b, tok, n);
	mlq_buf_addch(o->b, '"');
	return 0;
}

static struct mlq_qnode *
text_leaf(struct qparse *x, const char *col, unsigned cols, const char *w,
    size_t n, const char *term, size_t tn)
{
	struct mlq_buf b;
	struct mlq_qnode *fts, *ph;
	bool quoted = n >= 2 && w[0] == '"' && w[n - 1] == '"';
	bool prefix;
	size_t i, start, k = 0;
	char *s;

	if (quoted) {
		w++;
		n -= 2;
	}
	prefix = !quoted && n > 1 && w[n - 1] == '*';
	if (prefix)
		n--;
	mlq_buf_init(&b);
	if (col != NULL)
		mlq_buf_addf(&b, "%s : ", col);
	mlq_buf_addch(&b, '(');
	for (i = 0; i < n;) {
		while (i < n && !is_token_byte((unsigned char)w[i]))
			i++;
		if (i == n)
			break;
		for (start = i; i < n && is_token_byte((unsigned char)w[i]);)
			i++;
		/* Past ASCII only the tokenizer knows where words end
		 * ("a\u2014b", a byte that is not UTF-8): one quoted string
		 * it cuts in two would be a phrase, which the index
		 * cannot answer. */
		if (has_high_byte(w + start, i - start)) {
			struct terms_out o = { &b, &k };
			size_t had = k;

			if (mlq__text_tokens(w + start, i - start, add_token,
				&o) != MLQ_OK)
				b.oom = true;
			if (prefix && i == n && k > had)
				mlq_buf_addch(&b, '*');
			continue;
		}
		if (k++ > 0)
			mlq_buf_addstr(&b, " AND ");
		mlq_buf_addch(&b, '"');
		mlq_buf_add(&b, w + start, i - start);
		mlq_buf_addch(&b, '"');
		if (prefix && i == n)
			mlq_buf_addch(&b, '*');
	}
	mlq_buf_addch(&b, ')');
	if (k == 0) {
		mlq_buf_release(&b);
		qerr(x, n == 0 ? "empty term" : "no word to search in", term,
		    tn);
		return NULL;
	}
	s = b.oom ? NULL : mlq_arena_strndup(x->a, b.data, b.len);
	mlq_buf_release(&b);
	if (s == NULL) {
		qoom(x);
		return NULL;
	}
	if ((fts = leaf(x, MLQ_QF_FTS, s)) == NULL || k == 1 || prefix)
		return fts;
	if ((s = mlq_arena_strndup(x->a, w, n)) == NULL ||
	    (ph = leaf(x, MLQ_QF_PHRASE, s)) == NULL) {
		qoom(x);
		return NULL;
	}
	ph->ival = (int)cols;
	return node(x, MLQ_QOP_AND, fts, ph);
}

/* Whether s (n bytes) is a calendar day: YYYY-MM-DD or YYYYMMDD. */
static bool
is_day(const char *s, size_t n)
{
	size_t i, digits = 0;

	for (i = 0; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			digits++;
		else if (s[i] != '-')
			return false;
	}
	return digits == 8;
}

/*
 * A date range: "A..B", "A..", "..B" or "A" (that day).  A calendar day
 * as the end includes the day.
 */
static struct mlq_qnode *
date_leaf(struct qparse *x, const char *v, const char *term, size_t tn)
{
	struct mlq_qnode *n = leaf(x, MLQ_QF_DATE, NULL);
	const char *dots = strstr(v, "..");
	size_t lon = dots ? (size_t)(dots - v) : strlen(v);
	const char *hi = dots ? dots + 2 : v;
	char *lo;

	if (n == NULL)
		return NULL;
	if ((lo = mlq_arena_strndup(x->a, v, lon)) == NULL) {
		qoom(x);
		return NULL;
	}
	if (*lo == '\0' && *hi == '\0') {
		qerr(x, "empty date range in", term, tn);
		return NULL;
	}
	if (*lo != '\0') {
		if (!mlq_date_parse_arg(lo, x->now, &n->lo)) {
			qerr(x, "bad date in", term, tn);
			return NULL;
		}
		n->has_lo = true;
	}
	if (*hi != '\0') {
		if (!mlq_date_parse_arg(hi, x->now, &n->hi)) {
			qerr(x, "bad date in", term, tn);
			return NULL;
		}
		if (is_day(hi, strlen(hi)))
			n->hi += 86400;
		n->has_hi = true;
	}
	return n;
}

/*
 * An address prefix's value: an address, @domain or domain; a bare word
 * is also a word of the author's name (name_too: "f:Lu", as lore's index
 * mixes the two).  Only the author's name is kept: for To and Cc a bare
 * word is a domain alone.
 */
static struct mlq_qnode *
addr_leaf(struct qparse *x, enum mlq_qfield f, bool name_too, const char *v,
    const char *term, size_t tn)
{
	struct mlq_qnode *addr, *name;
	char *low;
	size_t i;

	if (strcmp(v, "@") == 0 || v[strlen(v) - 1] == '@') {
		qerr(x, "no address or domain in", term, tn);
		return NULL;
	}
	addr = leaf(x, f, v);
	if (addr == NULL || !name_too || strchr(v, '@') != NULL ||
	    strchr(v, '.') != NULL)
		return addr;
	if ((low = mlq_arena_strdup(x->a, v)) == NULL) {
		qoom(x);
		return NULL;
	}
	for (i = 0; low[i] != '\0'; i++)
		low[i] = (char)tolower((unsigned char)low[i]);
	if ((name = leaf(x, MLQ_QF_FROM_NAME, low)) == NULL)
		return NULL;
	return node(x, MLQ_QOP_OR, addr, name);
}

/* Strips a quoted value's quotes: l:"linux-nfs" is l:linux-nfs. */
static char *
value_of(struct qparse *x, const char *v, size_t n)
{
	char *s;

	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		v++;
		n -= 2;
	}
	if ((s = mlq_arena_strndup(x->a, v, n)) == NULL)
		qoom(x);
	return s;
}

/*
 * An unknown status or tag name: the nearest one, else all of them.
 * what is "status" or "tag"; where is "search" or "query".
 */
static enum mlq_status
bad_name(struct mlq_err *err, const char *where, const char *what,
    const char *v)
{
	const char *names[32], *near;
	char all[256];
	size_t n = 0, len = 0;
	unsigned bit;
	int i;

	if (*what == 's')
		for (i = MLQ_STATE_PENDING; i <= MLQ_STATE_LAST; i++)
			names[n++] = mlq_state_name((enum mlq_state)i);
	else
		for (bit = 1; bit < (1u << MLQ_TAG_COUNT) && n < 32; bit <<= 1)
			names[n++] = mlq_tag_name(bit);
	if ((near = mlq_nearest(v, names, n)) != NULL)
		return mlq_err_set(err, MLQ_EINPUT,
		    "%s: unknown %s '%s' (did you mean '%s'?)", where, what, v,
		    near);
	all[0] = '\0';
	for (i = 0; i < (int)n && len < sizeof(all); i++)
		len += (size_t)snprintf(all + len, sizeof(all) - len, "%s%s",
		    i ? ", " : "", names[i]);
	return mlq_err_set(err, MLQ_EINPUT, "%s: unknown %s '%s' (one of: %s)",
	    where, what, v, all);
}

/* One prefixed term: "s:word", "f:umn.edu", "d:20210401..". */
static struct mlq_qnode *
prefixed(struct qparse *x, const char *pre, size_t pn, const char *v,
    size_t vn)
{
#define COL(c) (1u << MLQ_TC_##c)
#define BODY                                                                   \
	(COL(NQ) | COL(Q) | COL(DFA) | COL(DFB) | COL(DFCTX) | COL(DFHH))
	/* The text prefixes: lore's, on the columns lore's read. */
	static const struct {
		const char *name;
		const char *col; /* an FTS5 column filter */
		unsigned cols;
	} text_prefixes[] = {
		{ "s", "subject", COL(SUBJECT) },
		{ "b", "{nq q dfa dfb dfctx dfhh}", BODY },
		{ "bs", "{subject nq q dfa dfb dfctx dfhh}", BODY | COL(SUBJECT) },
		{ "nq", "{nq dfa dfb dfctx dfhh}", BODY & ~COL(Q) },
		{ "q", "q", COL(Q) },
		{ "dfa", "dfa", COL(DFA) },
		{ "dfb", "dfb", COL(DFB) },
		{ "dfctx", "dfctx", COL(DFCTX) },
		{ "dfhh", "dfhh", COL(DFHH) },
	};
	const char *term = pre;
	size_t tn = pn + 1 + vn, i;
	struct mlq_qnode *n;
	unsigned tag;
	char *s;

#define PRE(str) (pn == sizeof(str) - 1 && memcmp(pre, str, pn) == 0)
	for (i = 0; i < MLQ__ARRAY_SIZE(text_prefixes); i++)
		if (strlen(text_prefixes[i].name) == pn &&
		    memcmp(text_prefixes[i].name, pre, pn) == 0)
			return text_leaf(x, text_prefixes[i].col,
			    text_prefixes[i].cols, v, vn, term, tn);
	if ((s = value_of(x, v, vn)) == NULL)
		return NULL;
	if (*s == '\0') {
		qerr(x, "empty term", term, tn);
		return NULL;
	}
	if (PRE("f") || PRE("a"))
		return addr_leaf(x, PRE("f") ? MLQ_QF_FROM : MLQ_QF_ADDR, true,
		    s, term, tn);
	if (PRE("t") || PRE("c"))
		return addr_leaf(x, PRE("t") ? MLQ_QF_TO : MLQ_QF_CC, false, s,
		    term, tn);
	if (PRE("tc")) {
		if ((n = addr_leaf(x, MLQ_QF_TO, false, s, term, tn)) == NULL)
			return NULL;
		return node(x, MLQ_QOP_OR, n,
		    addr_leaf(x, MLQ_QF_CC, false, s, term, tn));
	}
	if (PRE("l"))
		return leaf(x, MLQ_QF_LIST, s);
	if (PRE("m")) {
		if (*s == '<' && s[strlen(s) - 1] == '>' && s[1] != '\0') {
			s[strlen(s) - 1] = '\0';
			s++;
		}
		/* "m:<>" names no message. */
		if (*s == '\0') {
			qerr(x, "empty term", term, tn);
			return NULL;
		}
		return leaf(x, MLQ_QF_MSGID, s);
	}
	if (PRE("dfn"))
		return leaf(x, MLQ_QF_FILE, s);
	if (PRE("d") || PRE("rt"))
		return date_leaf(x, s, term, tn);
	if (PRE("patchid")) {
		for (i = 0; s[i] != '\0'; i++)
			if (!isxdigit((unsigned char)s[i]))
				break;
		if (i != 40 || s[i] != '\0') {
			qerr(x, "a patch id is 40 hex digits, not", term, tn);
			return NULL;
		}
		for (i = 0; s[i] != '\0'; i++)
			s[i] = (char)tolower((unsigned char)s[i]);
		return leaf(x, MLQ_QF_PATCHID, s);
	}
	if (PRE("status")) {
		if ((n = leaf(x, MLQ_QF_STATUS, NULL)) == NULL)
			return NULL;
		if ((n->ival = (int)mlq_state_from_name(s)) ==
		    (int)MLQ_STATE_NONE) {
			x->rc = bad_name(x->err, "query", "status", s);
			return NULL;
		}
		return n;
	}
	if (PRE("tag")) {
		if ((tag = mlq_tag_from_name(s)) == 0) {
			x->rc = bad_name(x->err, "query", "tag", s);
			return NULL;
		}
		if ((n = leaf(x, MLQ_QF_TAG, NULL)) != NULL)
			n->ival = (int)tag;
		return n;
	}
	if (PRE("is")) {
		if (strcmp(s, "patch") != 0) {
			qerr(x, "is: takes 'patch', not", term, tn);
			return NULL;
		}
		return leaf(x, MLQ_QF_PATCH, NULL);
	}
#undef PRE
#undef COL
#undef BODY
	qerr(x, "unknown prefix", pre, pn + 1);
	return NULL;
}

static bool
node_has_phrase(const struct mlq_qnode *n)
{
	if (n == NULL)
		return false;
	if (n->op == MLQ_QOP_LEAF)
		return n->field == MLQ_QF_PHRASE;
	return node_has_phrase(n->l) || node_has_phrase(n->r);
}

bool
mlq_query_has_phrase(const struct mlq_query *q)
{
	return node_has_phrase(q->expr);
}

/* The current term: "word", "word*", "\"a phrase\"" or "prefix:value". */
static struct mlq_qnode *
term(struct qparse *x)
{
	const char *s = x->ts, *colon;
	size_t n = x->tn, pn;

	if (++x->terms > QUERY_MAX_TERMS) {
		qerr(x, "too many terms at", s, n);
		return NULL;
	}
	colon = s[0] == '"' ? NULL : memchr(s, ':', n);
	if (colon != NULL) {
		/* A prefix is a lowercase word: "12:30" and "Fixes:" are
		 * text. */
		for (pn = 0; s + pn < colon && s[pn] >= 'a' && s[pn] <= 'z'; pn++)
			;
		if (s + pn == colon && pn > 0)
			return prefixed(x, s, pn, colon + 1,
			    n - pn - 1);
	}
	return text_leaf(x, NULL, (1u << MLQ_TEXT_NCOLS) - 1, s, n, s, n);
}

static struct mlq_qnode *parse_or(struct qparse *);

static struct mlq_qnode *
parse_unary(struct qparse *x)
{
	struct mlq_qnode *c;
	const char *at = x->ts;

	if (x->rc != MLQ_OK)
		return NULL;
	switch (x->tok) {
	case QT_NOT:
	case QT_MINUS:
		next(x);
		/* "NOT NOT ..." nests as parentheses do. */
		if (++x->depth > QUERY_MAX_DEPTH) {
			qerr(x, "too deeply nested at", at, strlen(at));
			return NULL;
		}
		if ((c = parse_unary(x)) == NULL)
			return NULL;
		x->depth--;
		return node(x, MLQ_QOP_NOT, c, NULL);
	case QT_LP:
		if (++x->depth > QUERY_MAX_DEPTH) {
			qerr(x, "too deeply nested at", at, 1);
			return NULL;
		}
		next(x);
		if (x->tok == QT_RP) {
			qerr(x, "empty parentheses at", at, 2);
			return NULL;
		}
		if ((c = parse_or(x)) == NULL)
			return NULL;
		if (x->tok != QT_RP) {
			qerr(x, "unbalanced parenthesis at", at, strlen(at));
			return NULL;
		}
		x->depth--;
		next(x);
		return c;
	case QT_TERM:
		c = term(x);
		next(x);
		return c;
	case QT_RP:
		qerr(x, "unbalanced parenthesis at", at, strlen(at));
		return NULL;
	case QT_AND:
	case QT_OR:
		qerr(x, "no term before", at, x->tn);
		return NULL;
	case QT_END:
		break;
	}
	qerr(x, "no term after", x->text, strlen(x->text));
	return NULL;
}

/*
 * n operands joined by op, as a balanced tree: SQLite's and FTS5's
 * parsers overflow their stacks on a chain nested as deep as it is long
 * (80 f: terms, 100 words).  Three or fewer nest from the left as before.
 */
static struct mlq_qnode *
chain(struct qparse *x, enum mlq_qop op, struct mlq_qnode **v, size_t n)
{
	struct mlq_qnode *l, *r;
	size_t half = n - n / 2;

	if (n == 1)
		return v[0];
	if ((l = chain(x, op, v, half)) == NULL ||
	    (r = chain(x, op, v + half, n - half)) == NULL)
		return NULL;
	return node(x, op, l, r);
}

/* Adds n to the operands v[0..*nv) of a chain. */
static struct mlq_qnode **
chain_add(struct qparse *x, struct mlq_qnode **v, size_t *nv,
    struct mlq_qnode *n)
{
	if ((v = mlq_arena_grow(x->a, v, *nv, sizeof(*v))) == NULL) {
		qoom(x);
		return NULL;
	}
	v[(*nv)++] = n;
	return v;
}

static struct mlq_qnode *
parse_and(struct qparse *x)
{
	struct mlq_qnode *l = parse_unary(x), *r, **v = NULL;
	size_t n = 0;

	if (l == NULL || (v = chain_add(x, v, &n, l)) == NULL)
		return NULL;
	while (x->tok != QT_END && x->tok != QT_OR && x->tok != QT_RP) {
		if (x->tok == QT_AND)
			next(x);
		if ((r = parse_unary(x)) == NULL ||
		    (v = chain_add(x, v, &n, r)) == NULL)
			return NULL;
	}
	return chain(x, MLQ_QOP_AND, v, n);
}

static struct mlq_qnode *
parse_or(struct qparse *x)
{
	struct mlq_qnode *l = parse_and(x), *r, **v = NULL;
	size_t n = 0;

	if (l == NULL || (v = chain_add(x, v, &n, l)) == NULL)
		return NULL;
	while (x->tok == QT_OR) {
		next(x);
		if ((r = parse_and(x)) == NULL ||
		    (v = chain_add(x, v, &n, r)) == NULL)
			return NULL;
	}
	return chain(x, MLQ_QOP_OR, v, n);
}

static int
tree_depth(const struct mlq_qnode *n)
{
	int l, r;

	if (n == NULL || n->op == MLQ_QOP_LEAF)
		return 0;
	l = tree_depth(n->l);
	r = tree_depth(n->r);
	return 1 + (l > r ? l : r);
}

/* ANDs n into q; MLQ_EINPUT if the whole would nest too deep to run. */
static enum mlq_status
and_into(struct mlq_query *q, const struct mlq_qnode *n, struct qparse *x)
{
	const struct mlq_qnode *both = n;

	if (q->expr != NULL &&
	    (both = node(x, MLQ_QOP_AND, q->expr, n)) == NULL)
		return x->rc;
	if (tree_depth(both) > QUERY_MAX_TREE)
		return mlq_err_set(x->err, MLQ_EINPUT,
		    "query: nested more than %d levels deep", QUERY_MAX_TREE);
	q->expr = both;
	return MLQ_OK;
}

enum mlq_status
mlq_query_text(struct mlq_query *q, const char *text, int64_t now,
    struct mlq_arena *a, struct mlq_err *err)
{
	struct qparse x;
	struct mlq_qnode *n;

	memset(&x, 0, sizeof(x));
	x.text = x.p = text;
	x.now = now;
	x.a = a;
	x.err = err;
	next(&x);
	if (x.tok == QT_END)
		return x.rc; /* no text: every message */
	n = parse_or(&x);
	if (n != NULL && x.tok == QT_RP)
		qerr(&x, "unbalanced parenthesis at", x.ts, strlen(x.ts));
	if (x.rc != MLQ_OK)
		return x.rc;
	return and_into(q, n, &x);
}

enum mlq_status
mlq_query_flag(struct mlq_query *q, const char *flag, char *const *values,
    size_t nv, int64_t now, struct mlq_arena *a, struct mlq_err *err)
{
	struct qparse x;
	struct mlq_qnode *any, *n = NULL, **v_or = NULL;
	const char *v;
	size_t i, vn, nor = 0;
	int64_t t;

	memset(&x, 0, sizeof(x));
	x.now = now;
	x.a = a;
	x.err = err;
	for (i = 0; i < nv && x.rc == MLQ_OK; i++) {
		v = values[i];
		vn = v ? strlen(v) : 0;
		if (strcmp(flag, "patches") == 0) {
			n = leaf(&x, MLQ_QF_PATCH, NULL);
		} else if (vn == 0) {
			return mlq_err_set(err, MLQ_EINPUT,
			    "search: empty value for --%s", flag);
		} else if (strcmp(flag, "from") == 0 ||
		    strcmp(flag, "addr") == 0) {
			n = addr_leaf(&x,
			    *flag == 'f' ? MLQ_QF_FROM : MLQ_QF_ADDR, true, v,
			    v, vn);
		} else if (strcmp(flag, "subject") == 0) {
			n = leaf(&x, MLQ_QF_SUBSTR, v);
		} else if (strcmp(flag, "list") == 0) {
			n = leaf(&x, MLQ_QF_LIST, v);
		} else if (strcmp(flag, "file") == 0) {
			n = leaf(&x, MLQ_QF_FILE, v);
		} else if (strcmp(flag, "commit") == 0) {
			if (vn < 4 || vn > 64 || strspn(v,
			    "0123456789abcdefABCDEF") != vn)
				return mlq_err_set(err, MLQ_EINPUT,
				    "search: --commit '%s' is not a commit id "
				    "(4 to 40 hex digits)", v);
			n = leaf(&x, MLQ_QF_COMMIT, v);
		} else if (strcmp(flag, "since") == 0 ||
		    strcmp(flag, "until") == 0) {
			if (!mlq_date_parse_arg(v, now, &t))
				return mlq_err_set(err, MLQ_EINPUT,
				    "search: bad date '%s' for --%s "
				    "(YYYY-MM-DD, YYYYMMDD, 7d, 2w, 3m, "
				    "2.weeks.ago, yesterday)",
				    v, flag);
			if ((n = leaf(&x, MLQ_QF_DATE, NULL)) == NULL)
				break;
			if (*flag == 's') {
				n->has_lo = true;
				n->lo = t;
			} else {
				n->has_hi = true;
				n->hi = is_day(v, vn) ? t + 86400 : t;
			}
		} else if (strcmp(flag, "status") == 0) {
			if ((n = leaf(&x, MLQ_QF_STATUS, NULL)) != NULL &&
			    (n->ival = (int)mlq_state_from_name(v)) ==
				(int)MLQ_STATE_NONE)
				return bad_name(err, "search", "status", v);
		} else if (strcmp(flag, "tag") == 0) {
			if ((n = leaf(&x, MLQ_QF_TAG, NULL)) != NULL &&
			    (n->ival = (int)mlq_tag_from_name(v)) == 0)
				return bad_name(err, "search", "tag", v);
		} else {
			return mlq_err_set(err, MLQ_EUSAGE,
			    "search: no flag --%s", flag);
		}
		if (n == NULL || (v_or = chain_add(&x, v_or, &nor, n)) == NULL)
			break;
	}
	if (x.rc != MLQ_OK || nor == 0)
		return x.rc;
	if ((any = chain(&x, MLQ_QOP_OR, v_or, nor)) == NULL)
		return x.rc;
	return and_into(q, any, &x);
}
