/*
 * When digests are due (daily HH:MM or weekly DAY HH:MM in local time),
 * and mailing them once each: what mlqd's timer and mlq digest --send
 * both call.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "digest-int.h"

/* Re-check at least this often: a suspended machine or a changed clock. */
#define SCHED_MAX_WAIT 3600

/* The scheduled time on the local day 'day' + add days. */
static int64_t
sched_at(const struct tm *day, int add, const struct mlq_conf_schedule *s)
{
	struct tm t;

	memset(&t, 0, sizeof(t));
	t.tm_year = day->tm_year;
	t.tm_mon = day->tm_mon;
	t.tm_mday = day->tm_mday + add;
	t.tm_hour = s->hour;
	t.tm_min = s->minute;
	t.tm_isdst = -1; /* mktime works out DST for that day */
	return (int64_t)mktime(&t);
}

/*
 * The local day of 'now', the day offset of the latest scheduled time
 * <= now and the step between periods in days.  False when off.
 */
static bool
sched_last(const struct mlq_conf_schedule *s, int64_t now, struct tm *day,
    int *off, int *step)
{
	time_t t = (time_t)now;

	if (s->kind == MLQ_SCHED_NONE || localtime_r(&t, day) == NULL)
		return false;
	*step = s->kind == MLQ_SCHED_DAILY ? 1 : 7;
	*off = s->kind == MLQ_SCHED_DAILY ? 0
					  : -((day->tm_wday - s->wday + 7) % 7);
	if (sched_at(day, *off, s) > now)
		*off -= *step;
	return true;
}

bool
mlq_digest_period(const struct mlq_conf_schedule *s, int64_t now,
    int64_t *start, int64_t *end)
{
	struct tm day;
	int off, step;

	if (!sched_last(s, now, &day, &off, &step))
		return false;
	*end = sched_at(&day, off, s);
	*start = sched_at(&day, off - step, s);
	return true;
}

bool
mlq_digest_next(const struct mlq_conf_schedule *s, int64_t now, int64_t *next)
{
	struct tm day;
	int off, step;

	if (!sched_last(s, now, &day, &off, &step))
		return false;
	*next = sched_at(&day, off + step, s);
	return true;
}

void
mlq_digest_label(int64_t since, int64_t until, char *out, size_t n)
{
	time_t a = (time_t)since, b = (time_t)until, last = (time_t)(until - 1);
	struct tm ta, tb, tl;
	int64_t len = until - since;
	char x[16], y[16];

	if (localtime_r(&a, &ta) == NULL || localtime_r(&b, &tb) == NULL ||
	    localtime_r(&last, &tl) == NULL) {
		snprintf(out, n, "?");
		return;
	}
	/* A DST change makes a day or a week an hour longer or shorter. */
	if (ta.tm_hour == tb.tm_hour && ta.tm_min == tb.tm_min &&
	    len >= 7 * 86400 - 3600 && len <= 7 * 86400 + 3600) {
		strftime(out, n, "week %G-W%V", &ta);
		return;
	}
	strftime(x, sizeof(x), "%Y-%m-%d", &ta);
	if (ta.tm_hour == tb.tm_hour && ta.tm_min == tb.tm_min &&
	    len >= 86400 - 3600 && len <= 86400 + 3600) {
		snprintf(out, n, "%s", x);
		return;
	}
	strftime(y, sizeof(y), "%Y-%m-%d", &tl);
	if (strcmp(x, y) == 0)
		snprintf(out, n, "%s", x);
	else
		snprintf(out, n, "%s to %s", x, y);
}

/* [digest] has what mailing needs. */
static enum mlq_status
check_mail_conf(const struct mlq_conf *c, struct mlq_err *err)
{
	const char *missing = NULL;
	const char *where = c->path != NULL ? c->path : "config";

	if (c->digest.smtp == NULL)
		missing = "smtp";
	else if (c->digest.from == NULL)
		missing = "from";
	else if (c->digest.nto == 0)
		missing = "to";
	if (missing != NULL)
		return mlq_err_set(err, MLQ_EINPUT,
		    "%s: [digest]: '%s' is not set: needed to mail the digest",
		    where, missing);
	return MLQ_OK;
}

enum mlq_status
mlq_digest_send(struct mlq_store *st, const struct mlq_conf *c,
    mlq_smtp_fn send, const struct mlq_digest *d, bool scheduled, int64_t now,
    char *msgid, size_t msgid_len, bool *retryable, struct mlq_err *err)
{
	struct mlq_smtp_mail m;
	struct mlq_buf body, mail, rcpt;
	enum mlq_status rc;
	size_t i;

	*retryable = false;
	if ((rc = check_mail_conf(c, err)) != MLQ_OK ||
	    (rc = mlq_smtp_msgid(c->digest.from, msgid, msgid_len, err)) !=
		MLQ_OK)
		return rc;
	mlq_buf_init(&body);
	mlq_buf_init(&mail);
	mlq_buf_init(&rcpt);
	mlq_digest_render(d, &body);
	memset(&m, 0, sizeof(m));
	m.from = c->digest.from;
	m.to = c->digest.to;
	m.nto = c->digest.nto;
	m.subject = d->title;
	m.date = now;
	m.msgid = msgid;
	m.body = body.data;
	m.body_len = body.len;
	mlq_smtp_compose(&m, &mail);
	for (i = 0; i < c->digest.nto; i++)
		mlq_buf_addf(&rcpt, "%s%s", i ? ", " : "", c->digest.to[i]);
	if (body.oom || mail.oom || rcpt.oom)
		rc = mlq_err_set(err, MLQ_ENOMEM, "digest: out of memory");
	else
		rc = send(c, mail.data, mail.len, retryable, err);
	if (rc == MLQ_OK && st != NULL)
		rc = mlq__store_digest_sent_add(st, d->since, d->until,
		    scheduled, now, msgid, rcpt.data, err);
	mlq_buf_release(&body);
	mlq_buf_release(&mail);
	mlq_buf_release(&rcpt);
	return rc;
}

static int64_t
min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* Builds and mails the digest of one scheduled period. */
static enum mlq_status
send_period(struct mlq_store *st, const struct mlq_conf *c, mlq_smtp_fn send,
    int64_t start, int64_t end, int64_t now, struct mlq_digest_state *ds,
    struct mlq_err *err)
{
	struct mlq_digest_opts o;
	struct mlq_digest *d;
	enum mlq_status rc;
	char msgid[256];

	memset(&o, 0, sizeof(o));
	o.since = start;
	o.until = end;
	o.watch = c->digest.watch;
	o.nwatch = c->digest.nwatch;
	o.unreviewed_days = c->digest.unreviewed_days;
	o.conf = c;
	mlq_digest_label(start, end, ds->label, sizeof(ds->label));
	if ((rc = mlq_digest_build(st, &o, &d, err)) != MLQ_OK)
		return rc;
	rc = mlq_digest_send(st, c, send, d, true, now, msgid, sizeof(msgid),
	    &ds->retryable, err);
	mlq_digest_free(d);
	return rc;
}

enum mlq_status
mlq_digest_send_due(struct mlq_store *st, const struct mlq_conf *c,
    mlq_smtp_fn send, int64_t now, struct mlq_digest_state *ds,
    struct mlq_err *err)
{
	const struct mlq_conf_schedule *s = &c->digest.schedule;
	int64_t starts[MLQ_DIGEST_CATCHUP], ends[MLQ_DIGEST_CATCHUP];
	int64_t last = 0, next, start, end, wait, t;
	enum mlq_status rc;
	size_t n = 0, i;
	bool have_last, sent;

	ds->sent = 0;
	ds->retryable = false;
	ds->label[0] = '\0';
	if (!mlq_digest_next(s, now, &next))
		return mlq_err_set(err, MLQ_NOTFOUND,
		    "digest: no schedule configured");
	if ((rc = check_mail_conf(c, err)) != MLQ_OK)
		return rc;
	if (now < ds->retry_at) {
		ds->next = min64(ds->retry_at, now + SCHED_MAX_WAIT);
		return MLQ_OK;
	}
	rc = mlq__store_digest_sent_last(st, &last, err);
	if (rc != MLQ_OK && rc != MLQ_NOTFOUND)
		return rc;
	have_last = rc == MLQ_OK;
	/* Newest first: the last period, then the missed ones before it. */
	t = now;
	while (
	    n < MLQ_DIGEST_CATCHUP && mlq_digest_period(s, t, &start, &end)) {
		if (have_last && end <= last)
			break;
		starts[n] = start;
		ends[n++] = end;
		if (!have_last)
			break;
		t = start;
	}
	for (i = n; i-- > 0;) {
		if ((rc = mlq__store_digest_sent_find(st, starts[i], ends[i],
			 &sent, err)) != MLQ_OK)
			return rc;
		if (sent)
			continue;
		rc = send_period(st, c, send, starts[i], ends[i], now, ds, err);
		if (rc != MLQ_OK) {
			ds->failures++;
			wait = MLQ_DIGEST_RETRY_MAX;
			if (ds->retryable && ds->failures < 31)
				wait = min64((int64_t)MLQ_DIGEST_RETRY_MIN
					<< (ds->failures - 1),
				    MLQ_DIGEST_RETRY_MAX);
			ds->retry_at = now + wait;
			ds->next = min64(ds->retry_at, now + SCHED_MAX_WAIT);
			return rc;
		}
		ds->sent++;
	}
	ds->failures = 0;
	ds->retry_at = 0;
	ds->next = min64(next, now + SCHED_MAX_WAIT);
	return MLQ_OK;
}
