/*
 * A followed git tree ([repo "NAME"]): at each poll, every followed ref
 * is read from where the last poll left it.  The cursor holds, per ref,
 * the commit it pointed at ("master:ID origin/x:ID"; ':' is in no ref
 * name), committed with what that ref brought.  A ref that moved forward
 * is read as CURSOR..TIP; one that was rewritten loses the commits only
 * the old tip had (TIP..CURSOR) and is read as CURSOR..TIP too, which is
 * what lies past the merge base.  git log runs as a child whose output
 * the loop reads as it comes; commits go to the ingest writer as jobs,
 * in order with the mail, and a last job links them to their postings.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "util/log.h"
#include "mlqd.h"

struct git {
	struct source *src;
	char **cursors; /* per ref of src->refs: the commit read up to */
	size_t iref;	/* the ref being read */
	char tip[65];	/* where it points now */
	struct mlq_git_log *log;
	struct event *ev;   /* log's descriptor */
	struct event *cont; /* the next ref, from the loop */
	uint64_t read;	    /* commits read in this poll */
	struct mlq_err err; /* of the commit callback */
};

/* What the writer stores: one commit, copied out of git's output. */
struct git_put {
	struct mlq_arena *a;
	struct mlq_commit c;
	const char *repo, *ref;
};

static void
git_put_free(void *arg)
{
	struct git_put *p = arg;

	mlq_arena_free(p->a);
	free(p);
}

static enum mlq_status
git_put_run(struct mlq_store *st, void *arg, bool *counted,
    struct mlq_err *err)
{
	struct git_put *p = arg;

	return mlq_store_commit_put(st, p->repo, p->ref, &p->c, counted, err);
}

struct git_unref {
	char oid[65];
	char *ref;
};

static void
git_unref_free(void *arg)
{
	struct git_unref *u = arg;

	free(u->ref);
	free(u);
}

static enum mlq_status
git_unref_run(struct mlq_store *st, void *arg, bool *counted,
    struct mlq_err *err)
{
	struct git_unref *u = arg;

	return mlq_store_commit_unref(st, u->oid, u->ref, err);
}

static enum mlq_status
git_link_run(struct mlq_store *st, void *arg, bool *counted,
    struct mlq_err *err)
{
	uint64_t linked;

	return mlq_store_link_commits(st, &linked, err);
}

static enum mlq_status
git_on_commit(const struct mlq_commit *c, void *arg)
{
	struct git *g = arg;
	struct source *src = g->src;
	struct git_put *p;

	if ((p = calloc(1, sizeof(*p))) == NULL ||
	    (p->a = mlq_arena_new()) == NULL ||
	    mlq_commit_copy(c, p->a, &p->c) != MLQ_OK ||
	    (p->repo = mlq_arena_strdup(p->a, src->name)) == NULL ||
	    (p->ref = mlq_arena_strdup(p->a, src->refs[g->iref])) == NULL)
		mlq_fatalx("out of memory");
	g->read++;
	return mlq_ingest_job(src->d->ing, src->name, git_put_run,
	    git_put_free, p, &g->err);
}

/* One "REF:ID" of the stored cursor, kept if REF is still followed. */
static void
git_cursor_one(const char *ref, size_t rn, const char *id, size_t idn,
    void *arg)
{
	struct git *g = arg;
	struct source *src = g->src;
	size_t i;

	for (i = 0; i < src->nrefs; i++)
		if (strlen(src->refs[i]) == rn &&
		    strncmp(src->refs[i], ref, rn) == 0 && idn <= 64 &&
		    (g->cursors[i] = strndup(id, idn)) == NULL)
			mlq_fatalx("out of memory");
}

/* "master:ID origin/x:ID" back into g->cursors. */
static void
git_cursors_load(struct git *g, const char *cur)
{
	size_t i;

	for (i = 0; i < g->src->nrefs; i++) {
		free(g->cursors[i]);
		g->cursors[i] = NULL;
	}
	mlq_git_cursor_each(cur, git_cursor_one, g);
}

/* The cursor of every ref read so far, for the store. */
static char *
git_cursors_text(struct git *g)
{
	struct source *src = g->src;
	struct mlq_buf b;
	size_t i;

	mlq_buf_init(&b);
	for (i = 0; i < src->nrefs; i++) {
		if (g->cursors[i] == NULL)
			continue;
		if (b.len > 0)
			mlq_buf_addch(&b, ' ');
		mlq_buf_addf(&b, "%s:%s", src->refs[i], g->cursors[i]);
	}
	if (b.oom)
		mlq_fatalx("out of memory");
	if (b.len == 0) {
		mlq_buf_release(&b);
		return NULL;
	}
	return mlq_buf_detach(&b);
}

static void
git_end(struct git *g, enum mlq_status st, const char *why)
{
	struct source *src = g->src;
	struct mlq_err err = { MLQ_OK, "" };
	char *cur;

	if (g->ev != NULL) {
		event_free(g->ev);
		g->ev = NULL;
	}
	if (g->log != NULL) {
		mlq_git_log_end(g->log, true, NULL);
		g->log = NULL;
	}
	/* What was read is linked even when a ref failed: it is stored. */
	if (g->read > 0 || st == MLQ_OK) {
		cur = git_cursors_text(g);
		if (mlq_ingest_job(src->d->ing, src->name, git_link_run, NULL,
			NULL, &err) != MLQ_OK ||
		    source_commit(src, cur, &err) != MLQ_OK) {
			if (st == MLQ_OK) {
				st = err.status;
				why = err.msg;
			}
		}
		free(cur);
	}
	src->poll_new = g->read;
	source_done(src, st, why);
}

struct git_drop {
	struct git *g;
	uint64_t n;
};

static enum mlq_status
git_on_dropped(const char *oid, void *arg)
{
	struct git_drop *dr = arg;
	struct source *src = dr->g->src;
	struct git_unref *u;
	struct mlq_err err = { MLQ_OK, "" };

	if ((u = calloc(1, sizeof(*u))) == NULL ||
	    (u->ref = strdup(src->refs[dr->g->iref])) == NULL)
		mlq_fatalx("out of memory");
	snprintf(u->oid, sizeof(u->oid), "%s", oid);
	dr->n++;
	if (mlq_ingest_job(src->d->ing, src->name, git_unref_run,
		git_unref_free, u, &err) != MLQ_OK) {
		dr->g->err = err;
		return err.status;
	}
	return MLQ_OK;
}

static void git_next_ref(struct git *g);

static void
git_on_read(evutil_socket_t fd, short kind, void *arg)
{
	struct git *g = arg;
	struct source *src = g->src;
	struct mlq_err err = { MLQ_OK, "" };
	enum mlq_status st;
	char *cur;
	bool done = false;
	int i;

	/* A few reads a turn: mail sources and signals get the loop too. */
	for (i = 0; i < 16 && !done; i++) {
		mlq_err_clear(&g->err);
		st = mlq_git_log_read(g->log, git_on_commit, g, &done, &err);
		if (st != MLQ_OK) {
			git_end(g, st, g->err.status != MLQ_OK ? g->err.msg :
								 err.msg);
			return;
		}
		if (src->stopping) {
			/* Stored commits stay; the ref is read again. */
			git_end(g, MLQ_OK, NULL);
			return;
		}
	}
	if (!done)
		return;
	event_free(g->ev);
	g->ev = NULL;
	st = mlq_git_log_end(g->log, false, &err);
	g->log = NULL;
	if (st != MLQ_OK) {
		git_end(g, st, err.msg);
		return;
	}
	/* The ref is read to its tip: its cursor commits with it. */
	free(g->cursors[g->iref]);
	if ((g->cursors[g->iref] = strdup(g->tip)) == NULL)
		mlq_fatalx("out of memory");
	cur = git_cursors_text(g);
	st = source_commit(src, cur, &err);
	free(cur);
	if (st != MLQ_OK) {
		git_end(g, st, err.msg);
		return;
	}
	g->iref++;
	event_active(g->cont, EV_TIMEOUT, 0);
}

/* Starts reading the next ref that moved; ends the poll after the last. */
static void
git_next_ref(struct git *g)
{
	struct source *src = g->src;
	struct mlq_err err = { MLQ_OK, "" };
	struct git_drop dr = { g, 0 };
	const char *old, *ref;
	char range[200], why[400];
	bool fwd = false;
	int fd;

	for (; g->iref < src->nrefs && !src->stopping; g->iref++) {
		ref = src->refs[g->iref];
		old = g->cursors[g->iref];
		if (mlq_git_resolve(src->url, ref, g->tip, &err) != MLQ_OK) {
			snprintf(why, sizeof(why), "ref '%s': %s", ref,
			    err.msg);
			git_end(g, err.status, why);
			return;
		}
		if (old != NULL && strcmp(old, g->tip) == 0)
			continue;
		if (old != NULL &&
		    mlq_git_is_ancestor(src->url, old, g->tip, &fwd, &err) !=
			MLQ_OK) {
			git_end(g, err.status, err.msg);
			return;
		}
		if (old != NULL && !fwd) {
			/* Rewritten: what only the old tip had leaves it.
			 * A tip git no longer has drops nothing it can name. */
			snprintf(range, sizeof(range), "%s..%s", g->tip, old);
			if (mlq_git_rev_list(src->url, range, git_on_dropped,
				&dr, &err) != MLQ_OK) {
				if (g->err.status != MLQ_OK) {
					git_end(g, g->err.status, g->err.msg);
					return;
				}
				mlq_warnx("repo '%s': ref '%s' was rewritten "
					  "and its old tip is gone: %s",
				    src->name, ref, err.msg);
				old = NULL;
				mlq_err_clear(&err);
			} else
				mlq_info("repo '%s': ref '%s' was rewritten; "
					 "%llu commits left it", src->name,
				    ref, (unsigned long long)dr.n);
		}
		if (old != NULL)
			snprintf(range, sizeof(range), "%s..%s", old, g->tip);
		else
			snprintf(range, sizeof(range), "%s", g->tip);
		/* since holds for every read: an old topic merged late
		 * brings old commits too. */
		if (mlq_git_log_start(src->url, range, src->since, &g->log,
			&err) != MLQ_OK) {
			git_end(g, err.status, err.msg);
			return;
		}
		fd = mlq_git_log_fd(g->log);
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		if ((g->ev = event_new(src->d->base, fd, EV_READ | EV_PERSIST,
			 git_on_read, g)) == NULL || event_add(g->ev, NULL) != 0)
			mlq_fatalx("event_new");
		mlq_debug("repo '%s': reading %s", src->name, range);
		return;
	}
	git_end(g, MLQ_OK, NULL);
}

static void
git_on_cont(evutil_socket_t fd, short kind, void *arg)
{
	git_next_ref(arg);
}

static void
git_poll(struct source *src)
{
	struct git *g = src->drv;
	struct mlq_err err = { MLQ_OK, "" };
	char *cur = NULL;

	g->iref = 0;
	g->read = 0;
	if (source_cursor(src, &cur, &err) != MLQ_OK) {
		source_done(src, err.status, err.msg);
		return;
	}
	git_cursors_load(g, cur);
	free(cur);
	git_next_ref(g);
}

static void
git_stop(struct source *src)
{
	struct git *g = src->drv;

	/* Reading a ref: the next read sees src->stopping. */
	if (g->log != NULL)
		return;
	event_del(g->cont);
	git_end(g, MLQ_OK, NULL);
}

static enum mlq_status
git_start(struct source *src, struct mlq_err *err)
{
	struct git *g;

	if ((g = calloc(1, sizeof(*g))) == NULL ||
	    (g->cursors = calloc(src->nrefs + 1, sizeof(*g->cursors))) == NULL)
		mlq_fatal("calloc");
	g->src = src;
	if ((g->cont = event_new(src->d->base, -1, 0, git_on_cont, g)) == NULL)
		mlq_fatalx("event_new");
	src->drv = g;
	return MLQ_OK;
}

static void
git_free(struct source *src)
{
	struct git *g = src->drv;
	size_t i;

	if (g == NULL)
		return;
	if (g->ev != NULL)
		event_free(g->ev);
	if (g->log != NULL)
		mlq_git_log_end(g->log, true, NULL);
	event_free(g->cont);
	for (i = 0; i < src->nrefs; i++)
		free(g->cursors[i]);
	free(g->cursors);
	free(g);
	src->drv = NULL;
}

const struct source_ops src_git_ops = {
	.kind = "git",
	.counted = "commits read",
	.start = git_start,
	.poll = git_poll,
	.stop = git_stop,
	.free = git_free,
};
