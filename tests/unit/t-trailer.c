#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbox-util.h"
#include "mlq.h"
#include "tap.h"

/*
 * Each case renders the trailers found as "LINE Key: value | name |
 * email" lines and compares the whole text, so every field is checked.
 */

struct file_case {
	const char *file; /* under ../shared */
	int msg;	  /* message index in an mbox; -1: a single message */
	const char *want;
};

static const struct file_case file_cases[] = {
	{ "seeds/002-patch-revert-net-rds-avoid-potential-use-after-free-in-rds-sen.patch",
	    -1,
	    "17 Cc: Aditya Pakki <pakki001@umn.edu> | Aditya Pakki | pakki001@umn.edu\n"
	    "18 Cc: Santosh Shilimkar <santosh.shilimkar@oracle.com> | Santosh Shilimkar | santosh.shilimkar@oracle.com\n"
	    "19 Cc: David S. Miller <davem@davemloft.net> | David S. Miller | davem@davemloft.net\n"
	    "20 Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org> | Greg Kroah-Hartman | gregkh@linuxfoundation.org\n" },
	{ "seeds/003-patch-revert-alsa-usx2y-fix-a-double-free-bug.patch", -1,
	    "17 Cc: Wenwen Wang <wang6495@umn.edu> | Wenwen Wang | wang6495@umn.edu\n"
	    "18 Cc: Takashi Iwai <tiwai@suse.de> | Takashi Iwai | tiwai@suse.de\n"
	    "19 Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org> | Greg Kroah-Hartman | gregkh@linuxfoundation.org\n" },
	{ "seeds/004-patch-revert-audit-fix-a-memory-leak-bug.patch", -1,
	    "17 Cc: Wenwen Wang <wang6495@umn.edu> | Wenwen Wang | wang6495@umn.edu\n"
	    "18 Cc: Richard Guy Briggs <rgb@redhat.com> | Richard Guy Briggs | rgb@redhat.com\n"
	    "19 Cc: Paul Moore <paul@paul-moore.com> | Paul Moore | paul@paul-moore.com\n"
	    "20 Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org> | Greg Kroah-Hartman | gregkh@linuxfoundation.org\n" },
	{ "seeds/005-patch-revert-udf-fix-an-uninitialized-read-bug-and-remove-dead.patch",
	    -1,
	    "17 Cc: Wenwen Wang <wang6495@umn.edu> | Wenwen Wang | wang6495@umn.edu\n"
	    "18 Cc: Jan Kara <jack@suse.cz> | Jan Kara | jack@suse.cz\n"
	    "19 Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org> | Greg Kroah-Hartman | gregkh@linuxfoundation.org\n" },
	{ "seeds/006-patch-revert-gdrom-fix-a-memory-leak-bug.patch", -1,
	    "17 Cc: Wenwen Wang <wang6495@umn.edu> | Wenwen Wang | wang6495@umn.edu\n"
	    "18 Cc: Jens Axboe <axboe@kernel.dk> | Jens Axboe | axboe@kernel.dk\n"
	    "19 Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org> | Greg Kroah-Hartman | gregkh@linuxfoundation.org\n" },
	{ "seeds/007-patch-revert-ethtool-fix-a-missing-check-bug.patch", -1,
	    "17 Cc: Wenwen Wang <wang6495@umn.edu> | Wenwen Wang | wang6495@umn.edu\n"
	    "18 Cc: David S. Miller <davem@davemloft.net> | David S. Miller | davem@davemloft.net\n"
	    "19 Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org> | Greg Kroah-Hartman | gregkh@linuxfoundation.org\n" },
	{ "seeds/008-patch-revert-yam-fix-a-missing-check-bug.patch", -1,
	    "17 Cc: Wenwen Wang <wang6495@umn.edu> | Wenwen Wang | wang6495@umn.edu\n"
	    "18 Cc: David S. Miller <davem@davemloft.net> | David S. Miller | davem@davemloft.net\n"
	    "19 Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org> | Greg Kroah-Hartman | gregkh@linuxfoundation.org\n" },
	{ "seeds/009-patch-revert-net-cxgb3-main-fix-a-missing-check-bug.patch",
	    -1,
	    "17 Cc: Wenwen Wang <wang6495@umn.edu> | Wenwen Wang | wang6495@umn.edu\n"
	    "18 Cc: David S. Miller <davem@davemloft.net> | David S. Miller | davem@davemloft.net\n"
	    "19 Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org> | Greg Kroah-Hartman | gregkh@linuxfoundation.org\n" },
	/* The diff's "-- " and "---" lines end the search, not the diff text. */
	{ "seeds/010-patch-sunrpc-add-a-check-for-gss-release-msg.patch", -1,
	    "5 Signed-off-by: Aditya Pakki <pakki001@umn.edu> | Aditya Pakki | pakki001@umn.edu\n" },
	/* b4: "(corporate)" stays in the name; the sig "--" ends the text. */
	{ "corpus/b4-samples/trailers-followup-name-parens.mbox", 1,
	    "3 Reviewed-by: Followup Reviewer1 (corporate) <followup-reviewer1@example.com> | Followup Reviewer1 (corporate) | followup-reviewer1@example.com\n" },
	/* b4: the quoted Reviewed-by is not the replier's. */
	{ "corpus/b4-samples/trailers-followup-name-parens.mbox", 2,
	    "5 Tested-by: Followup Reviewer2 <followup-reviewer2@example.com> | Followup Reviewer2 | followup-reviewer2@example.com\n" },
	{ "corpus/b4-samples/trailers-followup-name-parens.mbox", 4,
	    "3 Tested-by: Followup Tester1 [corporate] <followup-tester1@example.com> | Followup Tester1 [corporate] | followup-tester1@example.com\n" },
	{ "corpus/b4-samples/trailers-followup-name-parens.mbox", 5,
	    "3 Tested-by: Tester2, Followup <followup-tester2@example.com> | Tester2, Followup | followup-tester2@example.com\n" },
	/* b4: a bare address; Fixes and Link are not persons. */
	{ "corpus/b4-samples/trailers-followup-bare-address.mbox", 0,
	    "3 Fixes: abcdef01234567890 |  | \n"
	    "4 Cc: bare-address@example.org |  | bare-address@example.org\n"
	    "5 Reviewed-by: Original Reviewer <original-reviewer@example.com> | Original Reviewer | original-reviewer@example.com\n"
	    "6 Link: https://msgid.link/some@msgid.here |  | \n"
	    "7 Signed-off-by: Original Submitter <original-submitter@example.com> | Original Submitter | original-submitter@example.com\n" },
	/* b4: a quilt diff ("--- a/") without "---" or diffstat. */
	{ "corpus/b4-samples/trailers-followup-stripped-lines.mbox", 0,
	    "3 Fixes: abcdef01234567890 |  | \n"
	    "4 Reviewed-by: Original Reviewer <original-reviewer@example.com> | Original Reviewer | original-reviewer@example.com\n"
	    "5 Link: https://msgid.link/some@msgid.here |  | \n"
	    "6 Signed-off-by: Original Submitter <original-submitter@example.com> | Original Submitter | original-submitter@example.com\n" },
	{ "corpus/b4-samples/trailers-followup-stripped-lines.mbox", 1,
	    "3 Reviewed-by: Followup Reviewer1 <followup-reviewer1@example.com> | Followup Reviewer1 | followup-reviewer1@example.com\n" },
	/* b4: an HTML mailer's "<mailto:...>" junk is not part of the address. */
	{ "corpus/b4-samples/trailers-followup-htmljunk.mbox", 1,
	    "3 Reviewed-by: HTML Junker <html-junker@example.com<mailto:html-junker@example.com>> | HTML Junker | html-junker@example.com\n" },
	/* b4: a follow-up without "Re:" is still parsed. */
	{ "corpus/b4-samples/trailers-followup-nore.mbox", 1,
	    "3 Reviewed-by: Followup Reviewer1 <followup-reviewer1@example.com> | Followup Reviewer1 | followup-reviewer1@example.com\n" },
	/* b4: indented trailers are a suggestion in prose, not given. */
	{ "corpus/b4-samples/trailers-followup-already-present.mbox", 1, "" },
	{ "corpus/b4-samples/trailers-followup-already-present.mbox", 2,
	    "1 Tested-by: Someone Else <someone-else@example.com> | Someone Else | someone-else@example.com\n" },
	/* b4: "# comment" after a Link stays in the value. */
	{ "corpus/b4-samples/trailers-followup-custody.mbox", 0,
	    "3 Link: https://msgid.link/some@msgid.here |  | \n"
	    "4 Reviewed-by: Original Reviewer <original-reviewer@example.com> | Original Reviewer | original-reviewer@example.com\n"
	    "5 Signed-off-by: Original Submitter <original-submitter@example.com> | Original Submitter | original-submitter@example.com\n"
	    "6 Suggested-by: Friendly Suggester <suggested-by@example.com> | Friendly Suggester | suggested-by@example.com\n"
	    "7 Fixes: abcdef01234567890 |  | \n"
	    "8 Link: https://lore.kernel.org/other@msgid.here  # bug discussion |  | \n"
	    "9 Signed-off-by: Test Override <test-override@example.com> | Test Override | test-override@example.com\n" },
	/* b4: notes after "---" and before the diff are not searched. */
	{ "corpus/b4-samples/trailers-followup-non-git-patch-with-comments.mbox",
	    0,
	    "3 Fixes: abcdef01234567890 |  | \n"
	    "4 Reviewed-by: Original Reviewer <original-reviewer@example.com> | Original Reviewer | original-reviewer@example.com\n"
	    "5 Link: https://msgid.link/some@msgid.here |  | \n"
	    "6 Signed-off-by: Original Submitter <original-submitter@example.com> | Original Submitter | original-submitter@example.com\n" },
};

struct text_case {
	const char *what;
	const char *text;
	const char *want;
};

static const struct text_case text_cases[] = {
	{ "quoted trailers are not the replier's",
	    "On Mon, A wrote:\n> Reviewed-by: A <a@x.org>\n  > Acked-by: B <b@x.org>\n"
	    ">> Tested-by: C <c@x.org>\n\nAcked-by: Dee <Dee@X.ORG>\n",
	    "6 Acked-by: Dee <Dee@X.ORG> | Dee | dee@x.org\n" },
	{ "nothing after the signature separator",
	    "Thanks\n\nAcked-by: A <a@x.org>\n-- \nSigned-off-by: Sig <s@x.org>\n",
	    "3 Acked-by: A <a@x.org> | A | a@x.org\n" },
	{ "mid-prose and indented keys are not trailers",
	    "I would give my Reviewed-by: A <a@x.org> once fixed.\n"
	    "    Reviewed-by: B <b@x.org>\n\tAcked-by: C <c@x.org>\n",
	    "" },
	{ "trailers anywhere in the reply's own text",
	    "> +	int x;\n\nReviewed-by: Rev Iewer <rev@x.org>\n\n> more quote\n\n"
	    "Looks good otherwise.\n",
	    "3 Reviewed-by: Rev Iewer <rev@x.org> | Rev Iewer | rev@x.org\n" },
	{ "the diff after --- and diffstat is not searched",
	    "Fix it.\n\nSigned-off-by: A <a@x.org>\n---\n foo.c | 2 +-\n"
	    " 1 file changed, 1 insertion(+), 1 deletion(-)\n\n"
	    "diff --git a/foo.c b/foo.c\n+Acked-by: Not <n@x.org>\n",
	    "3 Signed-off-by: A <a@x.org> | A | a@x.org\n" },
	{ "--- without a diff is only a separator",
	    "Some text\n---\nReviewed-by: R <r@x.org>\n",
	    "3 Reviewed-by: R <r@x.org> | R | r@x.org\n" },
	{ "diff --git alone ends the text",
	    "Acked-by: A <a@x.org>\ndiff --git a/x b/x\nTested-by: T <t@x.org>\n",
	    "1 Acked-by: A <a@x.org> | A | a@x.org\n" },
	{ "Index: ends the text",
	    "Acked-by: A <a@x.org>\nIndex: x.c\n=====\nTested-by: T <t@x.org>\n",
	    "1 Acked-by: A <a@x.org> | A | a@x.org\n" },
	{ "person forms",
	    "Cc: \"Last, First\" <LF@Example.COM>\n"
	    "Cc: bare@example.org\n"
	    "Reviewed-by: Name (Company) <n@c.com>\n"
	    "Cc: <stable@vger.kernel.org> # 4.19\n"
	    "Cc: stable@vger.kernel.org # 5.10\n"
	    "Acked-by: Name <n@x.org> [for the foo part]\n"
	    "Tested-by: x@y.org (Old Style)\n"
	    "Reported-by: syzbot+1234@syzkaller.appspotmail.com\n"
	    "Tested-by: Just A Name\n",
	    "1 Cc: \"Last, First\" <LF@Example.COM> | Last, First | lf@example.com\n"
	    "2 Cc: bare@example.org |  | bare@example.org\n"
	    "3 Reviewed-by: Name (Company) <n@c.com> | Name (Company) | n@c.com\n"
	    "4 Cc: <stable@vger.kernel.org> # 4.19 |  | stable@vger.kernel.org\n"
	    "5 Cc: stable@vger.kernel.org # 5.10 |  | stable@vger.kernel.org\n"
	    "6 Acked-by: Name <n@x.org> [for the foo part] | Name | n@x.org\n"
	    "7 Tested-by: x@y.org (Old Style) | Old Style | x@y.org\n"
	    "8 Reported-by: syzbot+1234@syzkaller.appspotmail.com |  | syzbot+1234@syzkaller.appspotmail.com\n"
	    "9 Tested-by: Just A Name | Just A Name | \n" },
	{ "keys are matched without case and spelled canonically",
	    "NAKed-by: A <a@x.org>\nNak-by: B <b@x.org>\nnacked-by: C <c@x.org>\n"
	    "REVIEWED-BY: D <d@x.org>\nco-developed-by: E <e@x.org>\n"
	    "suggested-by: F <f@x.org>\nSigned-off-by : G <g@x.org>\n",
	    "1 Nacked-by: A <a@x.org> | A | a@x.org\n"
	    "2 Nacked-by: B <b@x.org> | B | b@x.org\n"
	    "3 Nacked-by: C <c@x.org> | C | c@x.org\n"
	    "4 Reviewed-by: D <d@x.org> | D | d@x.org\n"
	    "5 Co-developed-by: E <e@x.org> | E | e@x.org\n"
	    "6 Suggested-by: F <f@x.org> | F | f@x.org\n"
	    "7 Signed-off-by: G <g@x.org> | G | g@x.org\n" },
	{ "Fixes and Link keep their value whole",
	    "Fixes: 0c85a7e87465 (\"net/rds: Avoid potential use after free\")\n"
	    "Link: https://lore.kernel.org/r/20210407000913.2207831-1-pakki001@umn.edu\n",
	    "1 Fixes: 0c85a7e87465 (\"net/rds: Avoid potential use after free\") |  | \n"
	    "2 Link: https://lore.kernel.org/r/20210407000913.2207831-1-pakki001@umn.edu |  | \n" },
	{ "CRLF line ends", "Hi\r\n\r\nAcked-by: A <a@x.org>\r\n",
	    "3 Acked-by: A <a@x.org> | A | a@x.org\n" },
	{ "empty values and unknown keys are not trailers",
	    "Acked-by:\nAcked-by:   \nFoo-by: X <x@x.org>\nSubject: hi\n", "" },
	{ "empty text", "", "" },
};

static void
render(struct mlq_buf *b, const struct mlq_trailer *t, size_t n)
{
	size_t i;

	mlq_buf_reset(b);
	for (i = 0; i < n; i++)
		mlq_buf_addf(b, "%zu %s: %s | %s | %s\n", t[i].line, t[i].key,
		    t[i].value, t[i].name, t[i].email);
}

/* Parses text[0..len) and renders what was found into b. */
static void
parse_into(struct mlq_buf *b, const char *text, size_t len, const char *what)
{
	struct mlq_arena *a = mlq_arena_new();
	struct mlq_trailer *t;
	size_t n;

	is_int(mlq_trailer_parse(text, len, a, &t, &n, NULL), MLQ_OK,
	    "%s: parses", what);
	render(b, t, n);
	mlq_arena_free(a);
}

static void
run_file_case(const char *shared, const struct file_case *c, struct mlq_buf *b)
{
	struct tmail one, *m = NULL, *msg = &one;
	char path[4096], *data;
	size_t len, n = 0;

	snprintf(path, sizeof(path), "%s/%s", shared, c->file);
	if (!ok((data = tmail_read(path, &len)) != NULL, "read %s", c->file))
		return;
	if (c->msg < 0) {
		tmail_one(data, len, &one);
	} else {
		m = tmail_split_mbox(data, len, &n);
		msg = &m[c->msg];
	}
	if (c->msg < 0 || (size_t)c->msg < n) {
		parse_into(b, msg->body, msg->body_len, c->file);
		is_str(b->data, c->want, "%s #%d: trailers", c->file, c->msg);
	} else {
		ok(0, "%s has message %d", c->file, c->msg);
	}
	free(m);
	free(data);
}

int
main(void)
{
	const char *shared = tap_shared_dir();
	struct mlq_buf b;
	size_t i;

	if (shared == NULL)
		plan_skip_all("../shared (seeds, corpus) is missing");
	mlq_buf_init(&b);
	for (i = 0; i < sizeof(text_cases) / sizeof(text_cases[0]); i++) {
		parse_into(&b, text_cases[i].text, strlen(text_cases[i].text),
		    text_cases[i].what);
		is_str(b.data, text_cases[i].want, "%s", text_cases[i].what);
	}
	/* The text is (buf, len): nothing past len is read. */
	parse_into(&b, "Acked-by: A <a@x.org>\nAcked-by: B <b@x.org>\n", 22,
	    "length-bounded");
	is_str(b.data, "1 Acked-by: A <a@x.org> | A | a@x.org\n",
	    "only the first len bytes are searched");
	for (i = 0; i < sizeof(file_cases) / sizeof(file_cases[0]); i++)
		run_file_case(shared, &file_cases[i], &b);
	mlq_buf_release(&b);
	return done_testing();
}
