/* A growing array of row ids, for the store's reading and review code. */
#include "config.h"

#include <stdlib.h>

#include "store-int.h"

void
mlq__ids_add(struct ids *a, int64_t id)
{
	int64_t *p;
	size_t cap;

	if (a->n == a->cap) {
		cap = a->cap ? a->cap * 2 : 16;
		if ((p = reallocarray(a->v, cap, sizeof(*p))) == NULL) {
			a->oom = true;
			return;
		}
		a->v = p;
		a->cap = cap;
	}
	a->v[a->n++] = id;
}

static int
cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

void
mlq__ids_uniq(struct ids *a)
{
	size_t i, k = 0;

	if (a->n == 0)
		return;
	qsort(a->v, a->n, sizeof(*a->v), cmp_id);
	for (i = 1; i < a->n; i++)
		if (a->v[i] != a->v[k])
			a->v[++k] = a->v[i];
	a->n = k + 1;
}
