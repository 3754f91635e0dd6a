/*
 * libmlq: what cli/ and daemon/ may use.
 *
 * Ownership: the caller frees what _new and parsers return; strings inside
 * a parsed object live in that object's arena and die with it.  Getters
 * lend const pointers valid until their owner is freed or changed.
 * lib/ never prints, never exits and keeps no global state.
 */
#ifndef MLQ_MLQ_H
#define MLQ_MLQ_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- errors (err.c) ------------------------------------------------- */

enum mlq_status {
	MLQ_OK = 0,
	MLQ_NOTFOUND, /* exit 1: ran fine, matched nothing */
	MLQ_EUSAGE,   /* exit 2: bad option or argument */
	MLQ_EINPUT,   /* exit 2: bad message, config or query */
	MLQ_ENOMEM,   /* exit 3 from here on */
	MLQ_EIO,
	MLQ_EDB,
	MLQ_ENET,
	MLQ_STATUS_MAX
};

struct mlq_err {
	enum mlq_status status;
	char msg[256]; /* "what: why"; the first failure wins */
};

/* Records the first failure in err (may be NULL); returns st. */
enum mlq_status mlq_err_set(struct mlq_err *err, enum mlq_status st,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void mlq_err_clear(struct mlq_err *err);
/* The process exit code for a status: 0, 1, 2 or 3. */
int mlq_status_exit(enum mlq_status st);

/* ---- growing text (buf.c) ------------------------------------------- */

/*
 * data[len] == '\0' always.  Appends never fail loudly: on ENOMEM the
 * buffer sets 'oom' and ignores further appends; check it once at the end.
 */
struct mlq_buf {
	char *data;
	size_t len;
	size_t cap;
	bool oom;
};

void mlq_buf_init(struct mlq_buf *b);
void mlq_buf_release(struct mlq_buf *b);
void mlq_buf_reset(struct mlq_buf *b);
/* Room for n more bytes (and the NUL); false, with oom set, on failure. */
bool mlq_buf_grow(struct mlq_buf *b, size_t n);
void mlq_buf_add(struct mlq_buf *b, const void *p, size_t n);
void mlq_buf_addstr(struct mlq_buf *b, const char *s);
void mlq_buf_addch(struct mlq_buf *b, char c);
void mlq_buf_addf(struct mlq_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Hands the text to the caller (free()), leaving b empty. */
char *mlq_buf_detach(struct mlq_buf *b);

/* ---- arena (arena.c): one owner for a parsed object tree ------------ */

struct mlq_arena;

struct mlq_arena *mlq_arena_new(void);
void mlq_arena_free(struct mlq_arena *a);
/* Zeroed memory; NULL on ENOMEM. */
void *mlq_arena_alloc(struct mlq_arena *a, size_t n);
char *mlq_arena_strndup(struct mlq_arena *a, const char *s, size_t n);
char *mlq_arena_strdup(struct mlq_arena *a, const char *s);
/* Grows an arena array of 'size'-byte items to hold n+1; NULL on ENOMEM. */
void *mlq_arena_grow(struct mlq_arena *a, void *arr, size_t n, size_t size);

/* ---- text helpers (text.c) ------------------------------------------ */

/*
 * Appends s to b with C0/C1 controls, DEL and ESC made visible (\e, \x..)
 * and invalid UTF-8 replaced by U+FFFD: mail never reaches a terminal raw.
 */
void mlq_text_escape(struct mlq_buf *b, const char *s, size_t n);
/* The name among n nearest to word (a typo or a cut-off name), or NULL:
 * for "did you mean". */
const char *mlq_nearest(const char *word, const char *const *names,
    size_t n);
/* Replaces invalid UTF-8 sequences in s with U+FFFD, appending to b. */
void mlq_text_utf8_clean(struct mlq_buf *b, const char *s, size_t n);
/* Whether s (n bytes) starts with prefix: exactly, and ASCII
 * case-insensitively. */
bool mlq_text_has_prefix(const char *s, size_t n, const char *prefix);
bool mlq_text_has_prefix_ci(const char *s, size_t n, const char *prefix);

/* ---- dates (date.c) ------------------------------------------------- */

/*
 * Parses an RFC 5322 date, tolerating the broken forms found on lists
 * (missing weekday or seconds, bogus zones such as +2000, named zones,
 * two-digit years, ISO 8601 from git).  On success stores UTC seconds.
 */
bool mlq_date_parse(const char *s, int64_t *utc);
/* Days from 1970-01-01 to the proleptic Gregorian y-m-d (m 1..12). */
int64_t mlq_date_days_from_civil(int64_t y, int m, int d);
/* "2021-04-06T19:16:56Z" into out (at least 21 bytes). */
void mlq_date_format_rfc3339(int64_t utc, char *out, size_t outlen);
/*
 * A command-line date: YYYY-MM-DD (UTC midnight) or relative 7d, 2w, 3m,
 * 1y counted back from 'now'.
 */
bool mlq_date_parse_arg(const char *s, int64_t now, int64_t *utc);

/* ---- subjects (subject.c) ------------------------------------------- */

struct mlq_subject {
	const char *title;    /* Re:/Fwd:, list tags and [PATCH ...] removed */
	const char *norm;     /* title lower-cased, whitespace folded: for matching */
	const char *prefix;   /* inside the patch brackets other than PATCH/RFC/vN/i/n, e.g. "net-next"; "" if none */
	int version;          /* 1 when no vN */
	int index;            /* i of i/n; 0 when absent */
	int total;            /* n of i/n; 0 when absent */
	bool is_reply;        /* Re:, AW:, Sv:, ... in front */
	bool is_forward;      /* Fwd: */
	bool has_patch_tag;   /* [PATCH...] or [RFC...] or [GIT PULL] */
	bool is_rfc;
	bool is_pull;         /* [GIT PULL] or "GIT PULL" */
	int revert_depth;     /* 1 for Revert "x", 2 for Revert "Revert "x"" */
	const char *reverted; /* inside the outermost Revert "...", for linking; NULL when revert_depth == 0 */
};

/* Fills out from a decoded subject; strings go to arena a. */
enum mlq_status mlq_subject_parse(const char *s, struct mlq_arena *a,
    struct mlq_subject *out, struct mlq_err *err);
/*
 * Whether a stored subject is tagged a request for comments ("[RFC PATCH",
 * "[PATCH RFC 2/5]"): it opens with '[' and has "RFC" before a ']'.  A
 * quick reading for lists of postings, as SQL can make it too.
 */
bool mlq_subject_tagged_rfc(const char *s);

/* ---- trailers (trailer.c) ------------------------------------------- */

struct mlq_trailer {
	const char *key;   /* canonical spelling: "Acked-by", "Nacked-by", "Fixes" */
	const char *value; /* the text after the colon, trimmed */
	const char *name;  /* for person trailers: the name; "" otherwise */
	const char *email; /* for person trailers: the address, lower-cased; "" otherwise */
	size_t line;       /* 1-based line in the text given */
};

/*
 * Finds trailer lines in a message body (text before the diff and the
 * signature; quoted lines are skipped).  Known keys: Signed-off-by,
 * Acked-by, Reviewed-by, Tested-by, Nacked-by (NAKed-by), Reported-by,
 * Suggested-by, Co-developed-by, Cc, Fixes, Link.
 */
enum mlq_status mlq_trailer_parse(const char *text, size_t len,
    struct mlq_arena *a, struct mlq_trailer **out, size_t *n,
    struct mlq_err *err);

/* ---- patches (patch.c) ---------------------------------------------- */

enum mlq_file_flags {
	MLQ_FILE_NEW = 1 << 0,
	MLQ_FILE_DELETED = 1 << 1,
	MLQ_FILE_RENAMED = 1 << 2,
	MLQ_FILE_BINARY = 1 << 3,
	MLQ_FILE_COPIED = 1 << 4,
};

struct mlq_patch_file {
	const char *path;     /* new path (old path for a deleted file) */
	const char *old_path; /* differs from path on rename/copy */
	int insertions;
	int deletions;
	unsigned flags;
};

struct mlq_patch {
	struct mlq_patch_file *files;
	size_t nfiles;
	int insertions;
	int deletions;
	char patch_id[41]; /* 40 hex digits; "" when there is no diff */
	size_t diff_start; /* byte offset of the first diff line in the text */
};

/*
 * Finds a git or quilt style diff in text and describes it.  'found' is
 * false (and *out zeroed) when there is none.  The patch id ignores
 * whitespace and line numbers, so the same change mailed twice matches.
 */
enum mlq_status mlq_patch_parse(const char *text, size_t len,
    struct mlq_arena *a, struct mlq_patch *out, bool *found,
    struct mlq_err *err);

/* ---- reply tags and statuses (classify.c) --------------------------- */

enum mlq_tag {
	MLQ_TAG_NACK = 1 << 0,
	MLQ_TAG_ACK = 1 << 1,
	MLQ_TAG_REVIEWED = 1 << 2,
	MLQ_TAG_TESTED = 1 << 3,
	MLQ_TAG_QUESTION = 1 << 4,
	MLQ_TAG_CHANGES = 1 << 5, /* "changes-requested" */
	MLQ_TAG_APPLIED = 1 << 6,
	MLQ_TAG_REVERT = 1 << 7,
};
#define MLQ_TAG_COUNT 8

/* "nack", "changes-requested", ...; NULL for an unknown bit. */
const char *mlq_tag_name(unsigned tag);
/* The bit for a tag name, 0 if unknown. */
unsigned mlq_tag_from_name(const char *name);

enum mlq_state {
	MLQ_STATE_NONE = 0, /* not a submission */
	MLQ_STATE_PENDING,
	MLQ_STATE_QUESTIONED,
	MLQ_STATE_REVIEWED,
	MLQ_STATE_CHANGES,
	MLQ_STATE_SUPERSEDED,
	MLQ_STATE_APPLIED,
	MLQ_STATE_NACKED,
	MLQ_STATE_REVERTED,
	/* Added after the others: stored values stay what they were.  In
	 * precedence it stands between reverted and nacked. */
	MLQ_STATE_MERGED,
	MLQ_STATE_LAST = MLQ_STATE_MERGED,
};

const char *mlq_state_name(enum mlq_state s);
enum mlq_state mlq_state_from_name(const char *name);

struct mlq_evidence {
	unsigned tag;     /* one MLQ_TAG_ bit */
	const char *line; /* the line of the reply's own text that earned it */
	const char *rule; /* the rule's name, for `show` and the tests */
};

/*
 * Tags a reply from its own text only: quoted lines, attribution lines,
 * the diff and the signature are never evidence.  'by_submitter' is true
 * when the reply comes from the submission's author (who cannot question
 * their own patch, ask for changes to it or ack, review or test it; a
 * self-NACK and "applied" still count).  *ev gets one entry per tag set,
 * in tag bit order, with the first line that earned it; the entries and
 * their lines live in arena a, rule names are static.  MLQ_ENOMEM leaves
 * *tags 0 and *nev 0.  The text need not be NUL-terminated.
 */
enum mlq_status mlq_classify_reply(const char *body, size_t len,
    bool by_submitter, struct mlq_arena *a, unsigned *tags,
    struct mlq_evidence **ev, size_t *nev, struct mlq_err *err);

/* ---- a parsed message (parse.c) ------------------------------------- */

enum mlq_addr_role {
	MLQ_ROLE_FROM = 1,
	MLQ_ROLE_TO = 2,
	MLQ_ROLE_CC = 3,
	MLQ_ROLE_TRAILER = 4,
};

struct mlq_addr {
	const char *name;  /* decoded UTF-8; "" when absent */
	const char *email; /* lower-cased; "" when absent */
	enum mlq_addr_role role;
};

/*
 * The columns of the free-text index, as lore splits a message
 * (text-terms.c): the subject; the body's own text and the diff's file
 * names; its quoted lines; the diff's removed, added and context lines
 * and hunk headers' function names.
 */
enum mlq_text_col {
	MLQ_TC_SUBJECT,
	MLQ_TC_NQ,
	MLQ_TC_Q,
	MLQ_TC_DFA,
	MLQ_TC_DFB,
	MLQ_TC_DFCTX,
	MLQ_TC_DFHH,
	MLQ_TEXT_NCOLS
};

struct mlq_msg {
	struct mlq_arena *arena; /* owns everything below */
	const char *msgid;       /* without <>; synthetic if the mail had none */
	bool msgid_synthetic;
	const char *subject; /* decoded UTF-8 */
	/* The header From: who posted it. */
	struct mlq_addr from;
	/* The author where it is not who posted it: the in-body From: a
	 * patch's body starts with, as git am reads it; else email NULL. */
	struct mlq_addr author;
	/* The author as written where [identity] mailmap gave another; else
	 * email NULL. */
	struct mlq_addr unmapped;
	struct mlq_addr *addrs; /* To, Cc and trailer addresses */
	size_t naddrs;
	const char *date_raw; /* the Date: text as sent; "" when missing */
	int64_t date;         /* UTC seconds; valid only if date_ok */
	bool date_ok;
	const char *in_reply_to; /* NULL when absent */
	const char **refs;       /* References, oldest first, In-Reply-To last */
	size_t nrefs;
	const char *list_id; /* List-Id's <...> part; NULL when absent */
	const char *body;    /* text/plain parts in UTF-8, LF line ends */
	size_t body_len;
	const char *commit; /* commit id from git show / format-patch input */
	struct mlq_subject subj;
	struct mlq_trailer *trailers;
	size_t ntrailers;
	struct mlq_patch patch;
	bool is_patch; /* carries a diff */
	/* The reply's own tags and their evidence (classify.c). */
	unsigned tags;
	struct mlq_evidence *evidence;
	size_t nevidence;
	/* The raw message, deflated (for the store; NULL when parsed from
	 * stored mail), and its size. */
	const unsigned char *zraw;
	size_t zraw_len;
	size_t raw_len;
	/*
	 * The distinct words of each column of the text index (enum
	 * mlq_text_col) as it folds them, one space apart (text-terms.c);
	 * terms[0] NULL: the writer splits and indexes the text itself.
	 */
	const char *terms[MLQ_TEXT_NCOLS];
	size_t terms_len[MLQ_TEXT_NCOLS];
	/* When it was first stored (UTC seconds), for a rebuild; 0: now. */
	int64_t added;
	/* For a rebuild: the id its mail is stored under; 0 for new mail. */
	int64_t stored_id;
};

/*
 * Parses one message (without any mbox "From " line).  'raw' is only
 * borrowed.  MLQ_EINPUT when the bytes are not a mail, with the reason in
 * err.  On MLQ_OK the caller owns *out (mlq_msg_free).
 */
enum mlq_status mlq_msg_parse(const char *raw, size_t len,
    struct mlq_msg **out, struct mlq_err *err);
/*
 * The same for a message stored deflated (zraw, zlen; len bytes once
 * inflated), inflated to be parsed.  Its mail stays where it is stored:
 * the result has no zraw, and the caller sets stored_id.
 */
enum mlq_status mlq_msg_parse_stored(const void *zraw, size_t zlen,
    size_t len, struct mlq_msg **out, struct mlq_err *err);
void mlq_msg_free(struct mlq_msg *m);

/* zlib deflate/inflate for stored raw mail (zraw.c). */
enum mlq_status mlq_zraw_pack(const char *raw, size_t len,
    struct mlq_arena *a, const unsigned char **out, size_t *outlen,
    struct mlq_err *err);
enum mlq_status mlq_zraw_unpack(const void *z, size_t zlen, size_t rawlen,
    struct mlq_buf *out, struct mlq_err *err);

/* ---- reading sources of mail (reader.c, mbox.c, maildir.c) ---------- */

struct mlq_reader;

/*
 * Opens a source of mail:
 * - "-": standard input;
 * - a directory with cur/ or new/: a maildir, the files of cur/ then new/;
 * - any other directory: every regular file below it, recursively;
 *   files are sorted by name, dotfiles and a maildir's tmp/ are skipped,
 *   and each file is one message (a leading "From " line is removed, so
 *   git format-patch files work);
 * - a file: gzip (magic 1f 8b) is inflated as it is read; content that
 *   starts with "From " is an mbox (mboxo or mboxrd), anything else is
 *   one message.
 * Input is streamed: memory is bounded by the largest message.
 * MLQ_EIO when path cannot be opened or listed; on MLQ_OK the caller owns
 * *out (mlq_reader_close).
 */
enum mlq_status mlq_reader_open(const char *path, struct mlq_reader **out,
    struct mlq_err *err);
/*
 * The next message, mbox line removed and mboxrd quoting undone.  The
 * bytes are lent until the next call.  MLQ_NOTFOUND at the end.
 * *pos is the 1-based message number within an mbox, or the file's
 * number within a directory (an empty file is no message but counts).
 * A failure concerns one message, whose number is in *pos: MLQ_EINPUT
 * for one larger than MLQ_MAX_MESSAGE_BYTES or for gzip data that is
 * corrupt or cut short (the messages before it were returned), MLQ_EIO
 * for a file that cannot be read, MLQ_ENOMEM.  The caller may call again
 * after any failure: reading goes on with the next message or file, or
 * ends (MLQ_NOTFOUND) when the stream cannot be read further.
 */
enum mlq_status mlq_reader_next(struct mlq_reader *r, const char **msg,
    size_t *len, uint64_t *pos, struct mlq_err *err);
/*
 * Bytes read so far and the total, for a progress percentage: bytes of
 * the file as stored (compressed ones for gzip), for a directory the sum
 * of its files' sizes; the total is 0 when unknown (a pipe).
 */
void mlq_reader_progress(const struct mlq_reader *r, uint64_t *done,
    uint64_t *total);
void mlq_reader_close(struct mlq_reader *r);

/*
 * Splits an in-memory mbox stream fed in chunks of any size (HTTP
 * bodies): feed bytes, get whole messages through the callback, the
 * "From " line removed and mboxrd quoting undone, as mlq_reader_next
 * does.  The message is lent to the callback for the call only; a status
 * other than MLQ_OK from it stops the feed and is returned.  A message
 * larger than MLQ_MAX_MESSAGE_BYTES is skipped: the call in which it ends
 * still delivers the rest of its chunk, then returns MLQ_EINPUT naming
 * the message; the splitter stays usable.
 */
struct mlq_mbox_split;
typedef enum mlq_status (*mlq_mbox_msg_fn)(const char *msg, size_t len,
    void *arg);
/* On MLQ_OK the caller owns *out (mlq_mbox_split_free); arg is borrowed. */
enum mlq_status mlq_mbox_split_new(mlq_mbox_msg_fn fn, void *arg,
    struct mlq_mbox_split **out, struct mlq_err *err);
enum mlq_status mlq_mbox_split_feed(struct mlq_mbox_split *s,
    const char *p, size_t n, struct mlq_err *err);
/* Flushes the last message; the splitter can then start a new stream. */
enum mlq_status mlq_mbox_split_finish(struct mlq_mbox_split *s,
    struct mlq_err *err);
void mlq_mbox_split_free(struct mlq_mbox_split *s);

/* ---- commits of a git tree (git-log.c) ------------------------------- */

struct mlq_commit {
	const char *oid; /* full hex id */
	const char *author_name, *author_email;
	int64_t adate, cdate; /* author and commit dates, UTC seconds */
	const char *subject;
	const char *norm;    /* the subject normalized as a posting's title */
	const char *reverts; /* "This reverts commit ID.": ID, else NULL */
	const char **msgids; /* named by Link: or Message-Id: lines */
	size_t nmsgids;
	const char **fixes; /* the ids its Fixes: lines name, 12 digits */
	size_t nfixes;
	bool has_patch_id;
	char patch_id[41];   /* git patch-id --stable of its diff */
};

/* A copy of c whose strings live in a (what lib/git lends, kept). */
enum mlq_status mlq_commit_copy(const struct mlq_commit *c,
    struct mlq_arena *a, struct mlq_commit *out);

/*
 * A followed repo's cursor, "REF:ID REF:ID" (':' is in no ref name):
 * fn for each ref and the commit it was read to, neither NUL-terminated.
 */
typedef void (*mlq_ref_cursor_fn)(const char *ref, size_t rn, const char *id,
    size_t idn, void *arg);
void mlq_git_cursor_each(const char *cursor, mlq_ref_cursor_fn fn, void *arg);

/* Called for each commit; a status other than MLQ_OK stops the walk. */
typedef enum mlq_status (*mlq_commit_fn)(const struct mlq_commit *c,
    void *arg);

/*
 * Each commit of range (anything `git log` takes: a branch, A..B) in
 * repository repo that is not a merge, newest first, through git(1);
 * since > 0: only those committed from then on.  Strings are lent until
 * fn returns.  MLQ_EIO when git cannot run, MLQ_EINPUT when it fails
 * (the error carries git's own first line).
 */
enum mlq_status mlq_git_log(const char *repo, const char *range,
    int64_t since, mlq_commit_fn fn, void *arg, struct mlq_err *err);

/* The same, read as it comes: mlqd reads the descriptor when it is
 * ready (made non-blocking by the caller) without waiting on git. */
struct mlq_git_log;
enum mlq_status mlq_git_log_start(const char *repo, const char *range,
    int64_t since, struct mlq_git_log **out, struct mlq_err *err);
int mlq_git_log_fd(const struct mlq_git_log *g);
/* One read; fn for each whole commit; *done once git's output ends. */
enum mlq_status mlq_git_log_read(struct mlq_git_log *g, mlq_commit_fn fn,
    void *arg, bool *done, struct mlq_err *err);
/* Reaps git (killed first if stop) and frees g; git's failure if any. */
enum mlq_status mlq_git_log_end(struct mlq_git_log *g, bool stop,
    struct mlq_err *err);

/* The commit id rev names now (40 or 64 hex digits). */
enum mlq_status mlq_git_resolve(const char *repo, const char *rev,
    char out[65], struct mlq_err *err);
/* Whether commit a is an ancestor of b; false too when a is gone. */
enum mlq_status mlq_git_is_ancestor(const char *repo, const char *a,
    const char *b, bool *out, struct mlq_err *err);
/* Each commit id of range, newest first. */
typedef enum mlq_status (*mlq_oid_fn)(const char *oid, void *arg);
enum mlq_status mlq_git_rev_list(const char *repo, const char *range,
    mlq_oid_fn fn, void *arg, struct mlq_err *err);

/* ---- the store (store.c, schema.c) ---------------------------------- */

struct mlq_store;

enum mlq_store_mode {
	MLQ_STORE_READ = 0,
	MLQ_STORE_WRITE = 1, /* creates and migrates the database */
	/* A writer that syncs only at mlq_store_sync or close: mlq import. */
	MLQ_STORE_BULK = 2,
};

enum mlq_status mlq_store_open(const char *path, enum mlq_store_mode mode,
    struct mlq_store **out, struct mlq_err *err);
void mlq_store_close(struct mlq_store *st);
/* Makes a bulk writer's writes so far durable (a no-op for the others). */
enum mlq_status mlq_store_sync(struct mlq_store *st, struct mlq_err *err);

/* One BEGIN IMMEDIATE ... COMMIT per batch. */
enum mlq_status mlq_store_begin(struct mlq_store *st, struct mlq_err *err);
enum mlq_status mlq_store_commit(struct mlq_store *st, struct mlq_err *err);
void mlq_store_rollback(struct mlq_store *st);

/*
 * Stores a parsed message under its Message-Id, or, if that id is already
 * stored, only records 'list' (may be NULL) for it.  Threads, links and
 * statuses are brought up to date.  *is_new tells which happened.
 */
enum mlq_status mlq_store_put(struct mlq_store *st, const struct mlq_msg *m,
    const char *list, bool *is_new, struct mlq_err *err);

/* A source's cursor; *out is NULL when none (caller frees). */
enum mlq_status mlq_store_cursor_get(struct mlq_store *st, const char *source,
    char **out, struct mlq_err *err);
/* Call inside the batch's transaction so cursor and mail commit together. */
enum mlq_status mlq_store_cursor_set(struct mlq_store *st, const char *source,
    const char *cursor, struct mlq_err *err);

/* What `mlq sources` shows of one configured source. */
struct mlq_source_state {
	const char *name;   /* the config's [source "NAME"] */
	const char *url;    /* redacted: never a password */
	const char *kind;   /* "http", "imap", "mbox", "maildir" */
	const char *cursor; /* NULL when none yet */
	int64_t last_poll;  /* UTC seconds; 0 = never */
	int64_t last_ok;
	int64_t next_poll;
	const char *last_error; /* NULL when the last poll succeeded */
	uint64_t ingested;      /* new messages stored from this source, ever */
};

typedef int (*mlq_source_fn)(const struct mlq_source_state *s, void *arg);
/* Calls fn for each recorded source, by name; a non-zero return stops. */
enum mlq_status mlq_store_source_list(struct mlq_store *st, mlq_source_fn fn,
    void *arg, struct mlq_err *err);
/* The state recorded for one source; MLQ_NOTFOUND if none.  Strings in *out
 * live until the next call on st. */
enum mlq_status mlq_store_source_get(struct mlq_store *st, const char *name,
    struct mlq_source_state *out, struct mlq_err *err);

/* ---- commits and the postings they carry (store-git.c) -------------- */

/* Stores commit c of repo, held by ref (NULL: none said); *is_new when
 * it was not there yet.  Inside or outside a transaction. */
enum mlq_status mlq_store_commit_put(struct mlq_store *st, const char *repo,
    const char *ref, const struct mlq_commit *c, bool *is_new,
    struct mlq_err *err);
/*
 * Links the commits read since the last call to the postings they carry
 * (by Link:, patch id, then author and title), and the postings stored
 * since to the commits not linked yet; *linked counts the new links.
 * The postings' statuses follow at the next commit.
 */
enum mlq_status mlq_store_link_commits(struct mlq_store *st,
    uint64_t *linked, struct mlq_err *err);
/*
 * Commit oid is no longer in ref (a rewritten branch): it loses that ref,
 * and when no followed ref holds it any more, it goes, with its links.
 */
enum mlq_status mlq_store_commit_unref(struct mlq_store *st, const char *oid,
    const char *ref, struct mlq_err *err);

/* How a commit was linked to its posting. */
enum { MLQ_MERGED_BY_LINK = 1, MLQ_MERGED_BY_PATCH_ID, MLQ_MERGED_BY_TITLE };

struct mlq_commit_row {
	const char *oid, *repo, *subject;
	const char *refs;        /* the refs read that hold it, space-separated */
	int64_t date;            /* commit date */
	int how;                 /* MLQ_MERGED_BY_ */
	const char *reverted_by; /* a commit that reverts it, or NULL */
	int64_t reverted_date;
	const char *fixed_by; /* a commit whose Fixes: names it, or NULL */
	int64_t fixed_date;
};
typedef int (*mlq_commit_row_fn)(const struct mlq_commit_row *r, void *arg);
/* The commits carrying posting msg (its row id), oldest first. */
enum mlq_status mlq_store_commits_of(struct mlq_store *st, int64_t msg,
    mlq_commit_row_fn fn, void *arg, struct mlq_err *err);
/*
 * The tree commits a posting names by id in its "This reverts commit ID"
 * (kind MLQ_LINK_REVERT) or Fixes: lines (MLQ_LINK_FIXES); in r only
 * oid, repo, refs, date and subject are set.
 */
enum mlq_status mlq_store_commits_named(struct mlq_store *st, int64_t msg,
    int kind, mlq_commit_row_fn fn, void *arg, struct mlq_err *err);
/* The Message-Id of the posting the commit whose id starts with prefix
 * carries, into msgid; MLQ_NOTFOUND if none, MLQ_EINPUT if ambiguous. */
enum mlq_status mlq_store_commit_posting(struct mlq_store *st,
    const char *prefix, struct mlq_buf *msgid, struct mlq_err *err);
/* The name of how (link, patch-id, title). */
const char *mlq_merged_how(int how);

/* ---- queries (query.c builds, store-search.c runs) ------------------- */

/*
 * A search is a tree of conditions.  Leaves test one field; AND, OR and
 * NOT combine them.  Strings live in the arena the query was built in.
 */
enum mlq_qfield {
	MLQ_QF_FTS,	/* s: an FTS5 expression over the text index */
	MLQ_QF_PHRASE,	/* s: words in this order, in the columns ival (bits
			 * of enum mlq_text_col) of the mail itself */
	MLQ_QF_SUBSTR,	/* s: a substring of the subject (--subject) */
	MLQ_QF_FROM,	/* s: address, @domain or domain of the author */
	MLQ_QF_FROM_NAME, /* s: a word of the author's name */
	MLQ_QF_ADDR,	/* s: the same, any address the message names */
	MLQ_QF_TO,	/* s: the same, in To */
	MLQ_QF_CC,	/* s: the same, in Cc */
	MLQ_QF_LIST,	/* s: list name */
	MLQ_QF_MSGID,	/* s: Message-Id */
	MLQ_QF_FILE,	/* s: a path, or a directory the patch touches */
	MLQ_QF_PATCHID, /* s: git patch-id --stable, 40 hex digits */
	MLQ_QF_DATE,	/* lo (has_lo) <= date < hi (has_hi), UTC seconds */
	MLQ_QF_STATUS,	/* ival: enum mlq_state, submissions only */
	MLQ_QF_TAG,	/* ival: one MLQ_TAG_ bit */
	MLQ_QF_PATCH,	/* a submission */
	MLQ_QF_COMMIT,	/* s: a commit id, or 4+ hex digits of one, carrying it */
};

enum mlq_qop { MLQ_QOP_LEAF, MLQ_QOP_AND, MLQ_QOP_OR, MLQ_QOP_NOT };

struct mlq_qnode {
	enum mlq_qop op;
	const struct mlq_qnode *l, *r; /* NOT: l only */
	enum mlq_qfield field;
	const char *s;
	bool has_lo, has_hi;
	int64_t lo, hi;
	int ival;
};

struct mlq_query {
	const struct mlq_qnode *expr; /* NULL: every message */
	int64_t limit;		      /* 0: no limit */
	bool oldest_first;	      /* date order (the newest 'limit') */
};

/*
 * Reads a query in lore's syntax (public-inbox 1.9, lei-q(1)) and ANDs
 * it to q: terms AND by default; AND, OR, NOT, a leading '-',
 * parentheses, "phrases", word*; the prefixes s: b: bs: nq: q: f: t: c:
 * tc: a: l: m: dfn: dfa: dfb: dfctx: dfhh: d: rt: patchid: status: tag:
 * is:.
 * MLQ_EINPUT naming the part it cannot read: an unknown prefix, an
 * unbalanced parenthesis or quote, an empty term.
 */
enum mlq_status mlq_query_text(struct mlq_query *q, const char *text,
    int64_t now, struct mlq_arena *a, struct mlq_err *err);

/* Whether q has a phrase: a search of it needs mlq_store_phrases. */
bool mlq_query_has_phrase(const struct mlq_query *q);

/*
 * A command-line flag given n times ("from", "addr", "subject", "list",
 * "file", "since", "until", "status", "tag", "patches"): its values ORed,
 * as git log --author does, and ANDed to q.  MLQ_EINPUT naming an empty
 * or bad value.
 */
enum mlq_status mlq_query_flag(struct mlq_query *q, const char *flag,
    char *const *values, size_t n, int64_t now, struct mlq_arena *a,
    struct mlq_err *err);

/*
 * The Message-Id in what a user gave for a message (msgid-arg.c): ID,
 * <ID>, id:ID, m:ID, or a public-inbox URL (/LIST/ID/, /r/ID, /all/ID,
 * msgid.link/ID), into out.  False when it names none.
 */
bool mlq_msgid_arg(const char *arg, struct mlq_buf *out);

/* One stored message as search and thread list it. */
struct mlq_hit {
	int64_t id;
	const char *msgid;
	const char *subject;
	const char *from_name; /* the author (an in-body From: first) */
	const char *from_email;
	/* Who posted it, where not the author; NULL otherwise. */
	const char *sender_name, *sender_email;
	const char *list; /* NULL when none */
	bool date_ok;
	int64_t date;
	int kind; /* 0 other, 1 patch, 2 cover letter, 3 pull request */
	enum mlq_state status;
	unsigned tags;
	const char *parent; /* Message-Id it replies to; NULL if none */
	int64_t thread;
	int version, index, total;
	int insertions, deletions;
	const char *date_raw;
};

/* Hits are lent to fn for the call only; non-zero from fn stops. */
typedef int (*mlq_hit_fn)(const struct mlq_hit *h, void *arg);

/* Newest first.  MLQ_NOTFOUND when nothing matched. */
/*
 * Lets st's searches check phrases (store-phrase.c): each candidate's
 * stored mail is parsed, so this brings the mail parser (libetpan) into
 * the program.  mlq_store_search of a query with a phrase fails without.
 */
enum mlq_status mlq_store_phrases(struct mlq_store *st, struct mlq_err *err);
enum mlq_status mlq_store_search(struct mlq_store *st,
    const struct mlq_query *q, mlq_hit_fn fn, void *arg, struct mlq_err *err);
/* Each list: its name, how many messages, the newest date (if any). */
typedef int (*mlq_list_fn)(const char *name, int64_t count, bool dated,
    int64_t newest, void *arg);
enum mlq_status mlq_store_lists(struct mlq_store *st, mlq_list_fn fn,
    void *arg, struct mlq_err *err);
/* One message by Message-Id (with or without <>); MLQ_NOTFOUND if absent. */
enum mlq_status mlq_store_get(struct mlq_store *st, const char *msgid,
    mlq_hit_fn fn, void *arg, struct mlq_err *err);
/* Every message of a thread, oldest first. */
enum mlq_status mlq_store_thread(struct mlq_store *st, int64_t thread,
    mlq_hit_fn fn, void *arg, struct mlq_err *err);
/*
 * Message-Ids a thread names that are not stored (lost or not yet seen),
 * each with its parent (the reference before it; NULL when unknown).
 */
typedef int (*mlq_ghost_fn)(const char *msgid, const char *parent, void *arg);
enum mlq_status mlq_store_ghosts(struct mlq_store *st, int64_t thread,
    mlq_ghost_fn fn, void *arg, struct mlq_err *err);
/* The original bytes of a stored message, appended to out. */
enum mlq_status mlq_store_raw(struct mlq_store *st, int64_t id,
    struct mlq_buf *out, struct mlq_err *err);

typedef int (*mlq_file_fn)(const struct mlq_patch_file *f, void *arg);
enum mlq_status mlq_store_files(struct mlq_store *st, int64_t id,
    mlq_file_fn fn, void *arg, struct mlq_err *err);
typedef int (*mlq_trailer_fn)(const struct mlq_trailer *t, void *arg);
enum mlq_status mlq_store_trailers(struct mlq_store *st, int64_t id,
    mlq_trailer_fn fn, void *arg, struct mlq_err *err);
typedef int (*mlq_evidence_fn)(const struct mlq_evidence *e, void *arg);
enum mlq_status mlq_store_evidence(struct mlq_store *st, int64_t id,
    mlq_evidence_fn fn, void *arg, struct mlq_err *err);

enum mlq_link_kind {
	MLQ_LINK_REVERT = 1,  /* src reverts dst */
	MLQ_LINK_FIXES = 2,   /* src names dst in Fixes: */
	MLQ_LINK_VERSION = 3, /* src is a later version of dst */
	MLQ_LINK_SERIES = 4,  /* src, a series patch, belongs to the cover
			       * letter dst in another thread */
};
/*
 * The threads whose statuses are derived together with thread: itself
 * first, then those series links reach (a cover letter's patches sent
 * unthreaded, or the cover of such a patch).  *threads is malloc'ed.
 */
enum mlq_status mlq_store_series_bundle(struct mlq_store *st, int64_t thread,
    int64_t **threads, size_t *n, struct mlq_err *err);
/*
 * Messages linked to id: those pointing at it (incoming) or it at them.
 * Versions come oldest first, one message each: its first posting.
 */
enum mlq_status mlq_store_links(struct mlq_store *st, int64_t id,
    enum mlq_link_kind kind, bool incoming, mlq_hit_fn fn, void *arg,
    struct mlq_err *err);

/*
 * When submission id was first answered by someone other than its author,
 * among the replies its status is computed over (its own, its cover
 * letter's; a cover letter's and its patches').  MLQ_NOTFOUND when nobody
 * has.
 */
enum mlq_status mlq_store_first_review(struct mlq_store *st, int64_t id,
    int64_t *when, struct mlq_err *err);

/* Counts for `mlq status`. */
struct mlq_store_counts {
	int64_t messages, submissions, threads, ghosts, lists, sources;
	int64_t commits, merged; /* of followed trees; postings they carry */
	int64_t db_bytes;
};
enum mlq_status mlq_store_counts(struct mlq_store *st,
    struct mlq_store_counts *out, struct mlq_err *err);

/* ---- a maintainer's marks (store-mark.c) ---------------------------- */

/*
 * One correction by hand (mlq mark): a submission's status, or one tag of
 * a message given or taken away.  It wins over what the review engine
 * derives, whatever mail arrives later, and a rebuild keeps it.
 */
struct mlq_mark {
	unsigned tag;	       /* one MLQ_TAG_ bit; 0: the status */
	enum mlq_state status; /* tag 0: the status set */
	bool removed;	       /* the tag was taken away, not given */
	const char *who;       /* [identity] name, or the login name */
	int64_t at;	       /* when, UTC seconds */
};

/*
 * Records the n marks of m on the stored message msgid (with or without
 * <>), each replacing the one set before on the same status or tag, in
 * one transaction that also derives the message's thread again.
 * MLQ_NOTFOUND when no such message is stored; MLQ_EINPUT for a status
 * on a message that is no submission, or 'revert' on a reply.  st must
 * be writable and not in a transaction.
 */
enum mlq_status mlq_store_mark(struct mlq_store *st, const char *msgid,
    const struct mlq_mark *m, size_t n, struct mlq_err *err);
/* Drops every mark of msgid, so that what is derived counts again
 * (none is no error); MLQ_NOTFOUND as for mlq_store_mark. */
enum mlq_status mlq_store_mark_clear(struct mlq_store *st, const char *msgid,
    struct mlq_err *err);
/* Marks are lent to fn for the call only; non-zero from fn stops. */
typedef int (*mlq_mark_fn)(const struct mlq_mark *m, void *arg);
/* The marks of msgid: its status first, then its tags by bit. */
enum mlq_status mlq_store_marks(struct mlq_store *st, const char *msgid,
    mlq_mark_fn fn, void *arg, struct mlq_err *err);

/* ---- one person, several addresses (mailmap.c) ---------------------- */

/*
 * A git .mailmap: each mail's author (and so every reviewer, `who` and
 * the digest) is the person it maps to.  MLQ_EINPUT when the file cannot
 * be read.
 */
struct mlq_mailmap;
enum mlq_status mlq_mailmap_load(const char *path, struct mlq_mailmap **out,
    struct mlq_err *err);
void mlq_mailmap_free(struct mlq_mailmap *mm);
/*
 * The person behind (name, email), into *out_name, *out_email (pointing
 * into mm, or the arguments unchanged); true when that differs.
 */
bool mlq_mailmap_lookup(const struct mlq_mailmap *mm, const char *name,
    const char *email, const char **out_name, const char **out_email);

/* ---- the import pipeline (ingest.c) --------------------------------- */

/*
 * Parse workers beside the single SQLite writer, joined by a bounded
 * ordered queue: the caller adds raw messages; workers parse, classify
 * and compress them; the writer stores them in order and commits in
 * batches.  A message that cannot be parsed is rejected and counted; it
 * never stops the rest.
 */
struct mlq_ingest;

struct mlq_ingest_stats {
	uint64_t added;    /* messages handed to mlq_ingest_add */
	uint64_t stored;   /* new messages */
	uint64_t dup;      /* already stored */
	uint64_t rejected; /* could not be parsed */
};

/* Called on the writer thread for each rejected message. */
typedef void (*mlq_reject_fn)(const char *origin, uint64_t pos,
    const char *why, void *arg);

struct mlq_ingest_opts {
	int workers;         /* parse threads; 0 = one per core */
	int batch;           /* messages per transaction; 0 = default */
	mlq_reject_fn on_reject;
	void *arg;
	/* Whom each From: is (mailmap.c); NULL: as sent.  Lent for the
	 * ingest's life. */
	const struct mlq_mailmap *mailmap;
};

enum mlq_status mlq_ingest_new(struct mlq_store *st,
    const struct mlq_ingest_opts *opts, struct mlq_ingest **out,
    struct mlq_err *err);
/*
 * Queues a copy of raw (blocks while the queue is full).  origin and list
 * are copied; pos is the message's position, for reject reports.
 */
enum mlq_status mlq_ingest_add(struct mlq_ingest *ing, const char *raw,
    size_t len, const char *origin, uint64_t pos, const char *list,
    struct mlq_err *err);
/* The same, counting new messages towards source 'source' (may be NULL). */
enum mlq_status mlq_ingest_add_from(struct mlq_ingest *ing, const char *source,
    const char *raw, size_t len, const char *origin, uint64_t pos,
    const char *list, struct mlq_err *err);
/*
 * For a rebuild: message 'id' as stored (deflated: zraw, zlen; len bytes
 * inflated), recording 'added' as when it was stored.  It is stored under
 * the same id, its mail left where it is.
 */
enum mlq_status mlq_ingest_add_stored(struct mlq_ingest *ing, int64_t id,
    const void *zraw, size_t zlen, size_t len, const char *list,
    int64_t added, struct mlq_err *err);
/*
 * Waits until everything queued is stored, records 'cursor' for 'source'
 * (both may be NULL) and commits.  A failure rolls the batch back.
 */
enum mlq_status mlq_ingest_sync(struct mlq_ingest *ing, const char *source,
    const char *cursor, struct mlq_err *err);
/*
 * Queues a source's state (not its cursor: that goes with mlq_ingest_sync)
 * for the writer, which records it in order with the mail before it.
 * 'ingested' is ignored: the writer counts what it stores per source.
 */
enum mlq_status mlq_ingest_source_save(struct mlq_ingest *ing,
    const struct mlq_source_state *s, struct mlq_err *err);
/*
 * Runs fn(store, arg) on the writer thread, in order with the mail before
 * it and inside its batch, then free_fn(arg) (also when it never runs).
 * fn sets *counted for something new, counted for source like a message.
 * How mlqd stores the commits of a followed tree.
 */
typedef enum mlq_status (*mlq_ingest_job_fn)(struct mlq_store *st, void *arg,
    bool *counted, struct mlq_err *err);
enum mlq_status mlq_ingest_job(struct mlq_ingest *ing, const char *source,
    mlq_ingest_job_fn fn, void (*free_fn)(void *), void *arg,
    struct mlq_err *err);
void mlq_ingest_stats(struct mlq_ingest *ing, struct mlq_ingest_stats *out);
/*
 * After a store failure every call fails until this clears it (true).
 * It clears only once everything queued has been discarded; the caller
 * must know that no source is half way through handing over mail, whose
 * first part the failure rolled back.
 */
bool mlq_ingest_resume(struct mlq_ingest *ing);
/* Stops the threads; what was not synced is rolled back. */
void mlq_ingest_free(struct mlq_ingest *ing);
/*
 * Sets glibc's malloc up for the pipeline, before any thread starts: the
 * threads hand buffers to one another, so an arena per thread would keep
 * the high-water mark of the largest message each ever saw (two arenas),
 * and a fixed mmap threshold returns a large message's buffers to the
 * system when freed instead of leaving them in the heap.  A no-op
 * elsewhere.
 */
void mlq_ingest_tune_malloc(void);

/* ---- rebuilding a database (reindex.c) ------------------------------ */

struct mlq_reindex_stats {
	uint64_t messages; /* stored messages read back */
	uint64_t stored;   /* messages in the rebuilt database */
	uint64_t rejected; /* messages that no longer parse */
	bool torn;         /* rebuilt from the mail file alone (see below) */
	bool meta_lost;    /* and its sources and digests could not be read */
};

/*
 * Re-derives everything in the database at path -- parse results, tags,
 * links, statuses, threads, the text index -- from its stored raw
 * messages: the import pipeline (mlq_ingest, 'workers' parse threads, 0 =
 * one per core) stores each into a new file beside it, PATH.reindex,
 * which then replaces the old one by rename(2); sources, the time each
 * message was first stored and a maintainer's marks (from the mail file)
 * are carried over.  The old database is write-locked throughout, so
 * mlqd must not run: when another process still has it open at the end,
 * MLQ_EIO and the old file stays.  When a message no longer parses,
 * nothing is replaced: MLQ_EINPUT names it.  An index the system went
 * down under while an import wrote it unsynced is not read: every
 * message of the mail file is, with the lists, times and marks stored
 * there (torn), and sources and digests are copied if they can be (else
 * meta_lost).
 */
enum mlq_status mlq_reindex(const char *path, int workers,
    const struct mlq_mailmap *mailmap, struct mlq_reindex_stats *out,
    struct mlq_err *err);

/* ---- configuration (conf.c, conf-keys.c) ---------------------------- */

/*
 * The INI file of INTERFACE.md.  mlq_conf_load() checks every key and
 * value; a file with any error is refused whole with "FILE:LINE: ..." in
 * err.  All strings live in the conf's arena and die with mlq_conf_free().
 * Paths are ~-expanded; relative ones are taken from the config's directory.
 */
struct mlq_conf_source {
	const char *name; /* [source "NAME"] */
	const char *url;  /* http(s)://, imap(s):// or a local path */
	const char *list; /* list name recorded with its mail: 'list' or NAME */
	const char *tls_ca; /* PEM file of trusted CAs; NULL: the system's */
	bool tls_verify;    /* check the certificate; no: warn at each connect */
	const char *user;   /* login; NULL: anonymous */
	const char *link;   /* a message's URL, %s its Message-Id; NULL */
	int64_t interval;   /* seconds between polls */
	int64_t since;	    /* UTC seconds the backfill starts at; 0 = all */
	bool remote;	    /* a server that is not on a loopback address */
	unsigned line;	    /* line of the section header */
};

/* [repo "NAME"]: a git tree whose refs mlqd follows. */
struct mlq_conf_repo {
	const char *name;      /* [repo "NAME"] */
	const char *path;      /* the clone; mlq never fetches it */
	const char **branches; /* refs to follow, as given */
	size_t nbranches;
	int64_t since;	  /* UTC seconds; older commits are not read; 0 all */
	int64_t interval; /* seconds between polls */
	unsigned line;	  /* line of the section header */
};

enum mlq_sched_kind {
	MLQ_SCHED_NONE = 0,
	MLQ_SCHED_DAILY,  /* "daily HH:MM" */
	MLQ_SCHED_WEEKLY, /* "weekly mon HH:MM" */
};

struct mlq_conf_schedule {
	enum mlq_sched_kind kind;
	int wday; /* 0 = Sunday; weekly only */
	int hour;
	int minute;
};

struct mlq_conf_digest {
	struct mlq_conf_schedule schedule; /* local time */
	const char **to;		   /* recipients */
	size_t nto;
	const char **watch; /* domains or addresses */
	size_t nwatch;
	const char *from;      /* NULL when unset */
	const char *smtp;      /* smtp:// or smtps:// URL; NULL when unset */
	const char *smtp_user; /* NULL when unset */
	bool smtp_starttls;    /* for smtp://; default yes */
	const char *tls_ca;    /* PEM file of trusted CAs; NULL: the system's */
	bool tls_verify;       /* check the certificate; no: warn when sending */
	const char *link;      /* a message's URL, %s its Message-Id; NULL */
	int unreviewed_days;
};

struct mlq_conf {
	struct mlq_arena *arena; /* owns everything below */
	const char *path;    /* the file read, as given; NULL for a buffer */
	bool found;	     /* false: default file absent, empty config */
	const char *db_path; /* [database] path; NULL when unset */
	const char *pidfile; /* [daemon] pidfile; NULL when unset */
	const char *identity; /* [identity] name; NULL when unset */
	const char *mailmap;  /* [identity] mailmap; NULL when unset */
	const char *secrets; /* the secrets file (set or default) */
	bool secrets_set;    /* given in the config, so it must exist */
	struct mlq_conf_source *sources;
	size_t nsources;
	struct mlq_conf_repo *repos;
	size_t nrepos;
	struct mlq_conf_digest digest;
};

/*
 * Loads a config.  'path' NULL means the default: $MLQ_CONFIG (which then
 * must exist), else $XDG_CONFIG_HOME/mlq/config, else ~/.config/mlq/config,
 * whose absence gives an empty config.  A given path must exist.
 * MLQ_EINPUT for a bad config, MLQ_EIO when it cannot be read.  On MLQ_OK
 * the caller owns *out (mlq_conf_free).
 */
enum mlq_status mlq_conf_load(const char *path, struct mlq_conf **out,
    struct mlq_err *err);
/* The same, reading only the sections only names ("database identity"):
 * a command that needs no [digest] is not stopped by a broken one. */
enum mlq_status mlq_conf_load_only(const char *path, const char *only,
    struct mlq_conf **out, struct mlq_err *err);
/*
 * Checks a config whole (mlqd -n, mlq config check): every error in it,
 * each with file, line and key, goes to fn, and then, if there were
 * none, what the digest lacks as a whole.  *nerr counts them.  Returns
 * MLQ_EIO (and no count) only when the file cannot be read.
 */
typedef void (*mlq_conf_report_fn)(const char *msg, void *arg);
enum mlq_status mlq_conf_check(const char *path, mlq_conf_report_fn fn,
    void *arg, unsigned *nerr, struct mlq_err *err);
/* What c's digest lacks to be sent on its schedule, each to fn; the
 * count. */
unsigned mlq_conf_check_digest(const struct mlq_conf *c, mlq_conf_report_fn fn,
    void *arg);
/*
 * (lib/git/) Each [repo]'s tree and refs checked through git (mlqd -n, mlq config
 * check): a path that is no git tree, a ref it does not have, each to fn
 * as "FILE:LINE: [repo "NAME"]: KEY: why"; the count.
 */
unsigned mlq_git_check_repos(const struct mlq_conf *c, mlq_conf_report_fn fn,
    void *arg);

/* The same from memory; 'name' prefixes error messages ("config"). */
enum mlq_status mlq_conf_load_buf(const char *name, const char *text,
    size_t len, struct mlq_conf **out, struct mlq_err *err);
void mlq_conf_free(struct mlq_conf *c);
/* The config's repo called name; NULL if none. */
const struct mlq_conf_repo *mlq_conf_repo_find(const struct mlq_conf *c,
    const char *name);
/* The config's source called name; NULL if none. */
const struct mlq_conf_source *mlq_conf_source_find(const struct mlq_conf *c,
    const char *name);

/*
 * The database path: 'opt' (--db) if not NULL, else $MLQ_DB, else the
 * config's [database] path, else $XDG_DATA_HOME/mlq/mlq.db, else
 * ~/.local/share/mlq/mlq.db.  The caller frees *out.
 */
enum mlq_status mlq_conf_db_path(const struct mlq_conf *c, const char *opt,
    char **out, struct mlq_err *err);

/*
 * A password from the secrets file: lines "key = value", '#' comments.
 * Keys: "smtp-password", "source.NAME.password".  The file is refused
 * (MLQ_EINPUT, reason in err) unless it is a regular file owned by this
 * user with no group or other permission bits.  MLQ_NOTFOUND when there
 * is no file or no such key.  The caller frees *out with
 * mlq_conf_secret_free(), which wipes it.
 */
enum mlq_status mlq_conf_secret(const struct mlq_conf *c, const char *key,
    char **out, struct mlq_err *err);
void mlq_conf_secret_free(char *secret);
/* MLQ_OK when path may hold secrets, else MLQ_EINPUT saying why. */
enum mlq_status mlq_conf_check_secrecy(const char *path, struct mlq_err *err);

/* ---- the digest (digest.c builds, digest-sched.c schedules and mails) */

/* One message as the digest shows it; strings live in the digest's arena. */
struct mlq_digest_msg {
	int64_t id;
	const char *msgid;     /* without <> */
	const char *subject;   /* escaped (no control character), folded, cut */
	const char *from_name; /* escaped; "" when absent */
	const char *from_email; /* escaped; "" when absent */
	const char *list;	/* NULL when none */
	const char *link;	/* public-inbox URL, else "<msgid>" */
	bool date_ok;
	int64_t date; /* UTC seconds */
	int kind;     /* 0 other, 1 patch, 2 cover letter, 3 pull request */
	int version;
	enum mlq_state status; /* the submission's current status */
};

/*
 * A digest entry: a submission and the messages that put it there (the
 * NACKing replies, the original a revert reverts, the open questions,
 * the newer version).
 */
struct mlq_digest_item {
	struct mlq_digest_msg msg;
	struct mlq_digest_msg *rel;
	size_t nrel;
	/* MLQ_DIGEST_MERGED_UNREVIEWED: the commit; else NULL and 0. */
	const char *commit, *commit_repo, *commit_ref;
	int64_t commit_date;
};

enum mlq_digest_section {
	MLQ_DIGEST_WATCHED,    /* new submissions from watched senders */
	MLQ_DIGEST_NACKED,     /* NACKed during the period; rel: the NACKs */
	MLQ_DIGEST_REVERTS,    /* reverts posted; rel: the original (0 or 1) */
	MLQ_DIGEST_QUESTIONS,  /* questions still open; rel: the questions */
	MLQ_DIGEST_UNREVIEWED, /* no review after unreviewed_days */
	MLQ_DIGEST_SUPERSEDED, /* older versions; rel: the newer version */
	/* committed in a followed ref in the period, never reviewed */
	MLQ_DIGEST_MERGED_UNREVIEWED,
	MLQ_DIGEST_NSECTIONS
};

/* One summary line: a list's activity in the period. */
struct mlq_digest_list {
	const char *list;
	int64_t submissions; /* new series and single patches */
	int64_t replies;
	int64_t nacks; /* replies that NACK */
	int64_t reverts;
	int64_t applied; /* replies that say applied */
};

/* One followed ref's commits of the period. */
struct mlq_digest_merged {
	const char *repo, *ref;
	int64_t commits;  /* committed in the period */
	int64_t postings; /* of them, carrying a stored posting (of the list) */
	int64_t unreviewed; /* of those, whose posting nobody else answered */
};

struct mlq_digest_reviewer {
	const char *name; /* escaped */
	const char *email;
	int64_t replies; /* to others' submissions during the period */
};

struct mlq_digest {
	struct mlq_arena *arena; /* owns everything below */
	int64_t since, until;	 /* the period: since <= date < until */
	const char *label;	 /* "week 2021-W16", "2021-04-19", or a range */
	const char *title;	 /* "mlq digest: linux-nfs, week 2021-W16" */
	const char *list;	 /* the --list given; NULL: every list */
	const char **watch;	 /* what 'watched' matched */
	size_t nwatch;
	int unreviewed_days;
	struct mlq_digest_list *lists;
	size_t nlists;
	struct mlq_digest_item *items[MLQ_DIGEST_NSECTIONS];
	size_t nitems[MLQ_DIGEST_NSECTIONS];
	size_t nmore[MLQ_DIGEST_NSECTIONS];    /* past MLQ_DIGEST_MAX_ITEMS */
	struct mlq_digest_reviewer *reviewers; /* most replies first */
	size_t nreviewers;
	struct mlq_digest_merged *merged; /* by repo and ref */
	size_t nmerged;
};

struct mlq_conf;

/* What a digest covers. */
struct mlq_digest_opts {
	int64_t since, until;	  /* UTC seconds */
	const char *list;	  /* NULL: every list */
	const char *const *watch; /* domains or addresses, lower case */
	size_t nwatch;
	int unreviewed_days; /* 0: 14 */
	const struct mlq_conf
	    *conf; /* its sources give the links; may be NULL */
};

/*
 * Builds the digest of a period from the store (read only).  Everything
 * in opts is copied.  On MLQ_OK the caller owns *out (mlq_digest_free).
 */
enum mlq_status mlq_digest_build(struct mlq_store *st,
    const struct mlq_digest_opts *opts, struct mlq_digest **out,
    struct mlq_err *err);
void mlq_digest_free(struct mlq_digest *d);
/* "watched", "nacked", ...: the JSON key of a section. */
const char *mlq_digest_section_key(enum mlq_digest_section s);
/*
 * Appends the digest as plain UTF-8 text: empty sections left out, every
 * line at most 72 columns (code points) but for a link or other single
 * word longer than that, which stays whole on its own line.  Dates are
 * in the local time zone.  Check out->oom afterwards.
 */
void mlq_digest_render(const struct mlq_digest *d, struct mlq_buf *out);

/*
 * The period a schedule has just completed at 'now': the latest
 * scheduled time T <= now (local time, DST included) and the one before
 * it.  False when the schedule is off.
 */
bool mlq_digest_period(const struct mlq_conf_schedule *s, int64_t now,
    int64_t *start, int64_t *end);
/* The first scheduled time after now; false when the schedule is off. */
bool mlq_digest_next(const struct mlq_conf_schedule *s, int64_t now,
    int64_t *next);
/* The period's name: "week 2021-W16", "2021-04-19" or "A to B" (local). */
void mlq_digest_label(int64_t since, int64_t until, char *out, size_t n);

/*
 * Kept by the caller of mlq_digest_send_due() between calls (mlqd for
 * its life, mlq digest --send for one call); zero it before the first.
 */
struct mlq_digest_state {
	unsigned failures; /* consecutive failed sends */
	int64_t retry_at;  /* no new attempt before this (UTC seconds) */
	unsigned sent;	   /* digests the last call mailed */
	char label[64];	   /* the period last sent or tried */
	int64_t next;	   /* call again at this time at the latest */
	bool retryable;	   /* the last failure was transient (4xx, network) */
};

/*
 * How a composed mail reaches the server, as mlq_smtp_send() does: mlqd
 * passes that (libcurl), mlq a function running the mlq-smtp helper, so
 * that loading libcurl is not every mlq command's cost.
 */
typedef enum mlq_status (*mlq_smtp_fn)(const struct mlq_conf *c,
    const char *mail, size_t len, bool *retryable, struct mlq_err *err);

/*
 * Mails every digest the [digest] schedule has made due at 'now' and not
 * yet sent, oldest first, and records each in the store once the server
 * has accepted it, so a restart never sends twice.  Due are the periods
 * that ended after the last one recorded, at most MLQ_DIGEST_CATCHUP of
 * them (after downtime); with none recorded yet, only the last period.
 * A failure stops the round: nothing is recorded for that period and the
 * next attempt waits (backoff doubling from MLQ_DIGEST_RETRY_MIN up to
 * MLQ_DIGEST_RETRY_MAX; a 5xx answer waits the maximum).  ds->next is
 * when to call again: the next period's end or the retry time, never
 * more than an hour away (clock changes, suspend).  Calling early is
 * harmless.  'st' must be writable.  MLQ_NOTFOUND when no schedule is
 * configured; MLQ_EINPUT when [digest] lacks smtp, from or to; MLQ_ENET
 * when the server could not be reached or refused (err has its answer).
 * Blocks for the SMTP exchange (bounded by MLQ_SMTP_TIMEOUT, plus 30 s to
 * connect).  It keeps no global state and uses only its arguments, so a
 * caller may run it on a thread of its own with a store handle of its own.
 */
enum mlq_status mlq_digest_send_due(struct mlq_store *st,
    const struct mlq_conf *c, mlq_smtp_fn send, int64_t now,
    struct mlq_digest_state *ds, struct mlq_err *err);

/*
 * Mails a built digest to [digest] to through [digest] smtp and records
 * it in the store ('scheduled' tells whether it is a schedule's period;
 * st NULL: nothing is recorded, for a dry run).
 * The message id is written to msgid (at least 128 bytes).  Statuses as
 * for mlq_smtp_send(); MLQ_EINPUT when [digest] lacks smtp, from or to.
 */
enum mlq_status mlq_digest_send(struct mlq_store *st, const struct mlq_conf *c,
    mlq_smtp_fn send, const struct mlq_digest *d, bool scheduled, int64_t now,
    char *msgid, size_t msgid_len, bool *retryable, struct mlq_err *err);

/* ---- mail (mail-compose.c composes, smtp.c sends with libcurl) -------- */

/* A text/plain UTF-8 mail to compose. */
struct mlq_smtp_mail {
	const char *from;
	const char *const *to;
	size_t nto;
	const char *subject; /* UTF-8; encoded as RFC 2047 if not ASCII */
	int64_t date;	     /* UTC seconds; written in the local zone */
	const char *msgid;   /* without <> */
	const char *body;    /* UTF-8 text, LF line ends */
	size_t body_len;
};

/*
 * Appends the mail with CRLF line ends: From, To, Subject, Date,
 * Message-Id, MIME-Version, Content-Type text/plain; charset=utf-8 and
 * Content-Transfer-Encoding quoted-printable, so any relay passes it.
 */
void mlq_smtp_compose(const struct mlq_smtp_mail *m, struct mlq_buf *out);
/* A fresh Message-Id "mlq-digest.<random>@<from's domain>" into out. */
enum mlq_status mlq_smtp_msgid(const char *from, char *out, size_t n,
    struct mlq_err *err);

/*
 * Sends a composed mail through [digest] smtp from [digest] from to every
 * [digest] to.  smtp:// requires STARTTLS unless smtp-starttls = no;
 * certificates are verified against [digest] tls-ca, else the system's
 * CAs.  A refused recipient fails the whole send.  smtp-user logs in
 * with "smtp-password" from the secrets file.  MLQ_ENET on failure, with
 * the server's answer in err and *retryable true for a 4xx answer or a
 * network failure, false for a 5xx answer or a TLS or login failure.
 * MLQ_EINPUT when [digest] lacks smtp, from or to, when the secret is
 * missing, or when it would go in clear (smtp-starttls = no) to another
 * host than this one.  The password never appears in err.
 */
/*
 * (lib/digest/smtp.c, with GnuTLS) "WHO: TLS certificate not trusted:
 * WHY" from a GnuTLS verify status: imaps, https and smtps say the cause
 * the same way.  mlq_curl_tls_why does it for a libcurl handle (a CURL *)
 * that failed with rc, when libcurl's backend is GnuTLS (its own message
 * says only "verification failed"); false otherwise.
 */
void mlq_tls_status_why(unsigned status, const char *who, char *why,
    size_t len);
bool mlq_curl_tls_why(void *easy, int rc, const char *who, char *why,
    size_t len);
enum mlq_status mlq_smtp_send(const struct mlq_conf *c, const char *mail,
    size_t len, bool *retryable, struct mlq_err *err);

/* ---- URLs (url.c) --------------------------------------------------- */

/* Appends url to b with any password replaced by "***": safe to log. */
void mlq_url_redact(struct mlq_buf *b, const char *url);

#endif
