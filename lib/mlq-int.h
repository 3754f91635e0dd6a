/* Shared inside lib/ only; cli/ and daemon/ never include this. */
#ifndef MLQ_INT_H
#define MLQ_INT_H

#include <stddef.h>
#include <stdint.h>

#include "mlq.h"
#include "mlq-limits.h"

#define MLQ__ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ASCII-only lower-casing: mail header syntax is ASCII. */
static inline char
mlq__lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* SHA-1 (sha1.c) for patch ids and synthetic Message-Ids. */
struct mlq__sha1 {
	uint32_t h[5];
	uint64_t len;
	unsigned char block[64];
	size_t fill;
};
void mlq__sha1_init(struct mlq__sha1 *c);
void mlq__sha1_update(struct mlq__sha1 *c, const void *p, size_t n);
void mlq__sha1_final(struct mlq__sha1 *c, unsigned char out[20]);
/* 40 lower-case hex digits and a NUL. */
void mlq__sha1_hex(const unsigned char d[20], char out[41]);

/* ---- configuration (conf.c streams, conf-keys.c knows the keys) ---- */

/* One event of an INI file: a section header (key NULL) or a key. */
struct mlq__conf_item {
	const char *file;    /* as given, for messages */
	unsigned line;	     /* 1-based */
	const char *section; /* lower-cased */
	const char *sub;     /* [section "sub"]: as written; NULL if none */
	const char *key;     /* lower-cased; NULL for a section header */
	const char *value;   /* comment and quotes removed; NULL for a header */
};

typedef enum mlq_status (*mlq__conf_fn)(const struct mlq__conf_item *it,
    void *arg, struct mlq_err *err);

/*
 * Streams text to fn, knowing no keys.  Stops at the first syntax error or
 * at fn's first failure, which it returns.
 */
enum mlq_status mlq__conf_parse(const char *file, const char *text, size_t len,
    mlq__conf_fn fn, void *arg, struct mlq_err *err);
/* Fills c (its arena and path already set) from text by the key table. */
enum mlq_status mlq__conf_build(struct mlq_conf *c, const char *text,
    size_t len, struct mlq_err *err);
/*
 * ~ or ~/x to $HOME; a relative path is taken from the directory of
 * 'base' (a file name; NULL: left relative).  Into a; NULL on ENOMEM or
 * an unknown home, with *why set.
 */
char *mlq__conf_path_expand(struct mlq_arena *a, const char *path,
    const char *base, const char **why);

#endif
