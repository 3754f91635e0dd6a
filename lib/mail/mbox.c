#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "mlq-int.h"

struct mlq_mbox_split {
	struct mlq__split core;
	mlq_mbox_msg_fn fn;
	void *arg;
};

static const char *const split_wdays[] = { "Mon", "Tue", "Wed", "Thu", "Fri",
	"Sat", "Sun" };

static bool
split_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "\n" or "\r\n" alone. */
static bool
split_is_blank(const char *l, size_t n)
{
	return (n == 1 && l[0] == '\n') ||
	    (n == 2 && l[0] == '\r' && l[1] == '\n');
}

/*
 * A From_ line: "From <sender> <weekday> ... <h:mm> ...", as mbox writers,
 * public-inbox and git format-patch write it ("From mboxrd@z Thu Jan  1
 * 00:00:00 1970", "From 0c85a7e8... Mon Sep 17 00:00:00 2001").  A body
 * line such as "From here on" has no weekday and time after the sender.
 */
static bool
split_is_from_line(const char *l, size_t n)
{
	size_t i, w;

	if (n < 5 || memcmp(l, "From ", 5) != 0)
		return false;
	for (i = 5; i < n && l[i] != ' ' && l[i] != '\t' && l[i] != '\r' &&
	     l[i] != '\n';
	     i++)
		;
	if (i == 5 || i == n || (l[i] != ' ' && l[i] != '\t'))
		return false;
	while (i < n && (l[i] == ' ' || l[i] == '\t'))
		i++;
	if (n - i < 4 || (l[i + 3] != ' ' && l[i + 3] != ','))
		return false;
	for (w = 0; w < MLQ__ARRAY_SIZE(split_wdays); w++)
		if (memcmp(l + i, split_wdays[w], 3) == 0)
			break;
	if (w == MLQ__ARRAY_SIZE(split_wdays))
		return false;
	for (i += 4; i + 2 < n; i++)
		if (l[i] == ':' && split_is_digit(l[i - 1]) &&
		    split_is_digit(l[i + 1]) && split_is_digit(l[i + 2]))
			return true;
	return false;
}

void
mlq__split_init(struct mlq__split *s, enum mlq__split_mode mode)
{
	mlq_buf_init(&s->msg);
	mlq_buf_init(&s->line);
	mlq__split_reset(s, mode);
}

void
mlq__split_reset(struct mlq__split *s, enum mlq__split_mode mode)
{
	mlq_buf_reset(&s->msg);
	mlq_buf_reset(&s->line);
	s->mode = mode;
	s->fail = MLQ_OK;
	s->count = 0;
	s->at_start = true;
	s->held_blank = s->held_crlf = false;
	s->skip_line = s->emitted = false;
}

void
mlq__split_release(struct mlq__split *s)
{
	mlq_buf_release(&s->msg);
	mlq_buf_release(&s->line);
}

/* Marks the message failed and gives back its memory. */
static void
split_fail(struct mlq__split *s, enum mlq_status st)
{
	if (s->fail == MLQ_OK)
		s->fail = st;
	mlq_buf_release(&s->msg);
}

/* Appends to the message unless it failed; enforces the size bound. */
static void
split_add(struct mlq__split *s, const char *p, size_t n)
{
	if (s->fail != MLQ_OK)
		return;
	if (n > MLQ_MAX_MESSAGE_BYTES - s->msg.len) {
		split_fail(s, MLQ_EINPUT);
		return;
	}
	mlq_buf_add(&s->msg, p, n);
	if (s->msg.oom)
		split_fail(s, MLQ_ENOMEM);
}

/* The message ends here; true when there is one to hand out. */
static bool
split_done(struct mlq__split *s)
{
	if (s->msg.len == 0 && s->fail == MLQ_OK)
		return false;
	s->count++;
	s->emitted = true;
	return true;
}

/* Starts the next message if the last one was handed out. */
static void
split_next(struct mlq__split *s)
{
	if (!s->emitted)
		return;
	mlq_buf_reset(&s->msg);
	s->fail = MLQ_OK;
	s->emitted = false;
}

/* One whole line l (its '\n' included, if any); true when a message ends. */
static bool
split_line(struct mlq__split *s, const char *l, size_t n)
{
	size_t i;
	bool blank;

	if (s->mode == MLQ__SPLIT_ONE) {
		if (s->at_start) {
			s->at_start = false;
			if (n >= 5 && memcmp(l, "From ", 5) == 0)
				return false;
		}
		split_add(s, l, n);
		return false;
	}
	blank = split_is_blank(l, n);
	if (s->at_start) {
		/* Leading blank lines belong to no message. */
		if (blank)
			return false;
		s->at_start = false;
		if (n >= 5 && memcmp(l, "From ", 5) == 0)
			return false;
	}
	if (s->held_blank) {
		s->held_blank = false;
		/* mbox added the blank line before From_: it goes with it. */
		if (split_is_from_line(l, n))
			return split_done(s);
		split_add(s, s->held_crlf ? "\r\n" : "\n",
		    s->held_crlf ? 2 : 1);
	}
	if (blank) {
		s->held_blank = true;
		s->held_crlf = n == 2;
		return false;
	}
	/* mboxrd: ">From ", ">>From ", ... lose one '>'. */
	if (l[0] == '>') {
		for (i = 1; i < n && l[i] == '>'; i++)
			;
		if (n - i >= 5 && memcmp(l + i, "From ", 5) == 0) {
			split_add(s, l + 1, n - 1);
			return false;
		}
	}
	split_add(s, l, n);
	return false;
}

/*
 * Collects the start of a line cut by the end of a chunk, up to and
 * including '\n' if p has it; returns how much of p it took.
 */
static size_t
split_carry(struct mlq__split *s, const char *p, size_t n, bool *whole)
{
	const char *nl;
	size_t take;

	nl = memchr(p, '\n', n);
	take = nl != NULL ? (size_t)(nl - p) + 1 : n;
	*whole = nl != NULL;
	if (s->skip_line) {
		s->skip_line = !*whole;
		*whole = false;
		return take;
	}
	if (take > MLQ_MAX_MESSAGE_BYTES - s->line.len) {
		/* Longer than any message: this one fails, the line goes. */
		split_fail(s, MLQ_EINPUT);
		s->held_blank = false;
		s->at_start = false;
		mlq_buf_release(&s->line);
		s->skip_line = !*whole;
		*whole = false;
		return take;
	}
	mlq_buf_add(&s->line, p, take);
	if (s->line.oom) {
		split_fail(s, MLQ_ENOMEM);
		s->held_blank = false;
		s->at_start = false;
		mlq_buf_release(&s->line);
		s->skip_line = !*whole;
		*whole = false;
	}
	return take;
}

/* A line starting with c, after a non-blank line, is copied as it is. */
static bool
split_is_plain(char c)
{
	return c != '>' && c != '\n' && c != '\r';
}

bool
mlq__split_step(struct mlq__split *s, const char *p, size_t n, size_t *used)
{
	const char *nl;
	size_t off = 0, start, len;
	bool whole, ready;

	split_next(s);
	while (off < n) {
		if (s->line.len > 0 || s->skip_line) {
			off += split_carry(s, p + off, n - off, &whole);
			if (!whole)
				continue;
			ready = split_line(s, s->line.data, s->line.len);
			mlq_buf_reset(&s->line);
			if (ready)
				break;
			continue;
		}
		if (s->mode == MLQ__SPLIT_ONE && !s->at_start) {
			split_add(s, p + off, n - off);
			off = n;
			break;
		}
		nl = memchr(p + off, '\n', n - off);
		if (nl == NULL) {
			off += split_carry(s, p + off, n - off, &whole);
			continue;
		}
		len = (size_t)(nl - (p + off)) + 1;
		if (s->at_start || s->held_blank || !split_is_plain(p[off])) {
			ready = split_line(s, p + off, len);
			off += len;
			if (ready)
				break;
			continue;
		}
		/* A run of plain lines goes in with one copy. */
		start = off;
		off += len;
		while (off < n && split_is_plain(p[off]) &&
		    (nl = memchr(p + off, '\n', n - off)) != NULL)
			off = (size_t)(nl - p) + 1;
		split_add(s, p + start, off - start);
	}
	*used = off;
	return s->emitted;
}

bool
mlq__split_end(struct mlq__split *s)
{
	bool ready;

	split_next(s);
	s->skip_line = false;
	if (s->line.len > 0) {
		ready = split_line(s, s->line.data, s->line.len);
		mlq_buf_reset(&s->line);
		if (ready)
			return true;
	}
	/* The blank line mbox put after the last message. */
	s->held_blank = false;
	s->at_start = true;
	return split_done(s);
}

enum mlq_status
mlq_mbox_split_new(mlq_mbox_msg_fn fn, void *arg, struct mlq_mbox_split **out,
    struct mlq_err *err)
{
	struct mlq_mbox_split *s;

	*out = NULL;
	if ((s = malloc(sizeof(*s))) == NULL)
		return mlq_err_set(err, MLQ_ENOMEM,
		    "mbox split: out of memory");
	mlq__split_init(&s->core, MLQ__SPLIT_MBOX);
	s->fn = fn;
	s->arg = arg;
	*out = s;
	return MLQ_OK;
}

/* Hands a ready message to the callback, or reports why it cannot. */
static enum mlq_status
split_deliver(struct mlq_mbox_split *s, enum mlq_status *skipped,
    struct mlq_err *err)
{
	const struct mlq__split *c = &s->core;

	switch (c->fail) {
	case MLQ_OK:
		return s->fn(c->msg.data, c->msg.len, s->arg);
	case MLQ_EINPUT:
		if (*skipped == MLQ_OK)
			*skipped = mlq_err_set(err, MLQ_EINPUT,
			    "message %llu: larger than %u bytes",
			    (unsigned long long)c->count,
			    (unsigned)MLQ_MAX_MESSAGE_BYTES);
		return MLQ_OK;
	default:
		return mlq_err_set(err, c->fail, "message %llu: out of memory",
		    (unsigned long long)c->count);
	}
}

enum mlq_status
mlq_mbox_split_feed(struct mlq_mbox_split *s, const char *p, size_t n,
    struct mlq_err *err)
{
	enum mlq_status st, skipped = MLQ_OK;
	size_t off = 0, used;

	while (mlq__split_step(&s->core, p + off, n - off, &used)) {
		off += used;
		if ((st = split_deliver(s, &skipped, err)) != MLQ_OK)
			return st;
	}
	return skipped;
}

enum mlq_status
mlq_mbox_split_finish(struct mlq_mbox_split *s, struct mlq_err *err)
{
	enum mlq_status st, skipped = MLQ_OK;

	while (mlq__split_end(&s->core))
		if ((st = split_deliver(s, &skipped, err)) != MLQ_OK)
			return st;
	return skipped;
}

void
mlq_mbox_split_free(struct mlq_mbox_split *s)
{
	if (s == NULL)
		return;
	mlq__split_release(&s->core);
	free(s);
}
