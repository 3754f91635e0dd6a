/*
 * A message's words as the free-text index keeps them, worked out by a
 * parse worker so that the one writer need not.
 *
 * The body is split as lore (public-inbox 1.9) splits it, so that q:,
 * nq:, dfa:, dfb: and the rest find what lore's find: quoted blocks;
 * inside the other blocks, where one looks like a diff, the removed,
 * added and context lines, the hunk headers' function names and the
 * file names each go to their column and the rest is the body's own
 * text.
 *
 * The index (table fts) has detail=column: for each word it keeps which
 * messages have it in which column, not how often or where.  So handing
 * FTS5 each distinct word of a column once, already folded by the same
 * unicode61 tokenizer, gives it exactly the terms the whole text would:
 * tokenizing a folded word again yields that word, and the table's
 * porter stemmer stems it as it would have stemmed the word in the text.
 * The writer then tokenizes and hashes a fraction of the text.
 */
#include "config.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "mlq-int.h"

/* One distinct word of the column being collected, by offset into out. */
struct term_slot {
	uint32_t gen; /* the column it belongs to; older ones are free */
	uint32_t hash;
	size_t off, len;
};

struct mlq_terms {
	sqlite3 *db; /* owns the tokenizer's module */
	fts5_tokenizer tok;
	Fts5Tokenizer *inst;
	struct term_slot *slots;
	size_t nslots, nterms; /* nslots: a power of two */
	uint32_t gen;
	struct mlq_buf out;
	struct mlq_buf cols[MLQ_TEXT_NCOLS]; /* the columns' text */
	bool oom;
};

/* The fts5_api of db, by SQLite's documented pointer handshake. */
fts5_api *
mlq__fts5_api(sqlite3 *db)
{
	fts5_api *api = NULL;
	sqlite3_stmt *s;

	if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &s, NULL) !=
	    SQLITE_OK)
		return NULL;
	sqlite3_bind_pointer(s, 1, (void *)&api, "fts5_api_ptr", NULL);
	sqlite3_step(s);
	sqlite3_finalize(s);
	return api;
}

struct mlq_terms *
mlq__terms_new(void)
{
	/* The tokenize= of table fts (schema 020) less its stemmer. */
	static const char *args[] = { "remove_diacritics", "2", "tokenchars",
		"_" };
	struct mlq_terms *t;
	fts5_api *api;
	void *ctx = NULL;
	size_t i;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	mlq_buf_init(&t->out);
	for (i = 0; i < MLQ_TEXT_NCOLS; i++)
		mlq_buf_init(&t->cols[i]);
	if (sqlite3_open_v2(":memory:", &t->db,
		SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
	    (api = mlq__fts5_api(t->db)) == NULL ||
	    api->xFindTokenizer(api, "unicode61", &ctx, &t->tok) != SQLITE_OK ||
	    t->tok.xCreate(ctx, args, (int)MLQ__ARRAY_SIZE(args), &t->inst) !=
		SQLITE_OK) {
		t->inst = NULL;
		mlq__terms_free(t);
		return NULL;
	}
	return t;
}

void
mlq__terms_free(struct mlq_terms *t)
{
	if (t == NULL)
		return;
	if (t->inst != NULL)
		t->tok.xDelete(t->inst);
	sqlite3_close(t->db);
	free(t->slots);
	mlq_buf_release(&t->out);
	for (size_t i = 0; i < MLQ_TEXT_NCOLS; i++)
		mlq_buf_release(&t->cols[i]);
	free(t);
}

static uint32_t
term_hash(const char *p, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	while (n-- > 0)
		h = (h ^ (unsigned char)*p++) * 16777619u;
	return h;
}

/* Doubles the table, keeping the current column's words. */
static bool
terms_grow(struct mlq_terms *t)
{
	struct term_slot *old = t->slots, *s;
	size_t oldn = t->nslots, n = oldn ? oldn * 2 : 1024, i, j;

	if ((s = calloc(n, sizeof(*s))) == NULL)
		return false;
	for (i = 0; i < oldn; i++) {
		if (old[i].gen != t->gen)
			continue;
		for (j = old[i].hash & (n - 1); s[j].gen == t->gen;
		     j = (j + 1) & (n - 1))
			;
		s[j] = old[i];
	}
	free(old);
	t->slots = s;
	t->nslots = n;
	return true;
}

/* fts5's token callback: appends a word the column has not had yet. */
static int
on_token(void *arg, int tflags, const char *tok, int ntok, int start, int end)
{
	struct mlq_terms *t = arg;
	struct term_slot *s;
	uint32_t h;
	size_t i, n = (size_t)ntok;

	(void)tflags;
	(void)start;
	(void)end;
	if (ntok <= 0)
		return SQLITE_OK;
	if (2 * (t->nterms + 1) > t->nslots && !terms_grow(t)) {
		t->oom = true;
		return SQLITE_NOMEM;
	}
	h = term_hash(tok, n);
	for (i = h & (t->nslots - 1);; i = (i + 1) & (t->nslots - 1)) {
		s = &t->slots[i];
		if (s->gen != t->gen)
			break;
		if (s->hash == h && s->len == n &&
		    memcmp(t->out.data + s->off, tok, n) == 0)
			return SQLITE_OK;
	}
	if (t->nterms > 0)
		mlq_buf_addch(&t->out, ' ');
	s->gen = t->gen;
	s->hash = h;
	s->off = t->out.len;
	s->len = n;
	mlq_buf_add(&t->out, tok, n);
	t->nterms++;
	return t->out.oom ? SQLITE_NOMEM : SQLITE_OK;
}

/* The distinct words of text[0..len) into arena a; NULL on ENOMEM. */
static const char *
column_terms(struct mlq_terms *t, const char *text, size_t len,
    struct mlq_arena *a, size_t *outlen)
{
	/* A new generation empties the table without touching it. */
	if (++t->gen == 0) {
		memset(t->slots, 0, t->nslots * sizeof(*t->slots));
		t->gen = 1;
	}
	t->nterms = 0;
	t->oom = false;
	mlq_buf_reset(&t->out);
	if (len > 0 && t->tok.xTokenize(t->inst, t, FTS5_TOKENIZE_DOCUMENT,
			   text, (int)len, on_token) != SQLITE_OK)
		return NULL;
	if (t->oom || t->out.oom)
		return NULL;
	*outlen = t->out.len;
	return mlq_arena_strndup(a, t->out.data ? t->out.data : "", t->out.len);
}

enum mlq_status
mlq__terms_of_msg(struct mlq_terms *t, struct mlq_msg *m)
{
	const char *w[MLQ_TEXT_NCOLS];
	size_t n[MLQ_TEXT_NCOLS], i;

	mlq__text_columns(m, t->cols);
	for (i = 0; i < MLQ_TEXT_NCOLS; i++) {
		if (t->cols[i].oom)
			return MLQ_ENOMEM;
		w[i] = column_terms(t, t->cols[i].data ? t->cols[i].data : "",
		    t->cols[i].len, m->arena, &n[i]);
		if (w[i] == NULL)
			return MLQ_ENOMEM;
	}
	for (i = 0; i < MLQ_TEXT_NCOLS; i++) {
		m->terms[i] = w[i];
		m->terms_len[i] = n[i];
	}
	return MLQ_OK;
}

struct tokens_ctx {
	mlq_token_fn fn;
	void *arg;
	int stop;
};

static int
on_query_token(void *arg, int flags, const char *tok, int n, int start,
    int end)
{
	struct tokens_ctx *c = arg;

	(void)flags;
	(void)start;
	(void)end;
	if (n > 0 && (c->stop = c->fn(tok, (size_t)n, c->arg)) != 0)
		return SQLITE_DONE;
	return SQLITE_OK;
}

enum mlq_status
mlq__text_tokens(const char *s, size_t n, mlq_token_fn fn, void *arg)
{
	struct tokens_ctx c = { fn, arg, 0 };
	struct mlq_terms *t;
	int rc;

	if (n == 0)
		return MLQ_OK;
	if (n > INT32_MAX || (t = mlq__terms_new()) == NULL)
		return MLQ_ENOMEM;
	rc = t->tok.xTokenize(t->inst, &c, FTS5_TOKENIZE_QUERY, s, (int)n,
	    on_query_token);
	mlq__terms_free(t);
	return rc == SQLITE_OK || (rc == SQLITE_DONE && c.stop != 0)
	    ? MLQ_OK
	    : MLQ_ENOMEM;
}
