/*
 * `mlq digest --send` mails through the mlq-smtp helper rather than with
 * libcurl in this process (helper.c says why).  The helper reads the
 * same config file, gets the mail on stdin and answers with its exit
 * code and one line on stderr.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "smtp-exit.h"

#define HELPER "mlq-smtp"

/* Its one-line answer, without the line end. */
static void
read_answer(int fd, char *buf, size_t n)
{
	size_t used = 0;
	ssize_t r;
	char sink[512];

	while (used + 1 < n &&
	    ((r = read(fd, buf + used, n - 1 - used)) > 0 ||
		(r == -1 && errno == EINTR)))
		if (r > 0)
			used += (size_t)r;
	while ((r = read(fd, sink, sizeof(sink))) > 0 ||
	    (r == -1 && errno == EINTR))
		;
	buf[used] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static enum mlq_status
helper_status(int ws, const char *answer, bool *retryable, struct mlq_err *err)
{
	if (WIFSIGNALED(ws))
		return mlq_err_set(err, MLQ_EIO,
		    "digest: %s killed by signal %d", HELPER, WTERMSIG(ws));
	switch (WEXITSTATUS(ws)) {
	case 0:
		return MLQ_OK;
	case MLQ_SMTP_EXIT_RETRY:
		*retryable = true;
		return mlq_err_set(err, MLQ_ENET, "%s", answer);
	case MLQ_SMTP_EXIT_REFUSED:
		return mlq_err_set(err, MLQ_ENET, "%s", answer);
	case MLQ_SMTP_EXIT_INPUT:
		return mlq_err_set(err, MLQ_EINPUT, "%s", answer);
	default:
		return mlq_err_set(err, MLQ_EIO, "digest: %s failed: %s",
		    HELPER, answer[0] != '\0' ? answer : "no answer");
	}
}

enum mlq_status
cli_smtp_send(const struct mlq_conf *c, const char *mail, size_t len,
    bool *retryable, struct mlq_err *err)
{
	char path[PATH_MAX], answer[sizeof(err->msg)];
	enum mlq_status rc;
	FILE *in;
	int pipefd[2], ws;
	pid_t pid;

	*retryable = false;
	if (c->path == NULL || !c->found)
		return mlq_err_set(err, MLQ_EINPUT,
		    "digest: mailing needs a config file");
	/* The helper's stderr is only read back on failure: said here. */
	if (!c->digest.tls_verify)
		fputs("mlq: warning: [digest] tls-verify = no: the mail "
		      "server's certificate is not checked\n", stderr);
	if ((rc = cli_helper_path("digest", HELPER, path, sizeof(path), err)) !=
	    MLQ_OK)
		return rc;
	/* The mail goes in a file, so no write can block on the helper. */
	if ((in = tmpfile()) == NULL)
		return mlq_err_set(err, MLQ_EIO, "digest: temporary file: %s",
		    strerror(errno));
	if (fwrite(mail, 1, len, in) != len || fflush(in) != 0 ||
	    fseek(in, 0, SEEK_SET) != 0) {
		fclose(in);
		return mlq_err_set(err, MLQ_EIO, "digest: temporary file: %s",
		    strerror(errno));
	}
	if (pipe(pipefd) == -1) {
		fclose(in);
		return mlq_err_set(err, MLQ_EIO, "digest: pipe: %s",
		    strerror(errno));
	}
	fflush(stdout);
	if ((pid = fork()) == -1) {
		fclose(in);
		close(pipefd[0]);
		close(pipefd[1]);
		return mlq_err_set(err, MLQ_EIO, "digest: fork: %s",
		    strerror(errno));
	}
	if (pid == 0) {
		if (dup2(fileno(in), STDIN_FILENO) == -1 ||
		    dup2(pipefd[1], STDERR_FILENO) == -1)
			_exit(127);
		close(pipefd[0]);
		close(pipefd[1]);
		execl(path, HELPER, "-c", c->path, (char *)NULL);
		dprintf(STDERR_FILENO, "digest: cannot run %s: %s\n", path,
		    strerror(errno));
		_exit(127);
	}
	fclose(in);
	close(pipefd[1]);
	read_answer(pipefd[0], answer, sizeof(answer));
	close(pipefd[0]);
	while (waitpid(pid, &ws, 0) == -1)
		if (errno != EINTR)
			return mlq_err_set(err, MLQ_EIO, "digest: waitpid: %s",
			    strerror(errno));
	return helper_status(ws, answer, retryable, err);
}
