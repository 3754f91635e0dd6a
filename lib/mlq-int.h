/* Shared inside lib/ only; cli/ and daemon/ never include this. */
#ifndef MLQ_INT_H
#define MLQ_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlq.h"
#include "mlq-limits.h"

#define MLQ__ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ASCII-only lower-casing: mail header syntax is ASCII. */
static inline char
mlq__lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/*
 * A message's words for the free-text index, worked out off the writer
 * (text-terms.c).  One mlq_terms per thread; NULL from _new on ENOMEM.
 * _of_msg sets m's terms fields.  mlq__text_indexed_len is how much
 * of a body the index takes (text-split.c).
 */
struct mlq_terms;
struct mlq_terms *mlq__terms_new(void);
void mlq__terms_free(struct mlq_terms *t);
enum mlq_status mlq__terms_of_msg(struct mlq_terms *t, struct mlq_msg *m);
size_t mlq__text_indexed_len(const char *body, size_t len);
/*
 * The words the index's tokenizer (without its stemmer) cuts s into, each
 * folded, handed to fn in order until it returns non-zero: where a query
 * word outside ASCII splits, the index split it too ("a\u2014b" is two).
 */
typedef int (*mlq_token_fn)(const char *tok, size_t n, void *arg);
enum mlq_status mlq__text_tokens(const char *s, size_t n, mlq_token_fn fn,
    void *arg);
/* A stored message's headers and body only: no trailers, patch or tags
 * (parse.c), for what reads the text alone. */
enum mlq_status mlq__msg_parse_text(const void *zraw, size_t zlen,
    size_t len, struct mlq_msg **out, struct mlq_err *err);
/* The FTS5 API of db, for its tokenizers; NULL when it has none. */
struct sqlite3;
struct fts5_api;
struct fts5_api *mlq__fts5_api(struct sqlite3 *db);
/* m's text for each column of the index, into cols[MLQ_TEXT_NCOLS]
 * (reset first; text-split.c). */
void mlq__text_columns(const struct mlq_msg *m, struct mlq_buf *cols);

/* `git patch-id --stable` of the diff in text (patch-id.c); false: none. */
bool mlq__git_patch_id(const char *text, size_t len, char out[41]);

/* SHA-1 (sha1.c) for patch ids and synthetic Message-Ids. */
struct mlq__sha1 {
	uint32_t h[5];
	uint64_t len;
	unsigned char block[64];
	size_t fill;
};
void mlq__sha1_init(struct mlq__sha1 *c);
void mlq__sha1_update(struct mlq__sha1 *c, const void *p, size_t n);
void mlq__sha1_final(struct mlq__sha1 *c, unsigned char out[20]);
/* 40 lower-case hex digits and a NUL. */
void mlq__sha1_hex(const unsigned char d[20], char out[41]);
/* Writes n bytes as 2n lower-case hex digits, no NUL; out may equal in. */
void mlq__hex(char *out, const unsigned char *in, size_t n);

/*
 * The mbox splitter (mbox.c) shared by the file reader and the chunked
 * splitter of mlq.h: fed bytes in chunks of any size, it cuts them into
 * messages, the From_ line removed and mboxrd quoting undone.
 */
enum mlq__split_mode {
	MLQ__SPLIT_MBOX, /* split at From_ lines after a blank line */
	MLQ__SPLIT_ONE,	 /* one message; only a leading "From " line goes */
};

struct mlq__split {
	struct mlq_buf msg;  /* the message being collected */
	struct mlq_buf line; /* a line cut by the end of a chunk */
	enum mlq__split_mode mode;
	enum mlq_status fail; /* MLQ_EINPUT: too large; MLQ_ENOMEM */
	uint64_t count;	      /* messages handed out */
	bool at_start;	      /* no line seen yet */
	bool held_blank;      /* a blank line kept back: it may precede From_ */
	bool held_crlf;	      /* ... and it was "\r\n" */
	bool skip_line;	      /* dropping the rest of an overlong line */
	bool emitted;	      /* msg was handed out: clear it before going on */
};

void mlq__split_init(struct mlq__split *s, enum mlq__split_mode mode);
void mlq__split_release(struct mlq__split *s);
/* Starts a new input, keeping the memory already allocated. */
void mlq__split_reset(struct mlq__split *s, enum mlq__split_mode mode);
/*
 * Consumes p up to the end of the next complete message at most and
 * stores in *used how much it took.  Returns true when a message is ready:
 * its bytes are s->msg (lent until the next call) and s->fail tells
 * whether it must be skipped (too large, or memory ran out).
 */
bool mlq__split_step(struct mlq__split *s, const char *p, size_t n,
    size_t *used);
/* At the end of the input: true while a last message is ready, as above. */
bool mlq__split_end(struct mlq__split *s);

/* dir has cur/ or new/ (maildir.c). */
bool mlq__dir_is_maildir(const char *dir);
/*
 * Every regular file below dir (maildir.c), recursively and sorted by
 * name, skipping dotfiles and a maildir's tmp/; in a maildir (cur/ or
 * new/ present) only cur/ then new/.  On MLQ_OK the caller owns *files
 * and each string (free()); *total is the sum of the file sizes.
 */
enum mlq_status mlq__dir_list(const char *dir, char ***files, size_t *nfiles,
    uint64_t *total, struct mlq_err *err);
/*
 * Tags a reply can earn, and those its submission's author cannot (the
 * tags of classify.c's others_only rules): mlq_classify_reply(by_submitter
 * = true) gives exactly the by_submitter = false result without these,
 * which the store relies on (t-classify checks it).
 */
#define MLQ__TAG_REPLY                                                         \
	(MLQ_TAG_NACK | MLQ_TAG_ACK | MLQ_TAG_REVIEWED | MLQ_TAG_TESTED |      \
	    MLQ_TAG_QUESTION | MLQ_TAG_CHANGES | MLQ_TAG_APPLIED)
#define MLQ__TAG_OTHERS_ONLY                                                   \
	(MLQ_TAG_ACK | MLQ_TAG_REVIEWED | MLQ_TAG_TESTED | MLQ_TAG_QUESTION |  \
	    MLQ_TAG_CHANGES)
/*
 * A diff's sketch (patch.c): the hashes of its changed lines, whitespace
 * aside, the smallest MLQ__SKETCH_MAX of them in ascending order; their
 * count is returned.  Two sketches' likeness estimates the share of
 * changed lines two diffs have in common, 0 to 1 (exact for diffs of
 * fewer changed lines than that).  A retitled version is found by it.
 */
#define MLQ__SKETCH_MAX 128
size_t mlq__patch_sketch(const char *diff, size_t len,
    uint64_t out[MLQ__SKETCH_MAX]);
double mlq__sketch_likeness(const uint64_t *a, size_t na, const uint64_t *b,
    size_t nb);
/*
 * The rule of a question put to someone by name ("Bruce, any further
 * thoughts?"): its evidence opens with that name, and the review engine
 * keeps the question only when the name is the author's.
 */
#define MLQ__RULE_QUESTION_TO_NAME "question-to-name"
/*
 * The name a mail asking something greets ("Hi Tony,"): an evidence row
 * of tag 0 with this rule and the name as its line, never shown.
 */
#define MLQ__RULE_GREETING "greeting"
/*
 * A mail whose every change request is a bare "X should be Y" answering
 * quoted prose: an evidence row of tag 0 with this rule.  In a reply to
 * another reply (not to the patch) it argues a point in a discussion and
 * the review engine takes no change request from it.
 */
#define MLQ__RULE_ARGUES "argues"
/*
 * A mail whose change request is said right under a quoted line of the
 * diff: an evidence row of tag 0.  Put to whomever the mail answers, it
 * still asks the author to change his code.
 */
#define MLQ__RULE_ON_CODE "on-code"
/*
 * The change-request rules that speak to "you": the review engine reads
 * such a request, in a reply to a third person, as asked of him.
 */
#define MLQ__RULE_PLEASE       "changes-please"
#define MLQ__RULE_CAN_YOU      "changes-can-you"
#define MLQ__RULE_YOU_SHOULD   "changes-you-should"
#define MLQ__RULE_PLEASE_DO    "changes-please-do"
#define MLQ__RULE_ASK_YOU      "changes-ask-you"
/* m's author as mm maps it; the author as written kept in m->unmapped. */
void mlq__mailmap_apply(const struct mlq_mailmap *mm, struct mlq_msg *m);
/* The name of classify.c's i-th rule, NULL past the last: for the tests. */
const char *mlq__classify_rule_name(size_t i);
/* Adds n to a source's count of stored messages. */
enum mlq_status mlq__store_source_count(struct mlq_store *st,
    const char *source, uint64_t n, struct mlq_err *err);
/* Records a source's state: everything but its cursor and count. */
enum mlq_status mlq__store_source_save(struct mlq_store *st,
    const struct mlq_source_state *src, struct mlq_err *err);

/*
 * For reindex.c: every message of the index in id order, from the mail
 * file: as stored (zraw, zlen deflated, lent for the call; len bytes
 * inflated), when it was stored (0: unknown) and the lists it was
 * recorded under (NULL-ended, lent for the call; none: an empty array).
 * A message without mail fails.  Non-zero from fn stops.
 */
typedef int (*mlq__raw_fn)(int64_t id, const void *zraw, size_t zlen,
    size_t len, int64_t added, const char *const *lists, void *arg);
enum mlq_status mlq__store_each_raw(struct mlq_store *st, mlq__raw_fn fn,
    void *arg, struct mlq_err *err);
/* The same over every row of the mail file of the index at path, for an
 * index that cannot be read. */
enum mlq_status mlq__mail_each_file(const char *path, mlq__raw_fn fn,
    void *arg, struct mlq_err *err);
/*
 * Fills st's table mark (a maintainer's marks) from the mail file of the
 * database at path, which keeps them for this: before a rebuild stores
 * any mail into st.  A mail file without marks gives none.
 */
enum mlq_status mlq__mail_marks_copy(struct mlq_store *st, const char *path,
    struct mlq_err *err);
/*
 * Unsynced bulk writes (store-sync.c).  mlq__sync_check fails (MLQ_EDB)
 * when a bulk writer's marker names another boot than this one: the index
 * at path may be torn.  mlq__sync_forget removes such markers once the
 * index at path has been replaced.
 */
enum mlq_status mlq__sync_check(const char *path, struct mlq_err *err);
void mlq__sync_forget(const char *path);
/*
 * Copies what a rebuild cannot re-derive from the mail of the database at
 * old_path into st: source rows (cursors, counts, errors) and the digests
 * sent.  (When each message was stored travels with its mail, and so
 * do the marks: mlq__mail_marks_copy.)
 */
enum mlq_status mlq__store_copy_meta(struct mlq_store *st, const char *old_path,
    struct mlq_err *err);

/*
 * For the tests: the query plan (EXPLAIN QUERY PLAN, lines joined by
 * "; ") of every statement this handle has prepared once and kept, so a
 * test can tell that the writer's lookups use the indexes meant for them.
 */
typedef void (*mlq__plan_fn)(const char *sql, const char *plan, void *arg);
enum mlq_status mlq__store_plans(struct mlq_store *st, mlq__plan_fn fn,
    void *arg, struct mlq_err *err);
/* For the tests: the pages the writer's WAL may grow to; -1 on error. */
int64_t mlq__store_wal_pages(struct mlq_store *st);

/* Appends a domain reversed by labels, lower-cased, with a final dot:
 * "cs.umn.edu" -> "edu.umn.cs.", so a domain's subdomains share its prefix. */
void mlq__rdomain(struct mlq_buf *b, const char *domain);
/*
 * Appends the term the address index (table addr, schema 010) files an
 * address under: role ('f' From, 'a' any role), the reversed domain in
 * hex, then 'g' and the local part in hex -- or, with local NULL, only the
 * domain part, which is the prefix of every address in that domain and its
 * subdomains.  Hex keeps each term one token whatever the address holds.
 */
void mlq__addr_term(struct mlq_buf *b, char role, const char *domain,
    const char *local, size_t local_len);
/* ---- configuration (conf.c streams, conf-keys.c knows the keys) ---- */

/* One event of an INI file: a section header (key NULL) or a key. */
struct mlq__conf_item {
	const char *file;    /* as given, for messages */
	unsigned line;	     /* 1-based */
	const char *section; /* lower-cased */
	const char *sub;     /* [section "sub"]: as written; NULL if none */
	const char *key;     /* lower-cased; NULL for a section header */
	const char *value;   /* comment and quotes removed; NULL for a header */
};

typedef enum mlq_status (*mlq__conf_fn)(const struct mlq__conf_item *it,
    void *arg, struct mlq_err *err);

/* Where a check of the whole file (mlq_conf_check) collects its errors. */
struct mlq__conf_errs {
	mlq_conf_report_fn fn;
	void *arg;
	unsigned n;
};
/* With errs, an MLQ_EINPUT in err goes to errs and becomes MLQ_OK. */
enum mlq_status mlq__conf_errs_take(struct mlq__conf_errs *errs,
    enum mlq_status st, struct mlq_err *err);

/*
 * Streams text to fn, knowing no keys.  Stops at the first syntax error or
 * at fn's first failure, which it returns; with errs, reports each and
 * goes on (a section whose header failed is skipped).
 */
enum mlq_status mlq__conf_parse(const char *file, const char *text, size_t len,
    mlq__conf_fn fn, void *arg, struct mlq__conf_errs *errs,
    struct mlq_err *err);
/* Fills c (its arena and path already set) from text by the key table;
 * errs as for mlq__conf_parse. */
enum mlq_status mlq__conf_build(struct mlq_conf *c, const char *text,
    size_t len, struct mlq__conf_errs *errs, struct mlq_err *err);
/*
 * ~ or ~/x to $HOME; a relative path is taken from the directory of
 * 'base' (a file name; NULL: left relative).  Into a; NULL on ENOMEM or
 * an unknown home, with *why set.
 */
char *mlq__conf_path_expand(struct mlq_arena *a, const char *path,
    const char *base, const char **why);

#endif
