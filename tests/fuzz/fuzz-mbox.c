/*
 * Fuzz target: the chunked mbox splitter.  Checked: the messages do not
 * depend on where the chunks are cut (one piece, pieces of 1, 4, 13, 40,
 * ... bytes, and again after finish); and they are the input's lines in
 * order, mboxrd quoting undone, with only blank lines and lines starting
 * "From " left out.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "mlq.h"

static enum mlq_status
keep(const char *msg, size_t len, void *arg)
{
	FUZZ_CHECK(len > 0);
	fuzz_msgs_add(arg, msg, len);
	return MLQ_OK;
}

static void
split(struct mlq_mbox_split *s, const uint8_t *data, size_t size, bool chunked)
{
	size_t off, step = 1, n;

	for (off = 0; off < size; off += n) {
		n = !chunked ? size : size - off < step ? size - off : step;
		FUZZ_CHECK(mlq_mbox_split_feed(s, (const char *)data + off, n,
			       NULL) == MLQ_OK);
		step = fuzz_step(step);
	}
	FUZZ_CHECK(mlq_mbox_split_finish(s, NULL) == MLQ_OK);
}

/* The next line of p[0..n) from *off, its '\n' included. */
static bool
next_line(const char *p, size_t n, size_t *off, const char **l, size_t *len)
{
	const char *nl;

	if (*off >= n)
		return false;
	*l = p + *off;
	nl = memchr(*l, '\n', n - *off);
	*len = nl != NULL ? (size_t)(nl - *l) + 1 : n - *off;
	*off += *len;
	return true;
}

/* A line mboxrd quoted: '>'s then "From ". */
static bool
is_quoted_from(const char *l, size_t n)
{
	size_t i;

	for (i = 0; i < n && l[i] == '>'; i++)
		;
	return i > 0 && n - i >= 5 && memcmp(l + i, "From ", 5) == 0;
}

static bool
is_droppable(const char *l, size_t n)
{
	return (n == 1 && l[0] == '\n') ||
	    (n == 2 && l[0] == '\r' && l[1] == '\n') ||
	    (n >= 5 && memcmp(l, "From ", 5) == 0);
}

/* The messages' lines, in order, are a subsequence of the input's. */
static void
check_lines(const uint8_t *data, size_t size, const struct fuzz_msgs *m)
{
	const char *in = (const char *)data, *il, *ml, *msg;
	size_t ioff = 0, ilen, moff, mlen, pos = 0, len, i;

	for (i = 0; i < m->n; i++) {
		memcpy(&len, m->data + pos, sizeof(len));
		msg = m->data + pos + sizeof(len);
		pos += sizeof(len) + len;
		for (moff = 0; next_line(msg, len, &moff, &ml, &mlen);) {
			for (;;) {
				FUZZ_CHECK(
				    next_line(in, size, &ioff, &il, &ilen));
				if (is_quoted_from(il, ilen))
					il++, ilen--;
				if (ilen == mlen && memcmp(il, ml, mlen) == 0)
					break;
				FUZZ_CHECK(is_droppable(il, ilen));
			}
		}
	}
	while (next_line(in, size, &ioff, &il, &ilen))
		FUZZ_CHECK(is_droppable(il, ilen));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_msgs whole = { 0 }, pieces = { 0 };
	struct mlq_mbox_split *s;

	if (mlq_mbox_split_new(keep, &whole, &s, NULL) != MLQ_OK)
		abort();
	split(s, data, size, false);
	mlq_mbox_split_free(s);
	/* In pieces, and by a splitter that has finished a stream before. */
	if (mlq_mbox_split_new(keep, &pieces, &s, NULL) != MLQ_OK)
		abort();
	split(s, data, size, true);
	fuzz_msgs_release(&pieces);
	split(s, data, size, true);
	mlq_mbox_split_free(s);
	FUZZ_CHECK(fuzz_msgs_equal(&whole, &pieces));
	check_lines(data, size, &whole);
	fuzz_msgs_release(&whole);
	fuzz_msgs_release(&pieces);
	return 0;
}
