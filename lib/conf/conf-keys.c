/*
 * Every config key, its type, range and default, in one table (tmux's
 * options-table.c); conf.c's reader feeds it.
 */
#include "config.h"

#include <netdb.h>
#include <pwd.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "mlq-int.h"

enum conf_type {
	CONF_STRING,
	CONF_SOURCE_URL, /* http(s)://, imap(s)://, file:// or a path */
	CONF_SMTP_URL,	 /* smtp:// or smtps:// */
	CONF_DURATION,	 /* 30s, 5m, 1h, 2d, 1w; int64_t seconds */
	CONF_BOOL,
	CONF_INT,
	CONF_PATH,     /* ~ expanded, relative to the config's directory */
	CONF_EMAIL,    /* one address */
	CONF_EMAILS,   /* addresses, repeatable and comma-separated */
	CONF_WATCH,    /* domains or addresses, likewise */
	CONF_SCHEDULE, /* "daily HH:MM", "weekly mon HH:MM", "off" */
	CONF_SINCE,    /* YYYY-MM-DD or "all"; int64_t UTC seconds, 0 = all */
	CONF_NAME,     /* a list name: letters, digits, '.', '_', '-' */
	CONF_LINK,     /* an http(s) URL with one %s for the Message-Id */
	CONF_REFS,     /* git ref names, repeatable and blank-separated */
};

enum conf_sect {
	SECT_DATABASE,
	SECT_DAEMON,
	SECT_SOURCE,
	SECT_DIGEST,
	SECT_IDENTITY,
	SECT_REPO,
	SECT_COUNT
};

struct conf_section {
	const char *name;
	bool named; /* [source "NAME"] */
};

static const struct conf_section conf_sections[SECT_COUNT] = {
	[SECT_DATABASE] = { "database", false },
	[SECT_DAEMON] = { "daemon", false },
	[SECT_SOURCE] = { "source", true },
	[SECT_DIGEST] = { "digest", false },
	[SECT_IDENTITY] = { "identity", false },
	[SECT_REPO] = { "repo", true },
};

struct conf_key {
	enum conf_sect sect;
	const char *key;
	enum conf_type type;
	int64_t min, max;
	const char *def; /* parsed like a value when the section starts */
	const char *help;
	size_t off;  /* in the section's struct */
	size_t noff; /* CONF_EMAILS/CONF_WATCH: the count's offset */
	bool top;    /* off is in struct mlq_conf whatever the section */
};

#define C_(f) offsetof(struct mlq_conf, f)
#define S_(f) offsetof(struct mlq_conf_source, f)
#define D_(f) offsetof(struct mlq_conf_digest, f)
#define R_(f) offsetof(struct mlq_conf_repo, f)
#define WEEK  (7 * 86400)

static const struct conf_key conf_keys[] = {
	{ SECT_DATABASE, "path", CONF_PATH, 0, 0, NULL, "the database file",
	    C_(db_path), 0, false },
	{ SECT_DAEMON, "pidfile", CONF_PATH, 0, 0, NULL,
	    "where mlqd writes its pid", C_(pidfile), 0, false },
	{ SECT_SOURCE, "url", CONF_SOURCE_URL, 0, 0, NULL, "where to poll",
	    S_(url), 0, false },
	{ SECT_SOURCE, "interval", CONF_DURATION, 1, WEEK, "5m",
	    "how often to poll", S_(interval), 0, false },
	{ SECT_SOURCE, "since", CONF_SINCE, 0, 0, "all",
	    "where the first backfill starts (a remote server: 30 days back)",
	    S_(since), 0, false },
	{ SECT_SOURCE, "list", CONF_NAME, 0, 0, NULL,
	    "list name stored with the mail (default: the source's name)",
	    S_(list), 0, false },
	{ SECT_SOURCE, "tls-ca", CONF_PATH, 0, 0, NULL,
	    "PEM file of the CAs to trust instead of the system's", S_(tls_ca),
	    0, false },
	{ SECT_SOURCE, "tls-verify", CONF_BOOL, 0, 0, "yes",
	    "check the server's certificate (no: a warning at each connect)",
	    S_(tls_verify), 0, false },
	{ SECT_SOURCE, "link", CONF_LINK, 0, 0, NULL,
	    "a message's URL, %s its Message-Id (default: the source's own "
	    "where it is a public-inbox)",
	    S_(link), 0, false },
	{ SECT_SOURCE, "user", CONF_STRING, 0, 0, NULL,
	    "login name; the password is in the secrets file", S_(user), 0,
	    false },
	{ SECT_DIGEST, "schedule", CONF_SCHEDULE, 0, 0, "off",
	    "when mlqd mails the digest (local time)", D_(schedule), 0, false },
	{ SECT_DIGEST, "to", CONF_EMAILS, 0, 0, NULL, "digest recipients",
	    D_(to), D_(nto), false },
	{ SECT_DIGEST, "watch", CONF_WATCH, 0, 0, NULL,
	    "domains and addresses the digest reports on", D_(watch),
	    D_(nwatch), false },
	{ SECT_DIGEST, "from", CONF_EMAIL, 0, 0, NULL, "the digest's sender",
	    D_(from), 0, false },
	{ SECT_DIGEST, "smtp", CONF_SMTP_URL, 0, 0, NULL, "the mail server",
	    D_(smtp), 0, false },
	{ SECT_DIGEST, "smtp-starttls", CONF_BOOL, 0, 0, "yes",
	    "use STARTTLS on smtp://", D_(smtp_starttls), 0, false },
	{ SECT_DIGEST, "tls-ca", CONF_PATH, 0, 0, NULL,
	    "PEM file of the CAs to trust for smtp instead of the system's",
	    D_(tls_ca), 0, false },
	{ SECT_DIGEST, "tls-verify", CONF_BOOL, 0, 0, "yes",
	    "check the mail server's certificate (no: a warning at each send)",
	    D_(tls_verify), 0, false },
	{ SECT_DIGEST, "link", CONF_LINK, 0, 0, NULL,
	    "a message's URL where its source gives none, %s its Message-Id",
	    D_(link), 0, false },
	{ SECT_DIGEST, "smtp-user", CONF_STRING, 0, 0, NULL, "SMTP login name",
	    D_(smtp_user), 0, false },
	{ SECT_DIGEST, "secrets", CONF_PATH, 0, 0, NULL,
	    "file of passwords (mode 0600)", C_(secrets), 0, true },
	{ SECT_DIGEST, "unreviewed-days", CONF_INT, 1, 365, "14",
	    "a submission without review for this long is reported",
	    D_(unreviewed_days), 0, false },
	{ SECT_IDENTITY, "name", CONF_STRING, 0, 0, NULL,
	    "who `mlq mark` records, as 'Name <address>'", C_(identity), 0,
	    false },
	{ SECT_IDENTITY, "mailmap", CONF_PATH, 0, 0, NULL,
	    "a git .mailmap: each author as the person it maps to",
	    C_(mailmap), 0, false },
	{ SECT_REPO, "path", CONF_PATH, 0, 0, NULL,
	    "a local git clone; mlq never fetches it", R_(path), 0, false },
	{ SECT_REPO, "branch", CONF_REFS, 0, 0, NULL,
	    "refs to follow, several allowed (master, origin/master)",
	    R_(branches), R_(nbranches), false },
	{ SECT_REPO, "since", CONF_SINCE, 0, 0, "all",
	    "older commits are not read", R_(since), 0, false },
	{ SECT_REPO, "interval", CONF_DURATION, 1, WEEK, "5m",
	    "how often to look at the refs", R_(interval), 0, false },
};

#define CONF_NKEYS MLQ__ARRAY_SIZE(conf_keys)

struct conf_build {
	struct mlq_conf *c;
	enum conf_sect sect; /* the current section */
	void *base;	     /* the struct its keys go to */
	const char *sub;
	unsigned line;		  /* of the current section header */
	uint64_t seen;		  /* keys of conf_keys[] set in this section */
	unsigned sections_seen;	  /* bit per unnamed section */
	const char *secrets_file; /* where 'secrets' was set, for messages */
	unsigned secrets_line;
	struct mlq__conf_errs *errs; /* a check of the whole file */
};

/* "[source "lkml"]" or "[digest]" into b. */
static void
conf_sect_label(struct mlq_buf *b, const char *sect, const char *sub)
{
	mlq_buf_reset(b);
	if (sub != NULL)
		mlq_buf_addf(b, "[%s \"%s\"]", sect, sub);
	else
		mlq_buf_addf(b, "[%s]", sect);
}

/* "FILE:LINE: [SECT]: KEY: WHY", or without KEY for the section. */
static enum mlq_status
conf_fail(struct mlq_err *err, const struct mlq__conf_item *it, const char *why)
{
	struct mlq_buf b;
	enum mlq_status st;

	mlq_buf_init(&b);
	conf_sect_label(&b, it->section, it->sub);
	if (it->key != NULL)
		st = mlq_err_set(err, MLQ_EINPUT, "%s:%u: %s: %s: %s", it->file,
		    it->line, b.data, it->key, why);
	else
		st = mlq_err_set(err, MLQ_EINPUT, "%s:%u: %s: %s", it->file,
		    it->line, b.data, why);
	mlq_buf_release(&b);
	return st;
}

/* "90" -> "1m30s"-ish, for range messages: the largest whole unit. */
static void
conf_fmt_duration(char *out, size_t len, int64_t s)
{
	static const struct {
		char unit;
		int64_t secs;
	} units[] = { { 'w', WEEK }, { 'd', 86400 }, { 'h', 3600 },
		{ 'm', 60 } };
	size_t i;

	for (i = 0; i < MLQ__ARRAY_SIZE(units); i++)
		if (s != 0 && s % units[i].secs == 0) {
			snprintf(out, len, "%lld%c",
			    (long long)(s / units[i].secs), units[i].unit);
			return;
		}
	snprintf(out, len, "%llds", (long long)s);
}

/* Digits only, at most 'max'; false on anything else or overflow. */
static bool
conf_number(const char *s, size_t n, int64_t max, int64_t *out)
{
	int64_t v = 0;
	size_t i;

	if (n == 0)
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (v > (max - (s[i] - '0')) / 10)
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

static bool
conf_parse_duration(const char *s, int64_t *out)
{
	size_t n = strlen(s);
	int64_t mult = 1, v;

	if (n == 0)
		return false;
	switch (s[n - 1]) {
	case 's':
		n--;
		break;
	case 'm':
		mult = 60, n--;
		break;
	case 'h':
		mult = 3600, n--;
		break;
	case 'd':
		mult = 86400, n--;
		break;
	case 'w':
		mult = WEEK, n--;
		break;
	}
	if (!conf_number(s, n, INT64_MAX / WEEK, &v))
		return false;
	*out = v * mult;
	return true;
}

static bool
conf_parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	size_t i;

	for (i = 0; i < MLQ__ARRAY_SIZE(yes); i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*out = true;
			return true;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*out = false;
			return true;
		}
	}
	return false;
}

/* "all", or a day YYYY-MM-DD (UTC midnight) from 1970 on. */
static bool
conf_parse_since(const char *s, int64_t *out)
{
	if (strcmp(s, "all") == 0) {
		*out = 0;
		return true;
	}
	/* Only the absolute form: "7d" in a config would mean a moving date. */
	return strlen(s) == 10 && mlq_date_parse_arg(s, 0, out) && *out > 0;
}

static bool
conf_parse_hhmm(const char *s, struct mlq_conf_schedule *out)
{
	int64_t h, m;

	if (strlen(s) != 5 || s[2] != ':' || !conf_number(s, 2, 23, &h) ||
	    !conf_number(s + 3, 2, 59, &m))
		return false;
	out->hour = (int)h;
	out->minute = (int)m;
	return true;
}

static bool
conf_parse_schedule(const char *s, struct mlq_conf_schedule *out)
{
	static const char *const days[] = { "sun", "mon", "tue", "wed", "thu",
		"fri", "sat" };
	const char *sp, *sp2;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (strcmp(s, "off") == 0 || strcmp(s, "never") == 0)
		return true;
	if (strncmp(s, "daily ", 6) == 0) {
		out->kind = MLQ_SCHED_DAILY;
		return conf_parse_hhmm(s + 6, out);
	}
	if (strncmp(s, "weekly ", 7) != 0)
		return false;
	out->kind = MLQ_SCHED_WEEKLY;
	sp = s + 7;
	if ((sp2 = strchr(sp, ' ')) == NULL || sp2 - sp < 3)
		return false;
	for (i = 0; i < MLQ__ARRAY_SIZE(days); i++)
		if (strncasecmp(sp, days[i], 3) == 0)
			break;
	if (i == MLQ__ARRAY_SIZE(days))
		return false;
	out->wday = (int)i;
	return conf_parse_hhmm(sp2 + 1, out);
}

static bool
conf_is_domain(const char *s)
{
	size_t n = 0;

	if (*s == '\0' || *s == '.' || *s == '-')
		return false;
	for (; *s != '\0'; s++, n++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			(*s >= '0' && *s <= '9') || *s == '.' || *s == '-') ||
		    (*s == '.' && s[1] == '.'))
			return false;
	return s[-1] != '.' && n < 254;
}

/* local@domain: enough to catch typos, not an RFC 5321 parser. */
static bool
conf_is_email(const char *s)
{
	const char *at = strrchr(s, '@'), *p;

	if (at == NULL || at == s)
		return false;
	for (p = s; p < at; p++)
		if ((unsigned char)*p <= ' ' || *p == '<' || *p == '>' ||
		    *p == ',' || *p == '@' || *p == '"' || *p == 0x7f)
			return false;
	return conf_is_domain(at + 1);
}

static bool
conf_is_name(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++, n++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			(*s >= '0' && *s <= '9') || *s == '.' || *s == '_' ||
			*s == '-'))
			return false;
	return n > 0 && n <= 64;
}

/*
 * A ref as git check-ref-format allows it, with one level allowed
 * ("master"): no blank, control byte, ':', '?', '*', '[', '\', '^', '~',
 * "..", "@{" or "//", not '-' or '/' first, not '/', '.' or ".lock" last.
 */
static bool
conf_is_ref(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > 200 || s[0] == '-' || s[0] == '/' || s[0] == '.' ||
	    s[n - 1] == '/' || s[n - 1] == '.' ||
	    (n >= 5 && strcmp(s + n - 5, ".lock") == 0) || strcmp(s, "@") == 0)
		return false;
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f ||
		    strchr(":?*[\\^~", s[i]) != NULL)
			return false;
		if ((s[i] == '.' && s[i + 1] == '.') ||
		    (s[i] == '@' && s[i + 1] == '{') ||
		    (s[i] == '/' && (s[i + 1] == '/' || s[i + 1] == '.')))
			return false;
	}
	return true;
}

/* scheme://[user@]host[:port][/path]; NULL when fine, else why not. */
static const char *
conf_url_check(const char *v, const char *const *schemes, size_t nschemes,
    bool need_path)
{
	const char *rest = NULL, *host, *end, *at;
	size_t i, n;

	for (i = 0; i < nschemes; i++) {
		n = strlen(schemes[i]);
		if (strncmp(v, schemes[i], n) == 0 &&
		    strncmp(v + n, "://", 3) == 0) {
			rest = v + n + 3;
			break;
		}
	}
	if (rest == NULL)
		return "unsupported scheme";
	end = rest + strcspn(rest, "/?#");
	host = rest;
	at = memchr(rest, '@', (size_t)(end - rest));
	if (at != NULL) {
		if (memchr(rest, ':', (size_t)(at - rest)) != NULL)
			return "passwords belong in the secrets file, not in the url";
		host = at + 1;
	}
	if (host == end || *host == ':')
		return "no host";
	for (; *v != '\0'; v++)
		if ((unsigned char)*v <= ' ' || *v == 0x7f)
			return "blank or control character";
	if (need_path && (*end != '/' || end[1] == '\0'))
		return "no mailbox after the host";
	return NULL;
}

/* Appends one item of a list value to the section's array. */
static enum mlq_status
conf_list_add(struct conf_build *bd, const struct conf_key *k, const char *v,
    size_t n, struct mlq_err *err)
{
	const char ***arr = (const char ***)((char *)bd->base + k->off);
	size_t *cnt = (size_t *)((char *)bd->base + k->noff);
	const char **grown;
	char *s;
	size_t i;

	grown = mlq_arena_grow(bd->c->arena, (void *)*arr, *cnt, sizeof(**arr));
	if (grown == NULL ||
	    (s = mlq_arena_strndup(bd->c->arena, v, n)) == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "config: out of memory");
	for (i = 0; k->type != CONF_REFS && i < n; i++)
		s[i] = mlq__lower(s[i]);
	grown[(*cnt)++] = s;
	*arr = grown;
	return MLQ_OK;
}

/* "a@x, b@y" or "@umn.edu"; each item checked by its type. */
static enum mlq_status
conf_set_list(struct conf_build *bd, const struct conf_key *k,
    const struct mlq__conf_item *it, struct mlq_err *err)
{
	const char *p = it->value, *q, *e;
	char item[256];
	enum mlq_status st;
	bool good, any = false;
	size_t n;

	while (*p != '\0') {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '\0')
			break;
		q = p + strcspn(p, ", \t");
		n = (size_t)(q - p);
		if (n >= sizeof(item))
			return conf_fail(err, it, "item too long");
		memcpy(item, p, n);
		item[n] = '\0';
		if (k->type == CONF_REFS) {
			good = conf_is_ref(item);
		} else if (k->type == CONF_EMAILS) {
			good = conf_is_email(item);
		} else {
			e = item[0] == '@' ? item + 1 : item;
			good = strchr(item, '@') != NULL && item[0] != '@'
			    ? conf_is_email(item)
			    : conf_is_domain(e);
		}
		if (!good) {
			char why[320];

			snprintf(why, sizeof(why), "'%s' is not %s", item,
			    k->type == CONF_REFS     ? "a git ref name"
			    : k->type == CONF_EMAILS ? "an email address"
						     : "a domain or an address");
			return conf_fail(err, it, why);
		}
		if ((st = conf_list_add(bd, k, item, n, err)) != MLQ_OK)
			return st;
		any = true;
		p = q;
	}
	if (!any)
		return conf_fail(err, it, "empty value");
	return MLQ_OK;
}

/* Checks it->value against k and stores it in the section's struct. */
static enum mlq_status
conf_set(struct conf_build *bd, const struct conf_key *k,
    const struct mlq__conf_item *it, struct mlq_err *err)
{
	static const char *const web[] = { "https", "http", "imaps", "imap" };
	static const char *const smtp[] = { "smtps", "smtp" };
	void *dst = (char *)(k->top ? (void *)bd->c : bd->base) + k->off;
	const char *v = it->value, *why;
	char why_buf[200], lo[32], hi[32];
	int64_t n;
	bool b;

	if (k->type == CONF_EMAILS || k->type == CONF_WATCH ||
	    k->type == CONF_REFS)
		return conf_set_list(bd, k, it, err);
	if (*v == '\0')
		return conf_fail(err, it, "empty value");
	switch (k->type) {
	case CONF_DURATION:
		if (!conf_parse_duration(v, &n)) {
			snprintf(why_buf, sizeof(why_buf),
			    "'%s' is not a duration (such as 30s, 5m, 1h, 1d)",
			    v);
			return conf_fail(err, it, why_buf);
		}
		if (n < k->min || n > k->max) {
			conf_fmt_duration(lo, sizeof(lo), k->min);
			conf_fmt_duration(hi, sizeof(hi), k->max);
			snprintf(why_buf, sizeof(why_buf),
			    "'%s' is out of range %s..%s", v, lo, hi);
			return conf_fail(err, it, why_buf);
		}
		*(int64_t *)dst = n;
		return MLQ_OK;
	case CONF_INT:
		if (!conf_number(v, strlen(v), INT32_MAX, &n) || n < k->min ||
		    n > k->max) {
			snprintf(why_buf, sizeof(why_buf),
			    "'%s' is not a number in %lld..%lld", v,
			    (long long)k->min, (long long)k->max);
			return conf_fail(err, it, why_buf);
		}
		*(int *)dst = (int)n;
		return MLQ_OK;
	case CONF_BOOL:
		if (!conf_parse_bool(v, &b)) {
			snprintf(why_buf, sizeof(why_buf),
			    "'%s' is not yes or no", v);
			return conf_fail(err, it, why_buf);
		}
		*(bool *)dst = b;
		return MLQ_OK;
	case CONF_SINCE:
		if (!conf_parse_since(v, &n)) {
			snprintf(why_buf, sizeof(why_buf),
			    "'%s' is not YYYY-MM-DD or all", v);
			return conf_fail(err, it, why_buf);
		}
		*(int64_t *)dst = n;
		return MLQ_OK;
	case CONF_SCHEDULE:
		if (!conf_parse_schedule(v, dst)) {
			snprintf(why_buf, sizeof(why_buf),
			    "'%s' is not 'daily HH:MM', 'weekly DAY HH:MM' or off",
			    v);
			return conf_fail(err, it, why_buf);
		}
		return MLQ_OK;
	case CONF_EMAIL:
		if (!conf_is_email(v)) {
			snprintf(why_buf, sizeof(why_buf),
			    "'%s' is not an email address", v);
			return conf_fail(err, it, why_buf);
		}
		break;
	case CONF_NAME:
		if (!conf_is_name(v)) {
			snprintf(why_buf, sizeof(why_buf),
			    "'%s' is not a name (letters, digits, '.', '_', '-')",
			    v);
			return conf_fail(err, it, why_buf);
		}
		break;
	case CONF_SMTP_URL:
		if ((why = conf_url_check(v, smtp, 2, false)) != NULL) {
			snprintf(why_buf, sizeof(why_buf),
			    "'%.80s': %s (want smtp:// or smtps://)", v, why);
			return conf_fail(err, it, why_buf);
		}
		break;
	case CONF_SOURCE_URL:
		if (strncmp(v, "file://", 7) == 0) {
			v += 7;
		} else if (strstr(v, "://") != NULL) {
			why = conf_url_check(v, web, 4,
			    strncmp(v, "imap", 4) == 0);
			if (why == NULL)
				break;
			snprintf(why_buf, sizeof(why_buf),
			    "'%.80s': %s (want http(s)://, imap(s):// or a path)",
			    v, why);
			return conf_fail(err, it, why_buf);
		}
		/* Anything else is a local mbox or maildir. */
		/* FALLTHROUGH */
	case CONF_PATH:
		*(const char **)dst =
		    mlq__conf_path_expand(bd->c->arena, v, bd->c->path, &why);
		if (*(const char **)dst == NULL)
			return conf_fail(err, it, why);
		return MLQ_OK;
	case CONF_LINK:
		if ((strncmp(v, "https://", 8) != 0 &&
			strncmp(v, "http://", 7) != 0) ||
		    (why = strchr(v, '%')) == NULL || why[1] != 's' ||
		    strchr(why + 1, '%') != NULL) {
			snprintf(why_buf, sizeof(why_buf),
			    "'%.80s' is not an http(s) URL with one %%s for "
			    "the Message-Id", v);
			return conf_fail(err, it, why_buf);
		}
		/* FALLTHROUGH */
	case CONF_STRING:
		for (why = v; *why != '\0'; why++)
			if ((unsigned char)*why < ' ' || *why == 0x7f)
				return conf_fail(err, it,
				    "control character in value");
		break;
	case CONF_EMAILS:
	case CONF_WATCH:
	case CONF_REFS:
		break;
	}
	if ((*(const char **)dst = mlq_arena_strdup(bd->c->arena, v)) == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "config: out of memory");
	return MLQ_OK;
}

/* Applies the table's defaults for one section to bd->base. */
static enum mlq_status
conf_defaults(struct conf_build *bd, enum conf_sect sect, void *base,
    struct mlq_err *err)
{
	struct mlq__conf_item it = { "(defaults)", 0, NULL, NULL, NULL, NULL };
	enum mlq_status st;
	size_t i;

	bd->base = base;
	for (i = 0; i < CONF_NKEYS; i++) {
		if (conf_keys[i].sect != sect || conf_keys[i].def == NULL)
			continue;
		it.section = conf_sections[sect].name;
		it.key = conf_keys[i].key;
		it.value = conf_keys[i].def;
		if ((st = conf_set(bd, &conf_keys[i], &it, err)) != MLQ_OK)
			return st;
	}
	return MLQ_OK;
}

/*
 * Whether a source's server is someone else's: http(s) or imap(s) on a
 * host other than this one's loopback.  Polite defaults apply to it.
 */
static bool
conf_remote(const char *url)
{
	static const char *const local[] = { "localhost", "127.0.0.1", "[::1]" };
	const char *h, *end, *at;
	size_t i, n;

	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0 &&
	    strncmp(url, "imap://", 7) != 0 && strncmp(url, "imaps://", 8) != 0)
		return false;
	h = strstr(url, "://") + 3;
	end = h + strcspn(h, "/?#");
	if ((at = memchr(h, '@', (size_t)(end - h))) != NULL)
		h = at + 1;
	n = *h == '[' ? strcspn(h, "]") + 1 : strcspn(h, ":/?#");
	if (h + n > end)
		n = (size_t)(end - h);
	for (i = 0; i < sizeof(local) / sizeof(local[0]); i++)
		if (strlen(local[i]) == n && strncasecmp(h, local[i], n) == 0)
			return false;
	return !(n > 4 && strncmp(h, "127.", 4) == 0);
}

/* The polling floor for a server that is not ours. */
#define REMOTE_MIN_INTERVAL 60
/* Where a remote source's first backfill starts when 'since' is unset. */
#define REMOTE_DEFAULT_DAYS 30

/* A repo needs its tree and a ref to follow. */
static enum mlq_status
conf_repo_end(struct conf_build *bd, const char *file, struct mlq_err *err)
{
	struct mlq_conf_repo *r = bd->base;
	struct mlq__conf_item it = { file, bd->line, "repo", r->name, NULL,
		NULL };

	if (r->path == NULL)
		return conf_fail(err, &it, "missing key 'path'");
	if (r->nbranches == 0)
		return conf_fail(err, &it,
		    "missing key 'branch' (the refs to follow)");
	return MLQ_OK;
}

/* Keys the section must have, checked when it ends. */
static enum mlq_status
conf_section_end(struct conf_build *bd, const char *file, struct mlq_err *err)
{
	struct mlq_conf_source *src;
	struct mlq__conf_item it;
	size_t i;

	if (bd->base != NULL && bd->sect == SECT_REPO)
		return conf_repo_end(bd, file, err);
	if (bd->base == NULL || bd->sect != SECT_SOURCE)
		return MLQ_OK;
	src = bd->base;
	it = (struct mlq__conf_item){ file, bd->line, "source", src->name, NULL,
		NULL };
	if (src->url == NULL)
		return conf_fail(err, &it, "missing key 'url'");
	if (src->list == NULL)
		src->list = src->name;
	if (!(src->remote = conf_remote(src->url)))
		return MLQ_OK;
	/* lore asks its users not to hammer it, nor to pull whole archives
	 * over its search: a public-inbox mirror is for that. */
	if (src->interval < REMOTE_MIN_INTERVAL)
		return conf_fail(err, &it,
		    "interval: at least 1m for a server that is not this host's");
	for (i = 0; i < CONF_NKEYS; i++)
		if (conf_keys[i].sect == SECT_SOURCE &&
		    strcmp(conf_keys[i].key, "since") == 0)
			break;
	if (i < CONF_NKEYS && !(bd->seen & (UINT64_C(1) << i)))
		src->since = (int64_t)time(NULL) -
		    (int64_t)REMOTE_DEFAULT_DAYS * 86400;
	return MLQ_OK;
}

static enum mlq_status
conf_repo_new(struct conf_build *bd, const struct mlq__conf_item *it,
    struct mlq_err *err)
{
	struct mlq_conf *c = bd->c;
	struct mlq_conf_repo *grown;

	grown = mlq_arena_grow(c->arena, c->repos, c->nrepos,
	    sizeof(*c->repos));
	if (grown == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "config: out of memory");
	c->repos = grown;
	memset(&grown[c->nrepos], 0, sizeof(*grown));
	grown[c->nrepos].line = it->line;
	if ((grown[c->nrepos].name = mlq_arena_strdup(c->arena, it->sub)) ==
	    NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "config: out of memory");
	return conf_defaults(bd, SECT_REPO, &c->repos[c->nrepos++], err);
}

static enum mlq_status
conf_section(struct conf_build *bd, const struct mlq__conf_item *it,
    struct mlq_err *err)
{
	struct mlq_conf *c = bd->c;
	struct mlq_conf_source *grown;
	enum mlq_status st;
	size_t s;

	/* The section before ends whatever this one is. */
	st = conf_section_end(bd, it->file, err);
	bd->base = NULL;
	if ((st = mlq__conf_errs_take(bd->errs, st, err)) != MLQ_OK)
		return st;
	for (s = 0; s < SECT_COUNT; s++)
		if (strcmp(conf_sections[s].name, it->section) == 0)
			break;
	if (s == SECT_COUNT)
		return mlq_err_set(err, MLQ_EINPUT,
		    "%s:%u: unknown section [%s]", it->file, it->line,
		    it->section);
	if (conf_sections[s].named && it->sub == NULL)
		return mlq_err_set(err, MLQ_EINPUT,
		    "%s:%u: [%s] needs a name: [%s \"NAME\"]", it->file,
		    it->line, it->section, it->section);
	if (!conf_sections[s].named && it->sub != NULL)
		return mlq_err_set(err, MLQ_EINPUT, "%s:%u: [%s] takes no name",
		    it->file, it->line, it->section);
	bd->sect = (enum conf_sect)s;
	bd->line = it->line;
	bd->seen = 0;
	if (!conf_sections[s].named) {
		if (bd->sections_seen & (1u << s))
			return mlq_err_set(err, MLQ_EINPUT,
			    "%s:%u: duplicate section [%s]", it->file, it->line,
			    it->section);
		bd->sections_seen |= 1u << s;
		bd->base = s == SECT_DIGEST ? (void *)&c->digest : (void *)c;
		return MLQ_OK;
	}
	if (!conf_is_name(it->sub))
		return mlq_err_set(err, MLQ_EINPUT,
		    "%s:%u: [%s \"%s\"]: bad name (letters, digits, '.', '_', '-')",
		    it->file, it->line, it->section, it->sub);
	if ((s == SECT_SOURCE ? mlq_conf_source_find(c, it->sub) != NULL :
				mlq_conf_repo_find(c, it->sub) != NULL))
		return mlq_err_set(err, MLQ_EINPUT,
		    "%s:%u: duplicate section [%s \"%s\"]", it->file,
		    it->line, it->section, it->sub);
	/* A repo's state is kept under its name beside the sources'. */
	if (mlq_conf_source_find(c, it->sub) != NULL ||
	    mlq_conf_repo_find(c, it->sub) != NULL)
		return mlq_err_set(err, MLQ_EINPUT,
		    "%s:%u: [%s \"%s\"]: the name is taken by a [%s]",
		    it->file, it->line, it->section, it->sub,
		    s == SECT_SOURCE ? "repo" : "source");
	if (s == SECT_REPO)
		return conf_repo_new(bd, it, err);
	grown = mlq_arena_grow(c->arena, c->sources, c->nsources,
	    sizeof(*c->sources));
	if (grown == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "config: out of memory");
	c->sources = grown;
	memset(&grown[c->nsources], 0, sizeof(*grown));
	grown[c->nsources].line = it->line;
	if ((grown[c->nsources].name = mlq_arena_strdup(c->arena, it->sub)) ==
	    NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "config: out of memory");
	return conf_defaults(bd, SECT_SOURCE, &c->sources[c->nsources++], err);
}

static enum mlq_status
conf_item(const struct mlq__conf_item *it, void *arg, struct mlq_err *err)
{
	struct conf_build *bd = arg;
	const struct conf_key *k;
	size_t i;

	if (it->key == NULL)
		return conf_section(bd, it, err);
	for (i = 0; i < CONF_NKEYS; i++)
		if (conf_keys[i].sect == bd->sect &&
		    strcmp(conf_keys[i].key, it->key) == 0)
			break;
	if (i == CONF_NKEYS) {
		struct mlq__conf_item h = *it;
		char why[128];

		h.key = NULL;
		snprintf(why, sizeof(why), "unknown key '%s'", it->key);
		return conf_fail(err, &h, why);
	}
	k = &conf_keys[i];
	if ((bd->seen & (UINT64_C(1) << i)) && k->type != CONF_EMAILS &&
	    k->type != CONF_WATCH && k->type != CONF_REFS) {
		struct mlq__conf_item h = *it;
		char why[128];

		h.key = NULL;
		snprintf(why, sizeof(why), "duplicate key '%s'", it->key);
		return conf_fail(err, &h, why);
	}
	bd->seen |= UINT64_C(1) << i;
	if (strcmp(k->key, "secrets") == 0) {
		bd->secrets_file = it->file;
		bd->secrets_line = it->line;
		bd->c->secrets_set = true;
	}
	return conf_set(bd, k, it, err);
}

/*
 * [digest] from unset: the user at the host's fully qualified name, as
 * mail(1) and cron send; NULL where neither is known.  Only a digest that
 * is sent asks (a name lookup is not for every search).
 */
static const char *
conf_default_from(struct mlq_arena *a)
{
	struct addrinfo hints, *ai = NULL;
	const struct passwd *pw = getpwuid(getuid());
	const char *user = pw != NULL ? pw->pw_name : getenv("USER");
	const char *host;
	char name[256], *from = NULL;

	if (user == NULL || *user == '\0' || gethostname(name, sizeof(name)) != 0)
		return NULL;
	name[sizeof(name) - 1] = '\0';
	memset(&hints, 0, sizeof(hints));
	hints.ai_flags = AI_CANONNAME;
	host = name;
	if (strchr(name, '.') == NULL && getaddrinfo(name, NULL, &hints, &ai) == 0 &&
	    ai->ai_canonname != NULL && strchr(ai->ai_canonname, '.') != NULL)
		host = ai->ai_canonname;
	if (*host != '\0') {
		size_t n = strlen(user) + strlen(host) + 2;

		if ((from = mlq_arena_alloc(a, n)) != NULL)
			snprintf(from, n, "%s@%s", user, host);
	}
	if (ai != NULL)
		freeaddrinfo(ai);
	return from;
}

enum mlq_status
mlq__conf_build(struct mlq_conf *c, const char *text, size_t len,
    struct mlq__conf_errs *errs, struct mlq_err *err)
{
	struct conf_build bd;
	enum mlq_status st;
	struct mlq_err serr = { MLQ_OK, "" };

	memset(&bd, 0, sizeof(bd));
	bd.c = c;
	bd.errs = errs;
	if ((st = conf_defaults(&bd, SECT_DIGEST, &c->digest, err)) != MLQ_OK)
		return st;
	bd.base = NULL;
	st = mlq__conf_parse(c->path, text, len, conf_item, &bd, errs, err);
	if (st == MLQ_OK)
		st = mlq__conf_errs_take(errs,
		    conf_section_end(&bd, c->path, err), err);
	if (st == MLQ_OK && c->secrets_set &&
	    mlq_conf_check_secrecy(c->secrets, &serr) != MLQ_OK)
		st = mlq__conf_errs_take(errs,
		    mlq_err_set(err, MLQ_EINPUT, "%s:%u: [digest]: %s",
			bd.secrets_file, bd.secrets_line, serr.msg),
		    err);
	if (st == MLQ_OK && errs != NULL && errs->n > 0)
		st = mlq_err_set(err, MLQ_EINPUT, "%s: %u error%s", c->path,
		    errs->n, errs->n == 1 ? "" : "s");
	if (st == MLQ_OK && c->digest.from == NULL &&
	    (c->digest.schedule.kind != MLQ_SCHED_NONE || c->digest.nto > 0))
		c->digest.from = conf_default_from(c->arena);
	return st;
}

unsigned
mlq_conf_check_digest(const struct mlq_conf *c, mlq_conf_report_fn fn,
    void *arg)
{
	const struct mlq_conf_digest *g = &c->digest;
	const char *path = c->path != NULL ? c->path : "config";
	char msg[256];
	unsigned n = 0;

	if (g->schedule.kind == MLQ_SCHED_NONE)
		return 0;
#define GAP(cond, what)                                                        \
	if (cond) {                                                            \
		snprintf(msg, sizeof(msg), "%s: [digest]: a schedule but %s",  \
		    path, what);                                               \
		fn(msg, arg);                                                  \
		n++;                                                           \
	}
	GAP(g->nto == 0, "no 'to'");
	GAP(g->smtp == NULL, "no 'smtp' to send it through");
	GAP(g->from == NULL, "no 'from'");
#undef GAP
	return n;
}
