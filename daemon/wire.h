/*
 * What mlqd reads off the network, checked without a socket: the gzipped
 * mboxrd of a public-inbox search, its new.atom feed, the CRLF bodies an
 * IMAP server hands out and the imap url.  No libcurl, libevent or
 * libetpan here, so the fuzz harnesses in tests/fuzz reach all of it.
 */
#ifndef MLQ_WIRE_H
#define MLQ_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlq.h"

struct z_stream_s;

/* Whether the first bytes of a body are gzip's magic. */
bool wire_is_gzip(const char *p, size_t n);

/*
 * Inflates p (a piece of a gzip stream; concatenated members are one
 * stream) into split.  z was set up by inflateInit2(z, 16 + MAX_WBITS).
 * MLQ_ENET names 'what' on bad gzip data; else split's status.
 */
enum mlq_status wire_gunzip_feed(struct z_stream_s *z,
    struct mlq_mbox_split *split, const char *p, size_t n, const char *what,
    struct mlq_err *err);

/* One new.atom entry: its raw url (the callee owns it) and its update. */
typedef void (*wire_atom_fn)(char *url, int64_t updated, void *arg);

/*
 * Calls fn for each entry of feed (NUL-terminated) with a link and an
 * update time, at or after 'since' when have_since.  Exits on ENOMEM.
 */
void wire_atom_parse(const char *feed, bool have_since, int64_t since,
    wire_atom_fn fn, void *arg);

/*
 * How many messages a public-inbox search page (HTML, NUL-terminated)
 * says its query matches: "Results 1-200 of ~37377", "No more results,
 * only 12", "[No results found]".  False when the page says none of it
 * (not public-inbox's, or a version that words it otherwise).
 */
bool wire_search_count(const char *page, uint64_t *count);

/*
 * p[0..n) with each CRLF as LF, NUL-terminated, in a malloc'd string the
 * caller frees; its length in *outlen.  NULL on ENOMEM.
 */
char *wire_unfold_crlf(const char *p, size_t n, size_t *outlen);

/*
 * imap[s]://[user@]host[:port]/mailbox (mailbox %-decoded) into the
 * caller's buffers; MLQ_EINPUT if a part is missing or does not fit.
 */
enum mlq_status wire_imap_url(const char *url, bool *tls, char *host,
    size_t hostsz, uint16_t *port, char *mailbox, size_t mailboxsz,
    struct mlq_err *err);

#endif /* MLQ_WIRE_H */
