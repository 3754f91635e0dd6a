/*
 * Fuzz target: the query language and the search it becomes.  An input
 * starting "--NAME\n" is command-line flag NAME given each following line
 * as a value; anything else is a query in lore's syntax.  Each accepted
 * query runs on an empty store.  Checked: the tree is well formed, the
 * search never fails (an FTS5 expression the parser let through that
 * SQLite refuses fails here), and its SQL is built from bound values
 * only: the query with every string replaced prepares the same SQL.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "fuzz/fuzz.h"
#include "mlq.h"

/* 2021-04-16: "now" for relative dates. */
#define NOW 1618531200LL

int __real_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n,
    sqlite3_stmt **st, const char **tail);
int __wrap_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n,
    sqlite3_stmt **st, const char **tail);

static struct mlq_store *store;
static char dir[] = "/tmp/mlq-fuzz-query-XXXXXX";
static char db[64];
static struct mlq_buf *sqls; /* the SQL prepared while set */

/* Every statement the store prepares passes here (-Wl,--wrap). */
int
__wrap_sqlite3_prepare_v2(sqlite3 *h, const char *sql, int n, sqlite3_stmt **st,
    const char **tail)
{
	if (sqls != NULL) {
		mlq_buf_addstr(sqls, sql);
		mlq_buf_addch(sqls, '\n');
	}
	return __real_sqlite3_prepare_v2(h, sql, n, st, tail);
}

static void
store_close(void)
{
	char path[96];

	mlq_store_close(store);
	unlink(db);
	snprintf(path, sizeof(path), "%s-wal", db);
	unlink(path);
	snprintf(path, sizeof(path), "%s-shm", db);
	unlink(path);
	rmdir(dir);
}

static void
store_init(void)
{
	struct mlq_err err = { MLQ_OK, "" };

	if (mkdtemp(dir) == NULL)
		abort();
	snprintf(db, sizeof(db), "%s/q.db", dir);
	if (mlq_store_open(db, MLQ_STORE_WRITE, &store, &err) != MLQ_OK ||
	    mlq_store_phrases(store, &err) != MLQ_OK) {
		fprintf(stderr, "fuzz-query: %s\n", err.msg);
		abort();
	}
	atexit(store_close);
}

static bool
has_string(enum mlq_qfield f)
{
	return f != MLQ_QF_DATE && f != MLQ_QF_STATUS && f != MLQ_QF_TAG &&
	    f != MLQ_QF_PATCH;
}

static void
check_tree(const struct mlq_qnode *n)
{
	switch (n->op) {
	case MLQ_QOP_AND:
	case MLQ_QOP_OR:
		FUZZ_CHECK(n->l != NULL && n->r != NULL);
		check_tree(n->l);
		check_tree(n->r);
		return;
	case MLQ_QOP_NOT:
		FUZZ_CHECK(n->l != NULL && n->r == NULL);
		check_tree(n->l);
		return;
	case MLQ_QOP_LEAF:
		break;
	default:
		FUZZ_CHECK(!"an operator");
	}
	FUZZ_CHECK(n->field <= MLQ_QF_PATCH);
	if (has_string(n->field))
		FUZZ_CHECK(n->s != NULL && n->s[0] != '\0');
	if (n->field == MLQ_QF_TAG)
		FUZZ_CHECK(mlq_tag_name((unsigned)n->ival) != NULL);
	if (n->field == MLQ_QF_STATUS)
		FUZZ_CHECK(mlq_state_name((enum mlq_state)n->ival) != NULL);
	if (n->field == MLQ_QF_DATE)
		FUZZ_CHECK(n->has_lo || n->has_hi);
}

/* n with every string made "a" ("a/b" for a path: its SQL differs). */
static const struct mlq_qnode *
canon(struct mlq_arena *a, const struct mlq_qnode *n)
{
	struct mlq_qnode *c;

	if (n == NULL)
		return NULL;
	if ((c = mlq_arena_alloc(a, sizeof(*c))) == NULL)
		abort();
	*c = *n;
	c->l = canon(a, n->l);
	c->r = canon(a, n->r);
	if (n->op == MLQ_QOP_LEAF && n->s != NULL)
		c->s = n->field == MLQ_QF_FILE && strchr(n->s, '/') != NULL
		    ? "a/b"
		    : "a";
	return c;
}

static int
hit(const struct mlq_hit *h, void *arg)
{
	(void)h;
	(void)arg;
	return 0;
}

/* The SQL that searching q prepares, into out. */
static void
search(const struct mlq_query *q, struct mlq_buf *out)
{
	struct mlq_err err = { MLQ_OK, "" };
	enum mlq_status st;

	sqls = out;
	st = mlq_store_search(store, q, hit, NULL, &err);
	sqls = NULL;
	if (st != MLQ_OK && st != MLQ_NOTFOUND)
		fprintf(stderr, "fuzz-query: search: %s\n", err.msg);
	FUZZ_CHECK(st == MLQ_OK || st == MLQ_NOTFOUND);
}

static enum mlq_status
parse_flag(struct mlq_query *q, char *text, struct mlq_arena *a)
{
	char *vals[64], *p = text + 2, *nl;
	size_t n = 0;

	if ((nl = strchr(p, '\n')) == NULL)
		return MLQ_EINPUT;
	*nl = '\0';
	for (text = nl + 1; n < 64; text = nl + 1) {
		vals[n++] = text;
		if ((nl = strchr(text, '\n')) == NULL)
			break;
		*nl = '\0';
	}
	return mlq_query_flag(q, p, vals, n, NOW, a, NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_str(data, size);
	struct mlq_query q = { NULL, 0, false }, c;
	struct mlq_buf sql, csql;
	struct mlq_arena *a;
	enum mlq_status st;

	if (store == NULL)
		store_init();
	if ((a = mlq_arena_new()) == NULL)
		abort();
	if (strncmp(text, "--", 2) == 0)
		st = parse_flag(&q, text, a);
	else
		st = mlq_query_text(&q, text, NOW, a, NULL);
	if (st != MLQ_OK)
		goto out;
	if (q.expr != NULL)
		check_tree(q.expr);
	/* Limited or not, newest or oldest first: four ways to build it. */
	q.limit = size % 2 ? 20 : 0;
	q.oldest_first = size / 2 % 2;
	mlq_buf_init(&sql);
	mlq_buf_init(&csql);
	search(&q, &sql);
	c = q;
	c.expr = canon(a, q.expr);
	search(&c, &csql);
	FUZZ_CHECK(strcmp(sql.data, csql.data) == 0);
	mlq_buf_release(&sql);
	mlq_buf_release(&csql);
out:
	mlq_arena_free(a);
	free(text);
	return 0;
}
