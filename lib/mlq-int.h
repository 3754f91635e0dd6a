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

/* The name of classify.c's i-th rule, NULL past the last: for the tests. */
const char *mlq__classify_rule_name(size_t i);

#endif
