/*
 * public-inbox over HTTP.  The cursor is a received time ("rt:T": every
 * message the inbox received before T is stored).  Each request POSTs a
 * search for a received-time window with x=m and gets every hit back as
 * gzipped mboxrd, streamed through inflate and the mbox splitter into the
 * ingest pipeline; the window's end commits with its mail.  Windows
 * overlap so nothing falls between polls (duplicates collapse by
 * Message-Id); a backfill walks forward window by window, so a crash
 * loses at most one window and memory stays bounded.  A 404 is "no hits".
 * Before a window longer than a day is fetched, the search page says how
 * many it holds, and a window past HTTP_WIN_CAP messages is shortened
 * first: a backfill through empty years otherwise reached the year that
 * holds a whole archive in one request.
 * An inbox without search (501) falls back to new.atom and MSGID/raw.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>
#include <zlib.h>

#include "curl-ev.h"
#include "util/log.h"
#include "mlqd.h"
#include "wire.h"

/* Each poll re-reads this much before the cursor: late arrivals, clocks. */
#define HTTP_OVERLAP 3600
/* Backfill windows start at a day, grow while sparse, shrink if dense. */
#define HTTP_WIN_INIT 86400
#define HTTP_WIN_MIN  3600
#define HTTP_WIN_MAX  (8 * 365 * 86400)
/* At most this many messages in one request (a window is cut down to
 * about half of it); a response that brings twice as many is dropped for
 * a shorter window.  MLQ_HTTP_WINDOW_CAP sets it for the tests. */
#define HTTP_WIN_CAP  4000
/* 1973-03-03: public-inbox reads rt: numbers of 9+ digits as seconds. */
#define HTTP_EPOCH 100000000
/* What an error page or new.atom may hold in memory. */
#define HTTP_MAX_SMALL_BODY (4u * 1024 * 1024)

enum http_mode {
	HTTP_SEARCH, /* rt: windows */
	HTTP_COUNT,  /* a window's size, from the search page */
	HTTP_ATOM,   /* new.atom, then each entry's raw */
	HTTP_RAW,
};

struct http {
	struct source *src;
	char *base; /* the inbox url, ending in '/' */
	CURL *easy;
	enum http_mode mode;
	bool no_search; /* the inbox answered 501 once */

	/* the window in flight */
	int64_t cursor; /* stored cursor; valid if have_cursor */
	bool have_cursor;
	int64_t win;	  /* current window length */
	int64_t from, to; /* to == 0: open-ended */
	int64_t started;  /* wall clock when the request went out */
	uint64_t count;	  /* messages in this response */
	uint64_t cap;	  /* HTTP_WIN_CAP */
	int64_t counted_from, counted_to; /* the window last counted */
	bool too_many;	  /* this response passed twice the cap */

	/* the response */
	bool checked; /* status looked at (first body bytes) */
	long code;
	bool gzip;
	bool z_live;
	z_stream z;
	struct mlq_mbox_split *split;
	struct mlq_buf small; /* error text or the atom feed */
	int64_t retry_after;
	enum mlq_status fail; /* set inside callbacks */
	struct mlq_err err;

	/* new.atom fallback */
	char **raw_urls;
	size_t nraw, iraw;
	int64_t atom_max;
};

static void http_next(struct http *h);

static enum mlq_status
http_on_message(const char *msg, size_t len, void *arg)
{
	struct http *h = arg;
	char origin[64];

	h->count++;
	/* Past twice the cap the window goes back for a shorter one; what
	 * came is stored, and comes again as duplicates. */
	if (h->to != 0 && h->count > 2 * h->cap && h->win / 2 >= HTTP_WIN_MIN) {
		h->too_many = true;
		return mlq_err_set(&h->err, MLQ_ENET, "window too long");
	}
	snprintf(origin, sizeof(origin), "%s", h->src->name);
	return source_ingest(h->src, msg, len, origin, h->count, &h->err);
}

/* Inflates (or passes) body bytes into the mbox splitter. */
static enum mlq_status
http_feed(struct http *h, const char *p, size_t n)
{
	if (!h->gzip)
		return mlq_mbox_split_feed(h->split, p, n, &h->err);
	return wire_gunzip_feed(&h->z, h->split, p, n, h->src->url_safe,
	    &h->err);
}

/* The first body bytes of a response: decide how to read it. */
static enum mlq_status
http_check(struct http *h, const char *p, size_t n)
{
	h->checked = true;
	curl_easy_getinfo(h->easy, CURLINFO_RESPONSE_CODE, &h->code);
	if (h->code != 200 || h->mode == HTTP_ATOM || h->mode == HTTP_COUNT)
		return MLQ_OK;
	h->gzip = wire_is_gzip(p, n);
	if (h->gzip) {
		memset(&h->z, 0, sizeof(h->z));
		if (inflateInit2(&h->z, 16 + MAX_WBITS) != Z_OK)
			return mlq_err_set(&h->err, MLQ_ENOMEM, "inflateInit");
		h->z_live = true;
	}
	return mlq_mbox_split_new(http_on_message, h, &h->split, &h->err);
}

static size_t
http_write_cb(char *p, size_t size, size_t nmemb, void *arg)
{
	struct http *h = arg;
	size_t n = size * nmemb;

	if (n == 0)
		return 0;
	if (!h->checked && (h->fail = http_check(h, p, n)) != MLQ_OK)
		return 0;
	if (h->code != 200 || h->mode == HTTP_ATOM || h->mode == HTTP_COUNT) {
		if (h->small.len + n > HTTP_MAX_SMALL_BODY) {
			if (h->code != 200)
				return n; /* an error page: its head will do */
			h->fail = mlq_err_set(&h->err, MLQ_ENET,
			    "%s: %s larger than %u bytes", h->src->url_safe,
			    h->mode == HTTP_ATOM ? "new.atom" : "search page",
			    HTTP_MAX_SMALL_BODY);
			return 0;
		}
		mlq_buf_add(&h->small, p, n);
		return n;
	}
	if ((h->fail = http_feed(h, p, n)) != MLQ_OK)
		return 0;
	return n;
}

/* Retry-After: seconds or an HTTP date. */
static size_t
http_header_cb(char *p, size_t size, size_t nmemb, void *arg)
{
	struct http *h = arg;
	size_t n = size * nmemb;
	char val[128];
	time_t t;
	long secs;
	char *end;

	if (n > 12 && strncasecmp(p, "Retry-After:", 12) == 0) {
		snprintf(val, sizeof(val), "%.*s", (int)(n - 12), p + 12);
		val[strcspn(val, "\r\n")] = '\0';
		secs = strtol(val, &end, 10);
		if (end != val && *end == '\0' && secs > 0)
			h->retry_after = secs;
		else if ((t = curl_getdate(val, NULL)) > 0 && t > time(NULL))
			h->retry_after = (int64_t)(t - time(NULL));
	}
	return n;
}

static void
http_reset_response(struct http *h)
{
	h->checked = false;
	h->code = 0;
	h->gzip = false;
	if (h->z_live)
		inflateEnd(&h->z);
	h->z_live = false;
	mlq_mbox_split_free(h->split);
	h->split = NULL;
	mlq_buf_reset(&h->small);
	h->count = 0;
	h->retry_after = 0;
	h->fail = MLQ_OK;
	mlq_err_clear(&h->err);
}

static void
http_end(struct http *h, enum mlq_status st, const char *why)
{
	if (h->easy != NULL) {
		curl_easy_cleanup(h->easy);
		h->easy = NULL;
	}
	http_reset_response(h);
	source_done(h->src, st, why);
}

static void http_done_cb(CURL *easy, CURLcode rc, const char *errbuf,
    void *arg);

/* Starts a GET (post false) or an empty-bodied POST of url. */
static void
http_request(struct http *h, const char *url, bool post)
{
	struct source *src = h->src;
	CURL *e;

	http_reset_response(h);
	/* The previous transfer of this poll is done: its handle goes. */
	if (h->easy != NULL)
		curl_easy_cleanup(h->easy);
	h->easy = NULL;
	if ((e = curl_easy_init()) == NULL) {
		http_end(h, MLQ_ENOMEM, "curl_easy_init failed");
		return;
	}
	h->easy = e;
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, http_write_cb);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, h);
	curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, http_header_cb);
	curl_easy_setopt(e, CURLOPT_HEADERDATA, h);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, 30L);
	/* A stalled server: less than a byte a second for two minutes. */
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, 120L);
	if (src->tls_ca != NULL)
		curl_easy_setopt(e, CURLOPT_CAINFO, src->tls_ca);
	if (!src->tls_verify && strncmp(url, "https:", 6) == 0) {
		mlq_warnx("source '%s': tls-verify = no: the server's "
			  "certificate is not checked", src->name);
		curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
	}
	if (post) {
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, "");
		curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, 0L);
	}
	h->started = (int64_t)time(NULL);
	mlq_debug("source '%s': %s %s", src->name, post ? "POST" : "GET", url);
	if (curlev_add(src->d->curl, e, http_done_cb, h) != 0)
		http_end(h, MLQ_ENOMEM, "cannot start a transfer");
}

/* The search for the next window: [from, to] or [from, now). */
static void
http_window(struct http *h)
{
	int64_t now = (int64_t)time(NULL);
	char q[96], *esc, *url;
	bool open_lo, count;
	size_t len;

	if (!h->have_cursor)
		h->from = h->src->since;
	else
		h->from =
		    h->cursor > HTTP_OVERLAP ? h->cursor - HTTP_OVERLAP : 0;
	if (h->from < h->src->since)
		h->from = h->src->since;
	/* rt: reads only long numbers as seconds; earlier is "anything". */
	open_lo = h->from <= HTTP_EPOCH;
	if (open_lo)
		h->from = HTTP_EPOCH;
	h->to = h->from + h->win;
	if (h->to >= now - HTTP_OVERLAP)
		h->to = 0;
	if (h->to != 0 && open_lo)
		snprintf(q, sizeof(q), "rt:..%lld", (long long)h->to);
	else if (h->to != 0)
		snprintf(q, sizeof(q), "rt:%lld..%lld", (long long)h->from,
		    (long long)h->to);
	else if (open_lo)
		snprintf(q, sizeof(q), "rt:..%lld", (long long)now + 86400);
	else
		snprintf(q, sizeof(q), "rt:%lld..", (long long)h->from);
	if ((esc = curl_easy_escape(NULL, q, 0)) == NULL) {
		source_done(h->src, MLQ_ENOMEM, "out of memory");
		return;
	}
	len = strlen(h->base) + strlen(esc) + 16;
	if ((url = malloc(len)) == NULL)
		mlq_fatal("malloc");
	/* A long window is counted before it is fetched. */
	count = (h->to != 0 ? h->to : now) - h->from > HTTP_WIN_INIT + HTTP_OVERLAP &&
	    (h->counted_from != h->from || h->counted_to != h->to);
	snprintf(url, len, "%s?q=%s%s", h->base, esc, count ? "" : "&x=m");
	curl_free(esc);
	h->mode = count ? HTTP_COUNT : HTTP_SEARCH;
	http_request(h, url, !count);
	free(url);
}

static void
http_atom(struct http *h)
{
	char *url;
	size_t len = strlen(h->base) + 16;

	if ((url = malloc(len)) == NULL)
		mlq_fatal("malloc");
	snprintf(url, len, "%snew.atom", h->base);
	h->mode = HTTP_ATOM;
	http_request(h, url, false);
	free(url);
}

static void
http_raw_free(struct http *h)
{
	size_t i;

	for (i = 0; i < h->nraw; i++)
		free(h->raw_urls[i]);
	free(h->raw_urls);
	h->raw_urls = NULL;
	h->nraw = h->iraw = 0;
}

/* A new.atom entry updated at or after the cursor: its raw url. */
static void
http_atom_entry(char *url, int64_t t, void *arg)
{
	struct http *h = arg;

	h->raw_urls = reallocarray(h->raw_urls, h->nraw + 1,
	    sizeof(*h->raw_urls));
	if (h->raw_urls == NULL)
		mlq_fatal("reallocarray");
	h->raw_urls[h->nraw++] = url;
	if (t > h->atom_max)
		h->atom_max = t;
}

/* The response to a window's search is complete (or empty: 404). */
static void
http_window_done(struct http *h)
{
	char cursor[48];
	int64_t end;
	uint64_t n = h->count;

	if (h->split != NULL &&
	    mlq_mbox_split_finish(h->split, &h->err) != MLQ_OK) {
		http_end(h, h->err.status, h->err.msg);
		return;
	}
	end = h->to != 0 ? h->to : h->started;
	snprintf(cursor, sizeof(cursor), "rt:%lld", (long long)end);
	if (source_commit(h->src, cursor, &h->err) != MLQ_OK) {
		http_end(h, h->err.status, h->err.msg);
		return;
	}
	h->cursor = end;
	h->have_cursor = true;
	mlq_debug("source '%s': window of %llds: %llu messages", h->src->name,
	    (long long)(end - h->from), (unsigned long long)n);
	if (n < h->cap / 4 && h->win < HTTP_WIN_MAX)
		h->win *= 2;
	else if (n > h->cap * 3 / 4 && h->win / 2 >= HTTP_WIN_MIN)
		h->win /= 2;
	if (h->to == 0 || h->src->stopping) {
		http_end(h, MLQ_OK, NULL);
		return;
	}
	http_next(h);
}

/* One raw message of the atom fallback is in; the next, or commit. */
static void
http_raw_done(struct http *h)
{
	char cursor[48];

	if (h->split != NULL &&
	    mlq_mbox_split_finish(h->split, &h->err) != MLQ_OK) {
		http_end(h, h->err.status, h->err.msg);
		return;
	}
	h->iraw++;
	if (h->iraw < h->nraw && !h->src->stopping) {
		h->mode = HTTP_RAW;
		http_request(h, h->raw_urls[h->iraw], false);
		return;
	}
	snprintf(cursor, sizeof(cursor), "atom:%lld", (long long)h->atom_max);
	if (source_commit(h->src, h->atom_max > 0 ? cursor : NULL, &h->err) !=
	    MLQ_OK) {
		http_end(h, h->err.status, h->err.msg);
		return;
	}
	if (h->atom_max > 0) {
		h->cursor = h->atom_max;
		h->have_cursor = true;
	}
	http_raw_free(h);
	http_end(h, MLQ_OK, NULL);
}

/*
 * The search page of a window: shorten a window that holds more than the
 * cap to about half of it, then fetch.  A page that does not say (another
 * server, another wording, an error) leaves it to the response's count.
 */
static void
http_counted(struct http *h)
{
	uint64_t n;
	int64_t w;

	h->counted_from = h->from;
	h->counted_to = h->to;
	if ((h->code == 200 || h->code == 404) &&
	    wire_search_count(h->small.data != NULL ? h->small.data : "", &n) &&
	    n > h->cap && h->win / 2 >= HTTP_WIN_MIN) {
		/* An open window runs to now. */
		w = h->to != 0 ? h->win : (int64_t)time(NULL) - h->from;
		w = (int64_t)((double)w * (double)h->cap / 2.0 / (double)n);
		h->win = w >= HTTP_WIN_MIN ? w : HTTP_WIN_MIN;
		mlq_debug("source '%s': %llu messages in the window; asking "
			  "for %llds at a time",
		    h->src->name, (unsigned long long)n, (long long)h->win);
	}
	http_window(h);
}

static void
http_done_cb(CURL *easy, CURLcode rc, const char *errbuf, void *arg)
{
	struct http *h = arg;
	char why[512];

	if (!h->checked)
		curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &h->code);
	if (h->too_many) {
		h->too_many = false;
		h->win = h->win / 4 >= HTTP_WIN_MIN ? h->win / 4 : HTTP_WIN_MIN;
		mlq_info("source '%s': more than %llu messages in one request; "
			 "asking for %llds at a time",
		    h->src->name, (unsigned long long)(2 * h->cap),
		    (long long)h->win);
		http_window(h);
		return;
	}
	if (h->fail != MLQ_OK) {
		snprintf(why, sizeof(why), "%s", h->err.msg);
		http_end(h, h->fail, why);
		return;
	}
	if (rc != CURLE_OK) {
		if (!mlq_curl_tls_why(easy, rc, h->src->url_safe, why, sizeof(why)))
			snprintf(why, sizeof(why), "%s: %s", h->src->url_safe,
			    errbuf);
		http_end(h, MLQ_ENET, why);
		return;
	}
	if (h->mode == HTTP_COUNT && rc == CURLE_OK) {
		http_counted(h);
		return;
	}
	if (h->mode == HTTP_SEARCH && h->code == 501) {
		if (!h->no_search)
			mlq_warnx(
			    "source '%s': the inbox has no search (HTTP 501); polling new.atom instead, which can miss mail",
			    h->src->name);
		h->no_search = true;
		h->have_cursor = false;
		http_atom(h);
		return;
	}
	/* "No results found" is a search's empty answer; a bare "Not
	 * Found" is a url that names no inbox. */
	if (h->mode == HTTP_SEARCH &&
	    (h->code == 200 ||
		(h->code == 404 &&
		    strstr(h->small.data, "No results") != NULL))) {
		http_window_done(h);
		return;
	}
	if (h->mode == HTTP_ATOM && h->code == 200) {
		wire_atom_parse(h->small.data, h->have_cursor, h->cursor,
		    http_atom_entry, h);
		if (h->nraw == 0) {
			http_end(h, MLQ_OK, NULL);
			return;
		}
		h->iraw = 0;
		h->mode = HTTP_RAW;
		http_request(h, h->raw_urls[0], false);
		return;
	}
	if (h->mode == HTTP_RAW && (h->code == 200 || h->code == 404)) {
		http_raw_done(h);
		return;
	}
	if (h->code == 429 || h->code == 503)
		h->src->retry_after = h->retry_after;
	snprintf(why, sizeof(why), "%s: HTTP %ld", h->src->url_safe, h->code);
	http_raw_free(h);
	http_end(h, MLQ_ENET, why);
}

/* Resumes from the stored cursor. */
static void
http_next(struct http *h)
{
	if (h->no_search)
		http_atom(h);
	else
		http_window(h);
}

static void
http_poll(struct source *src)
{
	struct http *h = src->drv;
	struct mlq_err err = { MLQ_OK, "" };
	char *cur = NULL;
	long long v;
	int n = 0;

	if (source_cursor(src, &cur, &err) != MLQ_OK) {
		source_done(src, err.status, err.msg);
		return;
	}
	h->have_cursor = false;
	if (cur != NULL &&
	    (sscanf(cur, "rt:%lld%n", &v, &n) == 1 ||
		sscanf(cur, "atom:%lld%n", &v, &n) == 1) &&
	    cur[n] == '\0' && v >= 0) {
		h->cursor = v;
		h->have_cursor = true;
	} else if (cur != NULL) {
		mlq_warnx("source '%s': ignoring unknown cursor '%s'",
		    src->name, cur);
	}
	free(cur);
	http_next(h);
}

static void
http_stop(struct source *src)
{
	struct http *h = src->drv;
	struct mlq_err err = { MLQ_OK, "" };

	if (h->easy == NULL)
		return;
	/* Keep what arrived; the cursor stays where it was. */
	curlev_cancel(src->d->curl, h->easy);
	if (source_commit(src, NULL, &err) != MLQ_OK)
		mlq_warnx("source '%s': %s", src->name, err.msg);
	http_raw_free(h);
	http_end(h, MLQ_OK, NULL);
}

static enum mlq_status
http_start(struct source *src, struct mlq_err *err)
{
	struct http *h;
	size_t n = strlen(src->url);
	const char *env;

	if ((h = calloc(1, sizeof(*h))) == NULL ||
	    (h->base = malloc(n + 2)) == NULL)
		mlq_fatal("calloc");
	memcpy(h->base, src->url, n + 1);
	if (n == 0 || h->base[n - 1] != '/')
		memcpy(h->base + n, "/", 2);
	h->src = src;
	h->win = HTTP_WIN_INIT;
	h->cap = HTTP_WIN_CAP;
	if ((env = getenv("MLQ_HTTP_WINDOW_CAP")) != NULL &&
	    strtoull(env, NULL, 10) >= 8)
		h->cap = strtoull(env, NULL, 10);
	mlq_buf_init(&h->small);
	src->drv = h;
	return MLQ_OK;
}

static void
http_free(struct source *src)
{
	struct http *h = src->drv;

	if (h == NULL)
		return;
	if (h->easy != NULL) {
		curlev_cancel(src->d->curl, h->easy);
		curl_easy_cleanup(h->easy);
	}
	http_reset_response(h);
	mlq_buf_release(&h->small);
	http_raw_free(h);
	free(h->base);
	free(h);
	src->drv = NULL;
}

const struct source_ops src_http_ops = {
	.kind = "http",
	.counted = "messages fetched",
	.start = http_start,
	.poll = http_poll,
	.stop = http_stop,
	.free = http_free,
};
