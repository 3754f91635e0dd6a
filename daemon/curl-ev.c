/*
 * libcurl multi on libevent, wired as curl's hiperfifo.c: an event per
 * socket curl asks about, one timer, curl_multi_info_read() drained after
 * each action, CURLOPT_PRIVATE pointing back at the transfer.  Failures
 * end the transfer they belong to, never the daemon.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <event2/event.h>

#include "curl-ev.h"
#include "util/log.h"

struct curlev {
	struct event_base *base;
	CURLM *multi;
	struct event *timer;
};

struct curlev_sock {
	struct curlev *cv;
	struct event *ev;
	curl_socket_t fd;
};

struct curlev_xfer {
	struct curlev *cv;
	CURL *easy;
	curlev_done_fn done;
	void *arg;
	char errbuf[CURL_ERROR_SIZE];
};

static void
curlev_check(struct curlev *cv)
{
	struct curlev_xfer *x;
	curlev_done_fn done;
	CURLMsg *msg;
	CURLcode rc;
	CURL *easy;
	char errbuf[CURL_ERROR_SIZE];
	void *arg;
	int left;

	while ((msg = curl_multi_info_read(cv->multi, &left)) != NULL) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		easy = msg->easy_handle;
		rc = msg->data.result;
		x = NULL;
		curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&x);
		curl_multi_remove_handle(cv->multi, easy);
		if (x == NULL)
			continue;
		done = x->done;
		arg = x->arg;
		memcpy(errbuf, x->errbuf, sizeof(errbuf));
		if (errbuf[0] == '\0')
			strncpy(errbuf, curl_easy_strerror(rc),
			    sizeof(errbuf) - 1);
		curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, NULL);
		curl_easy_setopt(easy, CURLOPT_PRIVATE, NULL);
		free(x);
		/* done() may add transfers or free the caller's state. */
		done(easy, rc, errbuf, arg);
	}
}

static void
curlev_action(struct curlev *cv, curl_socket_t fd, int what)
{
	CURLMcode mc;
	int running;

	mc = curl_multi_socket_action(cv->multi, fd, what, &running);
	if (mc != CURLM_OK)
		mlq_warnx("curl: %s", curl_multi_strerror(mc));
	curlev_check(cv);
}

static void
curlev_on_socket(evutil_socket_t fd, short kind, void *arg)
{
	struct curlev *cv = arg;
	int what = 0;

	if (kind & EV_READ)
		what |= CURL_CSELECT_IN;
	if (kind & EV_WRITE)
		what |= CURL_CSELECT_OUT;
	curlev_action(cv, (curl_socket_t)fd, what);
}

static void
curlev_on_timer(evutil_socket_t fd, short kind, void *arg)
{
	curlev_action(arg, CURL_SOCKET_TIMEOUT, 0);
}

/* CURLMOPT_TIMERFUNCTION: curl wants to be called back in ms. */
static int
curlev_timer_cb(CURLM *multi, long ms, void *arg)
{
	struct curlev *cv = arg;
	struct timeval tv;

	if (ms < 0) {
		evtimer_del(cv->timer);
		return 0;
	}
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	return evtimer_add(cv->timer, &tv) == 0 ? 0 : -1;
}

/* CURLMOPT_SOCKETFUNCTION: watch, change or forget one socket. */
static int
curlev_socket_cb(CURL *easy, curl_socket_t fd, int what, void *arg, void *sockp)
{
	struct curlev *cv = arg;
	struct curlev_sock *s = sockp;
	short kind;

	if (what == CURL_POLL_REMOVE) {
		if (s != NULL) {
			event_free(s->ev);
			free(s);
			curl_multi_assign(cv->multi, fd, NULL);
		}
		return 0;
	}
	kind = EV_PERSIST;
	if (what & CURL_POLL_IN)
		kind |= EV_READ;
	if (what & CURL_POLL_OUT)
		kind |= EV_WRITE;
	if (s == NULL) {
		if ((s = calloc(1, sizeof(*s))) == NULL)
			return -1;
		s->cv = cv;
		s->fd = fd;
		curl_multi_assign(cv->multi, fd, s);
	} else {
		event_free(s->ev);
		s->ev = NULL;
	}
	s->ev = event_new(cv->base, fd, kind, curlev_on_socket, cv);
	if (s->ev == NULL || event_add(s->ev, NULL) != 0) {
		mlq_warnx("curl: cannot watch socket %d", (int)fd);
		return -1;
	}
	return 0;
}

struct curlev *
curlev_new(struct event_base *base)
{
	struct curlev *cv;

	if ((cv = calloc(1, sizeof(*cv))) == NULL)
		return NULL;
	cv->base = base;
	cv->multi = curl_multi_init();
	cv->timer = evtimer_new(base, curlev_on_timer, cv);
	if (cv->multi == NULL || cv->timer == NULL) {
		curlev_free(cv);
		return NULL;
	}
	curl_multi_setopt(cv->multi, CURLMOPT_SOCKETFUNCTION, curlev_socket_cb);
	curl_multi_setopt(cv->multi, CURLMOPT_SOCKETDATA, cv);
	curl_multi_setopt(cv->multi, CURLMOPT_TIMERFUNCTION, curlev_timer_cb);
	curl_multi_setopt(cv->multi, CURLMOPT_TIMERDATA, cv);
	return cv;
}

void
curlev_free(struct curlev *cv)
{
	if (cv == NULL)
		return;
	if (cv->multi != NULL)
		curl_multi_cleanup(cv->multi);
	if (cv->timer != NULL)
		event_free(cv->timer);
	free(cv);
}

/* CURLOPT_DEBUGFUNCTION at -vv: curl's own words and the headers. */
static int
curlev_debug_cb(CURL *easy, curl_infotype type, char *data, size_t len,
    void *arg)
{
	const char *dir;

	switch (type) {
	case CURLINFO_TEXT:
		dir = "*";
		break;
	case CURLINFO_HEADER_IN:
		dir = "<";
		break;
	case CURLINFO_HEADER_OUT:
		dir = ">";
		break;
	default:
		return 0;
	}
	while (len > 0 && (data[len - 1] == '\n' || data[len - 1] == '\r'))
		len--;
	/* Never log credentials a request may carry. */
	if (type == CURLINFO_HEADER_OUT)
		mlq_trace("curl %s %.*s", dir,
		    (int)strcspn(data, "\r\n") < (int)len
			? (int)strcspn(data, "\r\n")
			: (int)len,
		    data);
	else
		mlq_trace("curl %s %.*s", dir, (int)len, data);
	return 0;
}

int
curlev_add(struct curlev *cv, CURL *easy, curlev_done_fn done, void *arg)
{
	struct curlev_xfer *x;

	if ((x = calloc(1, sizeof(*x))) == NULL)
		return -1;
	x->cv = cv;
	x->easy = easy;
	x->done = done;
	x->arg = arg;
	curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, x->errbuf);
	curl_easy_setopt(easy, CURLOPT_PRIVATE, x);
	curl_easy_setopt(easy, CURLOPT_USERAGENT,
	    PACKAGE_NAME "/" PACKAGE_VERSION);
	if (mlq_log_verbosity() >= 2) {
		curl_easy_setopt(easy, CURLOPT_VERBOSE, 1L);
		curl_easy_setopt(easy, CURLOPT_DEBUGFUNCTION, curlev_debug_cb);
	}
	if (curl_multi_add_handle(cv->multi, easy) != CURLM_OK) {
		curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, NULL);
		curl_easy_setopt(easy, CURLOPT_PRIVATE, NULL);
		free(x);
		return -1;
	}
	return 0;
}

void
curlev_cancel(struct curlev *cv, CURL *easy)
{
	struct curlev_xfer *x = NULL;

	curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&x);
	curl_multi_remove_handle(cv->multi, easy);
	curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, NULL);
	curl_easy_setopt(easy, CURLOPT_PRIVATE, NULL);
	free(x);
}
