/*
 * mlq-smtp -c CONFIG: mails the message on stdin as [digest] of CONFIG
 * says, with libcurl.  Run by `mlq digest --send` (cli/smtp-run.c), so
 * that mlq itself need not load libcurl; not meant to be run by hand.
 * The exit code is in smtp-exit.h; a failure's one line is on stderr.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlq.h"
#include "smtp-exit.h"

static int
exit_code(enum mlq_status st, bool retryable)
{
	switch (st) {
	case MLQ_OK:
		return 0;
	case MLQ_EINPUT:
		return MLQ_SMTP_EXIT_INPUT;
	case MLQ_ENET:
		return retryable ? MLQ_SMTP_EXIT_RETRY : MLQ_SMTP_EXIT_REFUSED;
	default:
		return MLQ_SMTP_EXIT_FAILED;
	}
}

int
main(int argc, char **argv)
{
	struct mlq_conf *conf = NULL;
	struct mlq_buf mail;
	struct mlq_err err;
	enum mlq_status st;
	bool retryable = false;
	char chunk[65536];
	size_t n;

	if (argc != 3 || strcmp(argv[1], "-c") != 0) {
		fprintf(stderr, "usage: mlq-smtp -c CONFIG <mail\n");
		return MLQ_SMTP_EXIT_USAGE;
	}
	mlq_err_clear(&err);
	mlq_buf_init(&mail);
	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
		mlq_buf_add(&mail, chunk, n);
	if (ferror(stdin) || mail.oom)
		st = mlq_err_set(&err, MLQ_EIO, "digest: cannot read the mail");
	else if ((st = mlq_conf_load(argv[2], &conf, &err)) == MLQ_OK)
		st = mlq_smtp_send(conf, mail.data, mail.len, &retryable, &err);
	if (st != MLQ_OK) {
		/* One line, whatever the server said: mlq reads up to '\n'. */
		mlq_buf_reset(&mail);
		mlq_text_escape(&mail, err.msg, strlen(err.msg));
		fprintf(stderr, "%.*s\n", (int)mail.len,
		    mail.data ? mail.data : "");
	}
	mlq_conf_free(conf);
	mlq_buf_release(&mail);
	return exit_code(st, retryable);
}
