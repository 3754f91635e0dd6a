#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlq-int.h"
#include "tap.h"

/* What a diffstat block states: "N files changed, X insertions(+), ...". */
struct diffstat {
	long files;
	long ins;
	long del;
};

/* ../shared/corpus/patches/{buildroot,lede-generic} as cut. */
#define CORPUS_FILES	 5401
#define CORPUS_WITH_STAT 4511
#define CORPUS_AGREE	 3918
#define CORPUS_STALE	 589 /* see tests/fixtures/patch-corpus-disagree.txt */
#define CORPUS_CORRUPT	 4

static struct mlq_arena *arena;
static struct mlq_patch P;
static bool found;

static bool
parse_n(const char *s, size_t n)
{
	mlq_arena_free(arena);
	if ((arena = mlq_arena_new()) == NULL)
		abort();
	if (mlq_patch_parse(s, n, arena, &P, &found, NULL) != MLQ_OK)
		abort();
	return found;
}

static bool
parse(const char *s)
{
	return parse_n(s, strlen(s));
}

static const struct mlq_patch_file *
file_named(const char *path)
{
	size_t i;

	for (i = 0; i < P.nfiles; i++)
		if (strcmp(P.files[i].path, path) == 0)
			return &P.files[i];
	return NULL;
}

static bool
read_whole(const char *path, struct mlq_buf *b)
{
	char chunk[65536];
	FILE *f;
	size_t n;

	mlq_buf_reset(b);
	if ((f = fopen(path, "rb")) == NULL)
		return false;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		mlq_buf_add(b, chunk, n);
	fclose(f);
	return !b->oom;
}

/* Reads a decimal number at *p; false if none. */
static bool
take_num(const char **p, const char *end, long *v)
{
	const char *q = *p;

	*v = 0;
	if (q == end || *q < '0' || *q > '9')
		return false;
	for (; q < end && *q >= '0' && *q <= '9' && *v < 100000000; q++)
		*v = *v * 10 + (*q - '0');
	*p = q;
	return true;
}

static bool
take_word(const char **p, const char *end, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(end - *p) < n || memcmp(*p, w, n) != 0)
		return false;
	*p += n;
	return true;
}

/* " 2 files changed, 1 insertion(+), 2 deletions(-)" (either count may be absent). */
static bool
diffstat_line(const char *p, const char *end, struct diffstat *ds)
{
	long v;

	while (p < end && *p == ' ')
		p++;
	if (!take_num(&p, end, &ds->files) ||
	    (!take_word(&p, end, " files changed") &&
		!take_word(&p, end, " file changed")))
		return false;
	ds->ins = ds->del = 0;
	while (take_word(&p, end, ", ") && take_num(&p, end, &v)) {
		if (take_word(&p, end, " insertions(+)") ||
		    take_word(&p, end, " insertion(+)"))
			ds->ins = v;
		else if (take_word(&p, end, " deletions(-)") ||
		    take_word(&p, end, " deletion(-)"))
			ds->del = v;
		else
			return false;
	}
	return true;
}

/* The first diffstat summary in s[0..n). */
static bool
find_diffstat(const char *s, size_t n, struct diffstat *ds)
{
	const char *p = s, *end = s + n, *nl;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (diffstat_line(p, nl, ds))
			return true;
	}
	return false;
}

/*
 * Checks every " path | N +++--" line of a seed's diffstat against the
 * parsed file of that path: N = insertions + deletions and, the graph
 * being unscaled for these small changes, its '+' and '-' counts.
 */
static int
check_diffstat_files(const char *s, size_t n, const char *name)
{
	const char *p = s, *end = s + n, *nl, *bar, *q;
	const struct mlq_patch_file *f;
	char path[512];
	long sum, plus, minus;
	int checked = 0;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (*p != ' ' ||
		    (bar = memchr(p, '|', (size_t)(nl - p))) == NULL)
			continue;
		q = bar + 1;
		while (q < nl && *q == ' ')
			q++;
		if (!take_num(&q, nl, &sum))
			continue;
		for (plus = minus = 0; q < nl; q++) {
			plus += *q == '+';
			minus += *q == '-';
		}
		while (p < bar && *p == ' ')
			p++;
		while (bar > p && bar[-1] == ' ')
			bar--;
		snprintf(path, sizeof(path), "%.*s", (int)(bar - p), p);
		f = file_named(path);
		ok(f != NULL, "%s: diffstat file %s is parsed", name, path);
		if (f == NULL)
			continue;
		is_int(f->insertions, plus, "%s: %s insertions", name, path);
		is_int(f->deletions, minus, "%s: %s deletions", name, path);
		is_int(f->insertions + f->deletions, sum, "%s: %s changes",
		    name, path);
		checked++;
	}
	return checked;
}

static void
test_seeds(const char *shared, struct mlq_buf *b)
{
	static const char *const seeds[] = {
		"002-patch-revert-net-rds-avoid-potential-use-after-free-in-rds-sen.patch",
		"003-patch-revert-alsa-usx2y-fix-a-double-free-bug.patch",
		"004-patch-revert-audit-fix-a-memory-leak-bug.patch",
		"005-patch-revert-udf-fix-an-uninitialized-read-bug-and-remove-dead.patch",
		"006-patch-revert-gdrom-fix-a-memory-leak-bug.patch",
		"007-patch-revert-ethtool-fix-a-missing-check-bug.patch",
		"008-patch-revert-yam-fix-a-missing-check-bug.patch",
		"009-patch-revert-net-cxgb3-main-fix-a-missing-check-bug.patch",
		"010-patch-sunrpc-add-a-check-for-gss-release-msg.patch",
		"011-commit-c9c63915519b-hwmon-lm80-fix-a-missing-check-of-the-status-of-smbus-re.patch",
	};
	struct diffstat ds;
	char path[4096];
	size_t i;
	int nchecked;

	for (i = 0; i < MLQ__ARRAY_SIZE(seeds); i++) {
		snprintf(path, sizeof(path), "%s/seeds/%s", shared, seeds[i]);
		if (!ok(read_whole(path, b), "read seed %.3s", seeds[i]))
			continue;
		ok(parse_n(b->data, b->len), "seed %.3s has a diff", seeds[i]);
		if (!ok(find_diffstat(b->data, b->len, &ds),
			"seed %.3s has a diffstat", seeds[i]))
			continue;
		is_int((long long)P.nfiles, ds.files, "seed %.3s files",
		    seeds[i]);
		is_int(P.insertions, ds.ins, "seed %.3s insertions", seeds[i]);
		is_int(P.deletions, ds.del, "seed %.3s deletions", seeds[i]);
		nchecked = check_diffstat_files(b->data, b->len, seeds[i]);
		is_int(nchecked, ds.files,
		    "seed %.3s: every diffstat line checked", seeds[i]);
		ok(P.diff_start < b->len &&
			strncmp(b->data + P.diff_start, "diff --git a/", 13) ==
			    0,
		    "seed %.3s diff starts at diff --git", seeds[i]);
	}
}

/* Seed 002, checked by hand against its diffstat and its two hunks. */
static void
test_seed_002(const char *shared, struct mlq_buf *b)
{
	char path[4096];

	snprintf(path, sizeof(path),
	    "%s/seeds/002-patch-revert-net-rds-avoid-"
	    "potential-use-after-free-in-rds-sen.patch",
	    shared);
	if (!read_whole(path, b))
		return;
	parse_n(b->data, b->len);
	is_int((long long)P.nfiles, 2, "002: two files");
	is_str(P.files[0].path, "net/rds/message.c", "002: first file");
	is_str(P.files[0].old_path, "net/rds/message.c", "002: not renamed");
	is_int(P.files[0].insertions, 0, "002: message.c insertions");
	is_int(P.files[0].deletions, 1, "002: message.c deletions");
	is_str(P.files[1].path, "net/rds/send.c", "002: second file");
	is_int(P.files[1].insertions, 1, "002: send.c insertions");
	is_int(P.files[1].deletions, 1, "002: send.c deletions");
	is_int(P.insertions, 1, "002: 1 insertion");
	is_int(P.deletions, 2, "002: 2 deletions");
	is_int(P.files[0].flags, 0, "002: no flags");
	is_int((long long)P.diff_start,
	    (long long)(strstr(b->data, "\ndiff --git") + 1 - b->data),
	    "002: diff starts at its diff --git line");
	/* What `git patch-id --stable` (git 2.39) prints for the file. */
	is_str(P.patch_id, "be3efe90203cb41bda9b19ef4ee1f5554b388259",
	    "002: patch id is stable");
}

/* Replaces every 'from' by 'to' in s into b. */
static void
replace_all(struct mlq_buf *b, const char *s, const char *from, const char *to)
{
	const char *hit;
	size_t n = strlen(from);

	mlq_buf_reset(b);
	while ((hit = strstr(s, from)) != NULL) {
		mlq_buf_add(b, s, (size_t)(hit - s));
		mlq_buf_addstr(b, to);
		s = hit + n;
	}
	mlq_buf_addstr(b, s);
}

static void
test_patch_id(const char *shared, struct mlq_buf *b)
{
	struct mlq_buf v1, v2;
	char path[4096], id[41];
	const char *diff;

	snprintf(path, sizeof(path),
	    "%s/seeds/002-patch-revert-net-rds-avoid-"
	    "potential-use-after-free-in-rds-sen.patch",
	    shared);
	if (!read_whole(path, b))
		return;
	parse_n(b->data, b->len);
	memcpy(id, P.patch_id, sizeof(id));
	diff = b->data + P.diff_start;
	mlq_buf_init(&v1);
	mlq_buf_init(&v2);

	/* Moved by ten lines, tabs turned into spaces, another message. */
	replace_all(&v1, diff, "@@ -180,7 +180,6 @@", "@@ -190,7 +190,6 @@");
	replace_all(&v2, v1.data, "@@ -665,7 +665,7 @@", "@@ -700,7 +701,7 @@");
	replace_all(&v1, v2.data, "\t", "    ");
	mlq_buf_reset(&v2);
	mlq_buf_addstr(&v2,
	    "Subject: [PATCH v2] something else\n\nResent.\n---\n");
	mlq_buf_addstr(&v2, v1.data);
	parse(v2.data);
	is_str(P.patch_id, id, "shifted, re-indented, re-worded: same id");
	is_int(P.insertions, 1, "the variant still has 1 insertion");

	replace_all(&v1, diff, "-\t\trm = NULL;", "-\t\trm = NUL;");
	parse(v1.data);
	ok(strcmp(P.patch_id, id) != 0, "one character changed: another id");

	replace_all(&v1, diff, "+\t\tif (was_on_sock)",
	    "+\t\tif (was_on_sock )");
	parse(v1.data);
	is_str(P.patch_id, id, "a space added inside a line: same id");

	/* The same change as a quilt diff: git's patch id reads from a
	 * "diff " line, so there is none, as git patch-id gives none. */
	replace_all(&v1, diff,
	    "diff --git a/net/rds/message.c b/net/rds/message.c\n"
	    "index 4fc66ff0f1ec..799034e0f513 100644\n",
	    "");
	replace_all(&v2, v1.data,
	    "diff --git a/net/rds/send.c b/net/rds/send.c\n"
	    "index fe5264b9d4b3..985d0b7713ac 100644\n",
	    "");
	parse(v2.data);
	is_str(P.patch_id, "", "a quilt diff: no id, as with git");

	replace_all(&v1, diff, "net/rds/send.c", "net/rds/sendmsg.c");
	parse(v1.data);
	ok(strcmp(P.patch_id, id) != 0,
	    "same lines in another file: another id");
	mlq_buf_release(&v1);
	mlq_buf_release(&v2);
}

struct tricky {
	const char *name;
	const char *text;
	int nfiles;
	const char *path;
	const char *old_path;
	unsigned flags;
	int ins, del;
	const char *start; /* the text at diff_start */
};

static const struct tricky trickies[] = {
	{ "rename without content change",
	    "Rename it.\n---\n old.c => new.c | 0\n 1 file changed, 0 insertions(+), 0 deletions(-)\n\n"
	    "diff --git a/old.c b/new.c\nsimilarity index 100%\n"
	    "rename from old.c\nrename to new.c\n-- \n2.30.0\n",
	    1, "new.c", "old.c", MLQ_FILE_RENAMED, 0, 0, "diff --git a/old.c" },
	{ "rename with a change",
	    "diff --git a/lib/old.c b/lib/new.c\nsimilarity index 90%\n"
	    "rename from lib/old.c\nrename to lib/new.c\nindex 1..2 100644\n"
	    "--- a/lib/old.c\n+++ b/lib/new.c\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n",
	    1, "lib/new.c", "lib/old.c", MLQ_FILE_RENAMED, 1, 1, "diff --git" },
	{ "copy",
	    "diff --git a/x.c b/y.c\nsimilarity index 100%\ncopy from x.c\ncopy to y.c\n",
	    1, "y.c", "x.c", MLQ_FILE_COPIED, 0, 0, "diff --git" },
	{ "new file from /dev/null (plain)",
	    "--- /dev/null\n+++ b/hello.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n",
	    1, "hello.txt", "hello.txt", MLQ_FILE_NEW, 2, 0, "--- /dev/null" },
	{ "new file (git)",
	    "diff --git a/hello.txt b/hello.txt\nnew file mode 100644\n"
	    "index 0000000..ce01362\n--- /dev/null\n+++ b/hello.txt\n"
	    "@@ -0,0 +1 @@\n+hello\n",
	    1, "hello.txt", "hello.txt", MLQ_FILE_NEW, 1, 0, "diff --git" },
	{ "empty new file (git, no hunk)",
	    "diff --git a/empty b/empty\nnew file mode 100644\n"
	    "index 0000000..e69de29\n",
	    1, "empty", "empty", MLQ_FILE_NEW, 0, 0, "diff --git" },
	{ "deleted file",
	    "diff --git a/gone.c b/gone.c\ndeleted file mode 100644\n"
	    "index 1234567..0000000\n--- a/gone.c\n+++ /dev/null\n"
	    "@@ -1,2 +0,0 @@\n-int x;\n-int y;\n",
	    1, "gone.c", "gone.c", MLQ_FILE_DELETED, 0, 2, "diff --git" },
	{ "deleted file (plain)",
	    "--- a/gone.c\n+++ /dev/null\n@@ -1 +0,0 @@\n-int x;\n", 1,
	    "gone.c", "gone.c", MLQ_FILE_DELETED, 0, 1, "--- a/gone.c" },
	{ "binary",
	    "diff --git a/logo.png b/logo.png\nindex 1111111..2222222 100644\n"
	    "Binary files a/logo.png and b/logo.png differ\n",
	    1, "logo.png", "logo.png", MLQ_FILE_BINARY, 0, 0, "diff --git" },
	{ "GIT binary patch, then a text file",
	    "diff --git a/b.bin b/b.bin\nnew file mode 100644\nindex 0..1\n"
	    "GIT binary patch\nliteral 5\nMcmZ?wbYx@z00\n\nliteral 0\n"
	    "HcmV?d00001\n\ndiff --git a/t.txt b/t.txt\n--- a/t.txt\n+++ b/t.txt\n"
	    "@@ -1 +1 @@\n-a\n+b\n",
	    2, "b.bin", "b.bin", MLQ_FILE_BINARY | MLQ_FILE_NEW, 1, 1,
	    "diff --git a/b.bin" },
	{ "mode change",
	    "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n",
	    1, "run.sh", "run.sh", 0, 0, 0, "diff --git" },
	{ "removed lines that look like a signature and a header",
	    "--- a/sig.txt\n+++ b/sig.txt\n@@ -1,4 +1,2 @@\n hello\n-- \n--\n"
	    "+bye\n--- not a header\n-- \n2.30.0\n\n",
	    1, "sig.txt", "sig.txt", 0, 1, 3, "--- a/sig.txt" },
	{ "diff embedded after prose",
	    "Hi,\n\nhow about this?\n\n--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\n"
	    "\nThanks,\n-- \nme\n",
	    1, "x.c", "x.c", 0, 1, 1, "--- a/x.c" },
	{ "quilt .orig names and timestamps",
	    "--- foo.c.orig\t2020-01-01 00:00:00.000000000 +0100\n"
	    "+++ foo.c\t2020-01-02 00:00:00.000000000 +0100\n"
	    "@@ -1,2 +1,2 @@\n-x\n+y\n z\n",
	    1, "foo.c", "foo.c", 0, 1, 1, "--- foo.c.orig" },
	{ "quilt Index block, one directory stripped",
	    "Some text\nIndex: linux-2.6/drivers/x.c\n"
	    "===================================================================\n"
	    "--- linux-2.6.orig/drivers/x.c\n+++ linux-2.6/drivers/x.c\n"
	    "@@ -10,3 +10,4 @@ int f(void)\n a\n+b\n c\n d\n",
	    1, "drivers/x.c", "drivers/x.c", 0, 1, 0, "Index: linux-2.6" },
	{ "a diff --git line the mailer wrapped",
	    "diff --git a/drivers/net/x/main.c \nb/drivers/net/x/main.c\n"
	    "index 65c2b9d2652b..0c93859f8184 100644\n"
	    "--- a/drivers/net/x/main.c\n+++ b/drivers/net/x/main.c\n"
	    "@@ -1,2 +1,2 @@\n-a\n+b\n c\n",
	    1, "drivers/net/x/main.c", "drivers/net/x/main.c", 0, 1, 1,
	    "diff --git" },
	{ "CVS Index block keeps the path it names",
	    "Index: bfd/elf.c\n=====\nRCS file: /cvs/src/bfd/elf.c,v\n"
	    "diff -u -p -r1.1 elf.c\n--- bfd/elf.c\t17 Aug 2011\t1.1\n"
	    "+++ bfd/elf.c\t5 Dec 2011\n@@ -1 +1 @@\n-a\n+b\n",
	    1, "bfd/elf.c", "bfd/elf.c", 0, 1, 1, "Index: bfd/elf.c" },
	{ "quoted names and a TAB after the name",
	    "diff --git \"a/sp ace\\tx.c\" \"b/sp ace\\tx.c\"\n"
	    "--- \"a/sp ace\\tx.c\"\t\n+++ \"b/sp ace\\tx.c\"\t\n"
	    "@@ -1 +1,2 @@\n a\n+b\n",
	    1, "sp ace\tx.c", "sp ace\tx.c", 0, 1, 0, "diff --git" },
	{ "octal escapes in a quoted name",
	    "diff --git \"a/caf\\303\\251.c\" \"b/caf\\303\\251.c\"\n"
	    "old mode 100644\nnew mode 100755\n",
	    1, "caf\xc3\xa9.c", "caf\xc3\xa9.c", 0, 0, 0, "diff --git" },
	{ "names with spaces in diff --git only",
	    "diff --git a/my file b/my file\nold mode 100644\nnew mode 100755\n",
	    1, "my file", "my file", 0, 0, 0, "diff --git" },
	{ "two hunks, no-newline marker, counts in the header only",
	    "diff --git a/m b/m\n--- a/m\n+++ b/m\n@@ -1 +1 @@\n-a\n"
	    "\\ No newline at end of file\n+a\n\\ No newline at end of file\n"
	    "@@ -9,2 +9 @@\n x\n-y\n",
	    1, "m", "m", 0, 1, 2, "diff --git" },
	{ "a blank context line whose space a mailer ate",
	    "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n", 1, "f", "f", 0,
	    1, 1, "--- a/f" },
	{ "separator and diffstat, but no diff",
	    "Subject: x\n\nText.\n---\n foo.c | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\n-- \n2.1\n",
	    0, NULL, NULL, 0, 0, 0, NULL },
	{ "--- and +++ in prose without a hunk",
	    "--- a/x\n+++ b/x\nnot a hunk\n", 0, NULL, NULL, 0, 0, 0, NULL },
	{ "no diff at all", "Hello.\n\nThanks.\n", 0, NULL, NULL, 0, 0, 0,
	    NULL },
	{ "empty text", "", 0, NULL, NULL, 0, 0, 0, NULL },
	{ "truncated hunk header", "diff --git a/a b/a\n@@ -1", 1, "a", "a", 0,
	    0, 0, "diff --git" },
};

static void
test_tricky(void)
{
	const struct tricky *t;
	size_t i;

	for (i = 0; i < MLQ__ARRAY_SIZE(trickies); i++) {
		t = &trickies[i];
		is_int(parse(t->text), t->nfiles > 0, "%s: found", t->name);
		is_int((long long)P.nfiles, t->nfiles, "%s: files", t->name);
		is_int(P.insertions, t->ins, "%s: insertions", t->name);
		is_int(P.deletions, t->del, "%s: deletions", t->name);
		if (t->nfiles == 0) {
			is_str(P.patch_id, "", "%s: no patch id", t->name);
			continue;
		}
		/* git's patch id starts at a "diff " line. */
		is_int((long long)strlen(P.patch_id),
		    strncmp(t->text, "diff ", 5) == 0 ||
			    strstr(t->text, "\ndiff ") != NULL ? 40 : 0,
		    "%s: patch id as git's", t->name);
		is_str(P.files[0].path, t->path, "%s: path", t->name);
		is_str(P.files[0].old_path, t->old_path, "%s: old path",
		    t->name);
		is_int(P.files[0].flags, t->flags, "%s: flags", t->name);
		ok(strncmp(t->text + P.diff_start, t->start,
		       strlen(t->start)) == 0,
		    "%s: diff starts at '%s'", t->name, t->start);
	}
	/* Input need not end in a NUL. */
	is_int(parse_n("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+bX", 34), 1,
	    "unterminated input: found");
	is_int(P.insertions, 1, "unterminated input: the last line counts");
}

static void
test_limit(void)
{
	struct mlq_buf b;
	size_t i;

	mlq_buf_init(&b);
	for (i = 0; i < MLQ_MAX_PATCH_FILES + 5; i++)
		mlq_buf_addf(&b,
		    "--- a/f%zu\n+++ b/f%zu\n@@ -1 +1 @@\n-a\n+b\n", i, i);
	parse_n(b.data, b.len);
	is_int((long long)P.nfiles, MLQ_MAX_PATCH_FILES,
	    "files beyond MLQ_MAX_PATCH_FILES are not listed");
	is_int(P.insertions, MLQ_MAX_PATCH_FILES + 5, "but they are counted");
	is_str(P.files[MLQ_MAX_PATCH_FILES - 1].path, "f19999",
	    "the last listed");
	mlq_buf_release(&b);
}

/* Undoes quoted-printable: "=XX" and soft line breaks. */
static void
qp_decode(struct mlq_buf *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	const char *hi, *lo;
	size_t i;

	mlq_buf_reset(out);
	for (i = 0; i < n; i++) {
		if (s[i] != '=' || i + 2 >= n) {
			mlq_buf_addch(out, s[i]);
		} else if (s[i + 1] == '\n') {
			i++;
		} else if ((hi = memchr(hex, s[i + 1], 16)) != NULL &&
		    (lo = memchr(hex, s[i + 2], 16)) != NULL) {
			mlq_buf_addch(out,
			    (char)((hi - hex) * 16 + (lo - hex)));
			i += 2;
		} else
			mlq_buf_addch(out, s[i]);
	}
}

struct pw_case {
	const char *file;
	int nfiles;	   /* 0: no diff */
	const char *start; /* the text at diff_start */
	int ins, del;	   /* -1: upstream states none */
	unsigned flags0;   /* flags of the first file */
	bool qp;	   /* body is quoted-printable */
};

/* What patchwork's tests state for each mail (PROVENANCE.md). */
static const struct pw_case pw_cases[] = {
	{ "0001-git-pull-request.mbox", 0, NULL, 0, 0, 0, false },
	{ "0002-git-pull-request-wrapped.mbox", 0, NULL, 0, 0, 0, false },
	{ "0003-git-pull-request-with-diff.mbox", 3,
	    "diff --git a/arch/x86/include/asm/smp.h", -1, -1, 0, false },
	{ "0004-git-pull-request-git+ssh.mbox", 0, NULL, 0, 0, 0, false },
	{ "0005-git-pull-request-ssh.mbox", 0, NULL, 0, 0, 0, false },
	{ "0006-git-pull-request-http.mbox", 0, NULL, 0, 0, 0, false },
	{ "0007-cvs-format-diff.mbox", 3, "Index", -1, -1, 0, false },
	{ "0008-git-rename.mbox", 2, "diff --git", 0, 0, MLQ_FILE_RENAMED,
	    false },
	{ "0009-git-rename-with-diff.mbox", 2, "diff --git", 1, 1,
	    MLQ_FILE_RENAMED, false },
	{ "0010-invalid-charset.mbox", -1, "diff", -1, -1, 0, true },
	{ "0011-no-newline-at-end-of-file.mbox", 3,
	    "diff --git a/tools/testing/selftests/powerpc/Makefile", -1, -1, 0,
	    false },
	{ "0012-invalid-header-char.mbox", 1, "diff --git", 1, 1, 0, false },
	{ "0013-with-utf8-body.mbox", 1, "diff --git", 3, 1, 0, false },
	{ "0014-with-unencoded-utf8-headers.mbox", 1, "diff --git", 3, 1, 0,
	    false },
	{ "0015-with-invalid-utf8-headers.mbox", 1, "diff --git", 3, 1, 0,
	    false },
	{ "0016-no-subject.mbox", 2, "diff --git", 0, 0, MLQ_FILE_RENAMED,
	    false },
	{ "0017-git-pull-request-git-2-14-3.mbox", 0, NULL, 0, 0, 0, false },
	{ "0019-multipart-patch.mbox", 1, "diff --git a/patchwork/parser.py", 3,
	    1, 0, false },
	{ "0020-multipart-comment.mbox", 0, NULL, 0, 0, 0, false },
	{ "0021-git-empty-new-file.mbox", 1, "diff --git a/banana", 0, 0,
	    MLQ_FILE_NEW, false },
	{ "0022-git-mode-change.mbox", 1,
	    "diff --git a/scripts/kconfig/nconf-cfg.sh", 0, 0, 0, false },
	{ "0023-git-pull-request-newline-in-url.mbox", 0, NULL, 0, 0, 0,
	    false },
	{ "0024-git-pull-request-trailing-space.mbox", 0, NULL, 0, 0, 0,
	    false },
	{ "0025-git-add-binary-file.mbox", 1, "diff --git pixel.bmp pixel.bmp",
	    0, 0, MLQ_FILE_NEW | MLQ_FILE_BINARY, false },
	{ "0026-git-add-mixed-binary-text-files.mbox", 2,
	    "diff --git pixel.bmp pixel.bmp", 3, 0,
	    MLQ_FILE_NEW | MLQ_FILE_BINARY, false },
	{ "0027-git-modify-binary-file.mbox", 1,
	    "diff --git pixel.bmp pixel.bmp", 0, 0, MLQ_FILE_BINARY, false },
};

static void
test_patchwork(const char *shared, struct mlq_buf *b)
{
	const struct pw_case *c;
	struct mlq_buf dec;
	const char *body, *text;
	char path[4096];
	size_t i, n;

	mlq_buf_init(&dec);
	for (i = 0; i < MLQ__ARRAY_SIZE(pw_cases); i++) {
		c = &pw_cases[i];
		snprintf(path, sizeof(path), "%s/corpus/patchwork-mail/mail/%s",
		    shared, c->file);
		if (!ok(read_whole(path, b), "read %s", c->file))
			continue;
		/* Headers end at the first blank line. */
		body = strstr(b->data, "\n\n");
		body = body != NULL ? body + 2 : b->data;
		text = body;
		n = b->len - (size_t)(body - b->data);
		if (c->qp) {
			qp_decode(&dec, body, n);
			text = dec.data;
			n = dec.len;
		}
		parse_n(text, n);
		if (c->nfiles < 0) {
			ok(found && P.nfiles > 0,
			    "%s: a diff after QP decoding", c->file);
			ok(strncmp(text + P.diff_start, c->start,
			       strlen(c->start)) == 0,
			    "%s: diff start", c->file);
			continue;
		}
		is_int(found, c->nfiles > 0, "%s: diff or not", c->file);
		is_int((long long)P.nfiles, c->nfiles, "%s: files", c->file);
		if (c->nfiles == 0)
			continue;
		ok(strncmp(text + P.diff_start, c->start, strlen(c->start)) ==
			0,
		    "%s: diff starts at '%s'", c->file, c->start);
		is_int(P.files[0].flags, c->flags0, "%s: first file's flags",
		    c->file);
		if (c->ins >= 0) {
			is_int(P.insertions, c->ins, "%s: insertions", c->file);
			is_int(P.deletions, c->del, "%s: deletions", c->file);
		}
	}
	mlq_buf_release(&dec);
	diag("patchwork mail/: 26 mails covered (0010 after a minimal QP "
	     "decode); series/ and fuzz/ belong to the mail parser");
}

/* " N": a blank, then a number. */
static bool
take_field(const char **p, const char *end, long *v)
{
	if (*p == NULL || *p == end || **p != ' ')
		return false;
	(*p)++;
	return take_num(p, end, v);
}

/* A line of tests/fixtures/patch-corpus-disagree.txt. */
struct known {
	const char *path; /* below corpus/patches/ */
	bool corrupt;	  /* else stale */
	long files, ins, del;
};

struct corpus_tally {
	int files;
	int with_stat;
	int agree;
	int stale;
	int corrupt;
	int unexplained;
	struct known *known;
	size_t nknown;
};

static int
known_cmp(const void *key, const void *elt)
{
	return strcmp(key, ((const struct known *)elt)->path);
}

/* "reason files ins del path ..." lines, sorted by path; '#' comments. */
static void
load_known(struct mlq_buf *b, struct corpus_tally *t)
{
	char path[4096], *p, *nl, *end;
	const char *q;
	struct known *k;
	const char *src = getenv("top_srcdir");

	snprintf(path, sizeof(path),
	    "%s/tests/fixtures/patch-corpus-disagree.txt",
	    src != NULL ? src : ".");
	if (!read_whole(path, b))
		return;
	end = b->data + b->len;
	for (p = b->data; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		*nl = '\0';
		if (*p == '#' || *p == '\0')
			continue;
		t->known =
		    realloc(t->known, (t->nknown + 1) * sizeof(*t->known));
		if (t->known == NULL)
			abort();
		k = &t->known[t->nknown++];
		k->corrupt = strncmp(p, "corrupt ", 8) == 0;
		q = strchr(p, ' ');
		if (!take_field(&q, nl, &k->files) ||
		    !take_field(&q, nl, &k->ins) ||
		    !take_field(&q, nl, &k->del))
			abort();
		k->path = p + (q + 1 - p);
		if ((p = strchr(k->path, ' ')) != NULL)
			*p = '\0';
	}
}

static void
corpus_file(const char *path, const char *rel, struct mlq_buf *b,
    struct corpus_tally *t)
{
	const struct known *k;
	struct diffstat ds;

	if (!read_whole(path, b))
		return;
	t->files++;
	parse_n(b->data, b->len);
	if (!find_diffstat(b->data, found ? P.diff_start : b->len, &ds))
		return;
	t->with_stat++;
	if (found && (long)P.nfiles == ds.files && P.insertions == ds.ins &&
	    P.deletions == ds.del) {
		t->agree++;
		return;
	}
	k = bsearch(rel, t->known, t->nknown, sizeof(*k), known_cmp);
	if (k != NULL && k->files == (long)P.nfiles && k->ins == P.insertions &&
	    k->del == P.deletions) {
		if (k->corrupt)
			t->corrupt++;
		else
			t->stale++;
		return;
	}
	t->unexplained++;
	diag("disagrees: %s: diffstat %ld/%ld/%ld, parsed %zu/%d/%d", rel,
	    ds.files, ds.ins, ds.del, P.nfiles, P.insertions, P.deletions);
}

static void
corpus_walk(const char *dir, size_t skip, struct mlq_buf *b,
    struct corpus_tally *t)
{
	struct dirent *de;
	struct stat sb;
	char path[4096];
	DIR *d;
	int len;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		len = snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (len < 0 || (size_t)len >= sizeof(path) ||
		    stat(path, &sb) != 0)
			continue;
		if (S_ISDIR(sb.st_mode))
			corpus_walk(path, skip, b, t);
		else if (S_ISREG(sb.st_mode))
			corpus_file(path, path + skip, b, t);
	}
	closedir(d);
}

/*
 * Every patch file whose diffstat disagrees with the parse must be a known
 * stale or corrupt one, with the counts git apply --numstat gives.
 */
static void
test_corpus(const char *shared, struct mlq_buf *b)
{
	struct corpus_tally t;
	struct mlq_buf fix;
	char path[4096];
	size_t skip;

	memset(&t, 0, sizeof(t));
	mlq_buf_init(&fix);
	load_known(&fix, &t);
	is_int((long long)t.nknown, CORPUS_STALE + CORPUS_CORRUPT,
	    "fixture lists every known disagreement");
	skip =
	    (size_t)snprintf(path, sizeof(path), "%s/corpus/patches/", shared);
	snprintf(path + skip, sizeof(path) - skip, "buildroot");
	corpus_walk(path, skip, b, &t);
	snprintf(path + skip, sizeof(path) - skip, "lede-generic");
	corpus_walk(path, skip, b, &t);
	is_int(t.files, CORPUS_FILES,
	    "corpus: every patch file parsed, none crashed");
	is_int(t.with_stat, CORPUS_WITH_STAT, "corpus: files with a diffstat");
	is_int(t.agree, CORPUS_AGREE, "corpus: diff matches its diffstat");
	is_int(t.stale, CORPUS_STALE,
	    "corpus: stale diffstat, counts equal git apply --numstat's");
	is_int(t.corrupt, CORPUS_CORRUPT, "corpus: corrupt patches as known");
	is_int(t.unexplained, 0, "corpus: no unexplained disagreement");
	free(t.known);
	mlq_buf_release(&fix);
}


/* How much of two diffs is shared: the test of a retitled version. */
static double
likeness(const char *a, const char *b)
{
	uint64_t x[MLQ__SKETCH_MAX], y[MLQ__SKETCH_MAX];

	return mlq__sketch_likeness(x, mlq__patch_sketch(a, strlen(a), x), y,
	    mlq__patch_sketch(b, strlen(b), y));
}

static void
test_likeness(void)
{
	static const char v1[] =
	    "--- a/drivers/net/foo.c\n+++ b/drivers/net/foo.c\n"
	    "@@ -1,3 +1,5 @@\n \tp = kzalloc(n, GFP_KERNEL);\n"
	    "+\tif (!p)\n+\t\treturn -ENOMEM;\n-\told();\n+\tnew();\n";
	/* The same change, reindented and with one more line. */
	static const char v2[] =
	    "--- a/drivers/net/foo.c\n+++ b/drivers/net/foo.c\n"
	    "@@ -1,3 +1,6 @@\n \tp = kzalloc(n, GFP_KERNEL);\n"
	    "+        if (!p)\n+\t\treturn -ENOMEM;\n-\told();\n+\tnew();\n"
	    "+\tcount++;\n";
	static const char other[] =
	    "--- a/drivers/net/foo.c\n+++ b/drivers/net/foo.c\n"
	    "@@ -9,2 +9,2 @@\n-\tfoo(1);\n+\tfoo(2);\n";
	char big_a[MLQ__SKETCH_MAX * 40 + 64], big_b[sizeof(big_a)];
	size_t i, na = 0, nb = 0;
	double x;

	x = likeness(v1, v1);
	ok(x == 1.0, "a diff is wholly like itself (%.2f)", x);
	x = likeness(v1, v2);
	ok(x > 0.75 && x < 1.0, "whitespace aside, 4 of 5 lines shared (%.2f)",
	    x);
	x = likeness(v1, other);
	ok(x == 0.0, "another change to the file shares nothing (%.2f)", x);
	x = likeness(v1, "no diff\n");
	ok(x == 0.0, "text without a diff is like nothing (%.2f)", x);
	/* Past the sketch's size: half the lines of b are a's. */
	for (i = 0; i < 2 * MLQ__SKETCH_MAX / 2; i++) {
		na += (size_t)snprintf(big_a + na, sizeof(big_a) - na,
		    "+\tline_%zu();\n", i);
		nb += (size_t)snprintf(big_b + nb, sizeof(big_b) - nb,
		    "+\tline_%zu();\n", i % 2 ? i : i + 100000);
	}
	x = likeness(big_a, big_b);
	ok(x > 0.15 && x < 0.5, "a large diff half rewritten is estimated "
	    "under the bar (%.2f; exact 0.33)", x);
}

int
main(void)
{
	const char *shared;
	struct mlq_buf b;

	mlq_buf_init(&b);
	test_likeness();
	test_tricky();
	test_limit();
	/* The rest reads real mail: skipped, and said so, without it. */
	if ((shared = tap_shared_dir()) == NULL)
		printf("# ../shared (seeds and corpus) is missing: its cases "
		       "are skipped\n");
	else {
		test_seeds(shared, &b);
		test_seed_002(shared, &b);
		test_patch_id(shared, &b);
		test_patchwork(shared, &b);
		test_corpus(shared, &b);
	}
	mlq_buf_release(&b);
	mlq_arena_free(arena);
	return done_testing();
}
