/*
 * A message split into the columns of the free-text index (enum
 * mlq_text_col) by lore's rules (public-inbox 1.9's SearchIdx), so that
 * its prefixes find here what they find there:
 *
 * - a block of lines that start with '>' is quoted (q:);
 * - another block that has a line starting "diff ", "--- " or "+++ " is
 *   read as a diff: once inside one, '-' lines are dfa:, '+' lines dfb:,
 *   ' ' lines dfctx:, a hunk header's function name dfhh:; the file
 *   names and every other line are the body's own text (nq:);
 * - any other block is the body's own text.
 *
 * Only the first MLQ_FTS_BODY_BYTES of a body are read.
 */
#include "config.h"

#include <string.h>

#include "mlq-int.h"

/* Text indexed per message: enough for any prose, bounded for huge patches. */
#ifndef MLQ_FTS_BODY_BYTES
#define MLQ_FTS_BODY_BYTES (64u * 1024)
#endif

size_t
mlq__text_indexed_len(const char *body, size_t len)
{
	size_t n = len;

	/* Cut at a character boundary. */
	if (n > MLQ_FTS_BODY_BYTES) {
		n = MLQ_FTS_BODY_BYTES;
		while (n > 0 && ((unsigned char)body[n] & 0xc0) == 0x80)
			n--;
	}
	return n;
}

/* Where a diff block's reader is: lore's $in_diff, undef/false/true. */
enum diff_state { DIFF_NONE, DIFF_OFF, DIFF_IN };

static void
put(struct mlq_buf *col, const char *s, size_t n)
{
	if (n == 0)
		return;
	mlq_buf_add(col, s, n);
	mlq_buf_addch(col, '\n');
}

/* The part of a diff's "--- a/x" name after its first '/'; 0: none. */
static size_t
diff_name(const char *l, size_t n, const char **name)
{
	const char *slash = memchr(l, '/', n);

	if (slash == NULL || slash == l || slash + 1 == l + n)
		return 0;
	*name = slash + 1;
	return (size_t)(l + n - *name);
}

/* A line of a git binary patch's base85 data. */
static bool
is_base85(const char *l, size_t n)
{
	static const char extra[] = "!#$%&()*+-;<=>?@^_`{|}~";
	size_t i;

	if (n < 2 || !((l[0] >= 'A' && l[0] <= 'Z') ||
			  (l[0] >= 'a' && l[0] <= 'z')))
		return false;
	for (i = 1; i < n; i++)
		if (!((l[i] >= '0' && l[i] <= '9') ||
			(l[i] >= 'A' && l[i] <= 'Z') ||
			(l[i] >= 'a' && l[i] <= 'z') ||
			memchr(extra, l[i], sizeof(extra) - 1) != NULL))
			return false;
	return true;
}

static bool
is_blank(const char *l, size_t n)
{
	while (n > 0 && (*l == ' ' || *l == '\t'))
		l++, n--;
	return n == 0;
}

/* Whether a non-blank character is at l[i]. */
static bool
word_at(const char *l, size_t n, size_t i)
{
	return i < n && l[i] != ' ' && l[i] != '\t';
}

/* "@@ A B @@ rest": rest's offset; 0 when not a hunk header. */
static size_t
hunk_rest(const char *l, size_t n)
{
	const char *p = l + 3, *end = l + n;
	int fields = 0;

	if (!mlq_text_has_prefix(l, n, "@@ "))
		return 0;
	while (fields < 2) {
		const char *sp = memchr(p, ' ', (size_t)(end - p));

		if (sp == NULL || sp == p)
			return 0;
		p = sp + 1;
		fields++;
	}
	if (!mlq_text_has_prefix(p, (size_t)(end - p), "@@"))
		return 0;
	return (size_t)(p + 2 - l);
}

/* The lines of a diff block (lore's index_diff). */
static void
split_diff(const char *p, const char *end, struct mlq_buf *cols)
{
	enum diff_state st = DIFF_NONE;
	const char *nl, *name;
	size_t n, k;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		n = (size_t)(nl - p);
		if (st == DIFF_IN && mlq_text_has_prefix(p, n, "GIT binary patch")) {
			put(&cols[MLQ_TC_NQ], p, n);
			/* Its sizes are text; its data is not. */
			while (nl < end) {
				const char *q = nl + 1, *qe = memchr(q, '\n',
				    (size_t)(end - q));
				size_t qn;

				qe = qe ? qe : end;
				qn = (size_t)(qe - q);
				if (mlq_text_has_prefix(q, qn, "literal ") ||
				    mlq_text_has_prefix(q, qn, "delta "))
					put(&cols[MLQ_TC_NQ], q, qn);
				else if (!is_base85(q, qn) && !is_blank(q, qn))
					break;
				nl = qe;
			}
		} else if (st == DIFF_IN && n > 0 && p[0] == ' ') {
			put(&cols[MLQ_TC_DFCTX], p + 1, n - 1);
		} else if (n == 3 && memcmp(p, "-- ", 3) == 0) {
			st = DIFF_NONE; /* a signature */
		} else if (mlq_text_has_prefix(p, n, "diff --git ")) {
			put(&cols[MLQ_TC_NQ], p, n);
			st = DIFF_IN;
		} else if (mlq_text_has_prefix(p, n, "diff -")) {
			put(&cols[MLQ_TC_NQ], p, n);
			/* Only a unified diff is read. */
			k = strcspn(p + 6, " ");
			if (k < n - 6 && (memchr(p + 6, 'u', k) != NULL ||
					     memchr(p + 6, 'U', k) != NULL))
				st = DIFF_IN;
		} else if ((mlq_text_has_prefix(p, n, "--- ") ||
			       mlq_text_has_prefix(p, n, "+++ ")) &&
		    (k = diff_name(p + 4, n - 4, &name)) > 0) {
			put(&cols[MLQ_TC_NQ], name, k);
			st = DIFF_IN;
		} else if (mlq_text_has_prefix(p, n, "--- ") && word_at(p, n, 4)) {
			put(&cols[MLQ_TC_NQ], p, n);
			st = DIFF_IN;
		} else if (st != DIFF_NONE && mlq_text_has_prefix(p, n, "+++ ") &&
		    word_at(p, n, 4)) {
			st = DIFF_IN;
		} else if (st == DIFF_IN && n > 0 && p[0] == '+') {
			put(&cols[MLQ_TC_DFB], p + 1, n - 1);
		} else if (st == DIFF_IN && n > 0 && p[0] == '-') {
			put(&cols[MLQ_TC_DFA], p + 1, n - 1);
		} else if (mlq_text_has_prefix(p, n, "index ") &&
		    memmem(p, n, "..", 2) != NULL) {
			/* The blob ids, which lore's nq: finds too. */
			put(&cols[MLQ_TC_NQ], p + 6, n - 6);
			st = DIFF_IN;
		} else if ((k = hunk_rest(p, n)) > 0) {
			while (k < n && (p[k] == ' ' || p[k] == '\t'))
				k++;
			put(&cols[MLQ_TC_DFHH], p + k, n - k);
		} else if (n == 0) {
			/* A blank line may be context a mailer stripped. */
		} else {
			put(&cols[MLQ_TC_NQ], p, n);
			if (!mlq_text_has_prefix(p, n, "similarity index") &&
			    !mlq_text_has_prefix(p, n, "dissimilarity index") &&
			    !mlq_text_has_prefix(p, n, "old mode") &&
			    !mlq_text_has_prefix(p, n, "new mode") &&
			    !mlq_text_has_prefix(p, n, "deleted file mode") &&
			    !mlq_text_has_prefix(p, n, "new file mode") &&
			    !mlq_text_has_prefix(p, n, "copy from ") &&
			    !mlq_text_has_prefix(p, n, "copy to ") &&
			    !mlq_text_has_prefix(p, n, "rename from ") &&
			    !mlq_text_has_prefix(p, n, "rename to ") &&
			    !mlq_text_has_prefix(p, n, "\\ No newline at end of file") &&
			    !mlq_text_has_prefix(p, n, "Binary files "))
				st = DIFF_NONE;
		}
		if (nl == end)
			break;
	}
}

/* Whether the block [p, end) has a line that starts a diff. */
static bool
looks_like_diff(const char *p, const char *end)
{
	const char *nl;
	size_t n;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		n = (size_t)(nl - p);
		if (mlq_text_has_prefix(p, n, "diff ") || mlq_text_has_prefix(p, n, "--- ") ||
		    mlq_text_has_prefix(p, n, "+++ "))
			return true;
		if (nl == end)
			break;
	}
	return false;
}

void
mlq__text_columns(const struct mlq_msg *m, struct mlq_buf *cols)
{
	const char *body = m->body ? m->body : "", *p, *end, *blk;
	size_t i, len;
	bool quoted;

	for (i = 0; i < MLQ_TEXT_NCOLS; i++)
		mlq_buf_reset(&cols[i]);
	if (m->subject != NULL)
		put(&cols[MLQ_TC_SUBJECT], m->subject, strlen(m->subject));

	len = mlq__text_indexed_len(body, m->body ? m->body_len : 0);
	end = body + len;
	for (p = body; p < end;) {
		/* A block: lines that are all quoted, or all not. */
		quoted = *p == '>';
		for (blk = p; p < end && (*p == '>') == quoted;) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));

			p = nl ? nl + 1 : end;
		}
		if (quoted)
			mlq_buf_add(&cols[MLQ_TC_Q], blk, (size_t)(p - blk));
		else if (looks_like_diff(blk, p))
			split_diff(blk, p, cols);
		else
			mlq_buf_add(&cols[MLQ_TC_NQ], blk, (size_t)(p - blk));
	}
}
