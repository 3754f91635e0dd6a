/*
 * The words a parse worker hands the text index (lib/mail/text-terms.c): exact
 * lists for mail written here, and on real mail the proof that matters,
 * that the index holds the same terms for every message whether FTS5 read
 * the whole text or the worker's list.
 */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlq-int.h"
#include "sql-util.h"
#include "tap.h"
#include "tmp-dir.h"

static struct mlq_msg *
parse(const char *raw)
{
	struct mlq_msg *m = NULL;
	struct mlq_err err;

	mlq_err_clear(&err);
	if (mlq_msg_parse(raw, strlen(raw), &m, &err) != MLQ_OK)
		diag("parse: %s", err.msg);
	return m;
}

static void
check_words(struct mlq_terms *t)
{
	struct mlq_msg *m;
	struct mlq_buf raw, want;
	size_t i;

	m = parse("Message-ID: <w1@example.org>\n"
		  "From: A <a@example.org>\n"
		  "Subject: Re: [PATCH v2] NFSD: R\xc3\xa9sum\xc3\xa9 CAF\xc3\x89"
		  " caf\xc3\xa9 na\xc3\xafve x86_64\n"
		  "\n"
		  "Foo foo FOO bar\n"
		  "foo-bar baz_qux 1.2.3 r\xc3\xa9sum\xc3\xa9\n");
	if (!ok(m != NULL, "message parses"))
		return;
	ok(mlq__terms_of_msg(t, m) == MLQ_OK, "terms of a message");
	is_str(m->terms[MLQ_TC_SUBJECT],
	    "re patch v2 nfsd resume cafe naive x86_64",
	    "subject: folded, accents gone, '_' kept, each word once, "
	    "first-seen order");
	is_int(m->terms_len[MLQ_TC_SUBJECT], strlen(m->terms[MLQ_TC_SUBJECT]),
	    "subject length");
	is_str(m->terms[MLQ_TC_NQ], "foo bar baz_qux 1 2 3 resume",
	    "body: a column's words once, whatever their case");
	mlq_msg_free(m);

	m = parse("Message-ID: <w2@example.org>\nFrom: a@example.org\n\n");
	if (ok(m != NULL, "empty message parses")) {
		ok(mlq__terms_of_msg(t, m) == MLQ_OK, "terms of nothing");
		is_str(m->terms[MLQ_TC_SUBJECT], "", "no subject, no words");
		is_str(m->terms[MLQ_TC_NQ], "", "no body, no words");
		mlq_msg_free(m);
	}

	/* More words than the first table holds, each twice. */
	mlq_buf_init(&raw);
	mlq_buf_init(&want);
	mlq_buf_addstr(&raw, "Message-ID: <w3@example.org>\n"
			     "From: a@example.org\nSubject: many\n\n");
	for (i = 0; i < 6000; i++)
		mlq_buf_addf(&raw, "w%zu%c", i % 3000, i % 10 == 9 ? '\n' : ' ');
	for (i = 0; i < 3000; i++)
		mlq_buf_addf(&want, "%sw%zu", i ? " " : "", i);
	if ((m = parse(raw.data)) != NULL) {
		ok(mlq__terms_of_msg(t, m) == MLQ_OK, "terms of 6,000 words");
		is_str(m->terms[MLQ_TC_NQ], want.data,
		    "3,000 distinct words, once each, past the table's growth");
		is_str(m->terms[MLQ_TC_Q], "", "the next column starts empty");
		mlq_msg_free(m);
	}

	/*
	 * Only the body's first 64 KiB are indexed, and 65,536 is 6 x 10,922
	 * + 4: the cut leaves "alph", as it does when FTS5 reads the text.
	 */
	mlq_buf_reset(&raw);
	mlq_buf_addstr(&raw, "Message-ID: <w4@example.org>\n"
			     "From: a@example.org\nSubject: long\n\n");
	for (i = 0; i < 70 * 1024 / 6; i++)
		mlq_buf_addstr(&raw, i % 12 == 11 ? "alpha\n" : "alpha ");
	mlq_buf_addstr(&raw, "omega\n");
	if ((m = parse(raw.data)) != NULL) {
		ok(mlq__terms_of_msg(t, m) == MLQ_OK, "terms of a long body");
		is_str(m->terms[MLQ_TC_NQ], "alpha alph",
		    "a body is cut at 64 KiB, a word past it is not indexed");
		mlq_msg_free(m);
	}
	mlq_buf_release(&raw);
	mlq_buf_release(&want);
}

/* A reply with a quote and a patch, split as lore splits it. */
static void
check_split(struct mlq_terms *t)
{
	struct mlq_msg *m;

	m = parse("Message-ID: <s1@example.org>\n"
		  "From: A <a@example.org>\nSubject: Re: x\n\n"
		  "> quoted words\n"
		  ">> deeper\n"
		  "My own text.\n"
		  "\n"
		  "--- a/fs/nfsd/nfs4state.c\n"
		  "+++ b/fs/nfsd/nfs4state.c\n"
		  "@@ -1,3 +1,3 @@ static int nfsd4_lock(void)\n"
		  " context_line\n"
		  "-removed_line\n"
		  "+added_line\n"
		  "-- \n"
		  "sig\n");
	if (!ok(m != NULL, "a reply with a diff parses"))
		return;
	ok(mlq__terms_of_msg(t, m) == MLQ_OK, "its terms");
	is_str(m->terms[MLQ_TC_Q], "quoted words deeper", "quoted lines: q");
	is_str(m->terms[MLQ_TC_NQ], "my own text fs nfsd nfs4state c sig",
	    "own text, the diff's file names and the signature: nq");
	is_str(m->terms[MLQ_TC_DFA], "removed_line", "removed lines: dfa");
	is_str(m->terms[MLQ_TC_DFB], "added_line", "added lines: dfb");
	is_str(m->terms[MLQ_TC_DFCTX], "context_line", "context: dfctx");
	is_str(m->terms[MLQ_TC_DFHH], "static int nfsd4_lock void",
	    "a hunk header's function: dfhh");
	mlq_msg_free(m);
}

/* Stores every message of path in a (text as it is) and b (word lists). */
static size_t
store_both(struct mlq_terms *t, struct mlq_store *a, struct mlq_store *b,
    const char *path)
{
	struct mlq_reader *r;
	struct mlq_msg *m;
	struct mlq_err err;
	const char *raw;
	size_t len, n = 0, bad = 0;
	uint64_t pos;
	bool is_new;

	mlq_err_clear(&err);
	if (mlq_reader_open(path, &r, &err) != MLQ_OK) {
		ok(0, "open %s: %s", path, err.msg);
		return 0;
	}
	if (mlq_store_begin(a, &err) != MLQ_OK ||
	    mlq_store_begin(b, &err) != MLQ_OK)
		bad++;
	while (mlq_reader_next(r, &raw, &len, &pos, &err) == MLQ_OK) {
		if (mlq_msg_parse(raw, len, &m, &err) != MLQ_OK)
			continue;
		if (mlq_store_put(a, m, NULL, &is_new, &err) != MLQ_OK ||
		    mlq__terms_of_msg(t, m) != MLQ_OK ||
		    mlq_store_put(b, m, NULL, &is_new, &err) != MLQ_OK)
			bad++;
		mlq_msg_free(m);
		n++;
	}
	if (mlq_store_commit(a, &err) != MLQ_OK ||
	    mlq_store_commit(b, &err) != MLQ_OK)
		bad++;
	mlq_reader_close(r);
	is_int(bad, 0, "%s: %zu messages stored both ways %s", path, n, err.msg);
	return n;
}

static void
check_same_index(struct mlq_terms *t, const char *shared)
{
	static const char *lists[] = { "encoding-edge", "iwl-2021-04",
		"lak-2019-11-wk1", "nfs-2021-04", "tags-and-reverts",
		"umn-2019-2021" };
	const char *src = getenv("top_srcdir");
	struct mlq_store *a = NULL, *b = NULL;
	struct mlq_err err;
	char dir[] = "/tmp/t-text-terms.XXXXXX", pa[64], pb[64], path[4200];
	sqlite3 *db = NULL;
	size_t i, n = 0;

	mlq_err_clear(&err);
	if (!tmp_dir_make(dir))
		return;
	snprintf(pa, sizeof(pa), "%s/text.db", dir);
	snprintf(pb, sizeof(pb), "%s/terms.db", dir);
	if (!ok(mlq_store_open(pa, MLQ_STORE_WRITE, &a, &err) == MLQ_OK &&
		mlq_store_open(pb, MLQ_STORE_WRITE, &b, &err) == MLQ_OK,
		"stores open: %s", err.msg))
		goto out;
	snprintf(path, sizeof(path), "%s/contrib/sample/northfield.mbox",
	    src ? src : ".");
	n += store_both(t, a, b, path);
	if (shared == NULL)
		diag("../shared is absent: the sample archive only");
	for (i = 0; shared != NULL && i < MLQ__ARRAY_SIZE(lists); i++) {
		snprintf(path, sizeof(path), "%s/corpus/lists/%s.mbox", shared,
		    lists[i]);
		n += store_both(t, a, b, path);
	}
	mlq_store_close(a);
	mlq_store_close(b);
	a = b = NULL;

	snprintf(path, sizeof(path), "ATTACH '%s' AS b", pb);
	if (!ok(sqlite3_open(pa, &db) == SQLITE_OK &&
		sqlite3_exec(db, path, NULL, NULL, NULL) == SQLITE_OK &&
		sqlite3_exec(db,
		    "CREATE VIRTUAL TABLE temp.va USING "
		    "fts5vocab(main, fts, instance);"
		    "CREATE VIRTUAL TABLE temp.vb USING "
		    "fts5vocab(b, fts, instance);",
		    NULL, NULL, NULL) == SQLITE_OK,
		"both indexes open"))
		goto out;
	diag("%zu messages, %lld (term, message, column) entries", n,
	    sql_int(db, "SELECT count(*) FROM temp.va"));
	ok(sql_int(db, "SELECT count(*) FROM temp.va") > 20 * (long long)n,
	    "the text index has words for them");
	is_int(sql_int(db,
		   "SELECT count(*) FROM (SELECT term, doc, col FROM "
		   "temp.va EXCEPT SELECT term, doc, col FROM temp.vb)"),
	    0, "no entry indexed from the text is missing from the word lists");
	is_int(sql_int(db,
		   "SELECT count(*) FROM (SELECT term, doc, col FROM "
		   "temp.vb EXCEPT SELECT term, doc, col FROM temp.va)"),
	    0, "and the word lists add none");
	/* FTS5 counts a column's words: b's counts are of distinct ones. */
	ok(sql_int(db,
	       "SELECT count(*) FROM main.fts_docsize x "
	       "JOIN b.fts_docsize y USING (id) WHERE x.sz != y.sz") > 0,
	    "b's index was fed the word lists, not the text");
out:
	sqlite3_close(db);
	mlq_store_close(a);
	mlq_store_close(b);
	tmp_dir_remove(dir);
}

int
main(void)
{
	struct mlq_terms *t = mlq__terms_new();

	if (!ok(t != NULL, "a tokenizer for the text index"))
		return done_testing();
	check_words(t);
	check_split(t);
	check_same_index(t, tap_shared_dir());
	mlq__terms_free(t);
	return done_testing();
}
