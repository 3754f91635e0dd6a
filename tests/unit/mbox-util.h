/* Reading real mail in place for the unit tests: files, mbox, headers. */
#ifndef MLQ_MBOX_UTIL_H
#define MLQ_MBOX_UTIL_H

#include <stdbool.h>
#include <stddef.h>

struct mlq_buf;

/* One message: its header block and its body, borrowed from the file. */
struct tmail {
	const char *hdr;
	size_t hdr_len;
	const char *body;
	size_t body_len;
};

/* A file read whole, NUL-terminated (free()); NULL when unreadable. */
char *tmail_read(const char *path, size_t *len);
/*
 * The names of the files in dir ending in suffix, sorted (free each and
 * the array); NULL with *n = 0 when dir cannot be read.
 */
char **tmail_list_dir(const char *dir, const char *suffix, size_t *n);
/* A single message without a "From " line. */
void tmail_one(const char *data, size_t len, struct tmail *m);
/* The messages of an mbox (free() the array); *n gets their count. */
struct tmail *tmail_split_mbox(const char *data, size_t len, size_t *n);
/*
 * The first header called name (case-insensitive), unfolded, into out.
 * False when the message has none.
 */
bool tmail_header(const struct tmail *m, const char *name, struct mlq_buf *out);

#endif
