/*
 * IMAP through libetpan, whose calls block: each poll runs on a worker
 * thread that owns the session and hands batches of messages to the
 * event loop through a pipe, then waits until the loop has stored them
 * and committed the batch's cursor ("uidvalidity=V uid=U").  Only the
 * loop's thread talks to the ingest pipeline, so only its writer thread
 * writes SQLite, and memory is bounded by one batch.
 *
 * public-inbox-imapd serves an inbox as NEWSGROUP.0, NEWSGROUP.1, ...
 * slices of 50,000 inbox-wide UIDs: a url naming a mailbox that does not
 * exist but whose ".0" does is followed slice by slice.
 *
 * TLS is ours (imap-tls.c): Debian's libetpan verifies no certificate
 * and prints GnuTLS's errors to stderr.  The peer's certificate is
 * checked in the handshake (trust: tls-ca or the system's CAs; host name
 * or IP address) before anything is sent.
 */
#include "config.h"

#include <sys/socket.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <libetpan/libetpan.h>

#include "util/log.h"
#include "imap-tls.h"
#include "mlqd.h"
#include "wire.h"

/* public-inbox-imapd's slice size. */
#define IMAP_SLICE 50000
/* A batch is committed as one transaction: this many messages ... */
#define IMAP_BATCH_MSGS 200
/* ... or this many bytes, whichever comes first. */
#define IMAP_BATCH_BYTES (16u * 1024 * 1024)
/* Seconds a blocked network call may take. */
#define IMAP_TIMEOUT 60
/*
 * Seconds a stopped poll may take to end by itself.  After that its
 * socket is shut down: a server that keeps talking restarts libetpan's
 * read timeout with every line, and would hold a stop for good.
 */
#define IMAP_STOP_GRACE 5

struct imap_msg {
	char *data;
	size_t len;
	uint32_t uid;
};

enum imap_note {
	IMAP_BATCH,
	IMAP_IDLE, /* synced; now waiting in IDLE */
	IMAP_DONE,
};

/* From the worker to the loop, as a pointer through the pipe. */
struct imap_report {
	enum imap_note type;
	struct imap_msg *msgs;
	size_t nmsgs;
	char cursor[64];
	enum mlq_status st; /* IMAP_DONE */
	char why[256];
	bool idled; /* IDLE already waited for new mail: poll again now */
};

struct imap {
	struct source *src;
	/* from the url */
	bool tls;
	char host[256];
	uint16_t port;
	char mailbox[512];

	int pipe[2]; /* worker writes [1], loop reads [0] */
	struct event *ev;
	pthread_t thread;
	bool running;
	atomic_bool stop;

	/* the loop's answer to a batch; sock is guarded by it too */
	pthread_mutex_t lock;
	int sock;	     /* the session's socket while one is open, or -1 */
	struct event *grace; /* a stop's deadline */
	pthread_cond_t cond;
	bool acked;
	enum mlq_status ack;

	/* handed to the worker for one poll */
	bool idle_ok;	   /* not --once: wait in IDLE after syncing */
	int64_t idle_secs; /* at most this long (the interval) */
	bool idled;
	char *password;
	uint32_t cur_validity, cur_uid;
	bool have_cursor;
};

/* ---- the worker thread -------------------------------------------- */

/* Sets the reason a poll failed; long host names just cut it short. */
static void __attribute__((format(printf, 3, 4)))
imap_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

static void
imap_report_send(struct imap *im, struct imap_report *r)
{
	ssize_t n;

	do
		n = write(im->pipe[1], &r, sizeof(r));
	while (n == -1 && errno == EINTR);
	if (n != sizeof(r))
		abort(); /* a pipe write of a pointer cannot be short */
}

static void
imap_batch_free(struct imap_msg *msgs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(msgs[i].data);
	free(msgs);
}

/* Hands a batch over and waits for the loop to store and commit it. */
static enum mlq_status
imap_batch_send(struct imap *im, struct imap_msg *msgs, size_t n,
    uint32_t validity, uint32_t uid)
{
	struct imap_report *r;
	enum mlq_status st;

	if ((r = calloc(1, sizeof(*r))) == NULL) {
		imap_batch_free(msgs, n);
		return MLQ_ENOMEM;
	}
	r->type = IMAP_BATCH;
	r->msgs = msgs;
	r->nmsgs = n;
	snprintf(r->cursor, sizeof(r->cursor), "uidvalidity=%u uid=%u",
	    validity, uid);
	pthread_mutex_lock(&im->lock);
	im->acked = false;
	pthread_mutex_unlock(&im->lock);
	imap_report_send(im, r);
	pthread_mutex_lock(&im->lock);
	while (!im->acked)
		pthread_cond_wait(&im->cond, &im->lock);
	st = im->ack;
	pthread_mutex_unlock(&im->lock);
	return st;
}

/* libetpan's connection errors, in words. */
static const char *
imap_error(int r)
{
	switch (r) {
	case MAILIMAP_ERROR_CONNECTION_REFUSED:
		return "cannot connect: connection refused or host unknown";
	case MAILIMAP_ERROR_STREAM:
		return "the connection broke";
	case MAILIMAP_ERROR_BAD_STATE:
	case MAILIMAP_ERROR_PARSE:
		return "the server's greeting is not IMAP's";
	case MAILIMAP_ERROR_MEMORY:
		return "out of memory";
	default:
		return "cannot connect";
	}
}

/* imaps://: TCP, then our TLS, then libetpan's IMAP over it; -1 with
 * why said, else mailimap_connect's result. */
static int
imap_tls_connect(struct imap *im, mailimap *imap, char *why, size_t whylen)
{
	mailstream_low *low;
	mailstream *stream;
	int fd;

	if ((fd = imap_tcp_connect(im->host, im->port, why, whylen)) < 0)
		return -1;
	if ((low = imap_tls_open(fd, im->host, im->src->tls_ca,
		 im->src->tls_verify, why, whylen)) == NULL) {
		close(fd);
		return -1;
	}
	if ((stream = mailstream_new(low, 8192)) == NULL) {
		mailstream_low_close(low);
		mailstream_low_free(low);
		imap_why(why, whylen, "out of memory");
		return -1;
	}
	/* The session owns the stream now, even when this fails. */
	return mailimap_connect(imap, stream);
}

/* STARTTLS, then our TLS on the same socket in place of the plain one. */
static enum mlq_status
imap_starttls(struct imap *im, mailimap *imap, char *why, size_t whylen)
{
	mailstream_low *plain, *low;
	int r;

	if ((r = mailimap_starttls(imap)) != MAILIMAP_NO_ERROR) {
		imap_why(why, whylen, "%s: STARTTLS refused: %s", im->host,
		    imap_error(r));
		return MLQ_ENET;
	}
	plain = mailstream_get_low(imap->imap_stream);
	if ((low = imap_tls_open(mailstream_low_get_fd(plain), im->host,
		 im->src->tls_ca, im->src->tls_verify, why, whylen)) == NULL)
		return MLQ_ENET;
	/* The plain stream goes, its socket stays with the TLS one. */
	mailstream_low_free(plain);
	mailstream_set_low(imap->imap_stream, low);
	return MLQ_OK;
}

/* What a stop may shut down; -1 before the session's socket closes. */
static void
imap_sock_set(struct imap *im, int fd)
{
	pthread_mutex_lock(&im->lock);
	im->sock = fd;
	pthread_mutex_unlock(&im->lock);
}

static enum mlq_status
imap_connect(struct imap *im, mailimap *imap, char *why, size_t whylen)
{
	struct mailimap_capability_data *cap = NULL;
	const char *user;
	int r;

	if (im->tls)
		r = imap_tls_connect(im, imap, why, whylen);
	else
		r = mailimap_socket_connect(imap, im->host, im->port);
	if (r == -1)
		return MLQ_ENET; /* why is said */
	if (imap->imap_stream != NULL)
		imap_sock_set(im, mailstream_low_get_fd(
				      mailstream_get_low(imap->imap_stream)));
	if (r != MAILIMAP_NO_ERROR && r != MAILIMAP_NO_ERROR_AUTHENTICATED &&
	    r != MAILIMAP_NO_ERROR_NON_AUTHENTICATED) {
		imap_why(why, whylen, "%s:%u: %s", im->host, im->port,
		    imap_error(r));
		return MLQ_ENET;
	}
	if (!im->tls) {
		/* Use STARTTLS when offered: then it must verify too. */
		if (mailimap_capability(imap, &cap) == MAILIMAP_NO_ERROR)
			mailimap_capability_data_free(cap);
		if (mailimap_has_extension(imap, "STARTTLS")) {
			if (imap_starttls(im, imap, why, whylen) != MLQ_OK)
				return MLQ_ENET;
		} else if (im->password != NULL &&
		    strcmp(im->host, "127.0.0.1") != 0 &&
		    strcmp(im->host, "localhost") != 0 &&
		    strcmp(im->host, "::1") != 0) {
			imap_why(why, whylen,
			    "%s: refusing to send a password without TLS (use imaps://)",
			    im->host);
			return MLQ_ENET;
		}
	}
	if (r == MAILIMAP_NO_ERROR_AUTHENTICATED)
		return MLQ_OK;
	/* public-inbox-imapd takes any login; others need the user's. */
	user = im->src->user != NULL ? im->src->user : "anonymous";
	r = mailimap_login(imap, user,
	    im->password != NULL ? im->password : "mlq");
	if (r != MAILIMAP_NO_ERROR) {
		imap_why(why, whylen, "%s: login as '%s' refused", im->host,
		    user);
		return MLQ_ENET;
	}
	return MLQ_OK;
}

/*
 * UID FETCH of the UIDs in set (consumed), with the whole message (peeked,
 * so nothing is marked seen) when body is set.
 */
static enum mlq_status
imap_uid_fetch(mailimap *imap, struct mailimap_set *set, bool body,
    clist **res, char *why, size_t whylen)
{
	struct mailimap_fetch_type *ft;
	int r;

	ft = mailimap_fetch_type_new_fetch_att_list_empty();
	mailimap_fetch_type_new_fetch_att_list_add(ft,
	    mailimap_fetch_att_new_uid());
	if (body)
		mailimap_fetch_type_new_fetch_att_list_add(ft,
		    mailimap_fetch_att_new_body_peek_section(
			mailimap_section_new(NULL)));
	r = mailimap_uid_fetch(imap, set, ft, res);
	mailimap_fetch_type_free(ft);
	mailimap_set_free(set);
	if (r != MAILIMAP_NO_ERROR) {
		imap_why(why, whylen, "UID FETCH failed (libetpan error %d)",
		    r);
		return MLQ_ENET;
	}
	return MLQ_OK;
}

/* The UIDs above 'after' (and at most 'last', 0 = no bound), ascending. */
static enum mlq_status
imap_list_uids(mailimap *imap, uint32_t after, uint32_t last, uint32_t **uids,
    size_t *n, char *why, size_t whylen)
{
	clist *res = NULL;
	clistiter *it, *ai;
	uint32_t *arr = NULL, uid;
	size_t cnt = 0;
	enum mlq_status st;

	*uids = NULL;
	*n = 0;
	if ((st = imap_uid_fetch(imap, mailimap_set_new_interval(after + 1,
		 last), false, &res, why, whylen)) != MLQ_OK)
		return st;
	for (it = clist_begin(res); it != NULL; it = clist_next(it)) {
		struct mailimap_msg_att *ma = clist_content(it);

		uid = 0;
		for (ai = clist_begin(ma->att_list); ai != NULL;
		     ai = clist_next(ai)) {
			struct mailimap_msg_att_item *item = clist_content(ai);

			if (item->att_type == MAILIMAP_MSG_ATT_ITEM_STATIC &&
			    item->att_data.att_static->att_type ==
				MAILIMAP_MSG_ATT_UID)
				uid =
				    item->att_data.att_static->att_data.att_uid;
		}
		/* "N:*" past the end still answers the last message. */
		if (uid <= after || (last != 0 && uid > last))
			continue;
		arr = reallocarray(arr, cnt + 1, sizeof(*arr));
		if (arr == NULL) {
			mailimap_fetch_list_free(res);
			return MLQ_ENOMEM;
		}
		arr[cnt++] = uid;
	}
	mailimap_fetch_list_free(res);
	/* Servers answer in mailbox order, which is UID order; make sure. */
	for (size_t i = 1; i < cnt; i++)
		for (size_t j = i; j > 0 && arr[j - 1] > arr[j]; j--) {
			uid = arr[j];
			arr[j] = arr[j - 1];
			arr[j - 1] = uid;
		}
	*uids = arr;
	*n = cnt;
	return MLQ_OK;
}

static int
imap_msg_cmp(const void *a, const void *b)
{
	const struct imap_msg *x = a, *y = b;

	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

/* Fetches uids[0..n) (ascending) and hands them over in one batch. */
static enum mlq_status
imap_fetch_batch(struct imap *im, mailimap *imap, const uint32_t *uids,
    size_t n, uint32_t validity, char *why, size_t whylen)
{
	struct mailimap_set *set;
	struct imap_msg *msgs;
	clist *res = NULL;
	clistiter *it, *ai;
	size_t cnt = 0, i;
	enum mlq_status st;

	set = mailimap_set_new_empty();
	for (i = 0; i < n; i++)
		mailimap_set_add_single(set, uids[i]);
	if ((st = imap_uid_fetch(imap, set, true, &res, why, whylen)) !=
	    MLQ_OK)
		return st;
	if ((msgs = calloc(clist_count(res) + 1, sizeof(*msgs))) == NULL) {
		mailimap_fetch_list_free(res);
		return MLQ_ENOMEM;
	}
	for (it = clist_begin(res); it != NULL; it = clist_next(it)) {
		struct mailimap_msg_att *ma = clist_content(it);
		const char *body = NULL;
		size_t blen = 0;
		uint32_t uid = 0;

		for (ai = clist_begin(ma->att_list); ai != NULL;
		     ai = clist_next(ai)) {
			struct mailimap_msg_att_item *item = clist_content(ai);
			struct mailimap_msg_att_static *s;

			if (item->att_type != MAILIMAP_MSG_ATT_ITEM_STATIC)
				continue;
			s = item->att_data.att_static;
			if (s->att_type == MAILIMAP_MSG_ATT_UID)
				uid = s->att_data.att_uid;
			else if (s->att_type == MAILIMAP_MSG_ATT_BODY_SECTION &&
			    s->att_data.att_body_section->sec_body_part !=
				NULL) {
				body =
				    s->att_data.att_body_section->sec_body_part;
				blen = s->att_data.att_body_section->sec_length;
			}
		}
		if (uid < uids[0] || uid > uids[n - 1] || body == NULL)
			continue;
		msgs[cnt].uid = uid;
		msgs[cnt].data = wire_unfold_crlf(body, blen, &msgs[cnt].len);
		if (msgs[cnt].data == NULL) {
			mailimap_fetch_list_free(res);
			imap_batch_free(msgs, cnt);
			return MLQ_ENOMEM;
		}
		cnt++;
	}
	mailimap_fetch_list_free(res);
	qsort(msgs, cnt, sizeof(*msgs), imap_msg_cmp);
	/* The cursor covers every UID asked for, fetched or vanished. */
	return imap_batch_send(im, msgs, cnt, validity, uids[n - 1]);
}

/* New mail of one selected mailbox, batch by batch. */
static enum mlq_status
imap_sync_mailbox(struct imap *im, mailimap *imap, uint32_t *after,
    uint32_t last, uint32_t validity, char *why, size_t whylen)
{
	uint32_t *uids = NULL;
	size_t n, i, j;
	enum mlq_status st;

	st = imap_list_uids(imap, *after, last, &uids, &n, why, whylen);
	for (i = 0; st == MLQ_OK && i < n; i = j) {
		if (atomic_load(&im->stop))
			break;
		j = i + IMAP_BATCH_MSGS < n ? i + IMAP_BATCH_MSGS : n;
		st = imap_fetch_batch(im, imap, uids + i, j - i, validity, why,
		    whylen);
		if (st == MLQ_OK)
			*after = uids[j - 1];
		else if (why[0] == '\0')
			imap_why(why, whylen, "storing the batch failed");
	}
	free(uids);
	return st;
}

static bool
imap_select(mailimap *imap, const char *mbox, uint32_t *validity)
{
	if (mailimap_select(imap, mbox) != MAILIMAP_NO_ERROR ||
	    imap->imap_selection_info == NULL)
		return false;
	*validity = imap->imap_selection_info->sel_uidvalidity;
	return true;
}

/*
 * With no cursor and a 'since', the UID before the first message the
 * selected mailbox received on or after that day; *found false if none.
 */
static enum mlq_status
imap_since_uid(struct imap *im, mailimap *imap, uint32_t *after, bool *found,
    char *why, size_t whylen)
{
	struct mailimap_search_key *key;
	clist *res = NULL;
	clistiter *it;
	time_t t = (time_t)im->src->since;
	uint32_t min = 0, *u;
	struct tm tm;
	int r;

	gmtime_r(&t, &tm);
	key = mailimap_search_key_new_since(
	    mailimap_date_new(tm.tm_mday, tm.tm_mon + 1, tm.tm_year + 1900));
	r = mailimap_uid_search(imap, NULL, key, &res);
	mailimap_search_key_free(key);
	if (r != MAILIMAP_NO_ERROR) {
		imap_why(why, whylen, "%s: UID SEARCH SINCE failed", im->host);
		return MLQ_ENET;
	}
	for (it = clist_begin(res); it != NULL; it = clist_next(it)) {
		u = clist_content(it);
		if (min == 0 || *u < min)
			min = *u;
	}
	mailimap_search_result_free(res);
	*found = min != 0;
	if (min != 0)
		*after = min - 1;
	return MLQ_OK;
}

/* Untagged replies read past before IDLE's "+", at most. */
#define IMAP_IDLE_MAX_UNTAGGED 1000

/*
 * Sends IDLE and reads up to its "+" continuation.  Not mailimap_idle():
 * libetpan 1.9.4 reads one line and, unless it is the "+", waits for a
 * tagged reply, which IDLE never sends.  public-inbox-imapd answers
 * "* N EXISTS" first when mail came since the SELECT, and its "* OK Still
 * here" every minute keeps the read timeout from firing: the worker hung
 * for good, and SIGTERM with it.  Untagged lines are read past; 'news'
 * says one announced mail.  False: not idling (a NO, BAD or a failure).
 */
static bool
imap_idle_start(mailimap *imap, bool *news)
{
	const char *line;
	int i;

	*news = false;
	if (mailimap_send_current_tag(imap) != MAILIMAP_NO_ERROR ||
	    mailstream_write(imap->imap_stream, "IDLE\r\n", 6) != 6 ||
	    mailstream_flush(imap->imap_stream) == -1)
		return false;
	for (i = 0; i < IMAP_IDLE_MAX_UNTAGGED; i++) {
		if ((line = mailimap_read_line(imap)) == NULL)
			return false;
		if (line[0] == '+')
			return true;
		if (line[0] != '*')
			return false;
		if (strstr(line, "EXISTS") != NULL)
			*news = true;
	}
	return false;
}

/*
 * Waits in IDLE on 'mbox' until the server announces mail, the interval
 * is over or the loop asks us to stop; polling again then costs nothing
 * when there is nothing new.  Servers without IDLE: returns at once.
 */
static void
imap_idle(struct imap *im, mailimap *imap, const char *mbox)
{
	struct mailimap_capability_data *cap = NULL;
	struct imap_report *r;
	struct pollfd pfd;
	uint32_t v;
	time_t end;
	bool news;

	if (!mailimap_has_idle(imap) &&
	    mailimap_capability(imap, &cap) == MAILIMAP_NO_ERROR)
		mailimap_capability_data_free(cap);
	if (!mailimap_has_idle(imap) || !imap_select(imap, mbox, &v) ||
	    !imap_idle_start(imap, &news))
		return;
	im->idled = true;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		abort();
	r->type = IMAP_IDLE;
	imap_report_send(im, r);
	pfd.fd = mailimap_idle_get_fd(imap);
	pfd.events = POLLIN;
	/* Mail came before the "+": no wait, poll again at once. */
	end = news ? 0 : time(NULL) + (time_t)im->idle_secs;
	/* Short waits, so a stop request is seen within half a second. */
	while (!atomic_load(&im->stop) && time(NULL) < end)
		if (poll(&pfd, 1, 500) != 0)
			break;
	mailimap_idle_done(imap);
}

static enum mlq_status
imap_run(struct imap *im, mailimap *imap, char *why, size_t whylen)
{
	char slice[600];
	uint32_t validity = 0, after, k;
	enum mlq_status st;
	bool sliced = false;

	if ((st = imap_connect(im, imap, why, whylen)) != MLQ_OK)
		return st;
	/* A newsgroup's parent is selectable but empty: slices first. */
	snprintf(slice, sizeof(slice), "%s.0", im->mailbox);
	if (imap_select(imap, slice, &validity))
		sliced = true;
	else if (!imap_select(imap, im->mailbox, &validity)) {
		imap_why(why, whylen, "%s: no mailbox '%s'", im->host,
		    im->mailbox);
		return MLQ_ENET;
	}
	after = 0;
	if (im->have_cursor && im->cur_validity == validity)
		after = im->cur_uid;
	else if (im->have_cursor)
		mlq_warnx(
		    "source '%s': UIDVALIDITY changed from %u to %u: resyncing by Message-Id",
		    im->src->name, im->cur_validity, validity);
	if (after == 0 && im->src->since > 0) {
		bool found = false;
		uint32_t v;

		/* Slices in order until one holds mail from that day on. */
		for (k = 0;; k++) {
			if (sliced && k != 0) {
				snprintf(slice, sizeof(slice), "%s.%u",
				    im->mailbox, k);
				if (!imap_select(imap, slice, &v))
					break;
			}
			st = imap_since_uid(im, imap, &after, &found, why,
			    whylen);
			if (st != MLQ_OK || found || !sliced)
				break;
		}
		/* The slice found is selected; the loop below starts there. */
		if (st != MLQ_OK || !found)
			return st;
	}
	if (!sliced) {
		st = imap_sync_mailbox(im, imap, &after, 0, validity, why,
		    whylen);
		if (st == MLQ_OK && im->idle_ok && !atomic_load(&im->stop))
			imap_idle(im, imap, im->mailbox);
		return st;
	}
	/* Slices hold inbox-wide UIDs: start at the one after the cursor. */
	for (k = after / IMAP_SLICE;; k++) {
		snprintf(slice, sizeof(slice), "%s.%u", im->mailbox, k);
		if (k != 0) {
			uint32_t v;

			if (!imap_select(imap, slice, &v)) {
				/* New mail lands in the last slice. */
				snprintf(slice, sizeof(slice), "%s.%u",
				    im->mailbox, k - 1);
				if (im->idle_ok && !atomic_load(&im->stop))
					imap_idle(im, imap, slice);
				break;
			}
			if (v != validity) {
				imap_why(why, whylen,
				    "%s: slice %s has another UIDVALIDITY",
				    im->host, slice);
				return MLQ_ENET;
			}
		}
		st = imap_sync_mailbox(im, imap, &after, (k + 1) * IMAP_SLICE,
		    validity, why, whylen);
		if (st != MLQ_OK || atomic_load(&im->stop))
			return st;
	}
	return MLQ_OK;
}

static void *
imap_worker(void *arg)
{
	struct imap *im = arg;
	struct imap_report *r;
	mailimap *imap;

	if ((r = calloc(1, sizeof(*r))) == NULL)
		abort();
	r->type = IMAP_DONE;
	if ((imap = mailimap_new(0, NULL)) == NULL) {
		r->st = MLQ_ENOMEM;
		snprintf(r->why, sizeof(r->why), "mailimap_new failed");
	} else {
		mailimap_set_timeout(imap, IMAP_TIMEOUT);
		im->idled = false;
		r->st = imap_run(im, imap, r->why, sizeof(r->why));
		r->idled = im->idled;
		if (imap->imap_stream != NULL)
			mailimap_logout(imap);
		imap_sock_set(im, -1);
		mailimap_free(imap);
	}
	imap_report_send(im, r);
	return NULL;
}

/* ---- the event loop's side ---------------------------------------- */

static void
imap_ack(struct imap *im, enum mlq_status st)
{
	pthread_mutex_lock(&im->lock);
	im->ack = st;
	im->acked = true;
	pthread_cond_signal(&im->cond);
	pthread_mutex_unlock(&im->lock);
}

static void
imap_on_batch(struct imap *im, struct imap_report *r)
{
	struct source *src = im->src;
	struct mlq_err err = { MLQ_OK, "" };
	enum mlq_status st = MLQ_OK;
	size_t i;

	for (i = 0; i < r->nmsgs && st == MLQ_OK; i++)
		st = source_ingest(src, r->msgs[i].data, r->msgs[i].len,
		    src->name, r->msgs[i].uid, &err);
	if (st == MLQ_OK)
		st = source_commit(src, r->cursor, &err);
	if (st != MLQ_OK)
		mlq_warnx("source '%s': %s", src->name, err.msg);
	imap_batch_free(r->msgs, r->nmsgs);
	imap_ack(im, st);
}

static void
imap_on_report(evutil_socket_t fd, short kind, void *arg)
{
	struct imap *im = arg;
	struct imap_report *r;
	enum mlq_status st;
	char why[256];
	ssize_t n;

	n = read(fd, &r, sizeof(r));
	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n != sizeof(r))
		mlq_fatalx("source '%s': worker pipe broken", im->src->name);
	if (r->type == IMAP_BATCH) {
		imap_on_batch(im, r);
		free(r);
		return;
	}
	if (r->type == IMAP_IDLE) {
		free(r);
		source_idle(im->src);
		return;
	}
	pthread_join(im->thread, NULL);
	im->running = false;
	evtimer_del(im->grace);
	if (im->password != NULL) {
		mlq_conf_secret_free(im->password);
		im->password = NULL;
	}
	st = r->st;
	im->src->again = r->idled;
	snprintf(why, sizeof(why), "%s", r->why);
	free(r);
	/* May free the source (and im) if a reload dropped it. */
	source_done(im->src, st, st == MLQ_OK ? NULL : why);
}

static void
imap_poll(struct source *src)
{
	struct imap *im = src->drv;
	struct mlq_err err = { MLQ_OK, "" };
	char key[128], *cur = NULL;
	unsigned v, u;
	int n = 0;

	if (source_cursor(src, &cur, &err) != MLQ_OK) {
		source_done(src, err.status, err.msg);
		return;
	}
	im->have_cursor = false;
	if (cur != NULL &&
	    sscanf(cur, "uidvalidity=%u uid=%u%n", &v, &u, &n) == 2 &&
	    cur[n] == '\0') {
		im->have_cursor = true;
		im->cur_validity = v;
		im->cur_uid = u;
	} else if (cur != NULL) {
		mlq_warnx("source '%s': ignoring unknown cursor '%s'",
		    src->name, cur);
	}
	free(cur);
	if (src->user != NULL) {
		snprintf(key, sizeof(key), "source.%s.password", src->name);
		switch (
		    mlq_conf_secret(src->d->conf, key, &im->password, &err)) {
		case MLQ_OK:
			break;
		case MLQ_NOTFOUND:
			if (err.msg[0] == '\0')
				snprintf(err.msg, sizeof(err.msg),
				    "no '%s' in the secrets file", key);
			/* FALLTHROUGH */
		default:
			source_done(src, MLQ_EINPUT, err.msg);
			return;
		}
	}
	atomic_store(&im->stop, false);
	im->idle_ok = !src->d->once;
	im->idle_secs = src->interval;
	if (pthread_create(&im->thread, NULL, imap_worker, im) != 0) {
		mlq_conf_secret_free(im->password);
		im->password = NULL;
		source_done(src, MLQ_ENOMEM, "cannot start the IMAP thread");
		return;
	}
	im->running = true;
}

static void
imap_stop(struct source *src)
{
	struct imap *im = src->drv;
	struct timeval tv = { IMAP_STOP_GRACE, 0 };

	/* The worker stops at its next batch; its DONE ends the poll. */
	atomic_store(&im->stop, true);
	evtimer_add(im->grace, &tv);
}

/* A stopped poll still running: its socket is cut under it. */
static void
imap_on_grace(evutil_socket_t fd, short kind, void *arg)
{
	struct imap *im = arg;
	bool cut = false;

	pthread_mutex_lock(&im->lock);
	if (im->running && im->sock >= 0) {
		shutdown(im->sock, SHUT_RDWR);
		cut = true;
	}
	pthread_mutex_unlock(&im->lock);
	if (cut)
		mlq_warnx("source '%s': still busy %ds after the stop; its "
			  "connection is cut", im->src->name, IMAP_STOP_GRACE);
}

static enum mlq_status
imap_start(struct source *src, struct mlq_err *err)
{
	struct imap *im;
	enum mlq_status st;

	if ((im = calloc(1, sizeof(*im))) == NULL)
		mlq_fatal("calloc");
	im->src = src;
	im->pipe[0] = im->pipe[1] = -1;
	im->sock = -1;
	if ((st = wire_imap_url(src->url, &im->tls, im->host, sizeof(im->host),
		 &im->port, im->mailbox, sizeof(im->mailbox), err)) != MLQ_OK) {
		free(im);
		return st;
	}
	if (pipe2(im->pipe, O_CLOEXEC) == -1)
		mlq_fatal("pipe");
	fcntl(im->pipe[0], F_SETFL, O_NONBLOCK);
	pthread_mutex_init(&im->lock, NULL);
	pthread_cond_init(&im->cond, NULL);
	im->ev = event_new(src->d->base, im->pipe[0], EV_READ | EV_PERSIST,
	    imap_on_report, im);
	if (im->ev == NULL || event_add(im->ev, NULL) != 0 ||
	    (im->grace = evtimer_new(src->d->base, imap_on_grace, im)) == NULL)
		mlq_fatalx("event_new");
	src->drv = im;
	return MLQ_OK;
}

static void
imap_free(struct source *src)
{
	struct imap *im = src->drv;

	if (im == NULL)
		return;
	/* Only called between polls: no worker is running. */
	assert(!im->running);
	event_free(im->ev);
	event_free(im->grace);
	close(im->pipe[0]);
	close(im->pipe[1]);
	pthread_mutex_destroy(&im->lock);
	pthread_cond_destroy(&im->cond);
	mlq_conf_secret_free(im->password);
	free(im);
	src->drv = NULL;
}

const struct source_ops src_imap_ops = {
	.kind = "imap",
	.counted = "messages fetched",
	.start = imap_start,
	.poll = imap_poll,
	.stop = imap_stop,
	.free = imap_free,
};
