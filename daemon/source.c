/*
 * Sources: the drivers behind one ops table, their timers, and the one
 * completion call every poll ends in.  Only this thread talks to the
 * ingest pipeline, whose writer thread is the only one writing SQLite.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "util/log.h"
#include "mlqd.h"

static char *
source_xstrdup(const char *s)
{
	char *p;

	if (s == NULL)
		return NULL;
	if ((p = strdup(s)) == NULL)
		mlq_fatal("strdup");
	return p;
}

static const struct source_ops *
source_ops_for(const char *url)
{
	if (strncmp(url, "http://", 7) == 0 || strncmp(url, "https://", 8) == 0)
		return &src_http_ops;
	if (strncmp(url, "imap://", 7) == 0 || strncmp(url, "imaps://", 8) == 0)
		return &src_imap_ops;
	return &src_file_ops;
}

static void
source_on_timer(evutil_socket_t fd, short kind, void *arg)
{
	source_poll(arg);
}

/* What `mlq sources` shows, queued behind the mail already handed over. */
static void
source_save(struct source *src)
{
	struct mlq_source_state s;
	struct mlq_err err = { MLQ_OK, "" };
	struct mlqd *d = src->d;

	memset(&s, 0, sizeof(s));
	s.name = src->name;
	s.url = src->url_safe;
	s.kind = src->kind;
	s.last_poll = src->last_poll;
	s.last_ok = src->last_ok;
	s.next_poll = src->next_poll;
	s.last_error = src->last_error[0] != '\0' ? src->last_error : NULL;
	if (mlq_ingest_source_save(d->ing, &s, &err) != MLQ_OK ||
	    mlq_ingest_sync(d->ing, NULL, NULL, &err) != MLQ_OK)
		mlq_warnx("source '%s': recording its state: %s", src->name,
		    err.msg);
}

static void
source_free(struct source *src)
{
	if (src->ops->free != NULL)
		src->ops->free(src);
	if (src->timer != NULL)
		event_free(src->timer);
	free(src->name);
	free(src->url);
	free(src->url_safe);
	free(src->list);
	free(src->tls_ca);
	free(src->user);
	for (size_t i = 0; i < src->nrefs; i++)
		free(src->refs[i]);
	free(src->refs);
	free(src);
}

/* The timer and the driver of a source filled in; freed on failure. */
static enum mlq_status
source_ready(struct source *src, struct source **out, struct mlq_err *err)
{
	enum mlq_status st;

	if ((src->timer = evtimer_new(src->d->base, source_on_timer, src)) ==
	    NULL)
		mlq_fatalx("evtimer_new");
	if ((st = src->ops->start(src, err)) != MLQ_OK) {
		source_free(src);
		return st;
	}
	*out = src;
	return MLQ_OK;
}

static enum mlq_status
source_new(struct mlqd *d, const struct mlq_conf_source *cs,
    struct source **out, struct mlq_err *err)
{
	struct source *src;
	struct mlq_buf b;

	if ((src = calloc(1, sizeof(*src))) == NULL)
		mlq_fatal("calloc");
	src->d = d;
	src->ops = source_ops_for(cs->url);
	src->kind = src->ops->kind;
	src->name = source_xstrdup(cs->name);
	src->url = source_xstrdup(cs->url);
	mlq_buf_init(&b);
	mlq_url_redact(&b, cs->url);
	if (b.oom)
		mlq_fatalx("out of memory");
	src->url_safe = mlq_buf_detach(&b);
	src->list = source_xstrdup(cs->list);
	src->tls_ca = source_xstrdup(cs->tls_ca);
	src->tls_verify = cs->tls_verify;
	src->user = source_xstrdup(cs->user);
	src->interval = cs->interval;
	src->since = cs->since;
	src->remote = cs->remote;
	return source_ready(src, out, err);
}

/* A [repo]: a source whose url is the tree's path and polls its refs. */
static enum mlq_status
source_new_repo(struct mlqd *d, const struct mlq_conf_repo *cr,
    struct source **out, struct mlq_err *err)
{
	struct source *src;
	size_t i;

	if ((src = calloc(1, sizeof(*src))) == NULL ||
	    (src->refs = calloc(cr->nbranches, sizeof(*src->refs))) == NULL)
		mlq_fatal("calloc");
	src->d = d;
	src->ops = &src_git_ops;
	src->kind = src->ops->kind;
	src->name = source_xstrdup(cr->name);
	src->url = source_xstrdup(cr->path);
	src->url_safe = source_xstrdup(cr->path);
	for (i = 0; i < cr->nbranches; i++)
		src->refs[src->nrefs++] = source_xstrdup(cr->branches[i]);
	src->interval = cr->interval;
	src->since = cr->since;
	return source_ready(src, out, err);
}

/* First poll: at once under --once, else within a few seconds. */
static void
source_begin(struct source *src)
{
	mlq_info("source '%s': %s %s every %llds", src->name, src->kind,
	    src->url_safe, (long long)src->interval);
	/* lore asks for whole archives to come from its git mirrors. */
	if (src->remote && src->since == 0)
		mlq_info("source '%s': since = all fetches the whole archive "
			 "through its search; a public-inbox git mirror "
			 "(grokmirror, lei) is the polite way to get one",
		    src->name);
	sched_arm(src, 0, false);
	if (!src->d->once)
		source_save(src);
}

enum mlq_status
source_add_all(struct mlqd *d, const struct mlq_conf *c, struct mlq_err *err)
{
	struct source *src;
	enum mlq_status st;
	size_t i;

	for (i = 0; i < c->nsources; i++) {
		if ((st = source_new(d, &c->sources[i], &src, err)) != MLQ_OK)
			return st;
		TAILQ_INSERT_TAIL(&d->sources, src, entry);
	}
	for (i = 0; i < c->nrepos; i++) {
		if ((st = source_new_repo(d, &c->repos[i], &src, err)) !=
		    MLQ_OK)
			return st;
		TAILQ_INSERT_TAIL(&d->sources, src, entry);
	}
	TAILQ_FOREACH (src, &d->sources, entry)
		source_begin(src);
	return MLQ_OK;
}

static bool
source_streq(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

static bool
source_same_repo(const struct source *src, const struct mlq_conf_repo *cr)
{
	size_t i;

	if (src->ops != &src_git_ops || !source_streq(src->url, cr->path) ||
	    src->since != cr->since || src->nrefs != cr->nbranches)
		return false;
	for (i = 0; i < src->nrefs; i++)
		if (strcmp(src->refs[i], cr->branches[i]) != 0)
			return false;
	return true;
}

static bool
source_same(const struct source *src, const struct mlq_conf_source *cs)
{
	return source_streq(src->url, cs->url) &&
	    source_streq(src->list, cs->list) &&
	    source_streq(src->tls_ca, cs->tls_ca) &&
	    src->tls_verify == cs->tls_verify &&
	    source_streq(src->user, cs->user) && src->since == cs->since;
}

/* Drops a source now, or when its poll in flight is done. */
static void
source_remove(struct source *src)
{
	evtimer_del(src->timer);
	if (src->busy) {
		src->removed = true;
		if (!src->stopping) {
			src->stopping = true;
			src->ops->stop(src);
		}
		return;
	}
	TAILQ_REMOVE(&src->d->sources, src, entry);
	source_free(src);
}

/* Whether a source of that name runs (not one a reload is dropping). */
static bool
source_live(struct mlqd *d, const char *name)
{
	struct source *src;

	TAILQ_FOREACH (src, &d->sources, entry)
		if (!src->removed && strcmp(src->name, name) == 0)
			return true;
	return false;
}

/* A source a reload added starts, or the log says why it could not. */
static void
source_add_new(struct mlqd *d, enum mlq_status st, struct source *added,
    const char *what, const char *name, const struct mlq_err *err)
{
	if (st != MLQ_OK) {
		mlq_warnx("%s '%s': %s", what, name, err->msg);
		return;
	}
	TAILQ_INSERT_TAIL(&d->sources, added, entry);
	source_begin(added);
}

void
source_reload(struct mlqd *d, const struct mlq_conf *c)
{
	struct source *src, *tmp, *added;
	const struct mlq_conf_source *cs;
	const struct mlq_conf_repo *cr;
	struct mlq_err err = { MLQ_OK, "" };
	int64_t interval;
	enum mlq_status st;
	size_t i;

	TAILQ_FOREACH_SAFE (src, &d->sources, entry, tmp) {
		if (src->removed)
			continue;
		cs = mlq_conf_source_find(c, src->name);
		cr = mlq_conf_repo_find(c, src->name);
		if ((cs != NULL && src->ops != &src_git_ops &&
			source_same(src, cs)) ||
		    (cr != NULL && source_same_repo(src, cr))) {
			interval = cs != NULL ? cs->interval : cr->interval;
			if (src->interval != interval) {
				src->interval = interval;
				if (!src->busy) {
					evtimer_del(src->timer);
					sched_arm(src, src->interval, true);
				}
			}
			continue;
		}
		mlq_info("source '%s': %s", src->name,
		    cs == NULL && cr == NULL ? "removed" : "changed, restarting");
		source_remove(src);
	}
	for (i = 0; i < c->nrepos; i++) {
		if (source_live(d, c->repos[i].name))
			continue;
		mlq_err_clear(&err);
		st = source_new_repo(d, &c->repos[i], &added, &err);
		source_add_new(d, st, added, "repo", c->repos[i].name, &err);
	}
	for (i = 0; i < c->nsources; i++) {
		if (source_live(d, c->sources[i].name))
			continue;
		mlq_err_clear(&err);
		st = source_new(d, &c->sources[i], &added, &err);
		source_add_new(d, st, added, "source", c->sources[i].name,
		    &err);
	}
}

/* A removed source of that name still finishing its last poll. */
static bool
source_twin_busy(const struct source *src)
{
	const struct source *o;

	TAILQ_FOREACH (o, &src->d->sources, entry)
		if (o != src && o->busy && strcmp(o->name, src->name) == 0)
			return true;
	return false;
}

void
source_poll(struct source *src)
{
	if (src->busy || src->d->stopping)
		return;
	if (source_twin_busy(src)) {
		sched_arm(src, 1, false);
		return;
	}
	src->busy = true;
	src->stopping = false;
	src->poll_new = 0;
	src->last_poll = (int64_t)time(NULL);
	mlq_debug("source '%s': polling", src->name);
	src->ops->poll(src);
}

static bool
source_any_busy(const struct mlqd *d)
{
	const struct source *src;

	TAILQ_FOREACH (src, &d->sources, entry)
		if (src->busy)
			return true;
	return false;
}

static bool
source_all_polled(const struct mlqd *d)
{
	const struct source *src;

	TAILQ_FOREACH (src, &d->sources, entry)
		if (!src->polled && !src->removed)
			return false;
	return true;
}

void
source_done(struct source *src, enum mlq_status st, const char *why)
{
	struct mlqd *d = src->d;
	bool ok = st == MLQ_OK;

	src->busy = false;
	src->polled = true;
	if (ok) {
		src->last_ok = (int64_t)time(NULL);
		src->last_error[0] = '\0';
		mlq_info("source '%s': poll done, %llu %s", src->name,
		    (unsigned long long)src->poll_new, src->ops->counted);
	} else {
		snprintf(src->last_error, sizeof(src->last_error), "%s",
		    why != NULL ? why : "failed");
		mlq_warnx("source '%s': %s", src->name, src->last_error);
		if (d->once)
			d->failed++;
		/*
		 * A store failure (a full disk) stops all storing; once no
		 * source is mid-poll, every one re-fetches from its last
		 * commit, so storing can start again.
		 */
		if (!source_any_busy(d) && mlq_ingest_resume(d->ing))
			mlq_info("storing resumes: the sources fetch again "
			    "what the failure rolled back");
	}
	if (src->removed) {
		TAILQ_REMOVE(&d->sources, src, entry);
		source_free(src);
	} else {
		if (d->once || d->stopping)
			src->next_poll = 0;
		else
			sched_done(src, ok);
		source_save(src);
	}
	if ((d->stopping && !source_any_busy(d)) ||
	    (d->once && source_all_polled(d) && !source_any_busy(d)))
		event_base_loopbreak(d->base);
}

void
source_idle(struct source *src)
{
	src->last_ok = (int64_t)time(NULL);
	src->last_error[0] = '\0';
	src->failures = 0;
	src->next_poll = src->last_ok + src->interval;
	mlq_info(
	    "source '%s': up to date, %llu messages fetched; waiting for news",
	    src->name, (unsigned long long)src->poll_new);
	source_save(src);
}

void
source_stop_all(struct mlqd *d)
{
	struct source *src, *tmp;

	d->stopping = true;
	TAILQ_FOREACH_SAFE (src, &d->sources, entry, tmp) {
		evtimer_del(src->timer);
		if (src->busy && !src->stopping) {
			src->stopping = true;
			src->ops->stop(src);
		}
	}
	if (!source_any_busy(d))
		event_base_loopbreak(d->base);
}

void
source_free_all(struct mlqd *d)
{
	struct source *src;

	while ((src = TAILQ_FIRST(&d->sources)) != NULL) {
		TAILQ_REMOVE(&d->sources, src, entry);
		source_free(src);
	}
}

enum mlq_status
source_ingest(struct source *src, const char *raw, size_t len,
    const char *origin, uint64_t pos, struct mlq_err *err)
{
	enum mlq_status st;

	st = mlq_ingest_add_from(src->d->ing, src->name, raw, len, origin, pos,
	    src->list, err);
	if (st == MLQ_OK)
		src->poll_new++;
	return st;
}

enum mlq_status
source_commit(struct source *src, const char *cursor, struct mlq_err *err)
{
	enum mlq_status st;

	st = mlq_ingest_sync(src->d->ing, src->name, cursor, err);
	if (st == MLQ_OK && cursor != NULL)
		mlq_debug("source '%s': committed, cursor %s", src->name,
		    cursor);
	return st;
}

enum mlq_status
source_cursor(struct source *src, char **out, struct mlq_err *err)
{
	return mlq_store_cursor_get(src->d->rstore, src->name, out, err);
}
