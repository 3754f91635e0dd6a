/*
 * Running git(1): one spawn with its output on a pipe and its errors in
 * an unlinked temporary file, so that a failure is one line of ours
 * carrying git's own first line ("fatal: bad revision ...") instead of
 * git's text on a stderr a daemon's log never sees.  The small questions
 * a followed ref asks (where is it now, did it move forward, what did a
 * rewrite drop) are answered here.
 */
#include "config.h"

#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlq-int.h"
#include "git-int.h"

extern char **environ;

/* Plain output and no pager, prompt or hook, whatever the user's config. */
static const char *const git_pre[] = { "git", "-c", "core.pager=cat",
	"-c", "diff.noprefix=false", "-c", "diff.mnemonicPrefix=false", "-c",
	"log.showSignature=false", "-c", "color.ui=false" };

enum mlq_status
mlq__git_spawn(const char *repo, const char *const *args,
    struct mlq__git_proc *p, struct mlq_err *err)
{
	posix_spawn_file_actions_t fa;
	const char *fixed[MLQ__ARRAY_SIZE(git_pre) + 2];
	char **argv;
	size_t i, n = 0, nargs = 0;
	int pipefd[2], r;
	FILE *errf;

	memset(p, 0, sizeof(*p));
	p->fd = -1;
	while (args[nargs] != NULL)
		nargs++;
	for (i = 0; i < MLQ__ARRAY_SIZE(git_pre); i++)
		fixed[n++] = git_pre[i];
	fixed[n++] = "-C";
	fixed[n++] = repo;
	if ((argv = calloc(n + nargs + 1, sizeof(*argv))) == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	for (i = 0; i < n + nargs; i++)
		if ((argv[i] = strdup(i < n ? fixed[i] : args[i - n])) == NULL)
			break;
	if (i < n + nargs) {
		mlq__git_free_argv(argv);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	if ((errf = tmpfile()) == NULL ||
	    fcntl(fileno(errf), F_SETFD, FD_CLOEXEC) == -1) {
		if (errf != NULL)
			fclose(errf);
		mlq__git_free_argv(argv);
		return mlq_err_set(err, MLQ_EIO, "git: temporary file: %s",
		    strerror(errno));
	}
	/* Neither end for other children; dup2 clears it on git's copy. */
	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		fclose(errf);
		mlq__git_free_argv(argv);
		return mlq_err_set(err, MLQ_EIO, "pipe: %s", strerror(errno));
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
	    O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fileno(errf), STDERR_FILENO);
	posix_spawn_file_actions_addclose(&fa, pipefd[0]);
	posix_spawn_file_actions_addclose(&fa, pipefd[1]);
	r = posix_spawnp(&p->pid, "git", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	mlq__git_free_argv(argv);
	close(pipefd[1]);
	if (r != 0) {
		close(pipefd[0]);
		fclose(errf);
		return mlq_err_set(err, MLQ_EIO, "cannot run git: %s",
		    strerror(r));
	}
	p->fd = pipefd[0];
	p->errf = errf;
	return MLQ_OK;
}

void
mlq__git_free_argv(char **argv)
{
	char **a;

	for (a = argv; *a != NULL; a++)
		free(*a);
	free(argv);
}

/* git's first line of complaint, control bytes dropped, or "". */
static void
git_first_error(FILE *f, char *out, size_t len)
{
	size_t i, w = 0;
	int c;

	out[0] = '\0';
	if (f == NULL || fseek(f, 0, SEEK_SET) != 0)
		return;
	/* "warning:" lines come before the reason as often as not. */
	for (;;) {
		w = 0;
		while ((c = fgetc(f)) != EOF && c != '\n')
			if (w + 1 < len && c >= ' ' && c != 0x7f)
				out[w++] = (char)c;
		out[w] = '\0';
		if (c == EOF || strncmp(out, "warning:", 8) != 0)
			break;
	}
	for (i = w; i > 0 && out[i - 1] == ' '; i--)
		out[i - 1] = '\0';
}

enum mlq_status
mlq__git_wait(struct mlq__git_proc *p, bool kill_it, const char *what,
    int *exit_code, struct mlq_err *err)
{
	char why[200];
	int status = 0;
	enum mlq_status rc = MLQ_OK;

	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	if (p->pid > 0) {
		if (kill_it)
			kill(p->pid, SIGTERM);
		while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
			;
		p->pid = 0;
	}
	if (exit_code != NULL)
		*exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	if (!kill_it && (!WIFEXITED(status) ||
	    (WEXITSTATUS(status) != 0 && exit_code == NULL))) {
		git_first_error(p->errf, why, sizeof(why));
		rc = mlq_err_set(err, MLQ_EINPUT, "%s failed: %s", what,
		    why[0] != '\0' ? why : "git exited with an error");
	}
	if (p->errf != NULL)
		fclose(p->errf);
	p->errf = NULL;
	return rc;
}

/* All of a short git command's output, NUL-terminated, into b. */
static enum mlq_status
git_output(const char *repo, const char *const *args, const char *what,
    struct mlq_buf *b, int *exit_code, struct mlq_err *err)
{
	struct mlq__git_proc p;
	enum mlq_status rc;
	char chunk[4096];
	ssize_t n;

	if ((rc = mlq__git_spawn(repo, args, &p, err)) != MLQ_OK)
		return rc;
	for (;;) {
		n = read(p.fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		mlq_buf_add(b, chunk, (size_t)n);
	}
	rc = mlq__git_wait(&p, false, what, exit_code, err);
	if (rc == MLQ_OK && b->oom)
		rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	return rc;
}

static bool
git_is_oid(const char *s, size_t n)
{
	size_t i;

	if (n != 40 && n != 64)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

enum mlq_status
mlq_git_resolve(const char *repo, const char *rev, char out[65],
    struct mlq_err *err)
{
	char spec[512], what[600];
	const char *args[] = { "rev-parse", "--verify", "--end-of-options",
		spec, NULL };
	struct mlq_buf b;
	enum mlq_status rc;
	size_t n;

	if (rev[0] == '-' || strlen(rev) > sizeof(spec) - 10)
		return mlq_err_set(err, MLQ_EUSAGE, "git: '%s' is not a ref",
		    rev);
	snprintf(spec, sizeof(spec), "%s^{commit}", rev);
	snprintf(what, sizeof(what), "git rev-parse of '%s' in '%s'", rev,
	    repo);
	mlq_buf_init(&b);
	rc = git_output(repo, args, what, &b, NULL, err);
	if (rc == MLQ_OK) {
		n = strcspn(b.data != NULL ? b.data : "", "\n");
		if (!git_is_oid(b.data != NULL ? b.data : "", n))
			rc = mlq_err_set(err, MLQ_EINPUT,
			    "%s: no commit id in its answer", what);
		else {
			memcpy(out, b.data, n);
			out[n] = '\0';
		}
	}
	mlq_buf_release(&b);
	return rc;
}

enum mlq_status
mlq_git_is_ancestor(const char *repo, const char *a, const char *b,
    bool *out, struct mlq_err *err)
{
	const char *args[] = { "merge-base", "--is-ancestor", "--end-of-options",
		a, b, NULL };
	struct mlq_buf o;
	enum mlq_status rc;
	int code;

	mlq_buf_init(&o);
	rc = git_output(repo, args, "git merge-base --is-ancestor", &o, &code,
	    err);
	mlq_buf_release(&o);
	if (rc != MLQ_OK)
		return rc;
	/* 0 yes, 1 no; anything else (128: a commit git no longer has) is
	 * "no" too, which walks the ref again from its merge base. */
	*out = code == 0;
	return MLQ_OK;
}

enum mlq_status
mlq_git_rev_list(const char *repo, const char *range, mlq_oid_fn fn,
    void *arg, struct mlq_err *err)
{
	const char *args[] = { "rev-list", "--end-of-options", range, NULL };
	struct mlq_buf b;
	enum mlq_status rc;
	const char *p, *eol;
	char oid[65];

	mlq_buf_init(&b);
	rc = git_output(repo, args, "git rev-list", &b, NULL, err);
	for (p = b.data; rc == MLQ_OK && p != NULL && *p != '\0'; p = eol + 1) {
		if ((eol = strchr(p, '\n')) == NULL)
			eol = p + strlen(p);
		if (git_is_oid(p, (size_t)(eol - p))) {
			memcpy(oid, p, (size_t)(eol - p));
			oid[eol - p] = '\0';
			rc = fn(oid, arg);
		}
		if (*eol == '\0')
			break;
	}
	mlq_buf_release(&b);
	return rc;
}

unsigned
mlq_git_check_repos(const struct mlq_conf *c, mlq_conf_report_fn fn, void *arg)
{
	const char *file = c->path != NULL ? c->path : "config";
	struct mlq_err err;
	char msg[640], oid[65];
	unsigned n = 0;
	size_t i, k;

	for (i = 0; i < c->nrepos; i++) {
		const struct mlq_conf_repo *r = &c->repos[i];

		if (access(r->path, F_OK) != 0) {
			snprintf(msg, sizeof(msg),
			    "%s:%u: [repo \"%s\"]: path: '%s': %s", file,
			    r->line, r->name, r->path, strerror(errno));
			fn(msg, arg);
			n++;
			continue;
		}
		for (k = 0; k < r->nbranches; k++) {
			mlq_err_clear(&err);
			if (mlq_git_resolve(r->path, r->branches[k], oid,
				&err) == MLQ_OK)
				continue;
			snprintf(msg, sizeof(msg),
			    "%s:%u: [repo \"%s\"]: branch: '%s': %s", file,
			    r->line, r->name, r->branches[k], err.msg);
			fn(msg, arg);
			n++;
		}
	}
	return n;
}

void
mlq_git_cursor_each(const char *cursor, mlq_ref_cursor_fn fn, void *arg)
{
	const char *p = cursor, *end, *colon, *q;

	while (p != NULL && *p != '\0') {
		p += strspn(p, " ");
		end = p + strcspn(p, " ");
		/* The last ':': a ref name has none, an id neither. */
		for (colon = NULL, q = p; q < end; q++)
			if (*q == ':')
				colon = q;
		if (colon != NULL)
			fn(p, (size_t)(colon - p), colon + 1,
			    (size_t)(end - colon - 1), arg);
		p = end;
	}
}
