#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "mlq.h"

/* Chunks are chained; big requests get a chunk of their own. */
#define ARENA_CHUNK 8192

struct arena_chunk {
	struct arena_chunk *next;
	size_t used;
	size_t size;
	max_align_t data[];
};

struct mlq_arena {
	struct arena_chunk *head;
};

struct mlq_arena *
mlq_arena_new(void)
{
	return calloc(1, sizeof(struct mlq_arena));
}

void
mlq_arena_free(struct mlq_arena *a)
{
	struct arena_chunk *c, *next;

	if (a == NULL)
		return;
	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	free(a);
}

void *
mlq_arena_alloc(struct mlq_arena *a, size_t n)
{
	struct arena_chunk *c;
	size_t size;
	void *p;

	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (n == 0)
		n = sizeof(max_align_t);
	c = a->head;
	if (c == NULL || c->size - c->used < n) {
		size = n > ARENA_CHUNK / 2 ? n : ARENA_CHUNK;
		c = malloc(sizeof(*c) + size);
		if (c == NULL)
			return NULL;
		c->used = 0;
		c->size = size;
		if (n > ARENA_CHUNK / 2 && a->head != NULL) {
			/* Keep the current chunk on top for small requests. */
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = a->head;
			a->head = c;
		}
	}
	p = (char *)c->data + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

char *
mlq_arena_strndup(struct mlq_arena *a, const char *s, size_t n)
{
	char *p;

	p = mlq_arena_alloc(a, n + 1);
	if (p == NULL)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
mlq_arena_strdup(struct mlq_arena *a, const char *s)
{
	return mlq_arena_strndup(a, s, strlen(s));
}

void *
mlq_arena_grow(struct mlq_arena *a, void *arr, size_t n, size_t size)
{
	size_t cap;
	void *p;

	/* Capacity is 4, then each power of two: grow when n reaches one. */
	if (n == 0 && arr != NULL)
		return arr;
	if (n != 0 && (n < 4 || (n & (n - 1)) != 0))
		return arr;
	cap = n ? n * 2 : 4;
	if (cap > SIZE_MAX / size)
		return NULL;
	p = mlq_arena_alloc(a, cap * size);
	if (p == NULL)
		return NULL;
	if (n != 0)
		memcpy(p, arr, n * size);
	return p;
}
