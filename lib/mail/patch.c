#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mlq-int.h"

/*
 * One pass over the text, line by line, after git's apply.c: prose until a
 * diff header, then a file header, then hunks consumed exactly by their
 * @@ counts, so whatever follows the last hunk (a "-- " signature, more
 * prose) is never counted.
 */

/* Hunk counts beyond this are not a diff anyone mails. */
#define PATCH_MAX_COUNT 100000000L

struct span {
	const char *p;
	size_t len;
};

struct line {
	const char *p;
	size_t len; /* without the LF and a trailing CR */
	size_t off; /* where the line starts in the text */
};

enum patch_stage {
	STAGE_PROSE,	  /* outside a diff, or between hunks of a file */
	STAGE_GIT_HEADER, /* after "diff --git", before the first hunk */
	STAGE_HUNK,	  /* inside a hunk: old_left/new_left lines to go */
	STAGE_BINARY,	  /* the data of a GIT binary patch */
};

/* What a git file header said, as spans of the text until it ends. */
struct git_header {
	struct span names; /* the rest of the "diff --git " line */
	/* "b/X" alone on the next line: the mailer wrapped the names. */
	struct span wrapped;
	unsigned taken; /* header lines after "diff --git" */
	struct span minus, plus;
	struct span from, to; /* rename or copy */
	struct span mode;     /* new mode of a mode change or a new file */
	unsigned flags;
	size_t start; /* offset of the "diff --git" line */
};

struct patch_state {
	struct mlq_arena *a;
	struct mlq_patch *out;
	enum patch_stage stage;
	enum mlq_status status;
	size_t nfiles;		    /* seen, including those past the limit */
	struct mlq_patch_file *cur; /* NULL past MLQ_MAX_PATCH_FILES */
	bool file_open;		    /* a hunk header may still follow */
	bool index_seen;	    /* an "Index:" block may start the diff */
	size_t index_off;
	struct span index_name;
	unsigned skip; /* lines already read by a lookahead */
	long old_left, new_left;
	struct git_header gh;
};

static bool
has_prefix(const struct line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->len >= n && memcmp(l->p, prefix, n) == 0;
}

static struct span
rest_of(const struct line *l, const char *prefix)
{
	size_t n = strlen(prefix);
	struct span s = { l->p + n, l->len - n };

	return s;
}

static bool
span_eq(struct span s, const char *str)
{
	return s.len == strlen(str) && memcmp(s.p, str, s.len) == 0;
}

/* A "--- "/"+++ " name ends at a TAB (diff's timestamp) and has no trailing blanks. */
static struct span
header_name(struct span s)
{
	const char *tab = memchr(s.p, '\t', s.len);

	if (tab != NULL)
		s.len = (size_t)(tab - s.p);
	while (s.len > 0 && s.p[s.len - 1] == ' ')
		s.len--;
	return s;
}

static bool
is_dev_null(struct span s)
{
	return span_eq(s, "/dev/null");
}

/* Reads up to nine digits: hunk counts are bounded by PATCH_MAX_COUNT. */
static bool
scan_count(const char **pp, const char *end, long *v)
{
	const char *p = *pp;
	long n = 0;

	if (p == end || *p < '0' || *p > '9')
		return false;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (*p - '0');
		if (n > PATCH_MAX_COUNT)
			return false;
	}
	*pp = p;
	*v = n;
	return true;
}

/* "start[,count]": a missing count means one line. */
static bool
scan_range(const char **pp, const char *end, long *count)
{
	long start;

	if (!scan_count(pp, end, &start))
		return false;
	*count = 1;
	if (*pp < end && **pp == ',') {
		(*pp)++;
		return scan_count(pp, end, count);
	}
	return true;
}

/* A unified hunk header "@@ -a[,b] +c[,d] @@": b old and d new lines follow. */
static bool
is_hunk_header(const struct line *l, long *old_n, long *new_n)
{
	const char *p = l->p + 4, *end = l->p + l->len;

	if (!has_prefix(l, "@@ -"))
		return false;
	if (!scan_range(&p, end, old_n))
		return false;
	if (end - p < 2 || p[0] != ' ' || p[1] != '+')
		return false;
	p += 2;
	if (!scan_range(&p, end, new_n))
		return false;
	return end - p >= 3 && memcmp(p, " @@", 3) == 0 &&
	    (*old_n > 0 || *new_n > 0);
}

/* A git diff starts with "diff --git " and its two names. */
static bool
is_git_diff_start(const struct line *l)
{
	return has_prefix(l, "diff --git ") && l->len > 11;
}

/* A quilt/plain diff starts with "--- old", "+++ new" and a hunk header. */
static bool
is_plain_diff_start(const struct line *l, const struct line *next,
    const struct line *next2)
{
	long o, n;

	return has_prefix(l, "--- ") && has_prefix(next, "+++ ") &&
	    is_hunk_header(next2, &o, &n);
}

/* "Index: name" over a line of '=' (CVS, svn, quilt) opens a file block. */
static bool
is_index_block(const struct line *l, const struct line *next)
{
	return has_prefix(l, "Index: ") && has_prefix(next, "====");
}

/*
 * GIT binary patch data: "literal N"/"delta N", blank separators and
 * base85 lines (a length letter, then groups of five characters).
 */
static bool
is_binary_data(const struct line *l)
{
	char c;

	if (l->len == 0 || has_prefix(l, "literal ") || has_prefix(l, "delta "))
		return true;
	c = l->p[0];
	return ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) &&
	    l->len >= 6 && (l->len - 1) % 5 == 0;
}

static void
patch_oom(struct patch_state *ps)
{
	ps->status = MLQ_ENOMEM;
}

/*
 * A C-quoted git name ("a/tab\there") into the arena; an unquoted one is
 * copied as it is.
 */
static char *
name_dup(struct patch_state *ps, struct span s)
{
	char *out, *o;
	size_t i;
	int k, v;

	if (s.len < 2 || s.p[0] != '"' || s.p[s.len - 1] != '"')
		return mlq_arena_strndup(ps->a, s.p, s.len);
	if ((out = mlq_arena_alloc(ps->a, s.len)) == NULL)
		return NULL;
	o = out;
	for (i = 1; i + 1 < s.len; i++) {
		if (s.p[i] != '\\' || i + 2 >= s.len) {
			*o++ = s.p[i];
			continue;
		}
		switch (s.p[++i]) {
		case 'n':
			*o++ = '\n';
			break;
		case 't':
			*o++ = '\t';
			break;
		case '0':
		case '1':
		case '2':
		case '3':
			for (k = 0, v = 0; k < 3 && i + 1 < s.len &&
			     s.p[i] >= '0' && s.p[i] <= '7';
			     k++, i++)
				v = v * 8 + (s.p[i] - '0');
			i--;
			*o++ = (char)v;
			break;
		default:
			*o++ = s.p[i];
			break;
		}
	}
	*o = '\0';
	return out;
}

/* Drops git's "a/" or "b/" in front of a name. */
static const char *
strip_git_prefix(const char *name, char side)
{
	if (name[0] == side && name[1] == '/')
		return name + 2;
	return name;
}

/* Drops one leading directory, as patch -p1 does. */
static const char *
strip_component(const char *name)
{
	const char *slash = strchr(name, '/');

	return slash != NULL ? slash + 1 : name;
}

/*
 * Splits the names of "diff --git A B".  Quoted names end at their quote;
 * unquoted ones are equal halves ("a/x b/x"), else split at " b/".
 */
static void
split_git_names(struct span r, struct span *a, struct span *b)
{
	const char *q, *end = r.p + r.len;
	size_t half = r.len / 2;

	if (r.p[0] == '"') {
		for (q = r.p + 1; q < end && *q != '"'; q++)
			if (*q == '\\')
				q++;
		q = q < end ? q + 1 : end;
	} else if (r.len % 2 == 1 && r.p[half] == ' ' &&
	    ((memcmp(r.p, r.p + half + 1, half) == 0) ||
		(half > 2 && memcmp(r.p + 2, r.p + half + 3, half - 2) == 0))) {
		q = r.p + half;
	} else {
		for (q = r.p; q + 3 < end; q++)
			if (q[0] == ' ' &&
			    ((q[1] == 'b' && q[2] == '/') || q[1] == '"'))
				break;
		if (q + 3 >= end)
			q = memchr(r.p, ' ', r.len);
		if (q == NULL)
			q = end;
	}
	a->p = r.p;
	a->len = (size_t)(q - r.p);
	while (q < end && *q == ' ')
		q++;
	b->p = q;
	b->len = (size_t)(end - q);
}

/* Appends a file; past MLQ_MAX_PATCH_FILES only the totals count it. */
static void
file_add(struct patch_state *ps, const char *old_path, const char *path,
    unsigned flags, size_t start)
{
	struct mlq_patch *out = ps->out;
	struct mlq_patch_file *files;

	if (ps->nfiles++ == 0)
		out->diff_start = start;
	ps->file_open = true;
	ps->cur = NULL;
	if (out->nfiles >= MLQ_MAX_PATCH_FILES)
		return;
	files = mlq_arena_grow(ps->a, out->files, out->nfiles, sizeof(*files));
	if (files == NULL)
		return patch_oom(ps);
	out->files = files;
	ps->cur = &files[out->nfiles++];
	ps->cur->path = path;
	ps->cur->old_path = old_path;
	ps->cur->flags = flags;
}

static void
git_header_begin(struct patch_state *ps, const struct line *l)
{
	memset(&ps->gh, 0, sizeof(ps->gh));
	ps->gh.names = rest_of(l, "diff --git ");
	ps->gh.start = l->off;
	ps->stage = STAGE_GIT_HEADER;
	ps->index_seen = false;
	ps->file_open = false;
}

/* Names a git file: rename/copy lines, then ---/+++, then "diff --git". */
static void
git_header_end(struct patch_state *ps)
{
	struct git_header *gh = &ps->gh;
	struct span sa, sb;
	const char *oldp, *newp;
	char *a, *b;
	bool from_minus;

	from_minus = gh->minus.p != NULL && gh->plus.p != NULL &&
	    (gh->from.p == NULL || gh->to.p == NULL);
	if (gh->from.p != NULL && gh->to.p != NULL) {
		sa = gh->from;
		sb = gh->to;
	} else if (from_minus) {
		sa = is_dev_null(gh->minus) ? gh->plus : gh->minus;
		sb = is_dev_null(gh->plus) ? gh->minus : gh->plus;
	} else if (gh->wrapped.p != NULL) {
		sa = gh->names;
		sb = gh->wrapped;
	} else
		split_git_names(gh->names, &sa, &sb);
	if ((a = name_dup(ps, sa)) == NULL || (b = name_dup(ps, sb)) == NULL)
		return patch_oom(ps);
	oldp = a;
	newp = b;
	if (from_minus) {
		oldp = strip_git_prefix(a, is_dev_null(gh->minus) ? 'b' : 'a');
		newp = strip_git_prefix(b, is_dev_null(gh->plus) ? 'a' : 'b');
		if (is_dev_null(gh->minus))
			gh->flags |= MLQ_FILE_NEW;
		if (is_dev_null(gh->plus))
			gh->flags |= MLQ_FILE_DELETED;
	} else if (gh->from.p == NULL && strip_git_prefix(a, 'a') != a &&
	    strip_git_prefix(b, 'b') != b) {
		oldp = a + 2;
		newp = b + 2;
	}
	if (gh->flags & MLQ_FILE_DELETED)
		newp = oldp;
	if (gh->flags & MLQ_FILE_NEW)
		oldp = newp;
	file_add(ps, oldp, newp, gh->flags, gh->start);
}

/* The extended header lines of git's diff (gitdiff_* in git's apply.c). */
static bool
git_header_take(struct patch_state *ps, const struct line *l)
{
	struct git_header *gh = &ps->gh;

	/* "diff --git a/long/path" wrapped before its " b/long/path". */
	while (gh->names.len > 0 && gh->names.p[gh->names.len - 1] == ' ')
		gh->names.len--;
	if (gh->taken++ == 0 && has_prefix(l, "b/") &&
	    memchr(l->p, ' ', l->len) == NULL && gh->names.len > 2 &&
	    memcmp(gh->names.p, "a/", 2) == 0 &&
	    memchr(gh->names.p, ' ', gh->names.len) == NULL) {
		gh->wrapped.p = l->p;
		gh->wrapped.len = l->len;
		return true;
	}
	if (has_prefix(l, "--- "))
		gh->minus = header_name(rest_of(l, "--- "));
	else if (has_prefix(l, "+++ "))
		gh->plus = header_name(rest_of(l, "+++ "));
	else if (has_prefix(l, "new file mode ")) {
		gh->flags |= MLQ_FILE_NEW;
		gh->mode = rest_of(l, "new file mode ");
	} else if (has_prefix(l, "deleted file mode "))
		gh->flags |= MLQ_FILE_DELETED;
	else if (has_prefix(l, "new mode "))
		gh->mode = rest_of(l, "new mode ");
	else if (has_prefix(l, "rename from ") || has_prefix(l, "copy from ")) {
		gh->from =
		    rest_of(l, l->p[0] == 'r' ? "rename from " : "copy from ");
		gh->flags |=
		    l->p[0] == 'r' ? MLQ_FILE_RENAMED : MLQ_FILE_COPIED;
	} else if (has_prefix(l, "rename to "))
		gh->to = rest_of(l, "rename to ");
	else if (has_prefix(l, "copy to "))
		gh->to = rest_of(l, "copy to ");
	else if (has_prefix(l, "Binary files ") ||
	    has_prefix(l, "GIT binary patch"))
		gh->flags |= MLQ_FILE_BINARY;
	else if (!has_prefix(l, "index ") && !has_prefix(l, "old mode ") &&
	    !has_prefix(l, "similarity index ") &&
	    !has_prefix(l, "dissimilarity index "))
		return false;
	return true;
}

/* Both sides and the "Index:" line name the same path, as CVS and svn do. */
static bool
names_index_path(const struct patch_state *ps, struct span so, struct span sn)
{
	return ps->index_seen && so.len == sn.len &&
	    memcmp(so.p, sn.p, so.len) == 0 && so.len == ps->index_name.len &&
	    memcmp(so.p, ps->index_name.p, so.len) == 0;
}

/*
 * "--- old" and "+++ new" of a plain diff.  /dev/null marks a new or
 * deleted file; one leading directory goes when every real name has one.
 */
static void
plain_file_begin(struct patch_state *ps, const struct line *minus,
    const struct line *plus)
{
	struct span so = header_name(rest_of(minus, "--- "));
	struct span sn = header_name(rest_of(plus, "+++ "));
	const char *oldp, *newp, *path;
	unsigned flags = 0;
	char *o, *n;

	if ((o = name_dup(ps, so)) == NULL || (n = name_dup(ps, sn)) == NULL)
		return patch_oom(ps);
	if (is_dev_null(so))
		flags |= MLQ_FILE_NEW;
	if (is_dev_null(sn))
		flags |= MLQ_FILE_DELETED;
	oldp = o;
	newp = n;
	if (names_index_path(ps, so, sn))
		; /* CVS and svn name the file from the top: -p0 */
	else if (((flags & MLQ_FILE_NEW) || strchr(o, '/') != NULL) &&
	    ((flags & MLQ_FILE_DELETED) || strchr(n, '/') != NULL)) {
		oldp = strip_component(o);
		newp = strip_component(n);
	}
	/* A plain diff cannot rename: the old name is the backup's. */
	path = (flags & MLQ_FILE_DELETED) ? oldp : newp;
	file_add(ps, path, path, flags,
	    ps->index_seen ? ps->index_off : minus->off);
	ps->index_seen = false;
}

static void
hunk_begin(struct patch_state *ps, long old_n, long new_n)
{
	ps->old_left = old_n;
	ps->new_left = new_n;
	ps->stage = STAGE_HUNK;
}

static void
count_change(struct patch_state *ps, bool insertion)
{
	if (insertion) {
		ps->out->insertions++;
		if (ps->cur != NULL)
			ps->cur->insertions++;
	} else {
		ps->out->deletions++;
		if (ps->cur != NULL)
			ps->cur->deletions++;
	}
}

/*
 * One line of a hunk.  False when the line cannot belong to it (the
 * counts say it is over, or it is not a hunk line): the hunk ends there.
 * An empty line, or one starting with a TAB, is a context line whose
 * leading blank a mailer or editor ate (GNU patch reads them so too).
 */
static bool
hunk_take(struct patch_state *ps, const struct line *l)
{
	switch (l->len > 0 ? l->p[0] : ' ') {
	case ' ':
	case '\t':
		if (ps->old_left == 0 || ps->new_left == 0)
			return false;
		ps->old_left--;
		ps->new_left--;
		break;
	case '-':
		if (ps->old_left == 0)
			return false;
		ps->old_left--;
		count_change(ps, false);
		break;
	case '+':
		if (ps->new_left == 0)
			return false;
		ps->new_left--;
		count_change(ps, true);
		break;
	case '\\': /* "\ No newline at end of file" */
		break;
	default:
		return false;
	}
	if (ps->old_left == 0 && ps->new_left == 0)
		ps->stage = STAGE_PROSE;
	return true;
}

/* Reads the line at off; returns the offset after it. */
static size_t
line_at(const char *text, size_t len, size_t off, struct line *l)
{
	const char *nl = off < len ? memchr(text + off, '\n', len - off) : NULL;
	size_t end = nl != NULL ? (size_t)(nl - text) : len;

	l->p = text + off;
	l->off = off;
	l->len = end > off ? end - off : 0;
	if (l->len > 0 && l->p[l->len - 1] == '\r')
		l->len--;
	return nl != NULL ? end + 1 : len;
}

/* Outside a file header or hunk: look for the next diff or hunk. */
static void
prose_line(struct patch_state *ps, const struct line *l, const char *text,
    size_t len, size_t next)
{
	struct line l1, l2;
	long o, n;

	if (is_git_diff_start(l)) {
		git_header_begin(ps, l);
		return;
	}
	if (ps->file_open && is_hunk_header(l, &o, &n))
		return hunk_begin(ps, o, n);
	if (ps->file_open && l->len > 0 && l->p[0] == '\\')
		return;
	ps->file_open = false;
	if (l->len == 0) {
		ps->index_seen = false;
		return;
	}
	if (l->p[0] != '-' && l->p[0] != 'I')
		return;
	line_at(text, len, line_at(text, len, next, &l1), &l2);
	if (next < len && is_plain_diff_start(l, &l1, &l2)) {
		plain_file_begin(ps, l, &l1);
		ps->skip = 1;
	} else if (next < len && is_index_block(l, &l1)) {
		ps->index_seen = true;
		ps->index_off = l->off;
		ps->index_name = rest_of(l, "Index: ");
	}
}

static void
patch_line(struct patch_state *ps, const struct line *l, const char *text,
    size_t len, size_t next)
{
	long o, n;

	if (ps->stage == STAGE_HUNK && hunk_take(ps, l))
		return;
	if (ps->stage == STAGE_HUNK)
		ps->stage = STAGE_PROSE;
	if (ps->stage == STAGE_BINARY) {
		if (is_binary_data(l))
			return;
		ps->stage = STAGE_PROSE;
	}
	if (ps->stage == STAGE_GIT_HEADER) {
		if (git_header_take(ps, l)) {
			if (!has_prefix(l, "GIT binary patch"))
				return;
			git_header_end(ps);
			ps->stage = STAGE_BINARY;
			return;
		}
		git_header_end(ps);
		ps->stage = STAGE_PROSE;
		if (ps->status == MLQ_OK && is_hunk_header(l, &o, &n))
			return hunk_begin(ps, o, n);
	}
	prose_line(ps, l, text, len, next);
}

enum mlq_status
mlq_patch_parse(const char *text, size_t len, struct mlq_arena *a,
    struct mlq_patch *out, bool *found, struct mlq_err *err)
{
	struct patch_state ps;
	struct line l;
	size_t off, next;

	memset(out, 0, sizeof(*out));
	*found = false;
	memset(&ps, 0, sizeof(ps));
	ps.a = a;
	ps.out = out;
	for (off = 0; off < len && ps.status == MLQ_OK; off = next) {
		next = line_at(text, len, off, &l);
		if (ps.skip > 0)
			ps.skip--;
		else
			patch_line(&ps, &l, text, len, next);
	}
	if (ps.status == MLQ_OK && ps.stage == STAGE_GIT_HEADER)
		git_header_end(&ps);
	if (ps.status != MLQ_OK) {
		memset(out, 0, sizeof(*out));
		return mlq_err_set(err, ps.status, "patch: out of memory");
	}
	if (ps.nfiles == 0) {
		memset(out, 0, sizeof(*out));
		return MLQ_OK;
	}
	if (!mlq__git_patch_id(text, len, out->patch_id))
		out->patch_id[0] = '\0';
	*found = true;
	return MLQ_OK;
}

/* ---- likeness of two diffs ---- */

/* The changed lines ('+'/'-', file headers aside) of a diff, hashed. */
static uint64_t *
changed_lines(const char *text, size_t len, size_t *n)
{
	const char *p = text, *end = text + len, *nl, *c;
	uint64_t *h = NULL, *g, x;
	size_t cap = 0;

	*n = 0;
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (nl - p < 2 || (*p != '+' && *p != '-') ||
		    (nl - p >= 4 && (memcmp(p, "+++ ", 4) == 0 ||
					memcmp(p, "--- ", 4) == 0)))
			continue;
		/* FNV-1a; whitespace does not tell two versions apart. */
		x = 1469598103934665603ull ^ (unsigned char)*p;
		for (c = p + 1; c < nl; c++)
			if (*c != ' ' && *c != '\t' && *c != '\r')
				x = (x ^ (unsigned char)*c) * 1099511628211ull;
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			if ((g = reallocarray(h, cap, sizeof(*h))) == NULL) {
				free(h);
				*n = 0;
				return NULL;
			}
			h = g;
		}
		h[(*n)++] = x;
	}
	return h;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

size_t
mlq__patch_sketch(const char *diff, size_t len,
    uint64_t out[MLQ__SKETCH_MAX])
{
	uint64_t *h;
	size_t n, i, k = 0;

	if ((h = changed_lines(diff, len, &n)) == NULL)
		return 0;
	qsort(h, n, sizeof(*h), cmp_u64);
	for (i = 0; i < n && k < MLQ__SKETCH_MAX; i++)
		if (k == 0 || h[i] != out[k - 1])
			out[k++] = h[i];
	free(h);
	return k;
}

double
mlq__sketch_likeness(const uint64_t *a, size_t na, const uint64_t *b,
    size_t nb)
{
	size_t i = 0, j = 0, both = 0, all = 0;

	if (na == 0 || nb == 0)
		return 0;
	/* Bottom-k: the union's smallest hashes, and how many both hold. */
	while ((i < na || j < nb) && all < MLQ__SKETCH_MAX) {
		if (i < na && j < nb && a[i] == b[j]) {
			both++;
			i++;
			j++;
		} else if (j >= nb || (i < na && a[i] < b[j]))
			i++;
		else
			j++;
		all++;
	}
	return (double)both / (double)all;
}
