/*
 * The import pipeline: the caller's thread adds raw messages to a ring of
 * slots; parse workers turn them into struct mlq_msg (parse, classify,
 * deflate) in any order; the one writer thread stores them in the order
 * they were added and commits in batches.  The ring bounds memory, and
 * order makes cursors exact: a sync slot commits only what came before it.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <malloc.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include "mlq-int.h"

enum slot_state { SLOT_FREE, SLOT_RAW, SLOT_PARSING, SLOT_READY };
enum slot_kind { SLOT_MSG, SLOT_SYNC, SLOT_SOURCE, SLOT_JOB };

struct slot {
	enum slot_state state;
	enum slot_kind kind;
	char *raw; /* SLOT_MSG until parsed; deflated when stored */
	size_t len;
	bool stored;    /* raw is a stored message, len bytes deflated */
	size_t raw_len; /* the mail's length: what the ring's bound counts */
	char *origin;
	uint64_t pos; /* for a stored message, its id */
	int64_t added; /* SLOT_MSG: 0, or when a rebuilt message was stored */
	char *list;
	char *source; /* SLOT_MSG (counting), SLOT_SYNC, SLOT_SOURCE */
	char *cursor; /* SLOT_SYNC */
	struct mlq_source_state src; /* SLOT_SOURCE: strings owned below */
	char *src_url, *src_kind, *src_error;
	mlq_ingest_job_fn job;	/* SLOT_JOB: run on the writer with job_arg */
	void (*job_free)(void *);
	void *job_arg;
	struct mlq_msg *msg;
	enum mlq_status parse_st;
	struct mlq_err parse_err;
};

struct mlq_ingest {
	struct mlq_store *st;
	int batch;
	mlq_reject_fn on_reject;
	void *arg;
	const struct mlq_mailmap *mailmap;

	pthread_mutex_t mu;
	pthread_cond_t cv_free;  /* the ring drained to half, or failed */
	pthread_cond_t cv_raw;   /* a slot needs parsing */
	pthread_cond_t cv_ready; /* a slot was parsed */
	pthread_cond_t cv_sync;  /* a sync slot was written */
	struct slot ring[MLQ_INGEST_QUEUE];
	uint64_t head;       /* next sequence number to add */
	uint64_t parse_next; /* next to hand to a worker */
	uint64_t write_next; /* next for the writer */
	uint64_t synced;     /* sequence number of the last sync written + 1 */
	size_t inflight;     /* mail bytes of the messages in the ring */
	bool full;           /* the reader waits on cv_free */
	bool stop;

	pthread_t workers[MLQ_INGEST_MAX_WORKERS];
	int nworkers;
	pthread_t writer;
	bool writer_started;

	/* Writer state. */
	int in_batch;
	uint64_t pending_count; /* new messages per source since last commit */
	char *pending_source;
	enum mlq_status fatal; /* a store failure: every later call fails */
	struct mlq_err fatal_err;
	enum mlq_status sync_st;
	struct mlq_err sync_err;
	struct mlq_ingest_stats stats;
};

static struct slot *
slot_at(struct mlq_ingest *ing, uint64_t seq)
{
	return &ing->ring[seq % MLQ_INGEST_QUEUE];
}

static void
slot_clear(struct slot *s)
{
	free(s->raw);
	free(s->origin);
	free(s->list);
	free(s->source);
	free(s->cursor);
	free(s->src_url);
	free(s->src_kind);
	free(s->src_error);
	if (s->job_free != NULL)
		s->job_free(s->job_arg);
	mlq_msg_free(s->msg);
	memset(s, 0, sizeof(*s));
}

/*
 * Lowers the calling parse worker's priority below the writer's, relative
 * to the nice value it inherited.  Raising a nice value needs no
 * privilege; if it fails anyway the worker runs as before.  Elsewhere
 * than Linux, setpriority() on a thread would renice the whole process.
 */
static void
worker_give_way(void)
{
#if defined(__linux__) && defined(SYS_gettid)
	id_t tid = (id_t)syscall(SYS_gettid);
	int nice;

	errno = 0;
	nice = getpriority(PRIO_PROCESS, tid);
	if (nice == -1 && errno != 0)
		return;
	(void)setpriority(PRIO_PROCESS, tid, nice + MLQ_INGEST_WORKER_NICE);
#endif
}

static void *
worker_main(void *arg)
{
	struct mlq_ingest *ing = arg;
	struct slot *s;
	uint64_t seq;
	/* Without it (ENOMEM) the writer indexes the text itself. */
	struct mlq_terms *terms = mlq__terms_new();

	worker_give_way();

	pthread_mutex_lock(&ing->mu);
	for (;;) {
		if (ing->parse_next < ing->write_next)
			ing->parse_next = ing->write_next;
		while (ing->parse_next < ing->head &&
		    slot_at(ing, ing->parse_next)->state != SLOT_RAW)
			ing->parse_next++;
		if (ing->stop)
			break;
		if (ing->parse_next == ing->head) {
			pthread_cond_wait(&ing->cv_raw, &ing->mu);
			continue;
		}
		seq = ing->parse_next++;
		s = slot_at(ing, seq);
		s->state = SLOT_PARSING;
		pthread_mutex_unlock(&ing->mu);

		mlq_err_clear(&s->parse_err);
		s->parse_st = s->stored
		    ? mlq_msg_parse_stored(s->raw, s->len, s->raw_len, &s->msg,
			  &s->parse_err)
		    : mlq_msg_parse(s->raw, s->len, &s->msg, &s->parse_err);
		free(s->raw);
		s->raw = NULL;
		if (s->parse_st == MLQ_OK)
			mlq__mailmap_apply(ing->mailmap, s->msg);
		if (s->parse_st == MLQ_OK && terms != NULL)
			(void)mlq__terms_of_msg(terms, s->msg);

		pthread_mutex_lock(&ing->mu);
		s->state = SLOT_READY;
		/* The writer waits only for the slot it writes next. */
		if (seq == ing->write_next)
			pthread_cond_signal(&ing->cv_ready);
	}
	pthread_mutex_unlock(&ing->mu);
	mlq__terms_free(terms);
	return NULL;
}

/* Commits the open batch, crediting new messages to their source. */
static enum mlq_status
writer_commit(struct mlq_ingest *ing, const char *source, const char *cursor,
    struct mlq_err *err)
{
	enum mlq_status rc = MLQ_OK;

	if (ing->in_batch < 0)
		return MLQ_OK;
	if (ing->pending_count > 0)
		rc = mlq__store_source_count(ing->st, ing->pending_source,
		    ing->pending_count, err);
	if (rc == MLQ_OK && source != NULL && cursor != NULL)
		rc = mlq_store_cursor_set(ing->st, source, cursor, err);
	if (rc == MLQ_OK)
		rc = mlq_store_commit(ing->st, err);
	else
		mlq_store_rollback(ing->st);
	ing->in_batch = -1;
	ing->pending_count = 0;
	return rc;
}

static enum mlq_status
writer_begin(struct mlq_ingest *ing, struct mlq_err *err)
{
	enum mlq_status rc;

	if (ing->in_batch >= 0)
		return MLQ_OK;
	if ((rc = mlq_store_begin(ing->st, err)) == MLQ_OK)
		ing->in_batch = 0;
	return rc;
}

/* Counts one new message for its source; a change of source commits. */
static enum mlq_status
writer_count(struct mlq_ingest *ing, const char *source, struct mlq_err *err)
{
	if (source == NULL)
		return MLQ_OK;
	if (ing->pending_source == NULL ||
	    strcmp(ing->pending_source, source) != 0) {
		if (ing->pending_count > 0) {
			enum mlq_status rc = mlq__store_source_count(ing->st,
			    ing->pending_source, ing->pending_count, err);
			if (rc != MLQ_OK)
				return rc;
		}
		free(ing->pending_source);
		ing->pending_source = strdup(source);
		ing->pending_count = 0;
		if (ing->pending_source == NULL)
			return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	ing->pending_count++;
	return MLQ_OK;
}

static enum mlq_status
writer_message(struct mlq_ingest *ing, struct slot *s, struct mlq_err *err)
{
	enum mlq_status rc;
	bool is_new;

	if (s->parse_st != MLQ_OK) {
		ing->stats.rejected++;
		if (ing->on_reject != NULL)
			ing->on_reject(s->origin, s->pos, s->parse_err.msg, ing->arg);
		return MLQ_OK;
	}
	s->msg->added = s->added;
	if (s->stored)
		s->msg->stored_id = (int64_t)s->pos;
	if ((rc = writer_begin(ing, err)) != MLQ_OK ||
	    (rc = mlq_store_put(ing->st, s->msg, s->list, &is_new, err)) != MLQ_OK)
		return rc;
	if (is_new) {
		ing->stats.stored++;
		if ((rc = writer_count(ing, s->source, err)) != MLQ_OK)
			return rc;
	} else {
		ing->stats.dup++;
	}
	if (++ing->in_batch >= ing->batch)
		return writer_commit(ing, NULL, NULL, err);
	return MLQ_OK;
}

/* A job stored in order with the mail: a commit of a followed tree. */
static enum mlq_status
writer_job(struct mlq_ingest *ing, struct slot *s, struct mlq_err *err)
{
	enum mlq_status rc;
	bool counted = false;

	if ((rc = writer_begin(ing, err)) != MLQ_OK ||
	    (rc = s->job(ing->st, s->job_arg, &counted, err)) != MLQ_OK)
		return rc;
	if (counted && (rc = writer_count(ing, s->source, err)) != MLQ_OK)
		return rc;
	if (++ing->in_batch >= ing->batch)
		return writer_commit(ing, NULL, NULL, err);
	return MLQ_OK;
}

static enum mlq_status
writer_slot(struct mlq_ingest *ing, struct slot *s, struct mlq_err *err)
{
	enum mlq_status rc;

	switch (s->kind) {
	case SLOT_MSG:
		return writer_message(ing, s, err);
	case SLOT_JOB:
		return writer_job(ing, s, err);
	case SLOT_SOURCE:
		if ((rc = writer_begin(ing, err)) != MLQ_OK)
			return rc;
		return mlq__store_source_save(ing->st, &s->src, err);
	case SLOT_SYNC:
		if (s->source != NULL && s->cursor != NULL &&
		    (rc = writer_begin(ing, err)) != MLQ_OK)
			return rc;
		return writer_commit(ing, s->source, s->cursor, err);
	}
	return MLQ_OK;
}

static void *
writer_main(void *arg)
{
	struct mlq_ingest *ing = arg;
	struct slot *s;
	struct mlq_err err;
	enum mlq_status rc;

	pthread_mutex_lock(&ing->mu);
	for (;;) {
		if (ing->stop)
			break;
		if (ing->write_next == ing->head ||
		    slot_at(ing, ing->write_next)->state != SLOT_READY) {
			pthread_cond_wait(&ing->cv_ready, &ing->mu);
			continue;
		}
		s = slot_at(ing, ing->write_next);
		pthread_mutex_unlock(&ing->mu);

		mlq_err_clear(&err);
		rc = ing->fatal == MLQ_OK ? writer_slot(ing, s, &err) : ing->fatal;
		if (rc != MLQ_OK && ing->fatal == MLQ_OK) {
			/* A failed batch is rolled back whole. */
			if (ing->in_batch >= 0)
				mlq_store_rollback(ing->st);
			ing->in_batch = -1;
			ing->fatal = rc;
			ing->fatal_err = err;
		}

		pthread_mutex_lock(&ing->mu);
		if (s->kind == SLOT_SYNC) {
			ing->sync_st = ing->fatal;
			ing->sync_err = ing->fatal != MLQ_OK ? ing->fatal_err : err;
			ing->synced = ing->write_next + 1;
			pthread_cond_broadcast(&ing->cv_sync);
		}
		ing->inflight -= s->raw_len;
		slot_clear(s);
		ing->write_next++;
		/*
		 * Wake a reader held by a full ring only once it has drained
		 * to half: it then queues a run of messages at once instead
		 * of being switched in for every one the writer stores.
		 */
		if (ing->full && (ing->fatal != MLQ_OK ||
		    (ing->head - ing->write_next <= MLQ_INGEST_QUEUE / 2 &&
			ing->inflight <= MLQ_INGEST_QUEUE_BYTES / 2))) {
			ing->full = false;
			pthread_cond_broadcast(&ing->cv_free);
		}
	}
	if (ing->in_batch >= 0)
		mlq_store_rollback(ing->st);
	ing->in_batch = -1;
	pthread_mutex_unlock(&ing->mu);
	return NULL;
}

enum mlq_status
mlq_ingest_new(struct mlq_store *st, const struct mlq_ingest_opts *opts,
    struct mlq_ingest **out, struct mlq_err *err)
{
	struct mlq_ingest *ing;
	long cores;
	int i, n;

	*out = NULL;
	ing = calloc(1, sizeof(*ing));
	if (ing == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	ing->st = st;
	ing->in_batch = -1;
	ing->batch = opts && opts->batch > 0 ? opts->batch : MLQ_INGEST_BATCH;
	ing->on_reject = opts ? opts->on_reject : NULL;
	ing->arg = opts ? opts->arg : NULL;
	ing->mailmap = opts ? opts->mailmap : NULL;
	n = opts ? opts->workers : 0;
	if (n <= 0) {
		cores = sysconf(_SC_NPROCESSORS_ONLN);
		n = cores > 0 ? (int)cores : 1;
	}
	if (n > MLQ_INGEST_MAX_WORKERS)
		n = MLQ_INGEST_MAX_WORKERS;
	pthread_mutex_init(&ing->mu, NULL);
	pthread_cond_init(&ing->cv_free, NULL);
	pthread_cond_init(&ing->cv_raw, NULL);
	pthread_cond_init(&ing->cv_ready, NULL);
	pthread_cond_init(&ing->cv_sync, NULL);
	for (i = 0; i < n; i++) {
		if (pthread_create(&ing->workers[i], NULL, worker_main, ing) != 0)
			break;
		ing->nworkers++;
	}
	if (ing->nworkers == 0 ||
	    pthread_create(&ing->writer, NULL, writer_main, ing) != 0) {
		mlq_ingest_free(ing);
		return mlq_err_set(err, MLQ_ENOMEM, "cannot start ingest threads");
	}
	ing->writer_started = true;
	*out = ing;
	return MLQ_OK;
}

/* Waits for a free slot and fills it; takes ownership of *s's pointers. */
static enum mlq_status
enqueue(struct mlq_ingest *ing, struct slot *s, uint64_t *seq,
    struct mlq_err *err)
{
	struct slot *dst;

	pthread_mutex_lock(&ing->mu);
	/*
	 * Bounded by count and by bytes: a run of multi-megabyte messages
	 * waits for the writer instead of filling memory (one always fits).
	 */
	while ((ing->head - ing->write_next >= MLQ_INGEST_QUEUE ||
		   (ing->inflight > 0 &&
		       ing->inflight + s->raw_len > MLQ_INGEST_QUEUE_BYTES)) &&
	    ing->fatal == MLQ_OK) {
		ing->full = true;
		pthread_cond_wait(&ing->cv_free, &ing->mu);
	}
	if (ing->fatal != MLQ_OK) {
		enum mlq_status rc = ing->fatal;

		mlq_err_set(err, rc, "%s", ing->fatal_err.msg);
		pthread_mutex_unlock(&ing->mu);
		slot_clear(s);
		return rc;
	}
	dst = slot_at(ing, ing->head);
	*dst = *s;
	ing->inflight += s->raw_len;
	if (seq != NULL)
		*seq = ing->head;
	ing->head++;
	if (dst->state == SLOT_RAW)
		pthread_cond_signal(&ing->cv_raw);
	else
		pthread_cond_broadcast(&ing->cv_ready);
	pthread_mutex_unlock(&ing->mu);
	return MLQ_OK;
}

static char *
dup_or_null(const char *s, bool *oom)
{
	char *p;

	if (s == NULL)
		return NULL;
	if ((p = strdup(s)) == NULL)
		*oom = true;
	return p;
}

/* With stored, raw is a stored message: raw_len bytes once inflated. */
static enum mlq_status
add_msg(struct mlq_ingest *ing, const char *source, const char *raw,
    size_t len, bool stored, size_t raw_len, const char *origin, uint64_t pos,
    const char *list, int64_t added, struct mlq_err *err)
{
	struct slot s;
	bool oom = false;

	memset(&s, 0, sizeof(s));
	s.kind = SLOT_MSG;
	s.state = SLOT_RAW;
	s.added = added;
	s.stored = stored;
	s.raw_len = stored ? raw_len : len;
	s.raw = malloc(len + 1);
	if (s.raw != NULL) {
		memcpy(s.raw, raw, len);
		s.raw[len] = '\0';
	}
	s.len = len;
	s.pos = pos;
	s.origin = dup_or_null(origin, &oom);
	s.list = dup_or_null(list, &oom);
	s.source = dup_or_null(source, &oom);
	if (s.raw == NULL || oom) {
		slot_clear(&s);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	pthread_mutex_lock(&ing->mu);
	ing->stats.added++;
	pthread_mutex_unlock(&ing->mu);
	return enqueue(ing, &s, NULL, err);
}

enum mlq_status
mlq_ingest_add_from(struct mlq_ingest *ing, const char *source,
    const char *raw, size_t len, const char *origin, uint64_t pos,
    const char *list, struct mlq_err *err)
{
	return add_msg(ing, source, raw, len, false, 0, origin, pos, list, 0,
	    err);
}

enum mlq_status
mlq_ingest_add(struct mlq_ingest *ing, const char *raw, size_t len,
    const char *origin, uint64_t pos, const char *list, struct mlq_err *err)
{
	return add_msg(ing, NULL, raw, len, false, 0, origin, pos, list, 0,
	    err);
}

enum mlq_status
mlq_ingest_add_stored(struct mlq_ingest *ing, int64_t id, const void *zraw,
    size_t zlen, size_t len, const char *list, int64_t added,
    struct mlq_err *err)
{
	return add_msg(ing, NULL, zraw, zlen, true, len, "stored message",
	    (uint64_t)id, list, added, err);
}

enum mlq_status
mlq_ingest_source_save(struct mlq_ingest *ing, const struct mlq_source_state *src,
    struct mlq_err *err)
{
	struct slot s;
	bool oom = false;

	memset(&s, 0, sizeof(s));
	s.kind = SLOT_SOURCE;
	s.state = SLOT_READY;
	s.source = dup_or_null(src->name, &oom);
	s.src_url = dup_or_null(src->url, &oom);
	s.src_kind = dup_or_null(src->kind, &oom);
	s.src_error = dup_or_null(src->last_error, &oom);
	if (oom || s.source == NULL) {
		slot_clear(&s);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	s.src = *src;
	s.src.name = s.source;
	s.src.url = s.src_url;
	s.src.kind = s.src_kind;
	s.src.last_error = s.src_error;
	s.src.cursor = NULL;
	return enqueue(ing, &s, NULL, err);
}

enum mlq_status
mlq_ingest_job(struct mlq_ingest *ing, const char *source, mlq_ingest_job_fn fn,
    void (*free_fn)(void *), void *arg, struct mlq_err *err)
{
	struct slot s;
	bool oom = false;

	memset(&s, 0, sizeof(s));
	s.kind = SLOT_JOB;
	s.state = SLOT_READY;
	s.job = fn;
	s.job_free = free_fn;
	s.job_arg = arg;
	s.source = dup_or_null(source, &oom);
	if (oom) {
		slot_clear(&s);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	return enqueue(ing, &s, NULL, err);
}

enum mlq_status
mlq_ingest_sync(struct mlq_ingest *ing, const char *source, const char *cursor,
    struct mlq_err *err)
{
	struct slot s;
	bool oom = false;
	uint64_t seq;
	enum mlq_status rc;

	memset(&s, 0, sizeof(s));
	s.kind = SLOT_SYNC;
	s.state = SLOT_READY;
	s.source = dup_or_null(source, &oom);
	s.cursor = dup_or_null(cursor, &oom);
	if (oom) {
		slot_clear(&s);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	if ((rc = enqueue(ing, &s, &seq, err)) != MLQ_OK)
		return rc;
	pthread_mutex_lock(&ing->mu);
	while (ing->synced <= seq)
		pthread_cond_wait(&ing->cv_sync, &ing->mu);
	rc = ing->sync_st;
	if (rc != MLQ_OK)
		mlq_err_set(err, rc, "%s", ing->sync_err.msg);
	pthread_mutex_unlock(&ing->mu);
	return rc;
}

void
mlq_ingest_stats(struct mlq_ingest *ing, struct mlq_ingest_stats *out)
{
	pthread_mutex_lock(&ing->mu);
	*out = ing->stats;
	pthread_mutex_unlock(&ing->mu);
}

bool
mlq_ingest_resume(struct mlq_ingest *ing)
{
	bool resumed = false;

	pthread_mutex_lock(&ing->mu);
	if (ing->fatal != MLQ_OK && ing->head == ing->write_next) {
		ing->fatal = MLQ_OK;
		mlq_err_clear(&ing->fatal_err);
		resumed = true;
	}
	pthread_mutex_unlock(&ing->mu);
	return resumed;
}

void
mlq_ingest_free(struct mlq_ingest *ing)
{
	int i;
	uint64_t seq;

	if (ing == NULL)
		return;
	pthread_mutex_lock(&ing->mu);
	ing->stop = true;
	pthread_cond_broadcast(&ing->cv_raw);
	pthread_cond_broadcast(&ing->cv_ready);
	pthread_mutex_unlock(&ing->mu);
	for (i = 0; i < ing->nworkers; i++)
		pthread_join(ing->workers[i], NULL);
	if (ing->writer_started)
		pthread_join(ing->writer, NULL);
	for (seq = ing->write_next; seq < ing->head; seq++)
		slot_clear(slot_at(ing, seq));
	free(ing->pending_source);
	pthread_mutex_destroy(&ing->mu);
	pthread_cond_destroy(&ing->cv_free);
	pthread_cond_destroy(&ing->cv_raw);
	pthread_cond_destroy(&ing->cv_ready);
	pthread_cond_destroy(&ing->cv_sync);
	free(ing);
}

void
mlq_ingest_tune_malloc(void)
{
#ifdef M_ARENA_MAX
	mallopt(M_ARENA_MAX, 2);
#endif
	/*
	 * glibc raises the threshold to the size of each mapped block freed,
	 * after which a big message's buffers stay in the heap for good.
	 */
#ifdef M_MMAP_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 1024 * 1024);
#endif
	/*
	 * Fixing the threshold above also fixes the trim threshold at its
	 * 128 KiB default: a heap gave back its top whenever a message's
	 * buffers were freed, and faulted the pages in again for the next
	 * one.  Keeping 8 MiB took importing 10,000 messages from 14,000-
	 * 21,000 page faults to 10,000-11,000 (more kept saved no more).
	 */
#ifdef M_TRIM_THRESHOLD
	mallopt(M_TRIM_THRESHOLD, 8 * 1024 * 1024);
#endif
}
