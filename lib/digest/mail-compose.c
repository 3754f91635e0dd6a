/*
 * Composing the digest mail: a text/plain UTF-8 message that survives any
 * relay (quoted-printable, CRLF, RFC 2047 subject).  Sending it is
 * smtp.c's, kept apart so that mlq itself never links libcurl.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
