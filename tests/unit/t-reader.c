#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "mlq-limits.h"
#include "mlq.h"
#include "tap.h"

/* What a source gave: "pos:bytes|" per message, "pos:STATUS|" per error. */
struct got {
	struct mlq_buf dump;
	int n;	    /* messages */
	int errors; /* calls that failed */
	char err[256];
	uint64_t done;
	uint64_t total;
};

#define NITEMS(a) (sizeof(a) / sizeof((a)[0]))

static char tmp[4096];

static const char *
path_in(const char *dir, const char *name)
{
	static char p[4][4096];
	static int i;
	int k;

	i = (i + 1) % 4;
	k = snprintf(p[i], sizeof(p[i]), "%s/%s", dir, name);
	if (k < 0 || (size_t)k >= sizeof(p[i])) {
		printf("Bail out! path too long\n");
		exit(1);
	}
	return p[i];
}

static void
write_file(const char *path, const char *data, size_t len)
{
	FILE *f;

	if ((f = fopen(path, "wb")) == NULL || fwrite(data, 1, len, f) != len ||
	    fclose(f) != 0) {
		printf("Bail out! %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

static void
write_gz(const char *path, const char *mode, const char *data, size_t len)
{
	gzFile gz;

	if ((gz = gzopen(path, mode)) == NULL ||
	    gzwrite(gz, data, (unsigned)len) != (int)len ||
	    gzclose(gz) != Z_OK) {
		printf("Bail out! gzip %s\n", path);
		exit(1);
	}
}

static void
make_dir(const char *path)
{
	if (mkdir(path, 0700) == -1) {
		printf("Bail out! mkdir %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* Reads every message of path into g; 'dump' keeps the bytes if asked. */
static enum mlq_status
read_all(const char *path, struct got *g, bool dump)
{
	struct mlq_reader *r;
	struct mlq_err err;
	enum mlq_status st;
	const char *msg;
	size_t len;
	uint64_t pos;
	int guard;

	mlq_buf_init(&g->dump);
	g->n = g->errors = 0;
	g->err[0] = '\0';
	g->done = g->total = 0;
	mlq_err_clear(&err);
	if ((st = mlq_reader_open(path, &r, &err)) != MLQ_OK) {
		snprintf(g->err, sizeof(g->err), "%s", err.msg);
		return st;
	}
	for (guard = 0; guard < 1000000; guard++) {
		mlq_err_clear(&err);
		st = mlq_reader_next(r, &msg, &len, &pos, &err);
		if (st == MLQ_NOTFOUND)
			break;
		if (st != MLQ_OK) {
			g->errors++;
			if (g->err[0] == '\0')
				snprintf(g->err, sizeof(g->err), "%s", err.msg);
			mlq_buf_addf(&g->dump, "%llu:E%d|",
			    (unsigned long long)pos, (int)st);
			continue;
		}
		g->n++;
		if (dump) {
			mlq_buf_addf(&g->dump,
			    "%llu:", (unsigned long long)pos);
			mlq_buf_add(&g->dump, msg, len);
			mlq_buf_addch(&g->dump, '|');
		}
	}
	mlq_reader_progress(r, &g->done, &g->total);
	mlq_reader_close(r);
	return MLQ_OK;
}

static const char mbox_rd[] = "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
			      "Subject: one\n"
			      "\n"
			      "body\n"
			      ">From quoted\n"
			      ">>From twice\n"
			      ">not from\n"
			      "mid >From stays\n"
			      "\n"
			      "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
			      "Subject: two\n"
			      "\n"
			      "last\n"
			      "\n";
static const char mbox_rd_want[] = "1:Subject: one\n\nbody\nFrom quoted\n"
				   ">From twice\n>not from\nmid >From stays\n|"
				   "2:Subject: two\n\nlast\n|";

static const char mbox_o[] = "From user@host Tue Apr  6 19:16:56 2021\n"
			     "Subject: a\n"
			     "\n"
			     "text\n"
			     "From here on\n"
			     "\n"
			     "From the start\n"
			     "\n"
			     "\n"
			     "From user@host Tue Apr  6 19:17:00 2021\n"
			     "Subject: b\n"
			     "\n"
			     "x\n";
static const char mbox_o_want[] = "1:Subject: a\n\ntext\nFrom here on\n\n"
				  "From the start\n\n|2:Subject: b\n\nx\n|";

static const char mbox_crlf[] =
    "From 0c85a7e87465f2d4cbc768e245f4f45b2f299b05 Mon Sep 17 00:00:00 2001\r\n"
    "Subject: c\r\n"
    "\r\n"
    "x\r\n"
    ">From y\r\n"
    "\r\n"
    "From 0c85a7e87465f2d4cbc768e245f4f45b2f299b05 Mon Sep 17 00:00:00 2001\r\n"
    "Subject: d\r\n"
    "\r\n"
    "z\r\n";
static const char mbox_crlf_want[] = "1:Subject: c\r\n\r\nx\r\nFrom y\r\n|"
				     "2:Subject: d\r\n\r\nz\r\n|";

static void
check_file(const char *name, const char *data, const char *want)
{
	const char *p = path_in(tmp, name);
	struct got g;

	write_file(p, data, strlen(data));
	is_int(read_all(p, &g, true), MLQ_OK, "%s: opens", name);
	is_str(g.dump.data, want, "%s: messages", name);
	is_int((long long)g.done, (long long)strlen(data), "%s: all read",
	    name);
	is_int((long long)g.total, (long long)strlen(data), "%s: size", name);
	mlq_buf_release(&g.dump);
}

static void
test_mbox_files(void)
{
	struct got g;
	const char *p;

	check_file("rd.mbox", mbox_rd, mbox_rd_want);
	check_file("o.mbox", mbox_o, mbox_o_want);
	check_file("crlf.mbox", mbox_crlf, mbox_crlf_want);
	check_file("nonl.mbox",
	    "From x@y Fri Jan  1 00:00:00 2021\nSubject: e\n\nno newline",
	    "1:Subject: e\n\nno newline|");
	check_file("bare.eml",
	    "Subject: f\n\nbare\n\nFrom x@y Fri Jan  1 "
	    "00:00:00 2021\n>From kept\n",
	    "1:Subject: f\n\nbare\n\nFrom x@y Fri Jan  1 00:00:00 2021\n"
	    ">From kept\n|");
	check_file("nonl.eml", "Subject: g", "1:Subject: g|");

	p = path_in(tmp, "empty");
	write_file(p, "", 0);
	is_int(read_all(p, &g, true), MLQ_OK, "empty file opens");
	is_int(g.n + g.errors, 0, "empty file: no message");
	mlq_buf_release(&g.dump);

	is_int(read_all(path_in(tmp, "absent"), &g, true), MLQ_EIO,
	    "absent file: EIO");
	ok(strstr(g.err, "absent': No such file") != NULL, "EIO names it: %s",
	    g.err);
	mlq_buf_release(&g.dump);
}

/* 'n' messages with bodies zlib cannot shrink much. */
static void
make_mbox(struct mlq_buf *b, int n)
{
	unsigned long x = 12345;
	int i, j;

	for (i = 1; i <= n; i++) {
		mlq_buf_addf(b,
		    "From a@b Mon Sep 17 00:00:00 2001\n"
		    "Subject: m%d\n\n",
		    i);
		for (j = 0; j < 20; j++) {
			x = x * 1103515245 + 12345;
			mlq_buf_addf(b, "%08lx%08lx\n", x & 0xffffffff,
			    (x >> 7) & 0xffffffff);
		}
		mlq_buf_addch(b, '\n');
	}
}

static void
test_gzip(void)
{
	struct mlq_buf big, want;
	struct got g, plain;
	struct stat sb;
	const char *p, *q;
	char *data;
	FILE *f;
	size_t n;

	p = path_in(tmp, "rd.mbox.gz");
	write_gz(p, "wb", mbox_rd, strlen(mbox_rd));
	is_int(read_all(p, &g, true), MLQ_OK, "gzip opens");
	is_str(g.dump.data, mbox_rd_want, "gzip: messages as plain");
	stat(p, &sb);
	is_int((long long)g.total, (long long)sb.st_size,
	    "gzip: total is the compressed size");
	is_int((long long)g.done, (long long)sb.st_size,
	    "gzip: all compressed bytes read");
	mlq_buf_release(&g.dump);

	/* Two gzip members, as "gzip -c a >> x; gzip -c b >> x" makes. */
	p = path_in(tmp, "two.mbox.gz");
	write_gz(p, "wb", mbox_rd, strlen(mbox_rd));
	write_gz(p, "ab", mbox_o, strlen(mbox_o));
	read_all(p, &g, true);
	is_str(g.dump.data,
	    "1:Subject: one\n\nbody\nFrom quoted\n>From twice\n>not from\n"
	    "mid >From stays\n|2:Subject: two\n\nlast\n|"
	    "3:Subject: a\n\ntext\nFrom here on\n\nFrom the start\n\n|"
	    "4:Subject: b\n\nx\n|",
	    "gzip: concatenated members read as one");
	mlq_buf_release(&g.dump);

	/* A gzip cut short: what came before, then EINPUT, then the end. */
	mlq_buf_init(&big);
	make_mbox(&big, 400);
	p = path_in(tmp, "big.mbox");
	write_file(p, big.data, big.len);
	read_all(p, &plain, true);
	is_int(plain.n, 400, "400 messages plain");
	q = path_in(tmp, "cut.mbox.gz");
	write_gz(q, "wb", big.data, big.len);
	stat(q, &sb);
	n = (size_t)sb.st_size / 2;
	data = malloc((size_t)sb.st_size);
	f = fopen(q, "rb");
	if (data == NULL || f == NULL || fread(data, 1, n, f) != n) {
		printf("Bail out! reading %s\n", q);
		exit(1);
	}
	fclose(f);
	write_file(q, data, n);
	read_all(q, &g, true);
	ok(g.n > 100 && g.n < 300, "cut gzip: the first messages (%d)", g.n);
	is_int(g.errors, 1, "cut gzip: one error");
	ok(strstr(g.err, "cut.mbox.gz': gzip: unexpected end of file") != NULL,
	    "cut gzip: says so: %s", g.err);
	mlq_buf_init(&want);
	mlq_buf_addf(&want, "%d:E%d|", g.n + 1, (int)MLQ_EINPUT);
	ok(g.dump.len >= want.len &&
		strcmp(g.dump.data + g.dump.len - want.len, want.data) == 0,
	    "cut gzip: the error is at message %d", g.n + 1);
	n = g.dump.len - want.len;
	mlq_buf_reset(&want);
	mlq_buf_addf(&want, "%d:", g.n + 1);
	ok(n < plain.dump.len && memcmp(g.dump.data, plain.dump.data, n) == 0 &&
		strncmp(plain.dump.data + n, want.data, want.len) == 0,
	    "cut gzip: the messages before the cut are whole");
	mlq_buf_release(&want);
	mlq_buf_release(&g.dump);

	/* Corrupt data in the middle. */
	data[n / 2] ^= 0x55;
	data[n / 2 + 1] ^= 0x55;
	data[n / 2 + 2] ^= 0x55;
	n = (size_t)sb.st_size / 2;
	write_file(q, data, n);
	read_all(q, &g, false);
	is_int(g.errors, 1, "corrupt gzip: one error");
	ok(strstr(g.err, "cut.mbox.gz': gzip: ") != NULL,
	    "corrupt gzip: says so: %s", g.err);
	ok(g.n > 0 && g.n < 300, "corrupt gzip: messages before it (%d)", g.n);
	mlq_buf_release(&g.dump);
	free(data);
	mlq_buf_release(&plain.dump);
	mlq_buf_release(&big);
}

/* Over MLQ_MAX_MESSAGE_BYTES: that message is EINPUT, the next one reads. */
static void
test_too_big(void)
{
	static const char from[] = "From a@b Mon Sep 17 00:00:00 2001\n";
	struct got g;
	gzFile gz;
	const char *p;
	char *line;
	size_t i, n = 1024 * 1024;

	p = path_in(tmp, "huge.mbox.gz");
	line = malloc(n);
	if (line == NULL || (gz = gzopen(p, "wb1")) == NULL) {
		printf("Bail out! huge\n");
		exit(1);
	}
	memset(line, 'x', n);
	line[n - 1] = '\n';
	gzputs(gz, from);
	gzputs(gz, "Subject: huge\n\n");
	for (i = 0; i <= MLQ_MAX_MESSAGE_BYTES / n; i++)
		gzwrite(gz, line, (unsigned)n);
	gzputs(gz, "\n");
	gzputs(gz, from);
	gzputs(gz, "Subject: after\n\nok\n");
	gzclose(gz);
	free(line);
	read_all(p, &g, true);
	is_str(g.dump.data, "1:E3|2:Subject: after\n\nok\n|",
	    "huge message: EINPUT, then the next one");
	ok(strstr(g.err, "huge.mbox.gz': message 1: larger than") != NULL,
	    "huge message: says so: %s", g.err);
	mlq_buf_release(&g.dump);
}

static void
test_dirs(void)
{
	char d[4096], t[4096], a[4096];
	struct got g;
	const char *p;

	snprintf(d, sizeof(d), "%s", path_in(tmp, "md"));
	make_dir(d);
	make_dir(path_in(d, "cur"));
	make_dir(path_in(d, "new"));
	make_dir(path_in(d, "tmp"));
	write_file(path_in(d, "cur/2:2,S"), "Subject: c2\n", 12);
	write_file(path_in(d, "cur/1:2,"), "Subject: c1\n", 12);
	write_file(path_in(d, "cur/.hidden"), "Subject: dot\n", 13);
	write_file(path_in(d, "new/a"), "Subject: n1\n", 12);
	write_file(path_in(d, "tmp/t"), "Subject: tmp\n", 13);
	write_file(path_in(d, "stray"), "Subject: stray\n", 15);
	is_int(read_all(d, &g, true), MLQ_OK, "maildir opens");
	is_str(g.dump.data, "1:Subject: c1\n|2:Subject: c2\n|3:Subject: n1\n|",
	    "maildir: cur/ then new/, sorted, no dotfile or tmp/");
	is_int((long long)g.total, 36, "maildir: total is the files' bytes");
	is_int((long long)g.done, 36, "maildir: all read");
	mlq_buf_release(&g.dump);

	snprintf(t, sizeof(t), "%s", path_in(tmp, "tree"));
	make_dir(t);
	snprintf(a, sizeof(a), "%s", path_in(t, "a"));
	make_dir(a);
	make_dir(path_in(t, ".git"));
	write_file(path_in(t, ".git/config"), "x\n", 2);
	write_file(path_in(t, "b.eml"), "Subject: b\n", 11);
	write_file(path_in(a, "z.eml"), "Subject: z\n", 11);
	p = "From 0c85a7e87465f2d4cbc768e245f4f45b2f299b05 Mon Sep 17 00:00:00 "
	    "2001\nSubject: [PATCH] y\n\n>From kept\n\nFrom x@y Fri Jan  1 "
	    "00:00:00 2021\n";
	write_file(path_in(a, "y.patch"), p, strlen(p));
	write_file(path_in(t, "c.empty"), "", 0);
	write_gz(path_in(t, "d.eml.gz"), "wb", "Subject: d\n", 11);
	is_int(read_all(t, &g, true), MLQ_OK, "directory opens");
	is_str(g.dump.data,
	    "1:Subject: [PATCH] y\n\n>From kept\n\nFrom x@y Fri Jan  1 "
	    "00:00:00 2021\n|2:Subject: z\n|3:Subject: b\n|5:Subject: d\n|",
	    "directory: one message a file, sorted, From line gone");
	is_int((long long)g.done, (long long)g.total,
	    "directory: all bytes read");
	mlq_buf_release(&g.dump);
}

struct split_got {
	struct mlq_buf dump;
	int calls;
	int fail_at;
};

static enum mlq_status
split_cb(const char *msg, size_t len, void *arg)
{
	struct split_got *sg = arg;

	sg->calls++;
	mlq_buf_addf(&sg->dump, "%d:", sg->calls);
	mlq_buf_add(&sg->dump, msg, len);
	mlq_buf_addch(&sg->dump, '|');
	return sg->calls == sg->fail_at ? MLQ_EDB : MLQ_OK;
}

/* Feeds data in chunks of 'step' bytes; the statuses go in *st. */
static void
split_chunks(const char *data, size_t len, size_t step, struct split_got *sg,
    enum mlq_status *st)
{
	struct mlq_mbox_split *s;
	size_t off, k;

	mlq_buf_init(&sg->dump);
	sg->calls = 0;
	*st = mlq_mbox_split_new(split_cb, sg, &s, NULL);
	if (*st != MLQ_OK)
		return;
	for (off = 0; off < len && *st == MLQ_OK; off += k) {
		k = len - off < step ? len - off : step;
		*st = mlq_mbox_split_feed(s, data + off, k, NULL);
	}
	if (*st == MLQ_OK)
		*st = mlq_mbox_split_finish(s, NULL);
	mlq_mbox_split_free(s);
}

static void
test_split(void)
{
	static const size_t steps[] = { 1, 7, 4096 };
	static const char hdr[] = "From a@b Mon Sep 17 00:00:00 2001\n"
				  "Subject: huge\n\n";
	static const char tail[] = "\n\nFrom a@b Mon Sep 17 00:00:00 2001\n"
				   "Subject: next\n";
	struct split_got sg;
	struct mlq_buf all, want;
	struct mlq_mbox_split *s;
	struct mlq_err err;
	enum mlq_status st;
	char *huge;
	size_t i, n = 1024 * 1024;

	mlq_buf_init(&all);
	mlq_buf_add(&all, mbox_rd, strlen(mbox_rd));
	mlq_buf_add(&all, mbox_o, strlen(mbox_o));
	mlq_buf_addstr(&all, "\n");
	mlq_buf_add(&all, mbox_crlf, strlen(mbox_crlf));
	mlq_buf_init(&want);
	mlq_buf_addstr(&want, mbox_rd_want);
	mlq_buf_addstr(&want,
	    "3:Subject: a\n\ntext\nFrom here on\n\n"
	    "From the start\n\n|4:Subject: b\n\nx\n|"
	    "5:Subject: c\r\n\r\nx\r\nFrom y\r\n|"
	    "6:Subject: d\r\n\r\nz\r\n|");
	sg.fail_at = 0;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		split_chunks(all.data, all.len, steps[i], &sg, &st);
		is_int(st, MLQ_OK, "split by %zu: ok", steps[i]);
		is_str(sg.dump.data, want.data, "split by %zu: messages",
		    steps[i]);
		mlq_buf_release(&sg.dump);
	}
	sg.fail_at = 2;
	split_chunks(all.data, all.len, 7, &sg, &st);
	is_int(st, MLQ_EDB, "callback failure is returned");
	is_int(sg.calls, 2, "callback failure stops the feed");
	mlq_buf_release(&sg.dump);
	mlq_buf_release(&want);
	mlq_buf_release(&all);

	/* One line longer than any message, cut in chunks: skipped. */
	sg.fail_at = 0;
	sg.calls = 0;
	mlq_buf_init(&sg.dump);
	mlq_err_clear(&err);
	mlq_mbox_split_new(split_cb, &sg, &s, NULL);
	huge = malloc(n);
	if (huge == NULL) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	memset(huge, 'y', n);
	st = mlq_mbox_split_feed(s, mbox_rd, strlen(mbox_rd), &err);
	st = mlq_mbox_split_feed(s, hdr, strlen(hdr), &err);
	for (i = 0; i <= MLQ_MAX_MESSAGE_BYTES / n && st == MLQ_OK; i++)
		st = mlq_mbox_split_feed(s, huge, n, &err);
	free(huge);
	is_int(st, MLQ_OK, "huge line: no error while it lasts");
	st = mlq_mbox_split_feed(s, tail, strlen(tail), &err);
	is_int(st, MLQ_EINPUT, "huge line: EINPUT once it ends");
	is_str(err.msg, "message 3: larger than 67108864 bytes",
	    "huge line: the message is named");
	is_int(mlq_mbox_split_finish(s, NULL), MLQ_OK, "huge line: finish");
	mlq_mbox_split_free(s);
	is_str(sg.dump.data,
	    "1:Subject: one\n\nbody\nFrom quoted\n>From twice\n"
	    ">not from\nmid >From stays\n|2:Subject: two\n\n"
	    "last\n|3:Subject: next\n|",
	    "huge line: the messages around it");
	mlq_buf_release(&sg.dump);
}

/* The "messages" number of a stats json: a tiny search, no JSON parser. */
static long long
stats_messages(const char *path)
{
	char buf[65536], *p, *end;
	size_t n;
	FILE *f;
	long long v;

	if ((f = fopen(path, "rb")) == NULL)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if ((p = strstr(buf, "\"messages\":")) == NULL)
		return -1;
	errno = 0;
	v = strtoll(p + strlen("\"messages\":"), &end, 10);
	if (errno != 0 || end == p)
		return -1;
	return v;
}

static void
test_shared(void)
{
	static const char *const lists[] = { "encoding-edge", "iwl-2021-04",
		"lak-2019-11-wk1", "nfs-2021-04", "tags-and-reverts",
		"umn-2019-2021" };
	static const struct {
		const char *dir;
		int files;
	} dirs[] = {
		{ "corpus/notmuch", 321 },
		{ "corpus/patches/buildroot", 1701 },
		{ "seeds", 12 },
	};
	char mbox[4096], json[4096];
	const char *sh = tap_shared_dir();
	struct got g;
	size_t i;

	if (sh == NULL) {
		for (i = 0; i < NITEMS(lists) + NITEMS(dirs); i++)
			ok(true, "# SKIP ../shared is absent");
		return;
	}
	for (i = 0; i < NITEMS(lists); i++) {
		snprintf(mbox, sizeof(mbox), "%s/corpus/lists/%s.mbox", sh,
		    lists[i]);
		snprintf(json, sizeof(json), "%s/corpus/lists/%s.stats.json",
		    sh, lists[i]);
		read_all(mbox, &g, false);
		is_int(g.n, stats_messages(json),
		    "%s.mbox: messages as counted", lists[i]);
		mlq_buf_release(&g.dump);
	}
	for (i = 0; i < NITEMS(dirs); i++) {
		read_all(path_in(sh, dirs[i].dir), &g, false);
		is_int(g.n, dirs[i].files, "%s: one message a file",
		    dirs[i].dir);
		mlq_buf_release(&g.dump);
	}
}

static int
rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int
main(void)
{
	const char *base = getenv("TMPDIR");
	int rc;

	snprintf(tmp, sizeof(tmp), "%s/t-reader.XXXXXX",
	    base != NULL && *base != '\0' ? base : "/tmp");
	if (mkdtemp(tmp) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_mbox_files();
	test_gzip();
	test_too_big();
	test_dirs();
	test_split();
	test_shared();
	if (nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		diag("could not remove %s", tmp);
	rc = done_testing();
	return rc;
}
