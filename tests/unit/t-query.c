/* The query language: what each form parses to, and what it refuses. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "mlq.h"
#include "tap.h"

/* 2021-04-16 00:00:00 UTC: "now" for the relative dates. */
#define NOW 1618531200LL

static void
show(struct mlq_buf *b, const struct mlq_qnode *n)
{
	static const char *const field[] = { "fts", "phrase", "subject~", "from",
		"from-name", "addr", "to", "cc", "list", "msgid", "file", "patchid", "date",
		"status", "tag", "patch" };

	switch (n->op) {
	case MLQ_QOP_AND:
	case MLQ_QOP_OR:
		mlq_buf_addstr(b, n->op == MLQ_QOP_AND ? "(and " : "(or ");
		show(b, n->l);
		mlq_buf_addch(b, ' ');
		show(b, n->r);
		mlq_buf_addch(b, ')');
		return;
	case MLQ_QOP_NOT:
		mlq_buf_addstr(b, "(not ");
		show(b, n->l);
		mlq_buf_addch(b, ')');
		return;
	case MLQ_QOP_LEAF:
		break;
	}
	mlq_buf_addf(b, "%s", field[n->field]);
	if (n->s != NULL)
		mlq_buf_addf(b, "[%s]", n->s);
	if (n->field == MLQ_QF_PHRASE)
		mlq_buf_addf(b, "%#x", (unsigned)n->ival);
	if (n->field == MLQ_QF_DATE)
		mlq_buf_addf(b, "[%lld..%lld]",
		    n->has_lo ? (long long)(n->lo - NOW) / 86400 : -999,
		    n->has_hi ? (long long)(n->hi - NOW) / 86400 : 999);
	if (n->field == MLQ_QF_STATUS || n->field == MLQ_QF_TAG)
		mlq_buf_addf(b, "[%d]", n->ival);
}

static const struct {
	const char *q, *want;
} good[] = {
	{ "revert", "fts[(\"revert\")]" },
	{ "s:revert OR s:sunrpc",
	    "(or fts[subject : (\"revert\")] fts[subject : (\"sunrpc\")])" },
	{ "a b OR c",
	    "(or (and fts[(\"a\")] fts[(\"b\")]) fts[(\"c\")])" },
	{ "a AND b", "(and fts[(\"a\")] fts[(\"b\")])" },
	{ "a NOT b", "(and fts[(\"a\")] (not fts[(\"b\")]))" },
	{ "a -b", "(and fts[(\"a\")] (not fts[(\"b\")]))" },
	{ "+a", "fts[(\"a\")]" },
	{ "NOT a", "(not fts[(\"a\")])" },
	{ "(a OR b) c",
	    "(and (or fts[(\"a\")] fts[(\"b\")]) fts[(\"c\")])" },
	{ "\"use after free\"",
	    "(and fts[(\"use\" AND \"after\" AND \"free\")] "
	    "phrase[use after free]0x7f)" },
	{ "s:\"use after free\"",
	    "(and fts[subject : (\"use\" AND \"after\" AND \"free\")] "
	    "phrase[use after free]0x1)" },
	{ "\"kfree\"", "fts[(\"kfree\")]" },
	{ "lock*", "fts[(\"lock\"*)]" },
	{ "nfs4_proc", "fts[(\"nfs4_proc\")]" },
	{ "kfree()", "fts[(\"kfree\")]" },
	{ "Fixes:", "fts[(\"Fixes\")]" },
	{ "12:30", "(and fts[(\"12\" AND \"30\")] phrase[12:30]0x7f)" },
	{ "foo-bar", "(and fts[(\"foo\" AND \"bar\")] phrase[foo-bar]0x7f)" },
	{ "foo-bar*", "fts[(\"foo\" AND \"bar\"*)]" },
	/* past ASCII the index's tokenizer says where words end */
	{ "Gr\xc3\xb6\xc3\x9f" "e", "fts[(\"gro\xc3\x9f" "e\")]" },
	{ "foo\xe2\x80\x94" "bar",
	    "(and fts[(\"foo\" AND \"bar\")] phrase[foo\xe2\x80\x94" "bar]0x7f)" },
	{ "foo\xff\xfe" "bar*",
	    "fts[(\"foo\" AND \"bar\"*)]" },
	{ "or", "fts[(\"or\")]" },
	/* A chain is a balanced tree, so long ones nest no deeper than SQL
	 * can parse; three terms still nest from the left. */
	{ "b:x bs:y nq:z q:w dfa:v dfb:u",
	    "(and (and (and fts[{nq q dfa dfb dfctx dfhh} : (\"x\")] "
	    "fts[{subject nq q dfa dfb dfctx dfhh} : (\"y\")]) "
	    "fts[{nq dfa dfb dfctx dfhh} : (\"z\")]) (and (and fts[q : (\"w\")] "
	    "fts[dfa : (\"v\")]) fts[dfb : (\"u\")]))" },
	{ "dfctx:x dfhh:y", "(and fts[dfctx : (\"x\")] fts[dfhh : (\"y\")])" },
	{ "f:umn.edu", "from[umn.edu]" },
	{ "f:kjlu@umn.edu", "from[kjlu@umn.edu]" },
	{ "f:Lu", "(or from[Lu] from-name[lu])" },
	{ "a:umn.edu", "addr[umn.edu]" },
	{ "a:Lu", "(or addr[Lu] from-name[lu])" },
	{ "t:vger.kernel.org", "to[vger.kernel.org]" },
	{ "c:x@y.z tc:y.z", "(and cc[x@y.z] (or to[y.z] cc[y.z]))" },
	{ "t:netdev", "to[netdev]" },
	{ "l:linux-nfs", "list[linux-nfs]" },
	{ "l:\"linux-nfs\"", "list[linux-nfs]" },
	{ "m:<a@b>", "msgid[a@b]" },
	{ "m:a@b", "msgid[a@b]" },
	{ "dfn:fs/nfsd/", "file[fs/nfsd/]" },
	{ "d:20210401..20210410", "date[-15..-5]" },
	{ "d:2021-04-01..", "date[-15..999]" },
	{ "d:..20210401", "date[-999..-14]" },
	{ "d:20210401", "date[-15..-14]" },
	{ "d:2.weeks.ago..", "date[-14..999]" },
	{ "d:yesterday..", "date[-1..999]" },
	{ "rt:7d..", "date[-7..999]" },
	{ "patchid:0123456789ABCDEF0123456789abcdef01234567",
	    "patchid[0123456789abcdef0123456789abcdef01234567]" },
	{ "status:nacked", "status[7]" },
	{ "tag:nack", "tag[1]" },
	{ "is:patch", "patch" },
	{ "  ", "" },
};

static const struct {
	const char *q, *err;
} bad[] = {
	{ "from:umn.edu", "query: unknown prefix 'from:'" },
	{ "https://lore.kernel.org/x", "query: unknown prefix 'https:'" },
	{ "(a b", "query: unbalanced parenthesis at '(a b'" },
	{ "a b)", "query: unbalanced parenthesis in 'b)'" },
	{ "a ) b", "query: unbalanced parenthesis at ') b'" },
	{ "()", "query: empty parentheses at '()'" },
	{ "\"a b", "query: unbalanced quote in '\"a b'" },
	{ "s:", "query: empty term 's:'" },
	{ "f:", "query: empty term 'f:'" },
	{ "f:\"\"", "query: empty term 'f:\"\"'" },
	{ "\"\"", "query: empty term '\"\"'" },
	{ "--", "query: no word to search in '-'" },
	{ "a OR", "query: no term after 'a OR'" },
	{ "OR a", "query: no term before 'OR'" },
	{ "a AND AND b", "query: no term before 'AND'" },
	{ "NOT", "query: no term after 'NOT'" },
	{ "d:..", "query: empty date range in 'd:..'" },
	{ "d:soon", "query: bad date in 'd:soon'" },
	{ "patchid:abc", "query: a patch id is 40 hex digits, not 'patchid:abc'" },
	{ "status:nacke", "query: unknown status 'nacke' (did you mean 'nacked'?)" },
	{ "status:bogus", "query: unknown status 'bogus' (one of: pending, "
			  "questioned, reviewed, changes-requested, superseded, "
			  "applied, nacked, reverted, merged)" },
	{ "tag:bogus", "query: unknown tag 'bogus' (one of: nack, ack, "
		       "reviewed, tested, question, changes-requested, "
		       "applied, revert)" },
	{ "is:reply", "query: is: takes 'patch', not 'is:reply'" },
	{ "f:@", "query: no address or domain in 'f:@'" },
	{ "m:<>", "query: empty term 'm:<>'" },
	{ "f:a (f:a (f:a (f:a (f:a (f:a (f:a (f:a (f:a (f:a (f:a (f:a (f:a "
	  "(f:a (f:a (f:a (f:a (f:a (f:a (f:a (f:a (f:a)))))))))))))))))))))",
	    "query: nested more than 20 levels deep" },
};

static void
flags(void)
{
	struct mlq_arena *a = mlq_arena_new();
	struct mlq_query q;
	struct mlq_err err;
	struct mlq_buf b;
	char umn[] = "umn.edu", zju[] = "zju.edu.cn", none[] = "";
	char day[] = "2021-04-01", compact[] = "20210410";
	char *from[] = { umn, zju }, *empty[] = { none }, *since[] = { day };
	char *until[] = { compact };

	memset(&q, 0, sizeof(q));
	mlq_err_clear(&err);
	is_int(mlq_query_flag(&q, "from", from, 2, NOW, a, &err), MLQ_OK,
	    "--from twice");
	is_int(mlq_query_flag(&q, "since", since, 1, NOW, a, &err), MLQ_OK,
	    "--since");
	is_int(mlq_query_flag(&q, "until", until, 1, NOW, a, &err), MLQ_OK,
	    "--until YYYYMMDD");
	is_int(mlq_query_text(&q, "s:x", NOW, a, &err), MLQ_OK, "and text");
	mlq_buf_init(&b);
	show(&b, q.expr);
	is_str(b.data, "(and (and (and (or from[umn.edu] from[zju.edu.cn]) "
		       "date[-15..999]) date[-999..-5]) fts[subject : (\"x\")])",
	    "repeats OR, flags AND");
	mlq_buf_release(&b);
	is_int(mlq_query_flag(&q, "from", empty, 1, NOW, a, &err), MLQ_EINPUT,
	    "--from '' refused");
	is_str(err.msg, "search: empty value for --from", "named");
	mlq_err_clear(&err);
	is_int(mlq_query_flag(&q, "since", from, 1, NOW, a, &err), MLQ_EINPUT,
	    "a bad date refused");
	mlq_arena_free(a);
}

/* What a user may give for a message. */
static void
msgid_args(void)
{
	static const struct {
		const char *arg, *want;
	} c[] = {
		{ "a@b", "a@b" },
		{ "<a@b>", "a@b" },
		{ " <a@b> ", "a@b" },
		{ "id:a@b", "a@b" },
		{ "m:<a@b>", "a@b" },
		{ "mid:a@b", "a@b" },
		{ "https://lore.kernel.org/linux-nfs/a@b/", "a@b" },
		{ "https://lore.kernel.org/linux-nfs/a@b/T/#u", "a@b" },
		{ "https://lore.kernel.org/linux-nfs/a@b/raw", "a@b" },
		{ "https://lore.kernel.org/r/a@b", "a@b" },
		{ "https://lore.kernel.org/all/a@b/", "a@b" },
		{ "https://msgid.link/a@b", "a@b" },
		{ "https://patch.msgid.link/a@b", "a@b" },
		{ "http://127.0.0.1:8080/nfs/x%2Fy%40z@host/", "x/y@z@host" },
		{ "https://lore.kernel.org/l/question%2Frds+1@x/",
		    "question/rds+1@x" },
		{ "https://lore.kernel.org/", NULL },
		{ "https://lore.kernel.org/linux-nfs/", NULL },
		{ "", NULL },
		{ "<>", NULL },
		{ "id:", NULL },
		{ "https://x/l/a%00b/", NULL },
	};
	struct mlq_buf b;
	size_t i;

	mlq_buf_init(&b);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		bool got = mlq_msgid_arg(c[i].arg, &b);

		is_int(got, c[i].want != NULL, "id in '%s'", c[i].arg);
		if (got && c[i].want != NULL)
			is_str(b.data, c[i].want, "is %s", c[i].want);
	}
	mlq_buf_release(&b);
}

int
main(void)
{
	struct mlq_arena *a;
	struct mlq_query q;
	struct mlq_err err;
	struct mlq_buf b;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		a = mlq_arena_new();
		memset(&q, 0, sizeof(q));
		mlq_err_clear(&err);
		is_int(mlq_query_text(&q, good[i].q, NOW, a, &err), MLQ_OK,
		    "parses: %s", good[i].q);
		mlq_buf_init(&b);
		if (q.expr != NULL)
			show(&b, q.expr);
		is_str(b.len ? b.data : "", good[i].want, "tree: %s", good[i].q);
		mlq_buf_release(&b);
		mlq_arena_free(a);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		a = mlq_arena_new();
		memset(&q, 0, sizeof(q));
		mlq_err_clear(&err);
		is_int(mlq_query_text(&q, bad[i].q, NOW, a, &err), MLQ_EINPUT,
		    "refused: %s", bad[i].q);
		is_str(err.msg, bad[i].err, "says: %s", bad[i].err);
		ok(q.expr == NULL, "nothing added: %s", bad[i].q);
		mlq_arena_free(a);
	}
	flags();
	msgid_args();
	return done_testing();
}
