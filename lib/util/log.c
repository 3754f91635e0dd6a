/*
 * The one process-wide mutable state outside struct mlqd (STYLE §6): who
 * we are, where lines go and how much is said.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "log.h"
#include "mlq.h"

static const char *log_prog = "mlq";
static bool log_foreground = true;
static int log_verbosity;

void
mlq_log_init(const char *prog, bool foreground, int verbosity)
{
	log_prog = prog;
	log_foreground = foreground;
	log_verbosity = verbosity;
	if (!foreground)
		openlog(prog, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

int
mlq_log_verbosity(void)
{
	return log_verbosity;
}

/* Formats, escapes (mail text and server replies reach here) and emits. */
static void
log_emit(int pri, const char *errstr, const char *fmt, va_list ap)
{
	char line[2048];
	struct mlq_buf b;
	int n;

	n = vsnprintf(line, sizeof(line), fmt, ap);
	if (n < 0)
		return;
	mlq_buf_init(&b);
	mlq_text_escape(&b, line,
	    (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	if (errstr != NULL) {
		mlq_buf_addstr(&b, ": ");
		mlq_buf_addstr(&b, errstr);
	}
	if (!b.oom) {
		if (log_foreground)
			fprintf(stderr, "%s: %s\n", log_prog, b.data);
		else
			syslog(pri, "%s", b.data);
	}
	mlq_buf_release(&b);
}

void
mlq_warn(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	log_emit(LOG_ERR, strerror(saved), fmt, ap);
	va_end(ap);
	errno = saved;
}

void
mlq_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_emit(LOG_ERR, NULL, fmt, ap);
	va_end(ap);
}

void
mlq_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_emit(LOG_INFO, NULL, fmt, ap);
	va_end(ap);
}

void
mlq_debug(const char *fmt, ...)
{
	va_list ap;

	if (log_verbosity < 1)
		return;
	va_start(ap, fmt);
	log_emit(LOG_DEBUG, NULL, fmt, ap);
	va_end(ap);
}

void
mlq_trace(const char *fmt, ...)
{
	va_list ap;

	if (log_verbosity < 2)
		return;
	va_start(ap, fmt);
	log_emit(LOG_DEBUG, NULL, fmt, ap);
	va_end(ap);
}

void
mlq_fatal(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	log_emit(LOG_CRIT, strerror(saved), fmt, ap);
	va_end(ap);
	exit(3);
}

void
mlq_fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_emit(LOG_CRIT, NULL, fmt, ap);
	va_end(ap);
	exit(3);
}
