/* A small TAP producer for the unit tests (run by automake's tap-driver). */
#ifndef MLQ_TAP_H
#define MLQ_TAP_H

#include <stdbool.h>
#include <stddef.h>

void plan(int n);
void plan_skip_all(const char *why);
bool ok_at(bool cond, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
bool is_int_at(long long got, long long want, const char *file, int line,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
bool is_str_at(const char *got, const char *want, const char *file, int line,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the plan if none was given; returns the exit status. */
int done_testing(void);
/*
 * The directory holding ../shared (seeds/, corpus/), or NULL when absent.
 * Under CI=true an absent ../shared is a failure, not a skip.
 */
const char *tap_shared_dir(void);

#define ok(c, ...)       ok_at((c), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(g, w, ...) is_int_at((g), (w), __FILE__, __LINE__, __VA_ARGS__)
#define is_str(g, w, ...) is_str_at((g), (w), __FILE__, __LINE__, __VA_ARGS__)

#endif
