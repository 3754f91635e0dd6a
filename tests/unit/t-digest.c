/* The digest's pure parts: wrapping, schedule and period math, QP, URLs. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "digest/digest-int.h"
#include "tap.h"

static const char *
wrap(const char *first, const char *rest, const char *text, size_t width)
{
	static char out[1024];
	struct mlq_buf b;

	mlq_buf_init(&b);
	mlq__wrap(&b, first, rest, text, width);
	snprintf(out, sizeof(out), "%s", b.data);
	mlq_buf_release(&b);
	return out;
}

static void
test_wrap(void)
{
	is_str(wrap("", "", "a b c", 72), "a b c\n", "short text is one line");
	is_str(wrap("* ", "  ", "aaa bbb ccc", 9), "* aaa bbb\n  ccc\n",
	    "wraps at the width, the prefix counted");
	is_str(wrap("* ", "  ", "aaa bbb", 9), "* aaa bbb\n",
	    "a line of exactly the width stays");
	is_str(wrap("  ", "  ", "x https://example.org/a/very/long/url y", 10),
	    "  x\n  https://example.org/a/very/long/url\n  y\n",
	    "a word longer than the line stands alone, whole");
	is_str(wrap("", "", "  many   spaces  ", 72), "many spaces\n",
	    "runs of spaces fold");
	is_str(wrap("", "", "\xc3\xa9\xc3\xa9\xc3\xa9 \xc3\xa9\xc3\xa9", 6),
	    "\xc3\xa9\xc3\xa9\xc3\xa9 \xc3\xa9\xc3\xa9\n",
	    "code points are counted, not bytes");
	is_str(wrap("", "", "\xc3\xa9\xc3\xa9\xc3\xa9 \xc3\xa9\xc3\xa9", 5),
	    "\xc3\xa9\xc3\xa9\xc3\xa9\n\xc3\xa9\xc3\xa9\n",
	    "and wrapped by code points");
	is_int((long long)mlq__cols("a\xe2\x82\xac"
				    "b",
		   5),
	    3, "cols: a euro sign is one column");
}

static const char *
pct(const char *s)
{
	static char out[512];
	struct mlq_buf b;

	mlq_buf_init(&b);
	mlq__pct_encode(&b, s);
	snprintf(out, sizeof(out), "%s", b.data);
	mlq_buf_release(&b);
	return out;
}

static void
test_pct(void)
{
	is_str(pct("20210420123456.1234-1-jane@umn.edu"),
	    "20210420123456.1234-1-jane@umn.edu",
	    "a plain Message-Id passes, '@' included (as public-inbox)");
	is_str(pct("a/b%c?d#e f\"g"), "a%2Fb%25c%3Fd%23e%20f%22g",
	    "path, query, fragment, percent, space and quote are encoded");
	is_str(pct("x\xc3\xa9<y>"), "x%C3%A9%3Cy%3E",
	    "non-ASCII bytes and angle brackets are encoded");
	is_str(pct("a+b=c:d!e$f&g'h(i)j*k,l;m~n_o"),
	    "a+b=c:d!e$f&g'h(i)j*k,l;m~n_o", "sub-delims and ':' pass");
}

static const char *
qp(const char *s)
{
	static char out[2048];
	struct mlq_buf b;

	mlq_buf_init(&b);
	mlq__qp_encode(&b, s, strlen(s));
	snprintf(out, sizeof(out), "%s", b.data);
	mlq_buf_release(&b);
	return out;
}

/* Every line of s (CRLF ends) is at most max bytes. */
static bool
lines_within(const char *s, size_t max)
{
	const char *e;

	for (; *s != '\0'; s = e + 2) {
		if ((e = strstr(s, "\r\n")) == NULL)
			e = s + strlen(s);
		if ((size_t)(e - s) > max)
			return false;
		if (*e == '\0')
			break;
	}
	return true;
}

static void
test_qp(void)
{
	char line[200];

	is_str(qp("hello world\n"), "hello world\r\n", "ASCII passes");
	is_str(qp("a=b\n"), "a=3Db\r\n", "'=' is encoded");
	is_str(qp("caf\xc3\xa9\n"), "caf=C3=A9\r\n", "UTF-8 bytes are encoded");
	is_str(qp("trailing \nspace\t\n"), "trailing=20\r\nspace=09\r\n",
	    "whitespace at a line end is encoded");
	is_str(qp("From here\n.dot\n"), "=46rom here\r\n=2Edot\r\n",
	    "\"From \" and '.' at a line start are encoded");
	is_str(qp("a\n\nb"), "a\r\n\r\nb\r\n", "empty lines kept, last ended");
	is_str(qp("\x01\x1b\n"), "=01=1B\r\n", "controls are encoded");
	memset(line, 'x', 100);
	line[100] = '\n';
	line[101] = '\0';
	is_str(qp(line),
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx=\r\n"
	    "xxxxxxxxxxxxxxxxxxxxxxxxx\r\n",
	    "a long line gets a soft break at 76 with the '='");
	memset(line, 'x', 74);
	memcpy(line + 74, "=\n", 3);
	is_str(qp(line),
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx=\r\n"
	    "=3D\r\n",
	    "an encoded last character that does not fit goes to a new line");
	memset(line, 'x', 73);
	memcpy(line + 73, "=\n", 3);
	ok(strstr(qp(line), "x=3D\r\n") != NULL && lines_within(qp(line), 76),
	    "one that fits exactly stays (76 bytes)");
	memset(line, ' ', 100);
	memcpy(line + 100, "\xc3\xa9\xc3\xa9 end\n", 10);
	line[110] = '\0';
	ok(lines_within(qp(line), 76), "encoded lines are at most 76 bytes");
	ok(strstr(qp(line), " \r\n") == NULL,
	    "no encoded line ends in whitespace");
}

static const char *
hdr(const char *s)
{
	static char out[512];
	struct mlq_buf b;

	mlq_buf_init(&b);
	mlq__mime_header(&b, s);
	snprintf(out, sizeof(out), "%s", b.data);
	mlq_buf_release(&b);
	return out;
}

static void
test_header(void)
{
	is_str(hdr("mlq digest: linux-nfs, week 2021-W16"),
	    "mlq digest: linux-nfs, week 2021-W16", "an ASCII subject as is");
	is_str(hdr("caf\xc3\xa9 ok"),
	    "=?UTF-8?Q?caf=C3=A9_ok?=", "a UTF-8 subject as an encoded word");
}

/* Local time y-m-d h:m to unix seconds (TZ is set by the caller). */
static int64_t
at(int y, int mo, int d, int h, int mi)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm);
}

static void
test_schedule(void)
{
	struct mlq_conf_schedule weekly = { MLQ_SCHED_WEEKLY, 1, 8, 0 };
	struct mlq_conf_schedule daily = { MLQ_SCHED_DAILY, 0, 6, 30 };
	struct mlq_conf_schedule off = { MLQ_SCHED_NONE, 0, 0, 0 };
	int64_t s, e, n;
	char label[64];

	setenv("TZ", "UTC", 1);
	tzset();
	/* Monday 2021-04-26 08:00 UTC. */
	ok(mlq_digest_period(&weekly, at(2021, 4, 26, 8, 0), &s, &e),
	    "weekly: a period");
	is_int(e, at(2021, 4, 26, 8, 0), "weekly: ends at the time itself");
	is_int(s, at(2021, 4, 19, 8, 0), "weekly: starts a week before");
	mlq_digest_period(&weekly, at(2021, 4, 26, 7, 59), &s, &e);
	is_int(e, at(2021, 4, 19, 8, 0), "weekly: a minute early: last week's");
	mlq_digest_period(&weekly, at(2021, 4, 29, 12, 0), &s, &e);
	is_int(e, at(2021, 4, 26, 8, 0), "weekly: on Thursday, Monday's");
	ok(mlq_digest_next(&weekly, at(2021, 4, 26, 8, 0), &n), "weekly: next");
	is_int(n, at(2021, 5, 3, 8, 0), "weekly: the next Monday");
	mlq_digest_label(s, e, label, sizeof(label));
	is_str(label, "week 2021-W16", "weekly: ISO week of the start");
	mlq_digest_period(&weekly, at(2021, 1, 4, 9, 0), &s, &e);
	mlq_digest_label(s, e, label, sizeof(label));
	is_str(label, "week 2020-W53", "ISO week across the new year");
	mlq_digest_period(&daily, at(2021, 4, 20, 6, 29), &s, &e);
	is_int(e, at(2021, 4, 19, 6, 30),
	    "daily: before the time, yesterday's");
	is_int(s, at(2021, 4, 18, 6, 30), "daily: a day long");
	mlq_digest_label(s, e, label, sizeof(label));
	is_str(label, "2021-04-18", "daily: the day's date");
	mlq_digest_next(&daily, at(2021, 4, 20, 6, 30), &n);
	is_int(n, at(2021, 4, 21, 6, 30), "daily: next is tomorrow");
	mlq_digest_label(at(2021, 4, 1, 0, 0), at(2021, 4, 11, 0, 0), label,
	    sizeof(label));
	is_str(label, "2021-04-01 to 2021-04-10", "any other range");
	ok(!mlq_digest_period(&off, 1000000, &s, &e), "off: no period");

	/* Berlin: DST starts 2021-03-28 02:00, so that week is an hour short. */
	setenv("TZ", "Europe/Berlin", 1);
	tzset();
	mlq_digest_period(&weekly, at(2021, 3, 29, 9, 0), &s, &e);
	is_int(e - s, 7 * 86400 - 3600, "DST: the week is 167 hours");
	is_int(e, at(2021, 3, 29, 8, 0), "DST: ends 08:00 local");
	mlq_digest_label(s, e, label, sizeof(label));
	is_str(label, "week 2021-W12", "DST: still labelled a week");
	setenv("TZ", "UTC", 1);
	tzset();
}

static void
test_compose(void)
{
	static const char *const to[] = { "a@example.org", "b@example.org" };
	struct mlq_smtp_mail m;
	struct mlq_buf b;

	memset(&m, 0, sizeof(m));
	m.from = "mlq@example.org";
	m.to = to;
	m.nto = 2;
	m.subject = "mlq digest: all lists, week 2021-W16";
	m.date = 1619424000; /* 2021-04-26 08:00 UTC */
	m.msgid = "x@example.org";
	m.body = "caf\xc3\xa9\n";
	m.body_len = strlen(m.body);
	mlq_buf_init(&b);
	mlq_smtp_compose(&m, &b);
	is_str(b.data,
	    "From: mlq@example.org\r\n"
	    "To: a@example.org,\r\n b@example.org\r\n"
	    "Subject: mlq digest: all lists, week 2021-W16\r\n"
	    "Date: Mon, 26 Apr 2021 08:00:00 +0000\r\n"
	    "Message-Id: <x@example.org>\r\n"
	    "MIME-Version: 1.0\r\n"
	    "Content-Type: text/plain; charset=utf-8\r\n"
	    "Content-Transfer-Encoding: quoted-printable\r\n"
	    "Auto-Submitted: auto-generated\r\n"
	    "\r\n"
	    "caf=C3=A9\r\n",
	    "the composed mail, headers and QP body");
	mlq_buf_release(&b);
}

/*
 * The daemon's round against a closed port on 127.0.0.1: each failure
 * backs off (doubling), calls before the retry time send nothing, and
 * nothing is recorded, so the period is still due afterwards.
 */
static void
test_backoff(void)
{
	static const char text[] = "[digest]\n"
				   "schedule = weekly mon 08:00\n"
				   "to = maint@example.org\n"
				   "from = mlq@example.org\n"
				   "smtp = smtp://127.0.0.1:1\n"
				   "smtp-starttls = no\n";
	struct mlq_digest_state ds;
	struct mlq_conf *c = NULL;
	struct mlq_store *st = NULL;
	struct mlq_err err;
	char db[] = "/tmp/t-digest.XXXXXX";
	char path[64];
	int64_t now = 1619424000; /* Monday 2021-04-26 08:00 UTC */
	bool sent = true;
	int fd;

	setenv("TZ", "UTC", 1);
	tzset();
	mlq_err_clear(&err);
	if ((fd = mkstemp(db)) >= 0)
		close(fd);
	snprintf(path, sizeof(path), "%s.db", db);
	ok(mlq_conf_load_buf("config", text, strlen(text), &c, &err) == MLQ_OK,
	    "backoff: config loads");
	ok(mlq_store_open(path, MLQ_STORE_WRITE, &st, &err) == MLQ_OK,
	    "backoff: store opens");
	if (c == NULL || st == NULL) {
		diag("%s", err.msg);
		goto out;
	}
	memset(&ds, 0, sizeof(ds));
	is_int(mlq_digest_send_due(st, c, mlq_smtp_send, now, &ds, &err), MLQ_ENET,
	    "backoff: a closed port fails");
	ok(ds.retryable, "backoff: a refused connection is transient");
	is_str(ds.label, "week 2021-W16", "backoff: the period tried");
	is_int(ds.failures, 1, "backoff: one failure");
	is_int(ds.next - now, MLQ_DIGEST_RETRY_MIN,
	    "backoff: retry in a minute");
	mlq_err_clear(&err);
	is_int(mlq_digest_send_due(st, c, mlq_smtp_send, now + 30, &ds, &err), MLQ_OK,
	    "backoff: before the retry time, no attempt");
	is_int(ds.sent, 0, "backoff: nothing sent");
	is_int(ds.next, now + MLQ_DIGEST_RETRY_MIN,
	    "backoff: still waiting for the retry time");
	is_int(mlq_digest_send_due(st, c, mlq_smtp_send, now + 60, &ds, &err), MLQ_ENET,
	    "backoff: the retry fails too");
	is_int(ds.next - (now + 60), 2 * MLQ_DIGEST_RETRY_MIN,
	    "backoff: the wait doubles");
	ok(mlq__store_digest_sent_find(st, 1618819200, 1619424000, &sent,
	       &err) == MLQ_OK &&
		!sent,
	    "backoff: a failed period is not recorded");
	ok(mlq__store_digest_sent_add(st, 1618819200, 1619424000, true,
	       now + 120, "x@example.org", "maint@example.org", &err) == MLQ_OK,
	    "backoff: record the period as if sent");
	memset(&ds, 0, sizeof(ds));
	is_int(mlq_digest_send_due(st, c, mlq_smtp_send, now + 180, &ds, &err), MLQ_OK,
	    "backoff: a recorded period is not due");
	is_int(ds.next, now + 180 + 3600,
	    "backoff: next check within the hour");
out:
	mlq_store_close(st);
	mlq_conf_free(c);
	unlink(path);
	snprintf(path, sizeof(path), "%s.db-wal", db);
	unlink(path);
	snprintf(path, sizeof(path), "%s.db-shm", db);
	unlink(path);
	unlink(db);
}

int
main(void)
{
	test_wrap();
	test_pct();
	test_qp();
	test_header();
	test_schedule();
	test_compose();
	test_backoff();
	return done_testing();
}
