/*
 * Handing a composed mail to an SMTP server through libcurl, TLS required
 * and certificates verified.  Only mlqd and the mlq-smtp helper link this:
 * libcurl and its thirty libraries cost every mlq command 4 ms to load.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <gnutls/gnutls.h>

#include "digest-int.h"

struct smtp_io {
	const char *p; /* what is left to upload */
	size_t left;
	char answer[200]; /* the server's last refusal */
};

static size_t
smtp_read(char *buf, size_t size, size_t nitems, void *arg)
{
	struct smtp_io *io = arg;
	size_t n = size * nitems;

	if (n > io->left)
		n = io->left;
	memcpy(buf, io->p, n);
	io->p += n;
	io->left -= n;
	return n;
}

/* Keeps the server's last refusal; what the client sends is never kept. */
static int
smtp_debug(CURL *h, curl_infotype type, char *data, size_t n, void *arg)
{
	struct smtp_io *io = arg;
	struct mlq_buf t;

	(void)h;
	/* Only refusals (4xx, 5xx): the QUIT that follows must not hide them. */
	if (type != CURLINFO_HEADER_IN || n == 0 ||
	    (data[0] != '4' && data[0] != '5'))
		return 0;
	while (n > 0 && (data[n - 1] == '\n' || data[n - 1] == '\r'))
		n--;
	mlq_buf_init(&t);
	mlq_text_escape(&t, data, n);
	snprintf(io->answer, sizeof(io->answer), "%s", t.oom ? "" : t.data);
	mlq_buf_release(&t);
	return 0;
}

/* Network trouble worth another try later. */
static bool
smtp_transient(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_WEIRD_SERVER_REPLY:
		return true;
	default:
		return false;
	}
}

void
mlq_tls_status_why(unsigned status, const char *who, char *why, size_t len)
{
	gnutls_datum_t txt = { NULL, 0 };

	if (status & GNUTLS_CERT_UNEXPECTED_OWNER) {
		snprintf(why, len, "%s: TLS certificate is not for this host name",
		    who);
		return;
	}
	if (gnutls_certificate_verification_status_print(status,
		GNUTLS_CRT_X509, &txt, 0) < 0)
		txt.data = NULL;
	/* GnuTLS ends its sentences with a space. */
	while (txt.data != NULL && txt.size > 0 &&
	    txt.data[txt.size - 1] == ' ')
		txt.data[--txt.size] = '\0';
	snprintf(why, len, "%s: TLS certificate not trusted: %s", who,
	    txt.data != NULL ? (const char *)txt.data : "verification failed");
	gnutls_free(txt.data);
}

bool
mlq_curl_tls_why(void *easy, int rc, const char *who, char *why, size_t len)
{
	const curl_version_info_data *v = curl_version_info(CURLVERSION_NOW);
	long status = 0;

	/* Another backend's code is not GnuTLS's status: its words stay. */
	if (rc != CURLE_PEER_FAILED_VERIFICATION || v == NULL ||
	    v->ssl_version == NULL ||
	    strncmp(v->ssl_version, "GnuTLS", 6) != 0 ||
	    curl_easy_getinfo(easy, CURLINFO_SSL_VERIFYRESULT, &status) !=
		CURLE_OK ||
	    status == 0)
		return false;
	mlq_tls_status_why((unsigned)status, who, why, len);
	return true;
}

static enum mlq_status
smtp_fail(struct mlq_err *err, CURL *h, const char *url, CURLcode rc,
    long code, const struct smtp_io *io, const char *ebuf, bool *retryable)
{
	char tls[300];
	struct mlq_buf u;
	const char *why = *ebuf ? ebuf : curl_easy_strerror(rc);
	enum mlq_status st;

	mlq_buf_init(&u);
	mlq_url_redact(&u, url);
	if (code >= 400 && code < 600) {
		*retryable = code < 500;
		st = mlq_err_set(err, MLQ_ENET,
		    "smtp '%s': %s: server said '%s'%s", u.data, why,
		    io->answer, code < 500 ? " (will retry)" : "");
	} else if (mlq_curl_tls_why(h, rc, "", tls, sizeof(tls))) {
		*retryable = false;
		/* tls is ": TLS certificate ...": who is the url. */
		st = mlq_err_set(err, MLQ_ENET, "smtp '%s'%s", u.data, tls);
	} else if (rc == CURLE_USE_SSL_FAILED) {
		*retryable = false;
		st = mlq_err_set(err, MLQ_ENET,
		    "smtp '%s': the server offers no STARTTLS (smtp-starttls = no "
		    "sends in clear)",
		    u.data);
	} else {
		*retryable = smtp_transient(rc);
		st = mlq_err_set(err, MLQ_ENET, "smtp '%s': %s", u.data, why);
	}
	mlq_buf_release(&u);
	return st;
}

/* smtp://[user@]127.0.0.1|localhost|[::1][:port]: a password never leaves the host. */
static bool
smtp_is_loopback(const char *url)
{
	static const char *const hosts[] = { "127.0.0.1", "localhost",
		"[::1]" };
	const char *h = strstr(url, "://"), *at, *end;
	size_t i, n;

	if (h == NULL)
		return false;
	h += 3;
	end = h + strcspn(h, "/?#");
	if ((at = memchr(h, '@', (size_t)(end - h))) != NULL)
		h = at + 1;
	for (i = 0; i < MLQ__ARRAY_SIZE(hosts); i++) {
		n = strlen(hosts[i]);
		if (strncmp(h, hosts[i], n) == 0 &&
		    (h[n] == ':' || h + n == end))
			return true;
	}
	return false;
}

enum mlq_status
mlq_smtp_send(const struct mlq_conf *c, const char *mail, size_t len,
    bool *retryable, struct mlq_err *err)
{
	const struct mlq_conf_digest *dg = &c->digest;
	struct curl_slist *rcpt = NULL, *grown;
	struct smtp_io io;
	char ebuf[CURL_ERROR_SIZE], from[320], to[320];
	char *password = NULL;
	enum mlq_status st;
	CURLcode rc;
	CURL *h;
	long code = 0;
	size_t i;
	bool tls;

	*retryable = false;
	if (dg->smtp == NULL || dg->from == NULL || dg->nto == 0)
		return mlq_err_set(err, MLQ_EINPUT,
		    "digest: [digest] needs smtp, from and to to mail");
	tls = strncmp(dg->smtp, "smtps://", 8) == 0 || dg->smtp_starttls;
	if (dg->smtp_user != NULL && !tls && !smtp_is_loopback(dg->smtp))
		return mlq_err_set(err, MLQ_EINPUT,
		    "digest: smtp-user with smtp-starttls = no would send the "
		    "password in clear: use smtps:// or STARTTLS");
	if (dg->smtp_user != NULL) {
		st = mlq_conf_secret(c, "smtp-password", &password, err);
		if (st == MLQ_NOTFOUND)
			return mlq_err_set(err, MLQ_EINPUT,
			    "digest: smtp-user is set but the secrets file '%s' "
			    "has no smtp-password",
			    c->secrets != NULL ? c->secrets : "");
		if (st != MLQ_OK)
			return st;
	}
	if ((size_t)snprintf(from, sizeof(from), "<%s>", dg->from) >=
	    sizeof(from)) {
		mlq_conf_secret_free(password);
		return mlq_err_set(err, MLQ_EINPUT, "digest: from too long");
	}
	for (i = 0; i < dg->nto; i++) {
		snprintf(to, sizeof(to), "<%s>", dg->to[i]);
		if ((grown = curl_slist_append(rcpt, to)) == NULL) {
			curl_slist_free_all(rcpt);
			mlq_conf_secret_free(password);
			return mlq_err_set(err, MLQ_ENOMEM,
			    "smtp: out of memory");
		}
		rcpt = grown;
	}
	if ((h = curl_easy_init()) == NULL) {
		curl_slist_free_all(rcpt);
		mlq_conf_secret_free(password);
		return mlq_err_set(err, MLQ_ENOMEM, "smtp: cannot start curl");
	}
	memset(&io, 0, sizeof(io));
	io.p = mail;
	io.left = len;
	ebuf[0] = '\0';
	curl_easy_setopt(h, CURLOPT_URL, dg->smtp);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, ebuf);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, (long)MLQ_SMTP_TIMEOUT);
	/* smtps:// is TLS from the start; smtp:// must upgrade unless told not. */
	curl_easy_setopt(h, CURLOPT_USE_SSL,
	    tls ? (long)CURLUSESSL_ALL : (long)CURLUSESSL_NONE);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, dg->tls_verify ? 1L : 0L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, dg->tls_verify ? 2L : 0L);

	if (dg->tls_ca != NULL)
		curl_easy_setopt(h, CURLOPT_CAINFO, dg->tls_ca);
	if (dg->smtp_user != NULL) {
		curl_easy_setopt(h, CURLOPT_USERNAME, dg->smtp_user);
		curl_easy_setopt(h, CURLOPT_PASSWORD, password);
	}
	curl_easy_setopt(h, CURLOPT_MAIL_FROM, from);
	curl_easy_setopt(h, CURLOPT_MAIL_RCPT, rcpt);
	curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(h, CURLOPT_READFUNCTION, smtp_read);
	curl_easy_setopt(h, CURLOPT_READDATA, &io);
	curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, smtp_debug);
	curl_easy_setopt(h, CURLOPT_DEBUGDATA, &io);
	curl_easy_setopt(h, CURLOPT_VERBOSE, 1L);
	rc = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	st = rc == CURLE_OK
	    ? MLQ_OK
	    : smtp_fail(err, h, dg->smtp, rc, code, &io, ebuf, retryable);
	curl_easy_cleanup(h);
	curl_slist_free_all(rcpt);
	mlq_conf_secret_free(password);
	return st;
}
