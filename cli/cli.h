/* What cli/cli.c shares with mlq, mlq-ingest and the subcommands. */
#ifndef MLQ_CLI_H
#define MLQ_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "mlq.h"

struct cli {
	const char *db_path;
	const char *config_path; /* -c; NULL: the default places */
	struct mlq_conf *conf;
	struct mlq_store *st; /* opened as the command's flags ask */
	char **argv;	      /* the program's arguments as given */
};

enum cli_flags {
	CLI_DB_NONE = 0,
	CLI_DB_READ = 1,
	/* a bulk writer (MLQ_STORE_BULK): it syncs as it ends */
	CLI_DB_BULK = 2,
	/* a writer (MLQ_STORE_WRITE) of a database that exists */
	CLI_DB_WRITE = 3,
};

struct cli_cmd {
	const char *name;
	const char *usage;
	const char *summary;
	int flags;
	int (*exec)(struct cli *cli, int argc, char **argv);
	const char *helper; /* the program that runs it, if not this one */
	const char *details; /* more for `mlq help CMD`: values, examples */
	/* The config sections it reads ("database identity"); NULL: all.
	 * A broken section it does not read is a warning, not an error. */
	const char *conf_needs;
	bool own_conf; /* reads the config itself: cli_main loads none */
};

/*
 * import, reindex and cat run in mlq-ingest, the one program that loads
 * libetpan; mlq lists them with the same words.
 */
#define CMD_IMPORT_USAGE "[--list NAME] SOURCE... | --git REPO [RANGE]"
#define CMD_IMPORT_SUMMARY                                                     \
	"store the messages of mbox, maildir, message files or -, or the "    \
	"commits of a git tree"
#define CMD_REINDEX_USAGE "[--jobs N]"
#define CMD_REINDEX_SUMMARY                                                    \
	"re-parse and re-classify every stored message (stop mlqd first)"
#define CMD_CAT_USAGE "[--raw] ID..."
#define CMD_CAT_SUMMARY                                                        \
	"print stored messages: headers and decoded text, or the raw bytes"
#define CMD_AM_USAGE                                                           \
	"[-o FILE] [--cover FILE] [-v N] [--no-trailers] [--partial] ID"
#define CMD_AM_SUMMARY                                                         \
	"a series ready for git am, with the trailers its replies gave"
#define CMD_AM_DETAILS                                                         \
	"From any patch, cover letter or reply: the newest version (or -v N),\n" \
	"patches 1..N in order, the trailers of the replies to each patch and\n" \
	"to the cover letter added as b4 am adds them.  -o FILE (default\n"   \
	"stdout); --cover FILE writes the cover letter apart.\n"
#define CMD_INGEST_HELPER "mlq-ingest"
/* What every command that takes a message accepts. */
#define CMD_ID_DETAILS                                                         \
	"ID: Message-Id, <ID>, id:ID, m:ID or a lore URL (/LIST/ID/, /r/ID,\n" \
	"  /all/ID)\n"

extern const struct cli_cmd cmd_am;
extern const struct cli_cmd cmd_cat;
extern const struct cli_cmd cmd_config;
extern const struct cli_cmd cmd_digest;
extern const struct cli_cmd cmd_import;
extern const struct cli_cmd cmd_lists;
extern const struct cli_cmd cmd_mark;
extern const struct cli_cmd cmd_reindex;
extern const struct cli_cmd cmd_search;
extern const struct cli_cmd cmd_show;
extern const struct cli_cmd cmd_sources;
extern const struct cli_cmd cmd_status;
extern const struct cli_cmd cmd_thread;
extern const struct cli_cmd cmd_who;

/* mlq's main, given its commands (sorted by name, as help lists them). */
int cli_main(int argc, char **argv, const struct cli_cmd *const *commands,
    size_t ncommands);

/* The clock (UTC seconds), or MLQ_NOW for tests; false when MLQ_NOW is
 * not unix seconds. */
bool cli_now(int64_t *now);

/* Prints "mlq: <err>" and returns the exit code for its status. */
int cli_fail(const struct mlq_err *err);
/* "mlq: CMD: no message 'ID'" and exit code 1. */
int cli_not_found(const char *cmd, const char *msgid);
/*
 * The Message-Id of a command's ID argument (mlq_msgid_arg) into b: 0, or
 * the exit code after saying why there is none.
 */
int cli_msgid(const char *cmd, const char *arg, struct mlq_buf *b);
/*
 * Refuses a long option the command does not have, exactly as named (no
 * abbreviations: --form is not --format), with the nearest it has: 0, or
 * exit code 2 after saying so.  Call before getopt_long.
 */
struct option;
int cli_check_options(const struct cli_cmd *cmd, int argc, char *const *argv,
    const struct option *opts);
/* The long option arg ("--name" or "--name=value") names exactly; NULL. */
const struct option *cli_long_option(const struct option *opts,
    const char *arg);
/* Prints "mlq: <fmt>" and returns exit code 2 (bad usage or input). */
int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A bad option of cmd (getopt's optopt): one line and the usage; 2. */
int cli_bad_option(const struct cli_cmd *cmd);

/* ---- helpers (helper.c) ---- */

/* Where helper 'name' is, for command 'cmd'; the error says where it looked. */
enum mlq_status cli_helper_path(const char *cmd, const char *name, char *out,
    size_t n, struct mlq_err *err);
/* Runs cmd->helper with this process's arguments; returns only on failure. */
int cli_exec_helper(const struct cli_cmd *cmd, char **argv);
/*
 * Lets the program's searches check phrases: mlq_store_phrases in
 * mlq-ingest, which parses mail; NULL in mlq, which hands a search with
 * a phrase to mlq-ingest rather than load libetpan for every search.
 */
extern enum mlq_status (*const cli_phrases)(struct mlq_store *st,
    struct mlq_err *err);

/* mlq_smtp_fn for mlq: runs the mlq-smtp helper (smtp-run.c). */
enum mlq_status cli_smtp_send(const struct mlq_conf *c, const char *mail,
    size_t len, bool *retryable, struct mlq_err *err);

/* ---- output (out.c) ---- */

enum out_format { OUT_TEXT, OUT_JSON, OUT_JSONL, OUT_MBOX, OUT_IDS };

/* "text", "json", ... restricted to the formats a command allows. */
bool out_format_parse(const char *s, unsigned allowed, enum out_format *f);
#define OUT_ALLOW(f) (1u << (f))

/* Mail text to a terminal or pipe, control characters made visible. */
/* Whether f is a terminal: mail is then shown made safe, never raw. */
bool out_is_terminal(FILE *f);
/*
 * Text as an mbox carries it (mboxrd: a line matching ^>*From  gains one
 * '>'), every line ended, the last one too; to a terminal, made safe.
 */
void out_mbox_text(FILE *f, const char *p, size_t n);
/* Text line by line, each made safe as out_safe makes it. */
void out_safe_lines(FILE *f, const char *p, size_t n);
void out_safe(FILE *f, const char *s);
/* Like out_safe, cut to at most width columns (counting code points). */
void out_safe_width(FILE *f, const char *s, int width);
/*
 * Like out_safe, between open and close, from column col, its words
 * wrapped at width columns onto lines indented to col; a word longer
 * than a line stands alone and whole (never cut).
 */
void out_safe_wrap(FILE *f, const char *s, int col, int width,
    const char *open, const char *close);

/* A streaming JSON writer: commas and escaping are its business. */
struct out_json {
	FILE *f;
	int depth;
	bool first[32];
	bool after_key;
};

void json_init(struct out_json *j, FILE *f);
void json_obj_begin(struct out_json *j);
void json_obj_end(struct out_json *j);
void json_arr_begin(struct out_json *j);
void json_arr_end(struct out_json *j);
void json_key(struct out_json *j, const char *k);
void json_str(struct out_json *j, const char *s); /* NULL prints null */
void json_int(struct out_json *j, long long v);
/* A finite number with that many decimals. */
void json_real(struct out_json *j, double v, int decimals);
void json_bool(struct out_json *j, bool v);
void json_null(struct out_json *j);
/* Ends a top-level value with a newline. */
void json_end_line(struct out_json *j);

/* The INTERFACE.md message object's fields (without the closing brace). */
void out_hit_fields(struct out_json *j, const struct mlq_hit *h);
/* "2021-04-06T19:16:56Z", or "" when the date is unknown. */
const char *out_date(const struct mlq_hit *h, char *buf, size_t n);
/* The raw message as an mbox entry (From_ line, mboxrd quoting). */
enum mlq_status out_mbox(FILE *f, struct mlq_store *st, const struct mlq_hit *h,
    struct mlq_err *err);

#endif
