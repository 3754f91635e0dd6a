/* TLS for IMAP under a libetpan stream (imap-tls.c). */
#ifndef MLQ_IMAP_TLS_H
#define MLQ_IMAP_TLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libetpan/libetpan.h>

/*
 * A TLS session on connected socket fd, its certificate verified against
 * ca (a PEM file; NULL: the system's CAs) and host, as a libetpan low
 * stream that owns fd from then on.  NULL with one sentence in why on any
 * failure; fd is then still the caller's.
 */
mailstream_low *imap_tls_open(int fd, const char *host, const char *ca,
    bool verify, char *why, size_t whylen);

/* A TCP connection to host:port (any of its addresses), or -1 with one
 * sentence in why; a connect gives up after libetpan's network delay. */
int imap_tcp_connect(const char *host, uint16_t port, char *why,
    size_t whylen);

#endif /* MLQ_IMAP_TLS_H */
