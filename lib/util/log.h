/*
 * Logging for cli/ and daemon/ only (lib/ code fills struct mlq_err and
 * never logs).  After OpenSMTPD's log.c: stderr in the foreground, syslog
 * when detached; every line goes through mlq_text_escape().
 */
#ifndef MLQ_LOG_H
#define MLQ_LOG_H

#include <stdarg.h>
#include <stdbool.h>

/*
 * verbosity: 0 warnings and info, 1 adds debug (-v), 2 adds library
 * chatter (-vv).  May be called again, e.g. after detaching.
 */
void mlq_log_init(const char *prog, bool foreground, int verbosity);
int mlq_log_verbosity(void);
/* Adds ": strerror(errno)"; errno is kept. */
void mlq_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void mlq_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void mlq_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void mlq_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Level 2 (-vv): libevent and curl chatter. */
void mlq_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void mlq_fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
void mlq_fatalx(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

#endif
