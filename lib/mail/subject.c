#include "config.h"

#include <string.h>

#include "mlq-int.h"

/*
 * A subject is read from the left: reply and forward markers ("Re:",
 * "AW:", "Fwd:" ...) and bracketed tags ("[Intel-wired-lan]",
 * "[PATCH net-next v3 0/5]") in any order and any number, then the title.
 * Only the front is stripped, so a bracket inside the title stays.
 */

/* Numbers in tags beyond this are not versions or series positions. */
#define SUBJ_NUM_MAX 99999

enum subj_marker_kind {
	SUBJ_REPLY,
	SUBJ_FORWARD,
};

struct subj_marker {
	const char *word; /* lower case */
	enum subj_marker_kind kind;
};

/* Reply and forward markers of the common mail clients and languages. */
static const struct subj_marker subj_markers[] = {
	{ "re", SUBJ_REPLY },
	{ "aw", SUBJ_REPLY },
	{ "sv", SUBJ_REPLY },
	{ "vs", SUBJ_REPLY },
	{ "antw", SUBJ_REPLY },
	{ "odp", SUBJ_REPLY },
	{ "r", SUBJ_REPLY },
	{ "ref", SUBJ_REPLY },
	{ "rif", SUBJ_REPLY },
	{ "fwd", SUBJ_FORWARD },
	{ "fw", SUBJ_FORWARD },
	{ "wg", SUBJ_FORWARD },
	{ "tr", SUBJ_FORWARD },
};

enum subj_word_kind {
	SUBJ_W_OTHER,
	SUBJ_W_PATCH,
	SUBJ_W_RFC,
	SUBJ_W_PULL,
	SUBJ_W_GIT,
	SUBJ_W_RESEND,
	SUBJ_W_VERSION,
	SUBJ_W_INDEX,
};

/* One word inside a bracket, with the numbers it carries. */
struct subj_word {
	const char *s;
	size_t n;
	enum subj_word_kind kind;
	int version;
	int index, total;
};

/* Words in one bracket: real tags have a handful. */
#define SUBJ_MAX_WORDS 16

struct subj_state {
	struct mlq_subject *out;
	struct mlq_buf prefix;
	bool seen_patch; /* a patch bracket was read */
};

static bool
subj_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool
subj_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool
subj_is_alpha(char c)
{
	c = mlq__lower(c);
	return c >= 'a' && c <= 'z';
}

static const char *
subj_skip_space(const char *p)
{
	while (subj_is_space(*p))
		p++;
	return p;
}

static bool
subj_word_eq(const char *w, size_t n, const char *lower)
{
	return strlen(lower) == n && mlq_text_has_prefix_ci(w, n, lower);
}

/* All of w[0..n) is a number in 0..SUBJ_NUM_MAX; stores it. */
static bool
subj_number(const char *w, size_t n, int *out)
{
	size_t i;
	long v = 0;

	if (n == 0 || n > 6)
		return false;
	for (i = 0; i < n; i++) {
		if (!subj_is_digit(w[i]))
			return false;
		v = v * 10 + (w[i] - '0');
	}
	if (v > SUBJ_NUM_MAX)
		return false;
	*out = (int)v;
	return true;
}

/*
 * "Re:", "RE :", "Re[2]:", "Re(2):", "AW:" ...: returns what follows the
 * colon, or NULL when p does not start with a marker.
 */
static const char *
subj_marker(const char *p, struct mlq_subject *out)
{
	const char *w = p, *q;
	size_t n, i;

	while (subj_is_alpha(*p))
		p++;
	n = (size_t)(p - w);
	for (i = 0; i < MLQ__ARRAY_SIZE(subj_markers); i++)
		if (subj_word_eq(w, n, subj_markers[i].word))
			break;
	if (i == MLQ__ARRAY_SIZE(subj_markers))
		return NULL;
	if (*p == '[' || *p == '(') {
		for (q = p + 1; subj_is_digit(*q); q++)
			;
		if (q == p + 1 || *q != (*p == '[' ? ']' : ')'))
			return NULL;
		p = q + 1;
	}
	while (*p == ' ')
		p++;
	if (*p != ':')
		return NULL;
	if (subj_markers[i].kind == SUBJ_REPLY)
		out->is_reply = true;
	else
		out->is_forward = true;
	return p + 1;
}

/* "3/7", "03/07" */
static bool
subj_index(const char *w, size_t n, int *index, int *total)
{
	const char *slash = memchr(w, '/', n);

	return slash != NULL && subj_number(w, (size_t)(slash - w), index) &&
	    subj_number(slash + 1, n - (size_t)(slash - w) - 1, total);
}

/* "v2", "V2" */
static bool
subj_version(const char *w, size_t n, int *version)
{
	return n >= 2 && mlq__lower(w[0]) == 'v' &&
	    subj_number(w + 1, n - 1, version);
}

/* Classifies one word of a bracket; "PATCHv2" is PATCH with a version. */
static void
subj_classify(struct subj_word *w)
{
	w->kind = SUBJ_W_OTHER;
	if (subj_word_eq(w->s, w->n, "patch") ||
	    (w->n > 5 && mlq_text_has_prefix_ci(w->s, w->n, "patch") &&
		subj_version(w->s + 5, w->n - 5, &w->version)))
		w->kind = SUBJ_W_PATCH;
	else if (subj_word_eq(w->s, w->n, "rfc"))
		w->kind = SUBJ_W_RFC;
	else if (subj_word_eq(w->s, w->n, "pull"))
		w->kind = SUBJ_W_PULL;
	else if (subj_word_eq(w->s, w->n, "git"))
		w->kind = SUBJ_W_GIT;
	else if (subj_word_eq(w->s, w->n, "resend"))
		w->kind = SUBJ_W_RESEND;
	else if (subj_version(w->s, w->n, &w->version))
		w->kind = SUBJ_W_VERSION;
	else if (subj_index(w->s, w->n, &w->index, &w->total))
		w->kind = SUBJ_W_INDEX;
}

static void
subj_word_set(struct subj_word *w, const char *s, size_t n)
{
	memset(w, 0, sizeof(*w));
	w->s = s;
	w->n = n;
	subj_classify(w);
}

/* Adds a word, or its two halves when one is a keyword ("RFC/PATCH"). */
static size_t
subj_word_add(const char *s, size_t n, struct subj_word *w, size_t max)
{
	const char *slash;
	struct subj_word half[2];
	size_t left;

	subj_word_set(&w[0], s, n);
	slash = memchr(s, '/', n);
	if (w[0].kind != SUBJ_W_OTHER || max < 2 || slash == NULL)
		return 1;
	left = (size_t)(slash - s);
	subj_word_set(&half[0], s, left);
	subj_word_set(&half[1], slash + 1, n - left - 1);
	if (half[0].kind == SUBJ_W_OTHER && half[1].kind == SUBJ_W_OTHER)
		return 1;
	w[0] = half[0];
	w[1] = half[1];
	return 2;
}

/* Splits a bracket's text into words at spaces and commas. */
static size_t
subj_split(const char *s, size_t n, struct subj_word *w, size_t max)
{
	size_t i = 0, nw = 0, start;

	while (nw < max) {
		while (i < n && (subj_is_space(s[i]) || s[i] == ','))
			i++;
		if (i == n)
			break;
		start = i;
		while (i < n && !subj_is_space(s[i]) && s[i] != ',')
			i++;
		nw += subj_word_add(s + start, i - start, w + nw, max - nw);
	}
	return nw;
}

/* Does the bracket name a patch, an RFC or a pull request? */
static bool
subj_is_patch_tag(const struct subj_word *w, size_t nw)
{
	size_t i;

	for (i = 0; i < nw; i++)
		if (w[i].kind == SUBJ_W_PATCH || w[i].kind == SUBJ_W_RFC ||
		    w[i].kind == SUBJ_W_PULL)
			return true;
	return false;
}

/* "[PATCH] [v3]": a bracket of only a version or position continues the tag. */
static bool
subj_is_tag_tail(const struct subj_word *w, size_t nw)
{
	size_t i;

	for (i = 0; i < nw; i++)
		if (w[i].kind != SUBJ_W_VERSION && w[i].kind != SUBJ_W_INDEX &&
		    w[i].kind != SUBJ_W_RESEND)
			return false;
	return nw > 0;
}

static void
subj_add_prefix(struct subj_state *st, const char *s, size_t n)
{
	if (st->prefix.len > 0)
		mlq_buf_addch(&st->prefix, ' ');
	mlq_buf_add(&st->prefix, s, n);
}

/* Applies the words of a patch bracket to the result. */
static void
subj_apply(struct subj_state *st, struct subj_word *w, size_t nw)
{
	struct mlq_subject *out = st->out;
	bool pull = false;
	size_t i;
	int total;

	for (i = 0; i < nw; i++)
		pull |= w[i].kind == SUBJ_W_PULL;
	for (i = 0; i < nw; i++) {
		switch (w[i].kind) {
		case SUBJ_W_PATCH:
		case SUBJ_W_VERSION:
			if (w[i].version > 0)
				out->version = w[i].version;
			break;
		case SUBJ_W_RFC:
			out->is_rfc = true;
			break;
		case SUBJ_W_PULL:
			out->is_pull = true;
			break;
		case SUBJ_W_RESEND:
			break;
		case SUBJ_W_INDEX:
			out->index = w[i].index, out->total = w[i].total;
			break;
		case SUBJ_W_GIT:
			if (pull)
				break;
			/* FALLTHROUGH */
		case SUBJ_W_OTHER:
			/* Mercurial's "[PATCH 1 of 2]" */
			if (i + 2 < nw &&
			    subj_word_eq(w[i + 1].s, w[i + 1].n, "of") &&
			    subj_number(w[i].s, w[i].n, &out->index) &&
			    subj_number(w[i + 2].s, w[i + 2].n, &total)) {
				out->total = total;
				i += 2;
				break;
			}
			subj_add_prefix(st, w[i].s, w[i].n);
			break;
		}
	}
	out->has_patch_tag = true;
	st->seen_patch = true;
}

/* Handles one "[...]" at p; returns what follows it, NULL if unclosed. */
static const char *
subj_bracket(struct subj_state *st, const char *p)
{
	struct subj_word w[SUBJ_MAX_WORDS];
	const char *close = strchr(p + 1, ']');
	size_t nw;

	if (close == NULL)
		return NULL;
	nw = subj_split(p + 1, (size_t)(close - p - 1), w, SUBJ_MAX_WORDS);
	if (subj_is_patch_tag(w, nw) ||
	    (st->seen_patch && subj_is_tag_tail(w, nw)))
		subj_apply(st, w, nw);
	else if (st->seen_patch)
		/* "[PATCH][next]": a tag after the patch tag names a tree. */
		subj_add_prefix(st, p + 1, (size_t)(close - p - 1));
	/* Otherwise a list tag such as "[linux-nfs]": dropped. */
	return close + 1;
}

/* Copies s with runs of white space folded to one space, ends trimmed. */
static void
subj_fold(struct mlq_buf *b, const char *s, bool lower)
{
	bool space = false;

	for (s = subj_skip_space(s); *s != '\0'; s++) {
		if (subj_is_space(*s)) {
			space = true;
			continue;
		}
		if (space)
			mlq_buf_addch(b, ' ');
		space = false;
		mlq_buf_addch(b, lower ? mlq__lower(*s) : *s);
	}
}

/*
 * Where a revert's quoted title starts: after `Revert "`, `Revert: "` or
 * `subsys: Revert "`.  "Reapply" and "Partially revert" do not count.
 */
static const char *
subj_revert_open(const char *t)
{
	const char *p = t;

	if (!mlq_text_has_prefix_ci(p, strlen(p), "revert")) {
		/* "i40e: Revert "..."": one subsystem word and a colon */
		while (*p != '\0' && !subj_is_space(*p) && *p != ':')
			p++;
		if (p == t || p[0] != ':' || p[1] != ' ')
			return NULL;
		p += 2;
		if (!mlq_text_has_prefix_ci(p, strlen(p), "revert"))
			return NULL;
	}
	p += 6;
	if (*p == ':')
		p++;
	p = subj_skip_space(p);
	return (*p == '"') ? p + 1 : NULL;
}

/*
 * Fills revert_depth and reverted: the text inside the outermost quotes,
 * up to the last quote (so `Revert "x" again` gives x and nesting keeps
 * its inner quotes), or to the end when a truncated subject lost it.
 */
static enum mlq_status
subj_revert(const char *title, struct mlq_arena *a, struct mlq_subject *out)
{
	const char *open, *close, *inner;
	size_t len;

	open = subj_revert_open(title);
	if (open == NULL)
		return MLQ_OK;
	close = strrchr(open, '"');
	len = (close != NULL) ? (size_t)(close - open) : strlen(open);
	while (len > 0 && subj_is_space(*open))
		open++, len--;
	while (len > 0 && subj_is_space(open[len - 1]))
		len--;
	out->reverted = mlq_arena_strndup(a, open, len);
	if (out->reverted == NULL)
		return MLQ_ENOMEM;
	out->revert_depth = 1;
	for (inner = subj_revert_open(out->reverted); inner != NULL;
	     inner = subj_revert_open(inner))
		out->revert_depth++;
	return MLQ_OK;
}

/* Strips the markers and tags in front; returns where the title starts. */
static const char *
subj_strip(struct subj_state *st, const char *p)
{
	const char *next;

	for (;;) {
		p = subj_skip_space(p);
		if (*p == '[')
			next = subj_bracket(st, p);
		else
			next = subj_marker(p, st->out);
		if (next == NULL)
			return p;
		p = next;
	}
}

enum mlq_status
mlq_subject_parse(const char *s, struct mlq_arena *a, struct mlq_subject *out,
    struct mlq_err *err)
{
	struct subj_state st;
	struct mlq_buf b;
	const char *title;
	enum mlq_status rc;

	memset(out, 0, sizeof(*out));
	out->version = 1;
	st.out = out;
	st.seen_patch = false;
	mlq_buf_init(&st.prefix);
	mlq_buf_init(&b);
	title = subj_strip(&st, s != NULL ? s : "");
	/* "GIT PULL ..." without brackets is a pull request too. */
	if (strncmp(title, "GIT PULL", 8) == 0)
		out->is_pull = true;
	subj_fold(&b, title, false);
	out->prefix = mlq_arena_strdup(a, st.prefix.data);
	out->title = mlq_arena_strdup(a, b.data);
	mlq_buf_reset(&b);
	subj_fold(&b, title, true);
	out->norm = mlq_arena_strdup(a, b.data);
	rc = (b.oom || st.prefix.oom || out->prefix == NULL ||
		 out->title == NULL || out->norm == NULL)
	    ? MLQ_ENOMEM
	    : subj_revert(out->title, a, out);
	mlq_buf_release(&b);
	mlq_buf_release(&st.prefix);
	if (rc != MLQ_OK)
		return mlq_err_set(err, rc, "subject: out of memory");
	return MLQ_OK;
}

bool
mlq_subject_tagged_rfc(const char *s)
{
	const char *p;

	/* An "RFC" with a ']' after it: if the first has none, no later
	 * one has ("[PATCH] fix RFC 7530 handling"). */
	if (s == NULL || *s != '[' || (p = strcasestr(s, "RFC")) == NULL)
		return false;
	return strchr(p, ']') != NULL;
}
