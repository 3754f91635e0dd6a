#include "config.h"

#include <stdio.h>
#include <string.h>

#include "mlq-int.h"

/*
 * Dates as lists really send them.  Rather than one RFC 5322 grammar, the
 * parser reads tokens in any order (weekday, day, month name, year, time,
 * zone, comment) and fills the fields it recognises, because clients
 * shuffle them: "Tue,  6 Apr 2021 19:16:56 -0500", "Fri Dec 21 10:00:00
 * 2018 +0100", "Mon, Apr 29, 2019 at 07:35:24", "Wed 29 May 2019 06:09:22
 * PM EDT".  A result needs a day, a month and a year; anything it cannot
 * read as one of the tokens makes the whole date invalid.
 */

/* The fields read so far; the offset is in minutes east of UTC. */
struct date_parts {
	int year, mon, day;
	int hour, min, sec;
	int off;
	int year_digits;
	bool have_year, have_mon, have_day, have_time;
	bool have_offset; /* numeric zone: beats a zone name */
	bool have_zname;
	int ampm; /* 0 none, 1 AM, 2 PM */
};

struct date_zone {
	const char *name;
	int off; /* minutes east of UTC */
};

/* Names seen on lists; an unknown name counts as UTC. */
static const struct date_zone date_zones[] = {
	{ "ut", 0 },
	{ "utc", 0 },
	{ "gmt", 0 },
	{ "z", 0 },
	{ "wet", 0 },
	{ "west", 60 },
	{ "bst", 60 },
	{ "cet", 60 },
	{ "cest", 120 },
	{ "met", 60 },
	{ "mest", 120 },
	{ "eet", 120 },
	{ "eest", 180 },
	{ "msk", 180 },
	{ "eat", 180 },
	{ "ist", 330 },
	{ "sgt", 480 },
	{ "hkt", 480 },
	{ "awst", 480 },
	{ "jst", 540 },
	{ "kst", 540 },
	{ "acst", 570 },
	{ "aest", 600 },
	{ "aedt", 660 },
	{ "nzst", 720 },
	{ "nzdt", 780 },
	{ "est", -300 },
	{ "edt", -240 },
	{ "cst", -360 },
	{ "cdt", -300 },
	{ "mst", -420 },
	{ "mdt", -360 },
	{ "pst", -480 },
	{ "pdt", -420 },
	{ "akst", -540 },
	{ "akdt", -480 },
	{ "hst", -600 },
};

static const char *const date_months[] = { "january", "february", "march",
	"april", "may", "june", "july", "august", "september", "october",
	"november", "december" };

static const char *const date_wdays[] = { "monday", "tuesday", "wednesday",
	"thursday", "friday", "saturday", "sunday" };

/* Days before the first of each month in a common year. */
static const int date_cum_days[12] = { 0, 31, 59, 90, 120, 151, 181, 212, 243,
	273, 304, 334 };

static bool
date_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool
date_is_alpha(char c)
{
	c = mlq__lower(c);
	return c >= 'a' && c <= 'z';
}

/* Floor division, so that dates before 1970 come out right. */
static int64_t
date_fdiv(int64_t a, int64_t b)
{
	return (a >= 0) ? a / b : -((-a + b - 1) / b);
}

static bool
date_is_leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Leap years in 1..y of the proleptic Gregorian calendar (negative ok). */
static int64_t
date_leaps_upto(int64_t y)
{
	return date_fdiv(y, 4) - date_fdiv(y, 100) + date_fdiv(y, 400);
}

/* Days from 1970-01-01 to y-m-d; our own arithmetic, independent of TZ. */
int64_t
mlq_date_days_from_civil(int64_t y, int m, int d)
{
	int64_t days;

	days =
	    365 * (y - 1970) + date_leaps_upto(y - 1) - date_leaps_upto(1969);
	days += date_cum_days[m - 1] + (m > 2 && date_is_leap(y)) + d - 1;
	return days;
}

static int
date_month_days(int64_t y, int m)
{
	static const int len[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30,
		31 };

	return len[m - 1] + (m == 2 && date_is_leap(y));
}

/* Reads up to max digits; returns how many there were (0: none). */
static int
date_digits(const char **pp, int max, int *out)
{
	const char *p = *pp;
	int n = 0, v = 0;

	while (date_is_digit(*p) && n < max) {
		v = v * 10 + (*p - '0');
		p++;
		n++;
	}
	*pp = p;
	*out = v;
	return n;
}

/* Skips a (possibly nested) comment; an unclosed one runs to the end. */
static const char *
date_skip_comment(const char *p)
{
	int depth = 0;

	for (; *p != '\0'; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			return p + 1;
	}
	return p;
}

/*
 * "+hhmm", "+hh:mm" or "+hh".  An offset past +-14:00 or with minutes
 * >= 60 (+2000, +0960) is a broken clock, not a place: it counts as UTC.
 */
static const char *
date_offset(const char *p, struct date_parts *d)
{
	int sign = (*p == '-') ? -1 : 1, n, hh, mm = 0;

	p++;
	n = date_digits(&p, 4, &hh);
	if (n == 4) {
		mm = hh % 100;
		hh /= 100;
	} else if (n <= 2 && *p == ':' && date_is_digit(p[1])) {
		p++;
		if (date_digits(&p, 2, &mm) != 2)
			mm = 60;
	} else if (n == 3) {
		hh = 99;
	}
	while (date_is_digit(*p))
		p++, hh = 99;
	d->off = (hh <= 14 && mm < 60) ? sign * (hh * 60 + mm) : 0;
	d->have_offset = true;
	return p;
}

/* "h:mm", "hh:mm:ss", "hh:mm:ss.frac"; NULL when malformed. */
static const char *
date_time(const char *p, struct date_parts *d)
{
	if (date_digits(&p, 2, &d->hour) == 0 || *p++ != ':')
		return NULL;
	if (date_digits(&p, 2, &d->min) != 2)
		return NULL;
	d->sec = 0;
	if (*p == ':') {
		p++;
		if (date_digits(&p, 2, &d->sec) != 2)
			return NULL;
		if (*p == '.' && date_is_digit(p[1]))
			for (p++; date_is_digit(*p); p++)
				;
	}
	/* ISO 8601 glues its "Z" (UTC) to the time. */
	if ((*p == 'Z' || *p == 'z') && !date_is_alpha(p[1]))
		p++;
	if (d->have_time || date_is_alpha(*p) || date_is_digit(*p))
		return NULL;
	d->have_time = true;
	return p;
}

/* A bare number: day first, then year (the git form puts the day first too). */
static const char *
date_number(const char *p, struct date_parts *d)
{
	int n, v;

	n = date_digits(&p, 5, &v);
	if (date_is_alpha(*p) || date_is_digit(*p))
		return NULL;
	if (n >= 3) {
		if (d->have_year || n > 4)
			return NULL;
		d->year = v, d->year_digits = n, d->have_year = true;
	} else if (!d->have_day) {
		d->day = v, d->have_day = true;
	} else if (!d->have_year) {
		d->year = v, d->year_digits = n, d->have_year = true;
	} else {
		return NULL;
	}
	return p;
}

/* Is word (n bytes) a prefix of full, at least 3 letters long? */
static bool
date_word_is(const char *w, size_t n, const char *full)
{
	size_t i;

	if (n < 3 || n > strlen(full))
		return false;
	for (i = 0; i < n; i++)
		if (mlq__lower(w[i]) != full[i])
			return false;
	return true;
}

static bool
date_word_eq(const char *w, size_t n, const char *lower)
{
	return strlen(lower) == n && mlq_text_has_prefix_ci(w, n, lower);
}

/* Month, weekday, AM/PM, "at", zone name; other words are ignored. */
static bool
date_word(const char *w, size_t n, struct date_parts *d)
{
	size_t i;

	for (i = 0; i < MLQ__ARRAY_SIZE(date_months); i++) {
		if (date_word_is(w, n, date_months[i])) {
			if (d->have_mon)
				return false;
			d->mon = (int)i + 1, d->have_mon = true;
			return true;
		}
	}
	for (i = 0; i < MLQ__ARRAY_SIZE(date_wdays); i++)
		if (date_word_is(w, n, date_wdays[i]))
			return true;
	if (date_word_eq(w, n, "am") || date_word_eq(w, n, "pm")) {
		d->ampm = (mlq__lower(w[0]) == 'a') ? 1 : 2;
		return true;
	}
	for (i = 0; i < MLQ__ARRAY_SIZE(date_zones); i++) {
		if (date_word_eq(w, n, date_zones[i].name)) {
			if (!d->have_offset)
				d->off = date_zones[i].off;
			d->have_zname = true;
			return true;
		}
	}
	return true;
}

/* Reads the tokens of s into d; false on anything unreadable. */
static bool
date_tokens(const char *p, struct date_parts *d)
{
	const char *w;

	while (*p != '\0') {
		if (strchr(" \t\r\n,/.", *p) != NULL) {
			p++;
		} else if (*p == '(') {
			p = date_skip_comment(p);
		} else if ((*p == '+' || *p == '-') && date_is_digit(p[1]) &&
		    d->have_time && !d->have_offset) {
			p = date_offset(p, d);
		} else if (*p == '-') {
			p++;
		} else if (date_is_digit(*p)) {
			w = p;
			while (date_is_digit(*w))
				w++;
			p = (*w == ':') ? date_time(p, d) : date_number(p, d);
			if (p == NULL)
				return false;
		} else if (date_is_alpha(*p)) {
			for (w = p; date_is_alpha(*w); w++)
				;
			if (!date_word(p, (size_t)(w - p), d))
				return false;
			p = w;
		} else {
			return false;
		}
	}
	return true;
}

/* "2018-12-21", then an optional time and zone ("T10:00:00Z", " 10:00 +0100"). */
static bool
date_iso(const char *p, struct date_parts *d)
{
	if (date_digits(&p, 4, &d->year) != 4 || *p++ != '-' ||
	    date_digits(&p, 2, &d->mon) != 2 || *p++ != '-' ||
	    date_digits(&p, 2, &d->day) != 2)
		return false;
	d->year_digits = 4;
	d->have_year = d->have_mon = d->have_day = true;
	if (*p == 'T' || *p == 't')
		p++;
	else if (*p != '\0' && *p != ' ' && *p != '\t')
		return false;
	return date_tokens(p, d);
}

static bool
date_looks_iso(const char *p)
{
	int i;

	for (i = 0; i < 4; i++)
		if (!date_is_digit(p[i]))
			return false;
	return p[4] == '-' && date_is_digit(p[5]);
}

/* Two-digit years: < 50 is 20xx, else 19xx; three digits are 1900+. */
static bool
date_settle(struct date_parts *d)
{
	if (!d->have_year || !d->have_mon || !d->have_day)
		return false;
	if (d->year_digits <= 2)
		d->year += (d->year < 50) ? 2000 : 1900;
	else if (d->year_digits == 3)
		d->year += 1900;
	if (d->ampm == 2 && d->hour < 12)
		d->hour += 12;
	else if (d->ampm == 1 && d->hour == 12)
		d->hour = 0;
	return d->year >= 1 && d->mon >= 1 && d->mon <= 12 && d->day >= 1 &&
	    d->day <= date_month_days(d->year, d->mon) && d->hour <= 23 &&
	    d->min <= 59 && d->sec <= 60;
}

bool
mlq_date_parse(const char *s, int64_t *utc)
{
	struct date_parts d;
	bool ok;

	if (s == NULL)
		return false;
	memset(&d, 0, sizeof(d));
	while (*s == ' ' || *s == '\t')
		s++;
	ok = date_looks_iso(s) ? date_iso(s, &d) : date_tokens(s, &d);
	if (!ok || !date_settle(&d))
		return false;
	*utc = mlq_date_days_from_civil(d.year, d.mon, d.day) * 86400 +
	    d.hour * 3600 + d.min * 60 + d.sec - (int64_t)d.off * 60;
	return true;
}

/* Years 0000..9999 fit the format; times outside are clamped to them. */
#define DATE_MIN_UTC (-62167219200LL) /* 0000-01-01T00:00:00Z */
#define DATE_MAX_UTC 253402300799LL   /* 9999-12-31T23:59:59Z */

void
mlq_date_format_rfc3339(int64_t utc, char *out, size_t outlen)
{
	int64_t days, secs, y;
	int m;

	if (utc < DATE_MIN_UTC)
		utc = DATE_MIN_UTC;
	if (utc > DATE_MAX_UTC)
		utc = DATE_MAX_UTC;
	days = date_fdiv(utc, 86400);
	secs = utc - days * 86400;
	/* 146097 days per 400 years: the estimate is off by at most one. */
	y = 1970 + date_fdiv(days * 400, 146097);
	while (mlq_date_days_from_civil(y, 1, 1) > days)
		y--;
	while (mlq_date_days_from_civil(y + 1, 1, 1) <= days)
		y++;
	for (m = 12; mlq_date_days_from_civil(y, m, 1) > days; m--)
		;
	snprintf(out, outlen, "%04d-%02d-%02dT%02d:%02d:%02dZ", (int)y, m,
	    (int)(days - mlq_date_days_from_civil(y, m, 1) + 1),
	    (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60));
}

/* Relative counts beyond this are typos, and would overflow. */
#define DATE_ARG_MAX 100000

/* git's approxidate, the forms people type: "2.weeks.ago", "3 days ago". */
static bool
date_approx(const char *s, int64_t now, int64_t *utc)
{
	static const struct {
		const char *name;
		int64_t seconds;
	} units[] = {
		{ "second", 1 }, { "minute", 60 }, { "hour", 3600 },
		{ "day", 86400 }, { "week", 7 * 86400 },
		{ "month", 30 * 86400 }, { "year", 365 * 86400 },
	};
	const char *p = s, *w;
	size_t i, n;
	int count;

	if (strcmp(s, "now") == 0 || strcmp(s, "today") == 0) {
		*utc = strcmp(s, "now") == 0 ? now : now - now % 86400;
		return true;
	}
	if (strcmp(s, "yesterday") == 0) {
		*utc = now - now % 86400 - 86400;
		return true;
	}
	if (date_digits(&p, 6, &count) == 0 || count > DATE_ARG_MAX ||
	    (*p != '.' && *p != ' '))
		return false;
	w = ++p;
	while (*p >= 'a' && *p <= 'z')
		p++;
	n = (size_t)(p - w);
	if (n > 0 && w[n - 1] == 's')
		n--;
	if ((*p != '.' && *p != ' ') || strcmp(p + 1, "ago") != 0)
		return false;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == n &&
		    strncmp(units[i].name, w, n) == 0) {
			*utc = now - (int64_t)count * units[i].seconds;
			return true;
		}
	return false;
}

bool
mlq_date_parse_arg(const char *s, int64_t now, int64_t *utc)
{
	const char *p = s;
	int n, y, m, d;
	int64_t unit;

	if (s == NULL)
		return false;
	if (date_digits(&p, 4, &y) == 4 && (*p == '-' || p[0] != '\0')) {
		bool dashes = *p == '-';

		if (dashes)
			p++;
		if (date_digits(&p, 2, &m) != 2 || (dashes && *p++ != '-') ||
		    date_digits(&p, 2, &d) != 2 || *p != '\0')
			goto relative;
		if (y < 1 || m < 1 || m > 12 || d < 1 ||
		    d > date_month_days(y, m))
			return false;
		*utc = mlq_date_days_from_civil(y, m, d) * 86400;
		return true;
	}
relative:
	if (date_approx(s, now, utc))
		return true;
	p = s;
	if (date_digits(&p, 6, &n) == 0 || n > DATE_ARG_MAX || p[0] == '\0' ||
	    p[1] != '\0')
		return false;
	switch (*p) {
	case 'd':
		unit = 1;
		break;
	case 'w':
		unit = 7;
		break;
	case 'm':
		unit = 30;
		break;
	case 'y':
		unit = 365;
		break;
	default:
		return false;
	}
	*utc = now - (int64_t)n * unit * 86400;
	return true;
}
