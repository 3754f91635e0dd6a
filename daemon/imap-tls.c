/*
 * TLS for IMAP done here with GnuTLS, under a libetpan stream.
 *
 * libetpan's own TLS prints GnuTLS's error to stderr, outside the log,
 * and reports any failure as its error 43, and it checks no certificate.
 * Here the handshake verifies the peer against tls-ca or the system's
 * CAs and the host name, and every failure is one sentence for the log:
 * which host, what went wrong.  libetpan then reads and writes through
 * the session as through any stream.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <libetpan/libetpan.h>

#include "imap-tls.h"
#include "mlq.h"
#include "util/log.h"

struct tls_stream {
	gnutls_session_t session;
	gnutls_certificate_credentials_t cred;
	int fd;
};

static void __attribute__((format(printf, 3, 4)))
tls_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

static ssize_t
tls_read(mailstream_low *low, void *buf, size_t n)
{
	struct tls_stream *t = low->data;
	ssize_t r;

	do
		r = gnutls_record_recv(t->session, buf, n);
	while (r == GNUTLS_E_AGAIN || r == GNUTLS_E_INTERRUPTED);
	return r < 0 ? -1 : r;
}

static ssize_t
tls_write(mailstream_low *low, const void *buf, size_t n)
{
	struct tls_stream *t = low->data;
	ssize_t r;

	do
		r = gnutls_record_send(t->session, buf, n);
	while (r == GNUTLS_E_AGAIN || r == GNUTLS_E_INTERRUPTED);
	return r < 0 ? -1 : r;
}

static void
tls_free_data(struct tls_stream *t)
{
	if (t->session != NULL)
		gnutls_deinit(t->session);
	if (t->cred != NULL)
		gnutls_certificate_free_credentials(t->cred);
	free(t);
}

static int
tls_close(mailstream_low *low)
{
	struct tls_stream *t = low->data;

	if (t->fd >= 0) {
		gnutls_bye(t->session, GNUTLS_SHUT_WR);
		close(t->fd);
		t->fd = -1;
	}
	return 0;
}

static int
tls_get_fd(mailstream_low *low)
{
	return ((struct tls_stream *)low->data)->fd;
}

/* libetpan frees the low stream through its driver. */
static void
tls_free(mailstream_low *low)
{
	tls_free_data(low->data);
	free(low);
}

static struct mailstream_cancel *
tls_get_cancel(mailstream_low *low)
{
	(void)low;
	return NULL;
}

/* No IDLE wake-up of our own: libetpan falls back to its cancel pipe. */
static int
tls_no_idle(mailstream_low *low)
{
	(void)low;
	return -1;
}

static mailstream_low_driver tls_driver = {
	.mailstream_read = tls_read,
	.mailstream_write = tls_write,
	.mailstream_close = tls_close,
	.mailstream_get_fd = tls_get_fd,
	.mailstream_free = tls_free,
	.mailstream_cancel = NULL,
	.mailstream_get_cancel = tls_get_cancel,
	.mailstream_get_certificate_chain = NULL,
	.mailstream_setup_idle = tls_no_idle,
	.mailstream_unsetup_idle = tls_no_idle,
	.mailstream_interrupt_idle = tls_no_idle,
};

/* Why the handshake's certificate check failed, in words. */
static void
tls_cert_why(gnutls_session_t s, const char *host, char *why, size_t len)
{
	mlq_tls_status_why(gnutls_session_get_verify_cert_status(s), host, why,
	    len);
}

mailstream_low *
imap_tls_open(int fd, const char *host, const char *ca, bool verify,
    char *why, size_t whylen)
{
	struct tls_stream *t;
	mailstream_low *low;
	struct timeval tv = mailstream_network_delay;
	int r;

	if ((t = calloc(1, sizeof(*t))) == NULL) {
		tls_why(why, whylen, "out of memory");
		return NULL;
	}
	t->fd = fd;
	/* Blocking reads and writes, but never forever. */
	if (tv.tv_sec == 0 && tv.tv_usec == 0)
		tv.tv_sec = 30;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (gnutls_certificate_allocate_credentials(&t->cred) < 0 ||
	    gnutls_init(&t->session, GNUTLS_CLIENT) < 0) {
		tls_why(why, whylen, "%s: TLS: out of memory", host);
		goto fail;
	}
	r = ca != NULL ? gnutls_certificate_set_x509_trust_file(t->cred, ca,
			     GNUTLS_X509_FMT_PEM)
		       : gnutls_certificate_set_x509_system_trust(t->cred);
	if (r <= 0) {
		tls_why(why, whylen, "%s: no trusted CA certificates loaded%s",
		    ca != NULL ? ca : "the system", r < 0 ? "" : " (empty)");
		goto fail;
	}
	if ((r = gnutls_set_default_priority(t->session)) < 0 ||
	    (r = gnutls_credentials_set(t->session, GNUTLS_CRD_CERTIFICATE,
		 t->cred)) < 0 ||
	    (r = gnutls_server_name_set(t->session, GNUTLS_NAME_DNS, host,
		 strlen(host))) < 0) {
		tls_why(why, whylen, "%s: TLS: %s", host, gnutls_strerror(r));
		goto fail;
	}
	/* tls-verify = no: the caller said so in the log. */
	if (verify)
		gnutls_session_set_verify_cert(t->session, host, 0);
	else
		mlq_warnx("%s: tls-verify = no: the server's certificate is "
			  "not checked", host);
	gnutls_transport_set_int(t->session, fd);
	do
		r = gnutls_handshake(t->session);
	while (r < 0 && !gnutls_error_is_fatal(r));
	if (r == GNUTLS_E_CERTIFICATE_VERIFICATION_ERROR) {
		tls_cert_why(t->session, host, why, whylen);
		goto fail;
	}
	if (r < 0) {
		tls_why(why, whylen, "%s: TLS handshake failed: %s%s", host,
		    gnutls_strerror(r),
		    r == GNUTLS_E_UNEXPECTED_PACKET_LENGTH ||
			    r == GNUTLS_E_UNEXPECTED_PACKET ||
			    r == GNUTLS_E_PREMATURE_TERMINATION
			? " (does the server speak TLS on this port?)"
			: "");
		goto fail;
	}
	if ((low = mailstream_low_new(t, &tls_driver)) == NULL) {
		tls_why(why, whylen, "out of memory");
		goto fail;
	}
	return low;
fail:
	t->fd = -1; /* the caller's to close */
	tls_free_data(t);
	return NULL;
}

/* One connect, given up after the network delay libetpan uses. */
static int
tcp_try(const struct addrinfo *ai, int timeout_ms)
{
	struct pollfd pfd;
	socklen_t len = sizeof(int);
	int fd, fl, err = 0;

	if ((fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		 ai->ai_protocol)) < 0)
		return -1;
	if ((fl = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		goto fail;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		if (errno != EINPROGRESS)
			goto fail;
		pfd.fd = fd;
		pfd.events = POLLOUT;
		if (poll(&pfd, 1, timeout_ms) != 1) {
			errno = ETIMEDOUT;
			goto fail;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
			goto fail;
		if (err != 0) {
			errno = err;
			goto fail;
		}
	}
	if (fcntl(fd, F_SETFL, fl) < 0)
		goto fail;
	return fd;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

int
imap_tcp_connect(const char *host, uint16_t port, char *why, size_t whylen)
{
	struct addrinfo hints, *res, *ai;
	char service[8];
	int fd = -1, r, timeout_ms;

	timeout_ms = (int)mailstream_network_delay.tv_sec * 1000 +
	    (int)(mailstream_network_delay.tv_usec / 1000);
	if (timeout_ms <= 0)
		timeout_ms = 30000;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(service, sizeof(service), "%u", (unsigned)port);
	if ((r = getaddrinfo(host, service, &hints, &res)) != 0) {
		tls_why(why, whylen, "%s: %s", host, gai_strerror(r));
		return -1;
	}
	errno = 0;
	for (ai = res; ai != NULL && fd < 0; ai = ai->ai_next)
		fd = tcp_try(ai, timeout_ms);
	if (fd < 0)
		tls_why(why, whylen, "%s:%u: cannot connect: %s", host,
		    (unsigned)port, strerror(errno != 0 ? errno : ECONNREFUSED));
	freeaddrinfo(res);
	return fd;
}
