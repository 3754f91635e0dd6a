/*
 * Phrases, for an index that keeps no word positions (detail=column, half
 * the size): the SQL function mlq_phrase(id, cols, words) reads message
 * id's stored mail, splits it into the index's columns and says whether
 * the columns in the bit set cols have words, folded and stemmed as the
 * index does, one after the other.  A search asks it only of messages
 * that have every word of the phrase (query.c ANDs the two), so a phrase
 * costs a parse per candidate, not per message.
 */
#include "config.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* Words as the index folds them, each NUL-terminated in one buffer. */
struct words {
	struct mlq_buf bytes;
	size_t *off;
	size_t n, cap;
	bool oom;
};

struct phrase_fn {
	struct mlq_store *st;
	fts5_tokenizer tok;
	Fts5Tokenizer *inst;
	struct mlq_buf cols[MLQ_TEXT_NCOLS];
	struct words have;
};

static int
on_word(void *arg, int tflags, const char *tok, int ntok, int start, int end)
{
	struct words *w = arg;
	size_t *off;

	(void)start;
	(void)end;
	if ((tflags & FTS5_TOKEN_COLOCATED) || ntok <= 0)
		return SQLITE_OK;
	if (w->n == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 64;
		if ((off = reallocarray(w->off, w->cap, sizeof(*off))) == NULL) {
			w->oom = true;
			return SQLITE_NOMEM;
		}
		w->off = off;
	}
	w->off[w->n++] = w->bytes.len;
	mlq_buf_add(&w->bytes, tok, (size_t)ntok);
	mlq_buf_addch(&w->bytes, '\0');
	return w->bytes.oom ? SQLITE_NOMEM : SQLITE_OK;
}

static bool
words_of(struct phrase_fn *f, struct words *w, const char *text, size_t len)
{
	w->n = 0;
	w->oom = false;
	mlq_buf_reset(&w->bytes);
	if (len == 0)
		return true;
	return f->tok.xTokenize(f->inst, w, FTS5_TOKENIZE_DOCUMENT, text,
		   (int)len, on_word) == SQLITE_OK &&
	    !w->oom;
}

static const char *
word(const struct words *w, size_t i)
{
	return w->bytes.data + w->off[i];
}

/* Whether have holds want's words one after the other. */
static bool
words_follow(const struct words *have, const struct words *want)
{
	size_t i, j;

	for (i = 0; want->n > 0 && i + want->n <= have->n; i++) {
		for (j = 0; j < want->n; j++)
			if (strcmp(word(have, i + j), word(want, j)) != 0)
				break;
		if (j == want->n)
			return true;
	}
	return false;
}

static enum mlq_status
parse_stored(const void *z, size_t zlen, size_t len, void *arg,
    struct mlq_err *err)
{
	return mlq__msg_parse_text(z, zlen, len, arg, err);
}

static void
words_release(struct words *w)
{
	mlq_buf_release(&w->bytes);
	free(w->off);
}

static void
words_free(void *w)
{
	words_release(w);
	free(w);
}

static void
phrase_call(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct phrase_fn *f = sqlite3_user_data(ctx);
	const char *phrase = (const char *)sqlite3_value_text(argv[2]);
	unsigned cols = (unsigned)sqlite3_value_int(argv[1]);
	struct words *want = sqlite3_get_auxdata(ctx, 2);
	struct mlq_msg *m = NULL;
	struct mlq_err err;
	bool found = false;
	size_t i;

	(void)argc;
	mlq_err_clear(&err);
	/* The phrase's words, worked out once per statement: the phrase is
	 * a bound parameter, which SQLite keeps the result for. */
	if (want == NULL) {
		if ((want = calloc(1, sizeof(*want))) == NULL) {
			sqlite3_result_error_nomem(ctx);
			return;
		}
		mlq_buf_init(&want->bytes);
		if (phrase == NULL ||
		    !words_of(f, want, phrase,
			(size_t)sqlite3_value_bytes(argv[2]))) {
			words_free(want);
			sqlite3_result_error_nomem(ctx);
			return;
		}
		/* SQLite owns it now (and frees it at once on ENOMEM). */
		sqlite3_set_auxdata(ctx, 2, want, words_free);
		if ((want = sqlite3_get_auxdata(ctx, 2)) == NULL) {
			sqlite3_result_error_nomem(ctx);
			return;
		}
	}
	if (mlq__mail_get(f->st, sqlite3_value_int64(argv[0]), parse_stored,
		&m, &err) != MLQ_OK) {
		sqlite3_result_error(ctx, err.msg, -1);
		return;
	}
	mlq__text_columns(m, f->cols);
	for (i = 0; !found && i < MLQ_TEXT_NCOLS; i++) {
		if (!(cols & (1u << i)))
			continue;
		if (f->cols[i].oom ||
		    !words_of(f, &f->have, f->cols[i].data, f->cols[i].len)) {
			mlq_msg_free(m);
			sqlite3_result_error_nomem(ctx);
			return;
		}
		found = words_follow(&f->have, want);
	}
	mlq_msg_free(m);
	sqlite3_result_int(ctx, found);
}

static void
phrase_free(void *arg)
{
	struct phrase_fn *f = arg;
	size_t i;

	if (f == NULL)
		return;
	if (f->inst != NULL)
		f->tok.xDelete(f->inst);
	for (i = 0; i < MLQ_TEXT_NCOLS; i++)
		mlq_buf_release(&f->cols[i]);
	words_release(&f->have);
	free(f);
}

enum mlq_status
mlq_store_phrases(struct mlq_store *st, struct mlq_err *err)
{
	/* The tokenize= of table fts (schema 020). */
	static const char *args[] = { "unicode61", "remove_diacritics", "2",
		"tokenchars", "_" };
	struct phrase_fn *f;
	fts5_api *api;
	void *tctx = NULL;
	size_t i;

	if (st->phrase_fn)
		return MLQ_OK;
	if ((f = calloc(1, sizeof(*f))) == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	f->st = st;
	for (i = 0; i < MLQ_TEXT_NCOLS; i++)
		mlq_buf_init(&f->cols[i]);
	mlq_buf_init(&f->have.bytes);
	if ((api = mlq__fts5_api(st->db)) == NULL ||
	    api->xFindTokenizer(api, "porter", &tctx, &f->tok) != SQLITE_OK ||
	    f->tok.xCreate(tctx, args, (int)MLQ__ARRAY_SIZE(args), &f->inst) !=
		SQLITE_OK) {
		f->inst = NULL;
		phrase_free(f);
		return mlq_err_set(err, MLQ_EDB, "no FTS5 porter tokenizer");
	}
	/* SQLite owns f from here, and frees it with the connection. */
	if (sqlite3_create_function_v2(st->db, "mlq_phrase", 3,
		SQLITE_UTF8 | SQLITE_DIRECTONLY, f, phrase_call, NULL, NULL,
		phrase_free) != SQLITE_OK)
		return mlq__store_fail(st, err, "register mlq_phrase");
	st->phrase_fn = true;
	return MLQ_OK;
}
