/*
 * What the fuzz harnesses share: the libFuzzer entry point and a check
 * that stops the run on a broken property, as a sanitizer report does.
 */
#ifndef MLQ_FUZZ_H
#define MLQ_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Prints what broke and aborts: libFuzzer keeps the input as a crash. */
void fuzz_fail(const char *file, int line, const char *what)
    __attribute__((noreturn));
#define FUZZ_CHECK(c)                                                          \
	do {                                                                   \
		if (!(c))                                                      \
			fuzz_fail(__FILE__, __LINE__, #c);                     \
	} while (0)

/* data as a NUL-terminated string (cut at its first NUL); free() it. */
char *fuzz_str(const uint8_t *data, size_t size);

/* Whether s[0..n) is well-formed UTF-8 (RFC 3629). */
int fuzz_utf8_ok(const char *s, size_t n);

/* The sizes of the pieces an input is fed in: 1, 4, 13, 40, ... */
size_t fuzz_step(size_t step);

/*
 * Messages as a splitter hands them out, kept to be compared: each one's
 * length, then its bytes.
 */
struct fuzz_msgs {
	char *data;
	size_t len, cap;
	size_t n;
};
void fuzz_msgs_add(struct fuzz_msgs *m, const char *msg, size_t len);
void fuzz_msgs_release(struct fuzz_msgs *m);
/* Whether a and b hold the same messages. */
int fuzz_msgs_equal(const struct fuzz_msgs *a, const struct fuzz_msgs *b);

#endif /* MLQ_FUZZ_H */
