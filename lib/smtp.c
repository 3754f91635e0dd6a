/*
 * Mailing the digest: compose a text/plain UTF-8 message that survives
 * any relay (quoted-printable, CRLF, RFC 2047 subject) and hand it to an
 * SMTP server through libcurl, TLS required and certificates verified.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "digest-int.h"

/* RFC 2045: encoded lines are at most 76 characters, the '=' included. */
#define QP_LINE 76
/* RFC 5322 recommends 78; encoded words are at most 75 (RFC 2047). */
#define HDR_LINE 78
#define EW_MAX	 75

static bool
qp_plain(unsigned char c)
{
	return c >= 33 && c <= 126 && c != '=';
}

void
mlq__qp_encode(struct mlq_buf *b, const char *text, size_t len)
{
	const unsigned char *p = (const unsigned char *)text;
	const unsigned char *end = p + len, *eol, *q;
	size_t col, tok, next;
	bool enc;

	while (p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		col = 0;
		for (q = p; q < eol; q++) {
			/* A line start that mbox or SMTP would touch. */
			enc = !qp_plain(*q) && *q != ' ' && *q != '\t';
			if (col == 0 &&
			    (*q == '.' ||
				(eol - q >= 5 && memcmp(q, "From ", 5) == 0)))
				enc = true;
			if (*q == ' ' || *q == '\t') {
				/* Whitespace must not end a line: relays strip it. */
				next =
				    q + 1 < eol ? (qp_plain(q[1]) ? 1 : 3) : 0;
				enc = next == 0 || col + 1 + next > QP_LINE - 1;
			}
			tok = enc ? 3 : 1;
			/* Room for the soft break's '=' unless the line ends here. */
			if (col + tok > (q + 1 < eol ? QP_LINE - 1 : QP_LINE)) {
				mlq_buf_addstr(b, "=\r\n");
				col = 0;
				if (*q == '.' ||
				    (eol - q >= 5 &&
					memcmp(q, "From ", 5) == 0))
					enc = true, tok = 3;
			}
			if (enc)
				mlq_buf_addf(b, "=%02X", *q);
			else
				mlq_buf_addch(b, (char)*q);
			col += tok;
		}
		mlq_buf_addstr(b, "\r\n");
		p = eol < end ? eol + 1 : end;
	}
}

static bool
is_ascii_text(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < ' ' || (unsigned char)*s > '~')
			return false;
	return true;
}

/* Length of the UTF-8 sequence starting with c (1 for a stray byte). */
static size_t
utf8_len(unsigned char c)
{
	if (c >= 0xf0)
		return 4;
	if (c >= 0xe0)
		return 3;
	if (c >= 0xc0)
		return 2;
	return 1;
}

void
mlq__mime_header(struct mlq_buf *b, const char *s)
{
	static const char head[] = "=?UTF-8?Q?";
	const unsigned char *p = (const unsigned char *)s;
	size_t col, need, i, n;
	const char *w, *sp;

	if (is_ascii_text(s)) {
		/* Fold at spaces so lines stay near 78 characters. */
		col = 10;
		for (w = s; *w != '\0'; w = sp) {
			sp = w + 1 + strcspn(w + 1, " ");
			n = (size_t)(sp - w);
			if (w != s && col + n > HDR_LINE) {
				mlq_buf_addstr(b, "\r\n");
				col = 0;
			}
			mlq_buf_add(b, w, n);
			col += n;
		}
		return;
	}
	mlq_buf_addstr(b, head);
	col = sizeof(head) - 1;
	while (*p != '\0') {
		n = utf8_len(*p);
		for (i = 1; i < n; i++)
			if (p[i] == '\0')
				n = i;
		need = 0;
		for (i = 0; i < n; i++)
			need += (p[i] >= 'a' && p[i] <= 'z') ||
				(p[i] >= 'A' && p[i] <= 'Z') ||
				(p[i] >= '0' && p[i] <= '9') || p[i] == ' '
			    ? 1
			    : 3;
		/* A character never straddles two encoded words. */
		if (col + need + 2 > EW_MAX) {
			mlq_buf_addstr(b, "?=\r\n ");
			mlq_buf_addstr(b, head);
			col = sizeof(head) - 1;
		}
		for (i = 0; i < n; i++) {
			if (p[i] == ' ')
				mlq_buf_addch(b, '_');
			else if ((p[i] >= 'a' && p[i] <= 'z') ||
			    (p[i] >= 'A' && p[i] <= 'Z') ||
			    (p[i] >= '0' && p[i] <= '9'))
				mlq_buf_addch(b, (char)p[i]);
			else
				mlq_buf_addf(b, "=%02X", p[i]);
		}
		col += need;
		p += n;
	}
	mlq_buf_addstr(b, "?=");
}

/* "Mon, 26 Apr 2021 10:00:00 +0200", in the local zone (RFC 5322). */
static void
mail_date(struct mlq_buf *b, int64_t when)
{
	static const char *const wd[] = { "Sun", "Mon", "Tue", "Wed", "Thu",
		"Fri", "Sat" };
	static const char *const mon[] = { "Jan", "Feb", "Mar", "Apr", "May",
		"Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	time_t t = (time_t)when;
	struct tm tm;
	long off;

	if (localtime_r(&t, &tm) == NULL) {
		gmtime_r(&t, &tm);
		tm.tm_gmtoff = 0;
	}
	off = tm.tm_gmtoff / 60;
	mlq_buf_addf(b, "%s, %d %s %d %02d:%02d:%02d %c%02ld%02ld",
	    wd[tm.tm_wday % 7], tm.tm_mday, mon[tm.tm_mon % 12],
	    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec,
	    off < 0 ? '-' : '+', (off < 0 ? -off : off) / 60,
	    (off < 0 ? -off : off) % 60);
}

void
mlq_smtp_compose(const struct mlq_smtp_mail *m, struct mlq_buf *out)
{
	size_t i;

	mlq_buf_addf(out, "From: %s\r\n", m->from);
	mlq_buf_addstr(out, "To: ");
	for (i = 0; i < m->nto; i++)
		mlq_buf_addf(out, "%s%s", i ? ",\r\n " : "", m->to[i]);
	mlq_buf_addstr(out, "\r\nSubject: ");
	mlq__mime_header(out, m->subject);
	mlq_buf_addstr(out, "\r\nDate: ");
	mail_date(out, m->date);
	mlq_buf_addf(out, "\r\nMessage-Id: <%s>\r\n", m->msgid);
	mlq_buf_addstr(out,
	    "MIME-Version: 1.0\r\n"
	    "Content-Type: text/plain; charset=utf-8\r\n"
	    "Content-Transfer-Encoding: quoted-printable\r\n"
	    "Auto-Submitted: auto-generated\r\n"
	    "\r\n");
	mlq__qp_encode(out, m->body, m->body_len);
}

enum mlq_status
mlq_smtp_msgid(const char *from, char *out, size_t n, struct mlq_err *err)
{
	unsigned char r[12];
	const char *at = from != NULL ? strrchr(from, '@') : NULL;
	char hex[2 * sizeof(r) + 1];
	size_t i;

	if (getentropy(r, sizeof(r)) != 0)
		return mlq_err_set(err, MLQ_EIO, "digest: no random bytes");
	for (i = 0; i < sizeof(r); i++)
		snprintf(hex + 2 * i, 3, "%02x", r[i]);
	if ((size_t)snprintf(out, n, "mlq-digest.%s@%s", hex,
		at != NULL ? at + 1 : "localhost") >= n)
		return mlq_err_set(err, MLQ_EINPUT,
		    "digest: sender address too long");
	return MLQ_OK;
}

/* ---- sending ---- */

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

static enum mlq_status
smtp_fail(struct mlq_err *err, const char *url, CURLcode rc, long code,
    const struct smtp_io *io, const char *ebuf, bool *retryable)
{
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
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
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
	    : smtp_fail(err, dg->smtp, rc, code, &io, ebuf, retryable);
	curl_easy_cleanup(h);
	curl_slist_free_all(rcpt);
	mlq_conf_secret_free(password);
	return st;
}
