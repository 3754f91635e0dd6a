/*
 * Shared by the digest's lib files (digest.c, digest-sched.c, smtp.c,
 * store-digest.c) and their unit tests; cli/ and daemon/ never include it.
 */
#ifndef MLQ_DIGEST_INT_H
#define MLQ_DIGEST_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlq-int.h"

/* A stored message as the digest's queries see it; strings are lent. */
struct mlq__dmsg {
	int64_t id;
	const char *msgid;
	const char *subject;
	const char *from_name;
	const char *from_email;
	const char *list; /* the list asked for, else the first; NULL: none */
	const char *norm;
	bool date_ok;
	int64_t date;
	int kind;
	enum mlq_state status;
	unsigned tags; /* msg.tags, as the review engine derives them */
	int version, index, total;
	bool is_reply; /* kind 0 with a parent */
	bool top;      /* a submission that is no later patch of a series */
	int64_t sub;   /* nearest submission above it; 0 when none */
	const char *sub_from; /* that submission's sender; NULL when none */
};

typedef int (*mlq__dmsg_fn)(const struct mlq__dmsg *m, void *arg);

/* Every message dated since <= date < until (in 'list' if not NULL). */
enum mlq_status mlq__store_digest_msgs(struct mlq_store *st, int64_t since,
    int64_t until, const char *list, mlq__dmsg_fn fn, void *arg,
    struct mlq_err *err);
/* One message by row id; MLQ_NOTFOUND when absent. */
enum mlq_status mlq__store_digest_get(struct mlq_store *st, int64_t id,
    const char *list, mlq__dmsg_fn fn, void *arg, struct mlq_err *err);
/* Counts for the summary lines, one call per list (by name). */
typedef int (*mlq__dlist_fn)(const struct mlq_digest_list *l, void *arg);
enum mlq_status mlq__store_digest_lists(struct mlq_store *st, int64_t since,
    int64_t until, const char *list, mlq__dlist_fn fn, void *arg,
    struct mlq_err *err);
/* A commit of a followed ref committed since <= date < until, and the
 * posting it carries (0: none, or none in 'list' when given). */
struct mlq__dcommit {
	const char *repo, *ref, *oid;
	int64_t date;
	int64_t msg;
};
typedef int (*mlq__dcommit_fn)(const struct mlq__dcommit *c, void *arg);
enum mlq_status mlq__store_digest_commits(struct mlq_store *st, int64_t since,
    int64_t until, const char *list, mlq__dcommit_fn fn, void *arg,
    struct mlq_err *err);
/*
 * Whether a message below 'id' (in its branch of the thread) dated before
 * 'until' comes from 'email' (is_from) or from anyone but 'email'.
 */
enum mlq_status mlq__store_digest_below(struct mlq_store *st, int64_t id,
    const char *email, bool is_from, int64_t until, bool *found,
    struct mlq_err *err);
/*
 * Row ids linked to id (mlq_link_kind; outgoing: id is the src), oldest
 * first, up to max; *n gets the count.
 */
enum mlq_status mlq__store_digest_links(struct mlq_store *st, int64_t id,
    int kind, int64_t *ids, size_t max, size_t *n, struct mlq_err *err);
/*
 * The newest submission before 'before' whose normalized title is norm,
 * from 'email' if not NULL, with a version below 'below' if > 0 (else
 * no revert itself); *id 0 when none.  For reverts and versions the link
 * table does not know yet.
 */
enum mlq_status mlq__store_digest_title(struct mlq_store *st, const char *norm,
    const char *email, int below, int64_t before, int64_t *id,
    struct mlq_err *err);

/* Digests sent (schema/002-digest.sql). */
enum mlq_status mlq__store_digest_sent_find(struct mlq_store *st, int64_t start,
    int64_t end, bool *sent, struct mlq_err *err);
/* The end of the last scheduled period sent; MLQ_NOTFOUND if none. */
enum mlq_status mlq__store_digest_sent_last(struct mlq_store *st, int64_t *end,
    struct mlq_err *err);
enum mlq_status mlq__store_digest_sent_add(struct mlq_store *st, int64_t start,
    int64_t end, bool scheduled, int64_t sent, const char *msgid,
    const char *recipients, struct mlq_err *err);

/* ---- pure text helpers (digest.c, smtp.c) ---- */

/*
 * Appends text wrapped at 'width' code points: words split at spaces;
 * the first line starts with 'first', the others with 'rest' (both
 * counted).  A word longer than a line stays whole on a line of its own.
 */
void mlq__wrap(struct mlq_buf *b, const char *first, const char *rest,
    const char *text, size_t width);
/* Code points in s (UTF-8). */
size_t mlq__cols(const char *s, size_t n);
/*
 * Appends s percent-encoded for a URL path segment: unreserved, sub-delims,
 * ':' and '@' pass (as public-inbox writes Message-Ids), the rest is %XX.
 */
void mlq__pct_encode(struct mlq_buf *b, const char *s);
/*
 * Appends text (LF line ends) as quoted-printable with CRLF line ends:
 * lines of at most 76 bytes, '=' and bytes outside printable ASCII as =XX,
 * a space or tab before a line end encoded, a line starting "From " or
 * "." encoded so no relay or mbox mangles it.
 */
void mlq__qp_encode(struct mlq_buf *b, const char *text, size_t len);
/* Appends a header value, as an RFC 2047 encoded word if not ASCII. */
void mlq__mime_header(struct mlq_buf *b, const char *s);

#endif
