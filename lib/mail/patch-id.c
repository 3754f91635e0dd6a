/*
 * The patch id `git patch-id --stable` gives a diff, so that a posting,
 * lore's patchid: and a commit compare directly.  The rules are git's
 * (builtin/patch-id.c as of 2.39), restated: lines before the first
 * "diff " are prose; in a file's header "index " lines are left out and
 * a binary file counts as its two blob ids; hunks are read by their @@
 * counts; every line counted is hashed with its whitespace removed; each
 * file is hashed alone and the SHA-1s are summed bytewise, so the order
 * of the files does not matter.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "mlq-int.h"

struct pid_state {
	struct mlq__sha1 ctx;
	unsigned char sum[20];
	size_t hashed; /* bytes hashed so far: 0 means still in the prose */
	long before, after;
	bool binary;
	char pre[41], post[41];
};

static bool
is_git_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool
is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Adds this file's hash to the sum and starts the next one. */
static void
flush_file(struct pid_state *s)
{
	unsigned char h[20];
	unsigned carry = 0;
	size_t i;

	mlq__sha1_final(&s->ctx, h);
	mlq__sha1_init(&s->ctx);
	for (i = 0; i < 20; i++) {
		carry += s->sum[i] + h[i];
		s->sum[i] = (unsigned char)carry;
		carry >>= 8;
	}
}

static void
hash_squeezed(struct pid_state *s, const char *p, size_t n)
{
	size_t i, start = 0;

	for (i = 0; i < n; i++) {
		if (!is_git_space(p[i]))
			continue;
		if (i > start) {
			mlq__sha1_update(&s->ctx, p + start, i - start);
			s->hashed += i - start;
		}
		start = i + 1;
	}
	if (n > start) {
		mlq__sha1_update(&s->ctx, p + start, n - start);
		s->hashed += n - start;
	}
}

/* A number as atoi reads it, and how many digits it had. */
static long
digits(const char *p, const char *end, size_t *n)
{
	long v = 0;

	for (*n = 0; p + *n < end && p[*n] >= '0' && p[*n] <= '9'; (*n)++)
		if (v < 100000000L)
			v = v * 10 + (p[*n] - '0');
	return v;
}

/* "@@ -a,b +c,d @@": the counts b and d (1 when left out). */
static void
hunk_counts(const char *p, size_t len, long *before, long *after)
{
	const char *q = p + 4, *end = p + len;
	size_t n;

	digits(q, end, &n);
	if (q + n < end && q[n] == ',') {
		q += n + 1;
		*before = digits(q, end, &n);
	} else
		*before = 1;
	if (n == 0 || q + n + 1 >= end || q[n] != ' ' || q[n + 1] != '+')
		return;
	q += n + 2;
	digits(q, end, &n);
	if (q + n < end && q[n] == ',') {
		q += n + 1;
		*after = digits(q, end, &n);
	} else
		*after = 1;
}

/* Keeps the blob ids of "index PRE..POST MODE" for a binary file. */
static void
index_line(struct pid_state *s, const char *p, size_t n)
{
	const char *dots = NULL, *end, *q;
	size_t k;

	for (q = p; q + 1 < p + n; q++)
		if (q[0] == '.' && q[1] == '.') {
			dots = q;
			break;
		}
	if (dots == NULL)
		return;
	end = memchr(dots, ' ', (size_t)(p + n - dots));
	if (end == NULL)
		end = p + n;
	k = (size_t)(dots - (p + 6));
	if (k > 40)
		k = 40;
	memcpy(s->pre, p + 6, k);
	s->pre[k] = '\0';
	k = (size_t)(end - (dots + 2));
	if (k > 40)
		k = 40;
	memcpy(s->post, dots + 2, k);
	s->post[k] = '\0';
}

/* Whether a line names the next commit: "From SHA ...", "commit SHA". */
static bool
next_commit(const char *p, size_t n)
{
	static const char *const lead[] = { "diff-tree ", "commit ", "From " };
	size_t i, k;

	for (i = 0; i < sizeof(lead) / sizeof(lead[0]); i++)
		if (mlq_text_has_prefix(p, n, lead[i])) {
			p += strlen(lead[i]);
			n -= strlen(lead[i]);
			break;
		}
	for (k = 0; k < n && k < 40; k++)
		if (!((p[k] >= '0' && p[k] <= '9') || (p[k] >= 'a' && p[k] <= 'f')))
			return false;
	return k == 40;
}

/* One line (without its LF); false at the end of the patch. */
static bool
pid_line(struct pid_state *s, const char *p, size_t n)
{
	/* "\ No newline at end of file" */
	if (mlq_text_has_prefix(p, n, "\\ ") && n + 1 > 12)
		return true;
	/* A commit's line opens its patch; only the next one ends it. */
	if (next_commit(p, n))
		return s->hashed == 0;
	if (s->hashed == 0 && !mlq_text_has_prefix(p, n, "diff "))
		return true;
	if (s->before == -1) {
		if (mlq_text_has_prefix(p, n, "GIT binary patch") ||
		    mlq_text_has_prefix(p, n, "Binary files")) {
			s->binary = true;
			s->before = 0;
			mlq__sha1_update(&s->ctx, s->pre, strlen(s->pre));
			mlq__sha1_update(&s->ctx, s->post, strlen(s->post));
			flush_file(s);
			return true;
		}
		if (mlq_text_has_prefix(p, n, "index ")) {
			index_line(s, p, n);
			return true;
		}
		if (mlq_text_has_prefix(p, n, "--- "))
			s->before = s->after = 1;
		else if (n == 0 || !is_alpha(p[0]))
			return false;
	}
	if (s->binary) {
		if (mlq_text_has_prefix(p, n, "diff ")) {
			s->binary = false;
			s->before = -1;
		}
		return true;
	}
	if (s->before == 0 && s->after == 0) {
		if (mlq_text_has_prefix(p, n, "@@ -")) {
			hunk_counts(p, n, &s->before, &s->after);
			return true;
		}
		if (!mlq_text_has_prefix(p, n, "diff "))
			return false;
		flush_file(s);
		s->before = s->after = -1;
	}
	if (n > 0 && (p[0] == '-' || p[0] == ' '))
		s->before--;
	if (n > 0 && (p[0] == '+' || p[0] == ' '))
		s->after--;
	hash_squeezed(s, p, n);
	return true;
}

bool
mlq__git_patch_id(const char *text, size_t len, char out[41])
{
	struct pid_state s;
	const char *p = text, *end = text + len, *eol;

	memset(&s, 0, sizeof(s));
	s.before = s.after = -1;
	mlq__sha1_init(&s.ctx);
	for (; p < end; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		if (!pid_line(&s, p, (size_t)(eol - p)))
			break;
	}
	if (s.hashed == 0)
		return false;
	flush_file(&s);
	mlq__sha1_hex(s.sum, out);
	return true;
}
