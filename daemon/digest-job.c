/*
 * The digest on its [digest] schedule: a timer wakes a thread of its own
 * (the SMTP exchange blocks), which runs mlq_digest_send_due() with a
 * store handle of its own; the library records each digest sent, so a
 * restart never mails one twice.  The thread hands its answer back
 * through a pipe, and the timer is re-armed for the time it names.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "util/log.h"
#include "mlqd.h"

/* Without a better answer, look again in an hour. */
#define DIGEST_RECHECK 3600

struct digest_job {
	struct mlqd *d;
	struct event *timer;
	struct event *ev; /* the thread's answer */
	int pipe[2];
	pthread_t thread;
	bool running;
	const struct mlq_conf *conf; /* what the running thread reads */
	struct mlq_conf *owned;	     /* replaced by a reload: freed after */
	struct mlq_digest_state ds;
	enum mlq_status st;
	struct mlq_err err;
};

/* mlq_smtp_send, after a warning when the certificate goes unchecked. */
static enum mlq_status
digest_smtp_send(const struct mlq_conf *c, const char *mail, size_t len,
    bool *retryable, struct mlq_err *err)
{
	if (!c->digest.tls_verify)
		mlq_warnx("[digest] tls-verify = no: the mail server's "
			  "certificate is not checked");
	return mlq_smtp_send(c, mail, len, retryable, err);
}

static void *
digest_thread(void *arg)
{
	struct digest_job *j = arg;
	struct mlq_store *st = NULL;
	char c = 0;

	mlq_err_clear(&j->err);
	j->st = mlq_store_open(j->d->db_path, MLQ_STORE_WRITE, &st, &j->err);
	if (j->st == MLQ_OK)
		j->st = mlq_digest_send_due(st, j->conf, digest_smtp_send,
		    (int64_t)time(NULL), &j->ds, &j->err);
	mlq_store_close(st);
	while (write(j->pipe[1], &c, 1) == -1 && errno == EINTR)
		;
	return NULL;
}

static void
digest_arm(struct digest_job *j, int64_t delay)
{
	struct timeval tv = { 0, 0 };

	if (delay > 0)
		tv.tv_sec = (time_t)delay;
	evtimer_add(j->timer, &tv);
}

static void
digest_on_timer(evutil_socket_t fd, short kind, void *arg)
{
	struct digest_job *j = arg;

	if (j->running || j->d->stopping)
		return;
	j->conf = j->d->conf;
	if (pthread_create(&j->thread, NULL, digest_thread, j) != 0) {
		mlq_warnx("digest: cannot start its thread");
		digest_arm(j, DIGEST_RECHECK);
		return;
	}
	j->running = true;
}

static void
digest_on_done(evutil_socket_t fd, short kind, void *arg)
{
	struct digest_job *j = arg;
	int64_t now = (int64_t)time(NULL), delay;
	char c;

	if (read(fd, &c, 1) != 1)
		return;
	pthread_join(j->thread, NULL);
	j->running = false;
	mlq_conf_free(j->owned);
	j->owned = NULL;
	switch (j->st) {
	case MLQ_OK:
		if (j->ds.sent > 0)
			mlq_info("digest: sent %u (%s)", j->ds.sent,
			    j->ds.label);
		break;
	case MLQ_NOTFOUND: /* no schedule: a reload may bring one */
		return;
	default:
		mlq_warnx("digest: %s", j->err.msg);
		break;
	}
	if (j->d->stopping)
		return;
	delay = j->ds.next > now ? j->ds.next - now : DIGEST_RECHECK;
	mlq_debug("digest: next look in %llds", (long long)delay);
	digest_arm(j, delay);
}

void
digest_job_start(struct mlqd *d)
{
	struct digest_job *j;

	if ((j = calloc(1, sizeof(*j))) == NULL)
		mlq_fatal("calloc");
	j->d = d;
	if (pipe2(j->pipe, O_CLOEXEC | O_NONBLOCK) == -1)
		mlq_fatal("pipe");
	j->timer = evtimer_new(d->base, digest_on_timer, j);
	j->ev = event_new(d->base, j->pipe[0], EV_READ | EV_PERSIST,
	    digest_on_done, j);
	if (j->timer == NULL || j->ev == NULL || event_add(j->ev, NULL) != 0)
		mlq_fatalx("digest: cannot set up its events");
	d->digest = j;
	if (d->conf->digest.schedule.kind != MLQ_SCHED_NONE)
		digest_arm(j, 0);
}

void
digest_job_reload(struct mlqd *d, struct mlq_conf *old)
{
	struct digest_job *j = d->digest;

	if (j == NULL) {
		mlq_conf_free(old);
		return;
	}
	if (j->running && j->conf == old) {
		mlq_conf_free(j->owned);
		j->owned = old;
	} else {
		mlq_conf_free(old);
	}
	if (!j->running && d->conf->digest.schedule.kind != MLQ_SCHED_NONE) {
		evtimer_del(j->timer);
		digest_arm(j, 0);
	}
}

void
digest_job_free(struct mlqd *d)
{
	struct digest_job *j = d->digest;

	if (j == NULL)
		return;
	/* The SMTP exchange is bounded; let a send in flight finish. */
	if (j->running)
		pthread_join(j->thread, NULL);
	event_free(j->timer);
	event_free(j->ev);
	close(j->pipe[0]);
	close(j->pipe[1]);
	mlq_conf_free(j->owned);
	free(j);
	d->digest = NULL;
}
