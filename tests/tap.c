#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tap.h"

static int tap_run, tap_failed, tap_planned = -1;

void
plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
}

void
plan_skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	fflush(stdout);
	exit(0);
}

static bool
tap_result(bool cond, const char *file, int line, const char *fmt, va_list ap)
{
	tap_run++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_run);
	vprintf(fmt, ap);
	printf("\n");
	if (!cond)
		printf("#   failed at %s:%d\n", file, line);
	fflush(stdout);
	return cond;
}

bool
ok_at(bool cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_result(cond, file, line, fmt, ap);
	va_end(ap);
	return cond;
}

bool
is_int_at(long long got, long long want, const char *file, int line,
    const char *fmt, ...)
{
	va_list ap;
	bool cond = got == want;

	va_start(ap, fmt);
	tap_result(cond, file, line, fmt, ap);
	va_end(ap);
	if (!cond)
		printf("#   got: %lld\n#   expected: %lld\n", got, want);
	return cond;
}

bool
is_str_at(const char *got, const char *want, const char *file, int line,
    const char *fmt, ...)
{
	va_list ap;
	bool cond;

	cond = (got == NULL && want == NULL) ||
	    (got != NULL && want != NULL && strcmp(got, want) == 0);
	va_start(ap, fmt);
	tap_result(cond, file, line, fmt, ap);
	va_end(ap);
	if (!cond)
		printf("#   got: '%s'\n#   expected: '%s'\n",
		    got ? got : "(null)", want ? want : "(null)");
	return cond;
}

void
diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

int
done_testing(void)
{
	if (tap_planned < 0)
		printf("1..%d\n", tap_run);
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

const char *
tap_shared_dir(void)
{
	static char path[4096];
	const char *env, *src;
	struct stat sb;

	env = getenv("MLQ_SHARED");
	if (env == NULL) {
		src = getenv("top_srcdir");
		snprintf(path, sizeof(path), "%s/../shared", src ? src : "..");
		env = path;
	}
	if (stat(env, &sb) == 0 && S_ISDIR(sb.st_mode))
		return env;
	if ((src = getenv("CI")) != NULL && strcmp(src, "true") == 0) {
		printf("Bail out! ../shared is missing under CI=true\n");
		exit(1);
	}
	return NULL;
}
