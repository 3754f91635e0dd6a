/* libcurl's multi interface driven by libevent (curl's hiperfifo shape). */
#ifndef MLQ_CURL_EV_H
#define MLQ_CURL_EV_H

#include <curl/curl.h>

struct event_base;
struct curlev;

/* The transfer ended; errbuf holds curl's words when rc != CURLE_OK. */
typedef void (
    *curlev_done_fn)(CURL *easy, CURLcode rc, const char *errbuf, void *arg);

/* NULL when curl cannot set up a multi handle. */
struct curlev *curlev_new(struct event_base *base);
/* Transfers still in flight are dropped without their done call. */
void curlev_free(struct curlev *cv);
/*
 * Sets the options every transfer gets (no signals, an error buffer, the
 * User-Agent, -vv chatter to the log) and starts it.  The caller keeps
 * 'easy' and frees it after done() or curlev_cancel().  -1 on failure.
 */
int curlev_add(struct curlev *cv, CURL *easy, curlev_done_fn done, void *arg);
/* Stops a transfer in flight; done() is not called. */
void curlev_cancel(struct curlev *cv, CURL *easy);

#endif
