/*
 * The free-text index (table fts): each message's columns (text-split.c)
 * under
 * a rowid that runs by date, so that the newest matches of a word come
 * first out of FTS5 without reading the others.
 *
 * FTS5 writes its pending rows out as a segment whenever a rowid is
 * lower than the one before it in a transaction, and mail does not come
 * in date order.  So the writer keeps a batch's text here and hands it
 * to FTS5 sorted, before the commit or once it has gathered
 * MLQ_TEXT_PENDING_BYTES.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "store-int.h"

#ifndef MLQ_TEXT_PENDING_BYTES
#define MLQ_TEXT_PENDING_BYTES (8u * 1024 * 1024)
#endif

#define SECONDS_PER_DAY 86400
#define DAY_BIAS (INT64_C(1) << 30)
#define DAY_MAX ((INT64_C(1) << 31) - 1)

/* One message's text, kept in st->text_bytes until the flush. */
struct text_row {
	int64_t key;
	size_t off[MLQ_TEXT_NCOLS], len[MLQ_TEXT_NCOLS];
};

/* A message's day in the text index's rowid. */
static int64_t
text_day(bool date_ok, int64_t date)
{
	int64_t day;

	if (!date_ok)
		return 0;
	/* Rounded down, also before 1970; kept in step with 014's SQL. */
	day = date / SECONDS_PER_DAY;
	if (date % SECONDS_PER_DAY < 0)
		day--;
	day += DAY_BIAS;
	return day < 1 ? 1 : day > DAY_MAX ? DAY_MAX : day;
}

enum mlq_status
mlq__text_add(struct mlq_store *st, int64_t id, const struct mlq_msg *m,
    struct mlq_err *err)
{
	struct mlq_buf cols[MLQ_TEXT_NCOLS];
	struct text_row *r;
	size_t cap, i;
	bool own = m->terms[0] == NULL;

	if (id < 1 || id > MLQ__TEXT_ID_MAX)
		return mlq_err_set(err, MLQ_EDB,
		    "message %lld: past the text index's last id",
		    (long long)id);
	if (st->ntext == st->text_cap) {
		cap = st->text_cap ? st->text_cap * 2 : 256;
		if ((r = reallocarray(st->text, cap, sizeof(*r))) == NULL)
			return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
		st->text = r;
		st->text_cap = cap;
	}
	/* A parse worker's list of the words, else the text itself. */
	if (own) {
		for (i = 0; i < MLQ_TEXT_NCOLS; i++)
			mlq_buf_init(&cols[i]);
		mlq__text_columns(m, cols);
	}
	r = &st->text[st->ntext];
	r->key = MLQ__TEXT_KEY(text_day(m->date_ok, m->date), id);
	for (i = 0; i < MLQ_TEXT_NCOLS; i++) {
		r->off[i] = st->text_bytes.len;
		r->len[i] = own ? cols[i].len : m->terms_len[i];
		if (own && cols[i].oom)
			st->text_bytes.oom = true;
		else if (r->len[i] > 0)
			mlq_buf_add(&st->text_bytes,
			    own ? cols[i].data : m->terms[i], r->len[i]);
	}
	if (own)
		for (i = 0; i < MLQ_TEXT_NCOLS; i++)
			mlq_buf_release(&cols[i]);
	if (st->text_bytes.oom)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	st->ntext++;
	if (st->text_bytes.len >= MLQ_TEXT_PENDING_BYTES)
		return mlq__text_flush(st, err);
	return MLQ_OK;
}

static int
cmp_key(const void *a, const void *b)
{
	int64_t x = ((const struct text_row *)a)->key;
	int64_t y = ((const struct text_row *)b)->key;

	return (x > y) - (x < y);
}

enum mlq_status
mlq__text_flush(struct mlq_store *st, struct mlq_err *err)
{
	const struct text_row *r;
	sqlite3_stmt *s;
	enum mlq_status rc = MLQ_OK;
	size_t i, c;

	if (st->ntext == 0)
		return MLQ_OK;
	qsort(st->text, st->ntext, sizeof(*st->text), cmp_key);
	s = mlq__store_stmt(st, S_FTS_ADD,
	    "INSERT INTO fts(rowid, " MLQ__TEXT_COLS ") "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", err);
	if (s == NULL)
		rc = MLQ_EDB;
	for (i = 0; rc == MLQ_OK && i < st->ntext; i++) {
		r = &st->text[i];
		sqlite3_bind_int64(s, 1, r->key);
		for (c = 0; c < MLQ_TEXT_NCOLS; c++)
			sqlite3_bind_text(s, (int)c + 2,
			    st->text_bytes.data ? st->text_bytes.data + r->off[c]
						: "",
			    (int)r->len[c], SQLITE_STATIC);
		rc = mlq__store_step_done(st, s, err, "index text");
	}
	mlq__text_reset(st);
	return rc;
}

void
mlq__text_reset(struct mlq_store *st)
{
	st->ntext = 0;
	mlq_buf_reset(&st->text_bytes);
}

void
mlq__text_release(struct mlq_store *st)
{
	free(st->text);
	st->text = NULL;
	st->ntext = st->text_cap = 0;
	mlq_buf_release(&st->text_bytes);
}
