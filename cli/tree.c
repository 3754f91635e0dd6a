#include "config.h"

#include <string.h>

#include "tree.h"

static const char *
dup(struct tree *t, const char *s)
{
	return s ? mlq_arena_strdup(t->a, s) : NULL;
}

static struct tree_node *
tree_add(struct tree *t)
{
	struct tree_node *n;

	t->n = mlq_arena_grow(t->a, t->n, t->count, sizeof(*t->n));
	if (t->n == NULL)
		return NULL;
	n = &t->n[t->count++];
	memset(n, 0, sizeof(*n));
	n->parent = -1;
	return n;
}

static int
on_msg(const struct mlq_hit *h, void *arg)
{
	struct tree *t = arg;
	struct tree_node *n = tree_add(t);

	if (n == NULL)
		return 1;
	n->hit = *h;
	n->hit.msgid = dup(t, h->msgid);
	n->hit.subject = dup(t, h->subject);
	n->hit.from_name = dup(t, h->from_name);
	n->hit.from_email = dup(t, h->from_email);
	n->hit.list = dup(t, h->list);
	n->hit.parent = dup(t, h->parent);
	n->hit.date_raw = dup(t, h->date_raw);
	return 0;
}

static int
on_ghost(const char *msgid, void *arg)
{
	struct tree *t = arg;
	struct tree_node *n = tree_add(t);

	if (n == NULL)
		return 1;
	n->ghost = true;
	n->hit.msgid = dup(t, msgid);
	return 0;
}

int
tree_find(const struct tree *t, const char *msgid)
{
	size_t i;

	for (i = 0; i < t->count; i++)
		if (t->n[i].hit.msgid && strcmp(t->n[i].hit.msgid, msgid) == 0)
			return (int)i;
	return -1;
}

bool
tree_descends(const struct tree *t, size_t i, size_t anc)
{
	int p = t->n[i].parent;
	size_t hops = 0;

	while (p >= 0 && hops++ < t->count) {
		if ((size_t)p == anc)
			return true;
		p = t->n[p].parent;
	}
	return false;
}

enum mlq_status
tree_load(struct mlq_store *st, int64_t thread, struct tree *t,
    struct mlq_err *err)
{
	enum mlq_status rc;
	size_t i;

	memset(t, 0, sizeof(*t));
	if ((t->a = mlq_arena_new()) == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	rc = mlq_store_thread(st, thread, on_msg, t, err);
	if (rc == MLQ_OK)
		rc = mlq_store_ghosts(st, thread, on_ghost, t, err);
	if (rc != MLQ_OK)
		return rc;
	for (i = 0; i < t->count; i++)
		if (!t->n[i].ghost && t->n[i].hit.parent != NULL)
			t->n[i].parent = tree_find(t, t->n[i].hit.parent);
	return MLQ_OK;
}

void
tree_release(struct tree *t)
{
	mlq_arena_free(t->a);
	memset(t, 0, sizeof(*t));
}
