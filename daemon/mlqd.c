/*
 * mlqd: keeps the database current from the configured sources.  Startup
 * reads top to bottom (OpenSMTPD's scheduler()): options, config, log,
 * detach, pid file, store, event base, sources, signals, dispatch,
 * teardown.
 */
#include "config.h"

#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h> /* _PATH_LOG */
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <event2/event.h>

#include "curl-ev.h"
#include "util/log.h"
#include "mlqd.h"

/* --help: to stdout, exit 0; a usage error: to stderr, exit 2. */
static void __attribute__((noreturn)) mlqd_usage(bool help)
{
	fprintf(help ? stdout : stderr,
	    "usage: mlqd [-c CONFIG] [--db PATH] [-f|--foreground] [--once] [-n] [-v...]\n");
	if (help)
		fputs("\nkeep the mlq database current: poll the configured "
		      "sources, send the digest\n\n"
		      "  -c, --config PATH  the config (default: $MLQ_CONFIG, "
		      "else ~/.config/mlq/config)\n"
		      "      --db PATH      the database (default: $MLQ_DB, "
		      "else ~/.local/share/mlq/mlq.db)\n"
		      "  -f, --foreground   stay in the foreground, log to "
		      "stderr\n"
		      "      --once         poll every source once, then exit\n"
		      "  -n                 check the config and exit\n"
		      "  -v, --verbose      log more (twice: debug)\n"
		      "      --version      print the version\n"
		      "  -h, --help         this help\n",
		    stdout);
	exit(help ? 0 : 2);
}

static void
mlqd_report(const char *msg, void *arg)
{
	(void)arg;
	mlq_warnx("%s", msg);
}

/* An absolute form of path (the daemon chdirs to /); caller frees. */
static char *
mlqd_abspath(const char *path)
{
	char cwd[PATH_MAX], *p;
	size_t n;

	if (path[0] == '/') {
		if ((p = strdup(path)) == NULL)
			mlq_fatal("strdup");
		return p;
	}
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		mlq_fatal("getcwd");
	n = strlen(cwd) + strlen(path) + 2;
	if ((p = malloc(n)) == NULL)
		mlq_fatal("malloc");
	snprintf(p, n, "%s/%s", cwd, path);
	return p;
}

/* mkdir -p of the directory holding 'file', private to the user. */
static void
mlqd_mkparent(const char *file)
{
	char dir[PATH_MAX], *p;

	if (snprintf(dir, sizeof(dir), "%s", file) >= (int)sizeof(dir))
		mlq_fatalx("path too long: %s", file);
	if ((p = strrchr(dir, '/')) == NULL || p == dir)
		return;
	*p = '\0';
	for (p = dir + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) == -1 && errno != EEXIST)
			mlq_fatal("mkdir %s", dir);
		*p = '/';
	}
	if (mkdir(dir, 0700) == -1 && errno != EEXIST)
		mlq_fatal("mkdir %s", dir);
}

/* Writes and locks the pid file: a second mlqd on it is refused. */
static int
mlqd_pidfile(const char *path)
{
	char buf[32];
	int fd, n;

	mlqd_mkparent(path);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd == -1)
		mlq_fatal("pid file %s", path);
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno == EWOULDBLOCK)
			mlq_fatalx("pid file %s: another mlqd holds it", path);
		mlq_fatal("pid file %s", path);
	}
	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == -1 || write(fd, buf, (size_t)n) != n)
		mlq_fatal("pid file %s", path);
	return fd;
}

static void
mlqd_detach(void)
{
	pid_t pid;
	int fd;

	if ((pid = fork()) == -1)
		mlq_fatal("fork");
	if (pid != 0)
		_exit(0);
	if (setsid() == -1)
		mlq_fatal("setsid");
	if ((pid = fork()) == -1)
		mlq_fatal("fork");
	if (pid != 0)
		_exit(0);
	if (chdir("/") == -1)
		mlq_fatal("chdir /");
	if ((fd = open("/dev/null", O_RDWR)) != -1) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
}

/* Whether syslog(3) has a socket to write to. */
static bool
mlqd_has_syslog(void)
{
	struct stat sb;

	return stat(_PATH_LOG, &sb) == 0 && S_ISSOCK(sb.st_mode);
}

static void
mlqd_on_term(evutil_socket_t sig, short kind, void *arg)
{
	struct mlqd *d = arg;

	mlq_info("signal %d: finishing the batch in flight, then exiting",
	    (int)sig);
	source_stop_all(d);
}

static void
mlqd_on_hup(evutil_socket_t sig, short kind, void *arg)
{
	struct mlqd *d = arg;
	struct mlq_err err = { MLQ_OK, "" };
	struct mlq_conf *c = NULL, *old;

	if (mlq_conf_load(d->conf_path, &c, &err) != MLQ_OK) {
		mlq_warnx("reload: %s; keeping the old configuration", err.msg);
		return;
	}
	mlq_info("reload: %zu sources and %zu repos configured",
	    c->nsources, c->nrepos);
	source_reload(d, c);
	old = d->conf;
	d->conf = c;
	digest_job_reload(d, old);
}

/* libevent's own complaints, into our log (-vv for the chatter). */
static void
mlqd_event_log(int severity, const char *msg)
{
	if (severity >= EVENT_LOG_WARN)
		mlq_warnx("libevent: %s", msg);
	else
		mlq_trace("libevent: %s", msg);
}

/* Called on the ingest writer thread; the logger is safe there. */
static void
mlqd_on_reject(const char *origin, uint64_t pos, const char *why, void *arg)
{
	mlq_warnx("source '%s': message %llu rejected: %s",
	    origin != NULL ? origin : "?", (unsigned long long)pos, why);
}

static void
mlqd_signals(struct mlqd *d)
{
	d->ev_term = evsignal_new(d->base, SIGTERM, mlqd_on_term, d);
	d->ev_int = evsignal_new(d->base, SIGINT, mlqd_on_term, d);
	d->ev_hup = evsignal_new(d->base, SIGHUP, mlqd_on_hup, d);
	if (d->ev_term == NULL || d->ev_int == NULL || d->ev_hup == NULL ||
	    evsignal_add(d->ev_term, NULL) != 0 ||
	    evsignal_add(d->ev_int, NULL) != 0 ||
	    evsignal_add(d->ev_hup, NULL) != 0)
		mlq_fatalx("cannot set up signal events");
	signal(SIGPIPE, SIG_IGN);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "db", required_argument, NULL, 'D' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "once", no_argument, NULL, 'O' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct mlq_ingest_opts iopts;
	struct mlq_mailmap *mailmap = NULL;
	struct mlq_err err = { MLQ_OK, "" };
	struct mlqd d;
	const char *db_opt = NULL;
	bool foreground = false, check = false;
	int ch, verbosity = 0, pidfd = -1, rc;
	char *pidpath = NULL;
	char *conf_abs = NULL, *db;

	mlq_ingest_tune_malloc();
	memset(&d, 0, sizeof(d));
	TAILQ_INIT(&d.sources);
	while ((ch = getopt_long(argc, argv, "c:fnvh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			d.conf_path = optarg;
			break;
		case 'D':
			db_opt = optarg;
			break;
		case 'f':
			foreground = true;
			break;
		case 'O':
			d.once = true;
			break;
		case 'n':
			check = true;
			break;
		case 'v':
			verbosity++;
			break;
		case 'h':
			mlqd_usage(true);
		case 'V':
			printf("mlqd %s\n", PACKAGE_VERSION);
			return 0;
		default:
			mlqd_usage(false);
		}
	}
	if (optind != argc)
		mlqd_usage(false);
	mlq_log_init("mlqd", true, verbosity);

	if (check) {
		unsigned nerr = 0;

		/* Every error in the file, not the first. */
		if (mlq_conf_check(d.conf_path, mlqd_report, NULL, &nerr,
			&err) != MLQ_OK) {
			mlq_warnx("%s", err.msg);
			return 3;
		}
		/* The trees too: a ref mistyped is found now, not at the
		 * first poll. */
		if (nerr == 0 &&
		    mlq_conf_load(d.conf_path, &d.conf, &err) == MLQ_OK) {
			nerr = mlq_git_check_repos(d.conf, mlqd_report, NULL);
			mlq_conf_free(d.conf);
			d.conf = NULL;
		}
		if (nerr > 0)
			return 2;
		printf("configuration OK\n");
		return 0;
	}
	if (mlq_conf_load(d.conf_path, &d.conf, &err) != MLQ_OK) {
		mlq_warnx("%s", err.msg);
		return err.status == MLQ_EIO || err.status == MLQ_ENOMEM ? 3
									 : 2;
	}
	(void)mlq_conf_check_digest(d.conf, mlqd_report, NULL);
	if (d.conf->nsources == 0 && d.conf->nrepos == 0 &&
	    d.conf->digest.schedule.kind == MLQ_SCHED_NONE) {
		mlq_warnx("nothing to do: no [source], no [repo] and no digest schedule in %s",
		    d.conf->path != NULL ? d.conf->path : "the config");
		mlq_conf_free(d.conf);
		return 2;
	}
	if (d.conf_path != NULL)
		d.conf_path = conf_abs = mlqd_abspath(d.conf_path);
	if (mlq_conf_db_path(d.conf, db_opt, &db, &err) != MLQ_OK)
		mlq_fatalx("%s", err.msg);
	d.db_path = mlqd_abspath(db);
	free(db);

	/*
	 * Detached, mlqd logs to syslog.  Where there is none (a container,
	 * a minimal box) and stderr goes to a file or a service manager, it
	 * logs there and stays; on a terminal it says the log is lost.
	 */
	if (!foreground && !d.once && !mlqd_has_syslog()) {
		if (!isatty(STDERR_FILENO))
			foreground = true;
		else
			mlq_warnx("no syslog socket (%s): the log of a detached "
				  "mlqd is lost; -f keeps it on stderr", _PATH_LOG);
	}
	if (!foreground && !d.once) {
		mlqd_detach();
		mlq_log_init("mlqd", false, verbosity);
	}
	/*
	 * [daemon] pidfile, else next to the database: either way a second
	 * mlqd on the same database is refused (one writer), and `mlq
	 * status` finds the daemon where it looks.
	 */
	if (d.conf->pidfile != NULL)
		pidpath = strdup(d.conf->pidfile);
	else if (asprintf(&pidpath, "%s.pid", d.db_path) == -1)
		pidpath = NULL;
	if (pidpath == NULL)
		mlq_fatal("pid file");
	pidfd = mlqd_pidfile(pidpath);
	srandom((unsigned)time(NULL) ^ (unsigned)getpid());

	mlqd_mkparent(d.db_path);
	if (mlq_store_open(d.db_path, MLQ_STORE_WRITE, &d.store, &err) !=
		MLQ_OK ||
	    mlq_store_open(d.db_path, MLQ_STORE_READ, &d.rstore, &err) !=
		MLQ_OK)
		mlq_fatalx("%s", err.msg);
	memset(&iopts, 0, sizeof(iopts));
	iopts.on_reject = mlqd_on_reject;
	/* Read once: a changed mailmap takes a restart and mlq reindex. */
	if (d.conf->mailmap != NULL &&
	    mlq_mailmap_load(d.conf->mailmap, &mailmap, &err) != MLQ_OK)
		mlq_fatalx("%s", err.msg);
	iopts.mailmap = mailmap;
	if (mlq_ingest_new(d.store, &iopts, &d.ing, &err) != MLQ_OK)
		mlq_fatalx("%s", err.msg);

	event_set_log_callback(mlqd_event_log);
	if ((d.base = event_base_new()) == NULL)
		mlq_fatalx("event_base_new failed");
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK ||
	    (d.curl = curlev_new(d.base)) == NULL)
		mlq_fatalx("cannot set up libcurl");
	mlqd_signals(&d);
	if (source_add_all(&d, d.conf, &err) != MLQ_OK)
		mlq_fatalx("%s", err.msg);
	if (d.conf->nsources == 0 && d.conf->nrepos == 0)
		mlq_info("no sources configured in %s", d.conf->path);
	if (!d.once)
		digest_job_start(&d);
	mlq_info("started, database %s", d.db_path);

	if (!(d.once && d.conf->nsources == 0 &&
	    d.conf->nrepos == 0))
		event_base_dispatch(d.base);

	rc = d.once && d.failed > 0 ? 3 : 0;
	digest_job_free(&d);
	source_free_all(&d);
	curlev_free(d.curl);
	curl_global_cleanup();
	if (mlq_ingest_sync(d.ing, NULL, NULL, &err) != MLQ_OK) {
		mlq_warnx("%s", err.msg);
		rc = 3;
	}
	mlq_ingest_free(d.ing);
	mlq_mailmap_free(mailmap);
	mlq_store_close(d.rstore);
	mlq_store_close(d.store);
	event_free(d.ev_term);
	event_free(d.ev_int);
	event_free(d.ev_hup);
	event_base_free(d.base);
	if (pidfd != -1) {
		unlink(pidpath);
		close(pidfd);
	}
	free(pidpath);
	mlq_conf_free(d.conf);
	free(d.db_path);
	free(conf_abs);
	mlq_info("exiting with status %d", rc);
	return rc;
}
