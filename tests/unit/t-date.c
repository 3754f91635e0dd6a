#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbox-util.h"
#include "mlq.h"
#include "tap.h"

struct date_case {
	const char *s;
	long long want; /* UTC seconds */
};

/*
 * Broken and odd forms seen in the corpus (seeds/010, notmuch, patchwork,
 * list bodies) and the ones INTERFACE.md and git produce.
 */
static const struct date_case good[] = {
	{ "Tue,  6 Apr 2021 19:16:56 -0500", 1617754616LL },
	{ "Wed, 21 Apr 2021 14:57:56 +0200", 1619009876LL },
	{ "Thu, 01 Apr 21 17:26:04 GMT", 1617297964LL },
	{ "Wed 29 May 2019 06:09:22 PM EDT", 1559167762LL },
	{ "  28 May 2019 16:42:27 +0200", 1559054547LL },
	{ "Fri Oct 25 09:27:03 2019 +1300", 1571948823LL },
	{ "Fri Dec 21 10:00:00 2018 +0100", 1545382800LL },
	{ "2016-07-19 11:54:24 +0200", 1468922064LL },
	{ "2018-12-21", 1545350400LL },
	{ "2018-12-21 10:00:00 +0100", 1545382800LL },
	{ "Sun, 3 Jan 2021 18:03:47 +0800 (GMT+08:00)", 1609668227LL },
	{ "Mon, 15 Nov 2010 11:07:32 -0800 (PST)", 1289848052LL },
	{ "Mon, Apr 29, 2019 at 07:35:24", 1556523324LL },
	{ "Jan/07/2020, 12:14:19 (UTC+00:00)", 1578399259LL },
	{ "Mon, 29 Apr 2019 07:32:33 GMT", 1556523153LL },
	{ "Sat, 21 Nov 2009 16:28:30 +2000", 1258820910LL },
	{ "Sat, 21 Nov 2009 16:28:30 +0960", 1258820910LL },
	{ "Sat, 21 Nov 2009 16:28 +0100", 1258817280LL },
	{ "21 Nov 99 16:28:30 PST", 943230510LL },
	{ "Sat, 21 Nov 2009 16:28:30 XYZ", 1258820910LL },
	{ "Wed, 17 Nov 2010 01:53:35 +0100 (CET)", 1289955215LL },
	{ "Tue, 1 Jan 2999 00:00:00 +0000", 32472144000LL },
	{ "Thu, 29 Feb 2024 12:00:00 CEST", 1709200800LL },
	{ "Mon, 14 Feb 2011 13:56:06 +0109", 1297687626LL },
	{ "2018-12-21T10:00:00Z", 1545386400LL },
	{ "Mon, 1 Jan 1968 00:00:00 +0000", -63158400LL },
	{ "Wed, 31 Dec 1969 23:59:59 -0000", -1LL },
};

/* Garbage, including patchwork's fuzz cases: no date, never "now". */
static const char *const bad[] = {
	"",
	"   ",
	"Wg>",
	"garbage",
	"Thu Jan 01 00:00:10 +0000",
	"Wed, 4 Jun 2014 17:50:\xef\xbf\xbd",
	"Wed, 4 Jun 207777777777777777777714 17:50:46 0",
	"Mon, 23 Jan 2017 09:16n device */",
	", 11 Sep 2016 23:20407080403080105:04 +0100",
	"on, 9:35 -0800",
	"Fri, 30 Feb 2021 10:00:00 +0000",
	"Fri, 12 Feb 2021 25:00:00 +0000",
	"2021-13-01",
};

/* Counts Date: headers in one mbox and how many fail or look insane. */
static void
count_file(const char *path, size_t *total, size_t *failed, size_t *insane)
{
	struct mlq_buf b;
	struct tmail *m;
	size_t len, n, i;
	int64_t t;
	char *data;

	if ((data = tmail_read(path, &len)) == NULL) {
		diag("cannot read %s", path);
		(*failed)++;
		return;
	}
	mlq_buf_init(&b);
	m = tmail_split_mbox(data, len, &n);
	for (i = 0; i < n; i++) {
		if (!tmail_header(&m[i], "Date", &b))
			continue;
		(*total)++;
		if (!mlq_date_parse(b.data, &t)) {
			diag("unparsed: %s", b.data);
			(*failed)++;
		} else if (t < 946684800LL || t > 1893456000LL) {
			/* outside 2000..2030 */
			diag("odd: %s", b.data);
			(*insane)++;
		}
	}
	free(m);
	free(data);
	mlq_buf_release(&b);
}

static void
corpus_counts(const char *shared)
{
	static const char *const files[] = { "encoding-edge", "iwl-2021-04",
		"lak-2019-11-wk1", "nfs-2021-04", "tags-and-reverts",
		"umn-2019-2021" };
	size_t total = 0, failed = 0, insane = 0, i;
	char path[4096];

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/corpus/lists/%s.mbox", shared,
		    files[i]);
		count_file(path, &total, &failed, &insane);
	}
	is_int((long long)total, 4610, "corpus lists: Date: headers seen");
	is_int((long long)failed, 0, "corpus lists: Date: headers unparsed");
	is_int((long long)insane, 0, "corpus lists: dates outside 2000-2030");
}

static void
seed_date(const char *shared)
{
	char path[4096];
	struct mlq_buf b;
	struct tmail m;
	size_t len;
	int64_t t = 0;
	char *data;

	snprintf(path, sizeof(path),
	    "%s/seeds/010-patch-sunrpc-add-a-check-for-gss-release-msg.patch",
	    shared);
	if ((data = tmail_read(path, &len)) == NULL) {
		ok(0, "read seeds/010");
		return;
	}
	mlq_buf_init(&b);
	tmail_one(data, len, &m);
	ok(tmail_header(&m, "Date", &b), "seeds/010 has a Date:");
	ok(mlq_date_parse(b.data, &t), "seeds/010 Date: parses");
	is_int(t, 1617754616LL, "seeds/010 Date: %s", b.data);
	mlq_buf_release(&b);
	free(data);
}

static void
formats(void)
{
	char out[32];

	mlq_date_format_rfc3339(1617754616LL, out, sizeof(out));
	is_str(out, "2021-04-07T00:16:56Z", "format: seed date in UTC");
	mlq_date_format_rfc3339(0, out, sizeof(out));
	is_str(out, "1970-01-01T00:00:00Z", "format: epoch");
	mlq_date_format_rfc3339(-1, out, sizeof(out));
	is_str(out, "1969-12-31T23:59:59Z", "format: before the epoch");
	mlq_date_format_rfc3339(951782400LL, out, sizeof(out));
	is_str(out, "2000-02-29T00:00:00Z", "format: leap day 2000");
	mlq_date_format_rfc3339(32472144000LL, out, sizeof(out));
	is_str(out, "2999-01-01T00:00:00Z", "format: far future kept");
	mlq_date_format_rfc3339(4102444799LL, out, sizeof(out));
	is_str(out, "2099-12-31T23:59:59Z", "format: end of a century");
	mlq_date_format_rfc3339(-62167219200LL - 5, out, sizeof(out));
	is_str(out, "0000-01-01T00:00:00Z", "format: clamped to year 0");
}

static void
args(void)
{
	const int64_t now = 1617754616LL;
	int64_t t = 0;

	ok(mlq_date_parse_arg("2021-04-06", now, &t), "arg: YYYY-MM-DD");
	is_int(t, 1617667200LL, "arg: UTC midnight");
	ok(mlq_date_parse_arg("7d", now, &t), "arg: 7d");
	is_int(t, now - 7 * 86400LL, "arg: 7 days back");
	ok(mlq_date_parse_arg("2w", now, &t), "arg: 2w");
	is_int(t, now - 14 * 86400LL, "arg: 2 weeks back");
	ok(mlq_date_parse_arg("3m", now, &t), "arg: 3m");
	is_int(t, now - 90 * 86400LL, "arg: 3 months are 90 days");
	ok(mlq_date_parse_arg("1y", now, &t), "arg: 1y");
	is_int(t, now - 365 * 86400LL, "arg: a year is 365 days");
	ok(!mlq_date_parse_arg("", now, &t), "arg: empty refused");
	ok(!mlq_date_parse_arg("7", now, &t), "arg: no unit refused");
	ok(!mlq_date_parse_arg("7x", now, &t), "arg: unknown unit refused");
	ok(!mlq_date_parse_arg("d", now, &t), "arg: no count refused");
	ok(!mlq_date_parse_arg("7dd", now, &t), "arg: trailing junk refused");
	ok(!mlq_date_parse_arg("2021-02-30", now, &t), "arg: bad day refused");
	ok(!mlq_date_parse_arg("2021-4-6", now, &t),
	    "arg: short fields refused");
	ok(!mlq_date_parse_arg("9999999d", now, &t), "arg: huge count refused");
}

int
main(void)
{
	const char *shared;
	size_t i;
	int64_t t;

	shared = tap_shared_dir();
	if (shared == NULL)
		plan_skip_all("../shared (seeds, corpus) is missing");
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		t = 0;
		ok(mlq_date_parse(good[i].s, &t), "parses: %s", good[i].s);
		is_int(t, good[i].want, "value: %s", good[i].s);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t = 42;
		ok(!mlq_date_parse(bad[i], &t), "refused: '%s'", bad[i]);
		is_int(t, 42, "refused date leaves the output alone");
	}
	ok(!mlq_date_parse(NULL, &t), "NULL refused");
	formats();
	args();
	seed_date(shared);
	corpus_counts(shared);
	return done_testing();
}
