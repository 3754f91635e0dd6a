#include "config.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mlq.h"
#include "tap.h"

/* The error a config text gives, "" when it loads. */
static const char *
conf_error(const char *text)
{
	static struct mlq_err err;
	struct mlq_conf *c = NULL;

	mlq_err_clear(&err);
	if (mlq_conf_load_buf("config", text, strlen(text), &c, &err) ==
	    MLQ_OK) {
		mlq_conf_free(c);
		return "";
	}
	ok(c == NULL, "nothing handed out on error");
	return err.msg;
}

static void
test_example(void)
{
	static const char text[] =
	    "# the example of INTERFACE.md\n"
	    "[database]\n"
	    "path = ~/.local/share/mlq/mlq.db\n"
	    "[source \"lkml\"]\n"
	    "url = https://lore.kernel.org/lkml/      ; or imaps://host/mailbox, or a path\n"
	    "interval = 5m\n"
	    "[digest]\n"
	    "schedule = weekly mon 08:00\n"
	    "to = maintainer@example.org\n"
	    "watch = umn.edu\n"
	    "from = mlq@example.org\n"
	    "smtp = smtps://smtp.example.org:465      ; smtp:// uses STARTTLS unless smtp-starttls = no\n"
	    "smtp-starttls = yes\n"
	    "smtp-user = ...\n"
	    "secrets = /nonexistent/mlq-secrets ; passwords\n";
	struct mlq_conf *c = NULL;
	struct mlq_err err = { MLQ_OK, "" };

	is_int(mlq_conf_load_buf("config", text, sizeof(text) - 1, &c, &err),
	    MLQ_EINPUT, "example with a missing secrets file is refused");
	is_str(err.msg,
	    "config:15: [digest]: secrets '/nonexistent/mlq-secrets': no such file",
	    "missing secrets file named with its line");

	mlq_err_clear(&err);
	is_int(mlq_conf_load_buf("config", text,
		   strstr(text, "secrets =") - text, &c, &err),
	    MLQ_OK, "INTERFACE.md's example loads: %s", err.msg);
	if (c == NULL)
		return;
	is_str(c->db_path, "/home/t/.local/share/mlq/mlq.db", "~ expanded");
	is_int(c->nsources, 1, "one source");
	is_str(c->sources[0].name, "lkml", "source name");
	is_str(c->sources[0].url, "https://lore.kernel.org/lkml/",
	    "trailing comment stripped from the url");
	is_int(c->sources[0].interval, 300, "5m is 300 s");
	/* A remote server: the first backfill goes 30 days back. */
	ok(c->sources[0].since >= (int64_t)time(NULL) - 30 * 86400 - 60 &&
		c->sources[0].since <= (int64_t)time(NULL) - 30 * 86400,
	    "a remote source's since defaults to 30 days back");
	is_str(c->sources[0].list, "lkml", "list defaults to the name");
	is_int(c->sources[0].line, 4, "section line kept");
	is_int(c->digest.schedule.kind, MLQ_SCHED_WEEKLY, "weekly");
	is_int(c->digest.schedule.wday, 1, "on Monday");
	is_int(c->digest.schedule.hour * 60 + c->digest.schedule.minute, 480,
	    "at 08:00");
	is_int(c->digest.nto, 1, "one recipient");
	is_str(c->digest.to[0], "maintainer@example.org", "recipient");
	is_str(c->digest.watch[0], "umn.edu", "watch");
	is_str(c->digest.smtp, "smtps://smtp.example.org:465", "smtp url");
	ok(c->digest.smtp_starttls, "starttls");
	is_str(c->digest.smtp_user, "...", "smtp-user");
	is_int(c->digest.unreviewed_days, 14, "unreviewed-days default");
	is_str(c->secrets, "/home/t/.config/mlq/secrets",
	    "default secrets path");
	ok(!c->secrets_set, "secrets not given");
	mlq_conf_free(c);
}

static void
test_values(void)
{
	static const char text[] =
	    "[source \"a\"]\n"
	    "\turl = /srv/mail/a.mbox\n"
	    "  interval=30s # comment\n"
	    "since = 2021-04-01\n"
	    "list = linux-nfs\n"
	    "[source \"b\"]\n"
	    "url = imaps://maint@imap.example.org/INBOX\n"
	    "interval = 1h\n"
	    "tls-ca = certs/ca.pem\n"
	    "user = \"maint ; not a comment\"\n"
	    "[source \"c\"]\n"
	    "url = https://x.example/a#b\n"
	    "[digest]\n"
	    "to = a@x.org, B@Y.org\n"
	    "to = c@z.org\n"
	    "watch = @umn.edu umn.edu\n"
	    "watch = kjlu@umn.edu\n"
	    "schedule = daily 23:59\n"
	    "smtp-starttls = no\n"
	    "unreviewed-days = 30\n"
	    "[daemon]\r\n"
	    "pidfile = run/mlqd.pid\r\n"
	    "[identity]\n"
	    "name = Jane Maintainer <jane@example.org> ; who mlq mark records\n";
	struct mlq_conf *c = NULL;
	struct mlq_err err = { MLQ_OK, "" };

	is_int(mlq_conf_load_buf("/etc/mlq/config", text, sizeof(text) - 1, &c,
		   &err),
	    MLQ_OK, "values load: %s", err.msg);
	if (c == NULL)
		return;
	is_int(c->nsources, 3, "three sources");
	is_str(c->sources[0].url, "/srv/mail/a.mbox", "path url");
	is_int(c->sources[0].interval, 30, "30s");
	is_int(c->sources[0].since, 1617235200, "since 2021-04-01 UTC");
	is_str(c->sources[0].list, "linux-nfs", "list name");
	is_int(c->sources[1].interval, 3600, "1h");
	is_str(c->sources[1].tls_ca, "/etc/mlq/certs/ca.pem",
	    "relative path from the config's directory");
	is_str(c->sources[1].user, "maint ; not a comment", "quoted value");
	is_str(c->sources[2].url, "https://x.example/a#b",
	    "'#' without a blank before it is no comment");
	is_int(c->digest.nto, 3, "to accumulates");
	is_str(c->digest.to[1], "b@y.org", "addresses lower-cased");
	is_int(c->digest.nwatch, 3, "watch accumulates");
	is_str(c->digest.watch[0], "@umn.edu", "@domain");
	is_int(c->digest.schedule.kind, MLQ_SCHED_DAILY, "daily");
	is_int(c->digest.schedule.hour, 23, "hour");
	ok(!c->digest.smtp_starttls, "starttls off");
	is_int(c->digest.unreviewed_days, 30, "unreviewed-days");
	is_str(c->pidfile, "/etc/mlq/run/mlqd.pid", "CRLF lines");
	is_str(c->identity, "Jane Maintainer <jane@example.org>",
	    "[identity] name");
	ok(mlq_conf_source_find(c, "b") == &c->sources[1], "find a source");
	ok(mlq_conf_source_find(c, "zz") == NULL, "no such source");
	mlq_conf_free(c);
}

static void
test_errors(void)
{
	is_str(conf_error("[source \"lkml\"]\nurl = https://x/l/\n"
			  "\n\n\n\n\n\n\n\n\nintervl = 5m\n"),
	    "config:12: [source \"lkml\"]: unknown key 'intervl'",
	    "unknown key");
	is_str(conf_error(
		   "[source \"lkml\"]\nurl = https://x/\ninterval = 5x\n"),
	    "config:3: [source \"lkml\"]: interval: '5x' is not a duration (such as 30s, 5m, 1h, 1d)",
	    "bad duration");
	is_str(conf_error("[source \"l\"]\nurl = https://lore.kernel.org/l/\n"
			  "interval = 30s\n"),
	    "config:1: [source \"l\"]: interval: at least 1m for a server that "
	    "is not this host's",
	    "a remote server is polled once a minute at most");
	is_str(conf_error("[source \"l\"]\nurl = http://127.0.0.1:8080/l/\n"
			  "interval = 1s\n[source \"m\"]\nurl = imap://u@[::1]/x\n"
			  "interval = 1s\n"),
	    "", "this host's own servers (tests) take any interval");
	is_str(conf_error("[source \"l\"]\nurl = https://x/\ninterval = 0s\n"),
	    "config:3: [source \"l\"]: interval: '0s' is out of range 1s..1w",
	    "duration out of range");
	is_str(
	    conf_error(
		"[source \"l\"]\nurl = https://x/\ninterval = 99999999999999999999\n"),
	    "config:3: [source \"l\"]: interval: '99999999999999999999' is not a duration (such as 30s, 5m, 1h, 1d)",
	    "duration overflow");
	is_str(conf_error("[source \"l\"]\ninterval = 5m\n"),
	    "config:1: [source \"l\"]: missing key 'url'", "url required");
	is_str(conf_error("[source \"l\"]\ninterval = 5m\n[digest]\n"),
	    "config:1: [source \"l\"]: missing key 'url'",
	    "url required before the next section");
	is_str(conf_error("[source \"l\"]\nurl = ftp://x/\n"),
	    "config:2: [source \"l\"]: url: 'ftp://x/': unsupported scheme (want http(s)://, imap(s):// or a path)",
	    "bad scheme");
	is_str(conf_error("[source \"l\"]\nurl = imaps://u:pw@x/INBOX\n"),
	    "config:2: [source \"l\"]: url: 'imaps://u:pw@x/INBOX': passwords belong in the secrets file, not in the url (want http(s)://, imap(s):// or a path)",
	    "password in url refused");
	is_str(conf_error("[source \"l\"]\nurl = imap://x\n"),
	    "config:2: [source \"l\"]: url: 'imap://x': no mailbox after the host (want http(s)://, imap(s):// or a path)",
	    "imap needs a mailbox");
	is_str(conf_error(
		   "[source \"l\"]\nurl = https://x/\nurl = https://y/\n"),
	    "config:3: [source \"l\"]: duplicate key 'url'", "duplicate key");
	is_str(conf_error("[source \"l\"]\nurl = https://x/\n[source \"l\"]\n"),
	    "config:3: duplicate section [source \"l\"]", "duplicate source");
	is_str(conf_error("[digest]\n[digest]\n"),
	    "config:2: duplicate section [digest]", "duplicate section");
	is_str(conf_error("[source]\n"),
	    "config:1: [source] needs a name: [source \"NAME\"]", "no name");
	is_str(conf_error("[digest \"x\"]\n"),
	    "config:1: [digest] takes no name", "named digest");
	is_str(conf_error("[source \"a b\"]\n"),
	    "config:1: [source \"a b\"]: bad name (letters, digits, '.', '_', '-')",
	    "bad source name");
	is_str(conf_error("[sources \"a\"]\n"),
	    "config:1: unknown section [sources]", "unknown section");
	is_str(conf_error("url = x\n"),
	    "config:1: key 'url' outside any [section]",
	    "key outside a section");
	is_str(conf_error("[digest\n"),
	    "config:1: expected ']' to end the section header", "open header");
	is_str(conf_error("[digest] x\n"),
	    "config:1: expected ']' to end the section header",
	    "text after header");
	is_str(conf_error("[digest] ; fine\n"), "", "comment after header");
	is_str(conf_error("[digest]\njunk\n"),
	    "config:2: expected 'key = value' or '[section]'", "not a pair");
	is_str(conf_error("[digest]\nfrom = \"a@b.org\n"),
	    "config:2: unterminated quote in value of 'from'", "open quote");
	is_str(conf_error("[digest]\nfrom = \"a@b.org\" x\n"),
	    "config:2: text after the quoted value of 'from'", "after quote");
	is_str(conf_error("[digest]\nfrom = nobody\n"),
	    "config:2: [digest]: from: 'nobody' is not an email address",
	    "bad email");
	is_str(conf_error("[digest]\nfrom =\n"),
	    "config:2: [digest]: from: empty value", "empty value");
	is_str(conf_error("[digest]\nto = a@b.org, c\n"),
	    "config:2: [digest]: to: 'c' is not an email address",
	    "bad list item");
	is_str(conf_error("[digest]\nwatch = umn..edu\n"),
	    "config:2: [digest]: watch: 'umn..edu' is not a domain or an address",
	    "bad watch");
	is_str(conf_error("[digest]\nsmtp-starttls = maybe\n"),
	    "config:2: [digest]: smtp-starttls: 'maybe' is not yes or no",
	    "bad bool");
	is_str(conf_error("[digest]\nschedule = weekly funday 08:00\n"),
	    "config:2: [digest]: schedule: 'weekly funday 08:00' is not 'daily HH:MM', 'weekly DAY HH:MM' or off",
	    "bad schedule");
	is_str(conf_error("[digest]\nschedule = daily 24:00\n"),
	    "config:2: [digest]: schedule: 'daily 24:00' is not 'daily HH:MM', 'weekly DAY HH:MM' or off",
	    "bad hour");
	is_str(conf_error("[digest]\nunreviewed-days = 0\n"),
	    "config:2: [digest]: unreviewed-days: '0' is not a number in 1..365",
	    "int range");
	is_str(conf_error("[digest]\nsmtp = http://x/\n"),
	    "config:2: [digest]: smtp: 'http://x/': unsupported scheme (want smtp:// or smtps://)",
	    "smtp scheme");
	is_str(conf_error("[source \"l\"]\nurl = /x\nsince = 2021-02-29\n"),
	    "config:3: [source \"l\"]: since: '2021-02-29' is not YYYY-MM-DD or all",
	    "no such date");
	is_str(conf_error("[source \"l\"]\nurl = ~bob/x\n"),
	    "config:2: [source \"l\"]: url: only ~ and ~/ are expanded",
	    "~user refused");
	is_str(conf_error("[digest]\nsmtp-user = a\001b\n"),
	    "config:2: [digest]: smtp-user: control character in value",
	    "control character");
	is_str(conf_error("[identity]\nname = Jane\033[31m\n"),
	    "config:2: [identity]: name: control character in value",
	    "a name with an escape sequence");
	is_str(conf_error("[identity]\nmail = jane@example.org\n"),
	    "config:2: [identity]: unknown key 'mail'",
	    "[identity]: unknown key");
	ok(strcmp(conf_error("[digest]\nfrom = a\0b\n"), "") != 0,
	    "NUL byte refused");
}

static void
test_files(void)
{
	char dir[] = "/tmp/t-conf.XXXXXX", path[128], sec[128], text[512];
	struct mlq_conf *c = NULL;
	struct mlq_err err = { MLQ_OK, "" };
	char *pw = NULL;
	FILE *f;

	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/config", dir);
	snprintf(sec, sizeof(sec), "%s/secrets", dir);

	is_int(mlq_conf_load(path, &c, &err), MLQ_EUSAGE,
	    "a missing given config is an error");
	ok(strstr(err.msg, "No such file") != NULL, "says why: %s", err.msg);

	setenv("XDG_CONFIG_HOME", dir, 1);
	unsetenv("MLQ_CONFIG");
	mlq_err_clear(&err);
	is_int(mlq_conf_load(NULL, &c, &err), MLQ_OK,
	    "a missing default config is empty");
	if (c != NULL) {
		ok(!c->found && c->nsources == 0, "empty");
		mlq_conf_free(c);
		c = NULL;
	}

	f = fopen(sec, "w");
	fputs("# passwords\nsmtp-password = s3cret ; kept\n"
	      "source.b.password=p@ss word  \n",
	    f);
	fclose(f);
	chmod(sec, 0644);
	f = fopen(path, "w");
	snprintf(text, sizeof(text), "[digest]\nsecrets = %s\n", sec);
	fputs(text, f);
	fclose(f);
	setenv("MLQ_CONFIG", path, 1);
	mlq_err_clear(&err);
	is_int(mlq_conf_load(NULL, &c, &err), MLQ_EINPUT,
	    "a 0644 secrets file is refused");
	snprintf(text, sizeof(text),
	    "%s:2: [digest]: secrets '%s': mode 0644 lets group or others in (chmod 600)",
	    path, sec);
	is_str(err.msg, text, "and says why");

	chmod(sec, 0600);
	mlq_err_clear(&err);
	is_int(mlq_conf_load(NULL, &c, &err), MLQ_OK, "0600 secrets: %s",
	    err.msg);
	if (c != NULL) {
		ok(c->secrets_set, "secrets given");
		is_int(mlq_conf_secret(c, "smtp-password", &pw, &err), MLQ_OK,
		    "smtp password");
		is_str(pw, "s3cret ; kept", "values are verbatim");
		mlq_conf_secret_free(pw);
		is_int(mlq_conf_secret(c, "source.b.password", &pw, &err),
		    MLQ_OK, "source password");
		is_str(pw, "p@ss word", "trailing blanks trimmed");
		mlq_conf_secret_free(pw);
		is_int(mlq_conf_secret(c, "source.c.password", &pw, &err),
		    MLQ_NOTFOUND, "absent key");
		ok(pw == NULL, "no value");
		chmod(sec, 0640);
		mlq_err_clear(&err);
		is_int(mlq_conf_secret(c, "smtp-password", &pw, &err),
		    MLQ_EINPUT, "checked again on every read");
		mlq_conf_free(c);
	}
	unlink(sec);
	unlink(path);
	rmdir(dir);
	unsetenv("MLQ_CONFIG");
}

static void
test_db_path(void)
{
	struct mlq_conf *c = NULL;
	struct mlq_err err = { MLQ_OK, "" };
	char *p = NULL;

	mlq_conf_load_buf("config", "[database]\npath = /d/x.db\n", 26, &c,
	    &err);
	setenv("MLQ_DB", "/env.db", 1);
	mlq_conf_db_path(c, "/opt.db", &p, &err);
	is_str(p, "/opt.db", "--db first");
	free(p);
	mlq_conf_db_path(c, NULL, &p, &err);
	is_str(p, "/env.db", "then $MLQ_DB");
	free(p);
	unsetenv("MLQ_DB");
	mlq_conf_db_path(c, NULL, &p, &err);
	is_str(p, "/d/x.db", "then the config");
	free(p);
	setenv("XDG_DATA_HOME", "/xdg", 1);
	mlq_conf_db_path(NULL, NULL, &p, &err);
	is_str(p, "/xdg/mlq/mlq.db", "then XDG_DATA_HOME");
	free(p);
	unsetenv("XDG_DATA_HOME");
	mlq_conf_db_path(NULL, NULL, &p, &err);
	is_str(p, "/home/t/.local/share/mlq/mlq.db", "then ~/.local/share");
	free(p);
	mlq_conf_free(c);
}

static void
test_redact(void)
{
	struct mlq_buf b;

	mlq_buf_init(&b);
	mlq_url_redact(&b, "imaps://u:secret@h:993/INBOX");
	is_str(b.data, "imaps://u:***@h:993/INBOX", "password hidden");
	mlq_buf_reset(&b);
	mlq_url_redact(&b, "imaps://u@h:993/a:b@c");
	is_str(b.data, "imaps://u@h:993/a:b@c", "no password, path untouched");
	mlq_buf_reset(&b);
	mlq_url_redact(&b, "/srv/mail");
	is_str(b.data, "/srv/mail", "paths pass");
	mlq_buf_release(&b);
}

/* [repo "NAME"] as INTERFACE.md and issue 33 give it. */
static void
test_repo(void)
{
	static const char text[] =
	    "[repo \"linux\"]\n"
	    "path = ~/src/linux          ; a local clone\n"
	    "branch = master             ; refs to follow\n"
	    "branch = origin/master stable/linux-5.10.y\n"
	    "since = 2019-01-01\n"
	    "[repo \"b\"]\n"
	    "path = /srv/b.git\n"
	    "branch = Main\n";
	struct mlq_conf *c = NULL;
	struct mlq_err err = { MLQ_OK, "" };

	is_int(mlq_conf_load_buf("config", text, sizeof(text) - 1, &c, &err),
	    MLQ_OK, "repos load: %s", err.msg);
	if (c == NULL)
		return;
	is_int(c->nrepos, 2, "two repos");
	is_str(c->repos[0].name, "linux", "repo name");
	is_str(c->repos[0].path, "/home/t/src/linux", "path: ~ expanded");
	is_int(c->repos[0].nbranches, 3, "branch repeated and listed");
	is_str(c->repos[0].branches[1], "origin/master", "a remote ref");
	is_str(c->repos[0].branches[2], "stable/linux-5.10.y", "a stable ref");
	is_int(c->repos[0].since, 1546300800, "since 2019-01-01");
	is_int(c->repos[0].interval, 300, "interval defaults to 5m");
	is_int(c->repos[1].since, 0, "since defaults to all");
	is_str(c->repos[1].branches[0], "Main", "a ref keeps its case");
	ok(mlq_conf_repo_find(c, "b") == &c->repos[1], "found by name");
	mlq_conf_free(c);

	is_str(conf_error("[repo \"l\"]\nbranch = master\n"),
	    "config:1: [repo \"l\"]: missing key 'path'", "path required");
	is_str(conf_error("[repo \"l\"]\npath = /r\n"),
	    "config:1: [repo \"l\"]: missing key 'branch' (the refs to follow)",
	    "branch required");
	is_str(conf_error("[repo \"l\"]\npath = /r\nbranch = a..b\n"),
	    "config:3: [repo \"l\"]: branch: 'a..b' is not a git ref name",
	    "a range is not a ref");
	is_str(conf_error("[repo \"l\"]\npath = /r\nbranch = -x\n"),
	    "config:3: [repo \"l\"]: branch: '-x' is not a git ref name",
	    "an option is not a ref");
	is_str(conf_error("[repo \"l\"]\npath = /r\nbranch = a:b\n"),
	    "config:3: [repo \"l\"]: branch: 'a:b' is not a git ref name",
	    "a refspec is not a ref");
	is_str(conf_error("[repo \"l\"]\npath = /r\nbranch = m\nurl = x\n"),
	    "config:4: [repo \"l\"]: unknown key 'url'", "unknown repo key");
	is_str(conf_error("[source \"l\"]\nurl = /m\n[repo \"l\"]\n"),
	    "config:3: [repo \"l\"]: the name is taken by a [source]",
	    "a repo and a source share no name");
	is_str(conf_error("[repo \"l\"]\npath = /r\nbranch = m\n[repo \"l\"]\n"),
	    "config:4: duplicate section [repo \"l\"]", "duplicate repo");
}

int
main(void)
{
	setenv("HOME", "/home/t", 1);
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("XDG_DATA_HOME");
	unsetenv("MLQ_DB");
	test_example();
	test_values();
	test_errors();
	test_repo();
	test_files();
	test_db_path();
	test_redact();
	return done_testing();
}
