/* What lib/git/'s files share: one running git. */
#ifndef MLQ_GIT_INT_H
#define MLQ_GIT_INT_H

#include <stdio.h>
#include <sys/types.h>

struct mlq__git_proc {
	pid_t pid;
	int fd;     /* its stdout */
	FILE *errf; /* its stderr, read back on failure */
};

/* git -C repo ARGS... (NULL-terminated), stdout on p->fd. */
enum mlq_status mlq__git_spawn(const char *repo, const char *const *args,
    struct mlq__git_proc *p, struct mlq_err *err);
/*
 * Closes p->fd, kills git first if kill_it, and reaps it.  A non-zero
 * exit is an error saying "WHAT failed: " and git's first line, unless
 * exit_code is given, which then gets it.
 */
enum mlq_status mlq__git_wait(struct mlq__git_proc *p, bool kill_it,
    const char *what, int *exit_code, struct mlq_err *err);
void mlq__git_free_argv(char **argv);

#endif
