/*
 * mlqd's state: one struct mlqd passed explicitly, sources as drivers
 * behind an ops table (OpenSMTPD's table_backend, isync's struct driver).
 */
#ifndef MLQ_MLQD_H
#define MLQ_MLQD_H

#include <sys/queue.h>

#include <stdbool.h>
#include <stdint.h>

#include "mlq.h"

/* glibc's sys/queue.h lacks the BSD one. */
#ifndef TAILQ_FOREACH_SAFE
#define TAILQ_FOREACH_SAFE(var, head, field, tvar)                             \
	for ((var) = TAILQ_FIRST(head);                                        \
	     (var) != NULL && ((tvar) = TAILQ_NEXT(var, field), 1);            \
	     (var) = (tvar))
#endif

struct event;
struct event_base;
struct curlev;
struct digest_job;
struct source;

/* A poll ends in one source_done() call carrying its status. */
struct source_ops {
	const char *kind; /* "http", "imap", "mbox", "maildir", "git" */
	const char *counted; /* what poll_new counts: "messages fetched" */
	/* Checks the url and sets up driver state; no I/O yet. */
	enum mlq_status (*start)(struct source *, struct mlq_err *);
	/* Starts a poll; ends in source_done(), maybe before returning. */
	void (*poll)(struct source *);
	/* Asks a poll in flight to commit what it has and end soon. */
	void (*stop)(struct source *);
	/* Frees driver state; never called while a poll is in flight. */
	void (*free)(struct source *);
};

extern const struct source_ops src_http_ops;
extern const struct source_ops src_imap_ops;
extern const struct source_ops src_file_ops;
extern const struct source_ops src_git_ops;

struct source {
	TAILQ_ENTRY(source) entry;
	struct mlqd *d;
	const struct source_ops *ops;
	const char *kind; /* ops->kind, or what start() found ("maildir") */
	/* Own copies: the config they came from is freed on reload. */
	char *name;
	char *url;
	char *url_safe; /* redacted, for logs and mlq sources */
	char *list;
	char *tls_ca;
	bool tls_verify; /* false: certificates unchecked, said at each connect */
	char *user;
	char **refs; /* a [repo]: the refs it follows; url is its path */
	size_t nrefs;
	int64_t interval;
	int64_t since;
	bool remote; /* not on a loopback address */

	struct event *timer;
	bool busy;     /* a poll is in flight */
	bool removed;  /* dropped by a reload while busy: free when done */
	bool polled;   /* finished at least one poll (--once) */
	bool stopping; /* stop() was called */
	int failures;  /* consecutive */
	int64_t retry_after; /* seconds a server asked for; 0 none */
	bool again;	     /* the poll already waited (IMAP IDLE): go on */
	int64_t last_poll, last_ok, next_poll; /* UTC seconds */
	char last_error[256];
	uint64_t poll_new; /* messages handed over during this poll */
	void *drv;	   /* driver state */
};

TAILQ_HEAD(source_list, source);

struct mlqd {
	struct event_base *base;
	struct curlev *curl;
	struct mlq_store *store;  /* written by the ingest writer thread only */
	struct mlq_store *rstore; /* this thread's reads: cursors */
	struct mlq_ingest *ing;
	struct mlq_conf *conf;
	const char *conf_path; /* -c, or NULL for the default */
	char *db_path;
	char *pidfile;
	struct source_list sources;
	struct digest_job *digest;
	struct event *ev_term, *ev_int, *ev_hup;
	bool once;
	bool stopping;
	bool store_failed; /* the store broke: stop with exit 3 */
	int failed;	   /* sources whose last poll failed (--once) */
};

/* source.c */
/* Builds and starts the sources of d->conf; MLQ_EINPUT on a bad url. */
enum mlq_status source_add_all(struct mlqd *d, const struct mlq_conf *c,
    struct mlq_err *err);
/* Applies a new config: new sources start, gone ones stop, changed restart. */
void source_reload(struct mlqd *d, const struct mlq_conf *c);
/* Called by the timer: starts a poll unless one is in flight. */
void source_poll(struct source *src);
/*
 * The one completion call of a poll: records the state in the store and
 * re-arms the timer.  why is NULL on success.
 */
void source_done(struct source *src, enum mlq_status st, const char *why);
/*
 * A poll that has caught up and now waits for news (IMAP IDLE) records
 * its success so far; its source_done() comes when the wait ends.
 */
void source_idle(struct source *src);
/* Stops every source; the loop ends when the last poll is done. */
void source_stop_all(struct mlqd *d);
void source_free_all(struct mlqd *d);
/* Hands one message to the ingest pipeline, counted for src. */
enum mlq_status source_ingest(struct source *src, const char *raw, size_t len,
    const char *origin, uint64_t pos, struct mlq_err *err);
/* Waits until what src handed over is stored, then commits with cursor. */
enum mlq_status source_commit(struct source *src, const char *cursor,
    struct mlq_err *err);
/* The cursor stored for src; *out NULL if none (caller frees). */
enum mlq_status source_cursor(struct source *src, char **out,
    struct mlq_err *err);

/* digest-job.c */
/* Mails the digest on the [digest] schedule from now on. */
void digest_job_start(struct mlqd *d);
/*
 * After a reload (d->conf is the new config): takes 'old', freeing it now
 * or when a send in flight that reads it is done, and looks again.
 */
void digest_job_reload(struct mlqd *d, struct mlq_conf *old);
/* Waits for a send in flight, then frees the job. */
void digest_job_free(struct mlqd *d);

/* sched.c */
/* Arms src's timer 'delay' seconds from now, plus jitter if asked. */
void sched_arm(struct source *src, int64_t delay, bool jitter);
/* After a poll: the next one after the interval, a backoff or Retry-After. */
void sched_done(struct source *src, bool ok);
/* The delay sched_done() would pick after 'failures' failures. */
int64_t sched_backoff(int64_t interval, int failures);

#endif
