#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
	n->hit.sender_name = dup(t, h->sender_name);
	n->hit.sender_email = dup(t, h->sender_email);
	n->hit.list = dup(t, h->list);
	n->hit.parent = dup(t, h->parent);
	n->hit.date_raw = dup(t, h->date_raw);
	return 0;
}

static int
on_ghost(const char *msgid, const char *parent, void *arg)
{
	struct tree *t = arg;
	struct tree_node *n = tree_add(t);

	if (n == NULL)
		return 1;
	n->ghost = true;
	n->hit.msgid = dup(t, msgid);
	n->hit.parent = dup(t, parent);
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

/* Nearest submission above i; *broken when the chain ends at a lost one. */
static int
tree_up(const struct tree *t, size_t i, bool *broken)
{
	size_t last = i, hops = 0;
	int p = t->n[i].parent;

	while (p >= 0 && hops++ < t->count) {
		if (!t->n[p].ghost && t->n[p].hit.kind > 0) {
			*broken = false;
			return p;
		}
		last = (size_t)p;
		p = t->n[p].parent;
	}
	*broken = t->n[last].ghost || t->n[last].hit.parent != NULL;
	return -1;
}

void
tree_submissions(const struct tree *t, int *out)
{
	size_t k;
	int s, top = -1, ntop = 0;
	bool broken;

	for (k = 0; k < t->count; k++)
		if (!t->n[k].ghost && t->n[k].hit.kind > 0 &&
		    tree_up(t, k, &broken) < 0) {
			top = (int)k;
			ntop++;
		}
	for (k = 0; k < t->count; k++) {
		if (t->n[k].ghost)
			out[k] = -1;
		else if (t->n[k].hit.kind > 0)
			out[k] = (int)k;
		else {
			s = tree_up(t, k, &broken);
			out[k] = s >= 0 || !broken ? s : ntop == 1 ? top : -1;
		}
	}
}

const char *
tree_poster(const struct mlq_hit *h)
{
	return h->sender_email != NULL ? h->sender_email : h->from_email;
}

static bool
same_series(const struct mlq_hit *c, const struct mlq_hit *p)
{
	return c->kind == 2 && c->version == p->version &&
	    c->total == p->total && *tree_poster(c) != '\0' &&
	    strcasecmp(tree_poster(c), tree_poster(p)) == 0;
}

int
tree_cover(const struct tree *t, size_t i)
{
	const struct mlq_hit *h = &t->n[i].hit;
	size_t k, hops = 0;
	int p;

	if (t->n[i].ghost)
		return -1;
	if (h->kind == 2)
		return (int)i;
	if (h->kind != 1 || h->index <= 0 || h->total <= 0)
		return -1;
	for (p = t->n[i].parent; p >= 0 && hops++ < t->count;
	     p = t->n[p].parent)
		if (!t->n[p].ghost && same_series(&t->n[p].hit, h))
			return p;
	for (k = 0; k < t->count; k++)
		if (!t->n[k].ghost && t->n[k].hit.thread == h->thread &&
		    same_series(&t->n[k].hit, h))
			return (int)k;
	for (k = 0; t->n[i].cover_id != 0 && k < t->count; k++)
		if (!t->n[k].ghost && t->n[k].hit.id == t->n[i].cover_id)
			return (int)k;
	return -1;
}

/* Adds a thread's messages and ghosts; parents are found among them. */
static enum mlq_status
tree_append(struct mlq_store *st, int64_t thread, struct tree *t,
    struct mlq_err *err)
{
	enum mlq_status rc;
	size_t i, first = t->count;

	rc = mlq_store_thread(st, thread, on_msg, t, err);
	if (rc == MLQ_OK)
		rc = mlq_store_ghosts(st, thread, on_ghost, t, err);
	if (rc != MLQ_OK)
		return rc;
	for (i = first; i < t->count; i++) {
		t->n[i].hit.thread = thread;
		if (t->n[i].hit.parent != NULL)
			t->n[i].parent = tree_find(t, t->n[i].hit.parent);
	}
	return MLQ_OK;
}

enum mlq_status
tree_load(struct mlq_store *st, int64_t thread, struct tree *t,
    struct mlq_err *err)
{
	memset(t, 0, sizeof(*t));
	if ((t->a = mlq_arena_new()) == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	return tree_append(st, thread, t, err);
}

void
tree_release(struct tree *t)
{
	mlq_arena_free(t->a);
	memset(t, 0, sizeof(*t));
}

static int
take_thread(const struct mlq_hit *h, void *arg)
{
	*(int64_t *)arg = h->thread;
	return 1;
}

static int
take_id(const struct mlq_hit *h, void *arg)
{
	*(int64_t *)arg = h->id;
	return 1;
}

/* The other threads of thread's bundle, and where their patches' covers are. */
static enum mlq_status
tree_add_series(struct mlq_store *st, int64_t thread, struct tree *t,
    struct mlq_err *err)
{
	int64_t *threads;
	size_t n, i;
	enum mlq_status rc;

	if ((rc = mlq_store_series_bundle(st, thread, &threads, &n, err)) !=
	    MLQ_OK)
		return rc;
	for (i = 1; i < n && rc == MLQ_OK; i++)
		rc = tree_append(st, threads[i], t, err);
	free(threads);
	for (i = 0; n > 1 && i < t->count && rc == MLQ_OK; i++)
		if (!t->n[i].ghost && t->n[i].hit.kind == 1 &&
		    t->n[i].hit.index > 0)
			rc =
			    mlq_store_links(st, t->n[i].hit.id, MLQ_LINK_SERIES,
				false, take_id, &t->n[i].cover_id, err);
	return rc;
}

enum mlq_status
tree_load_msgid(struct mlq_store *st, const char *msgid, bool series,
    struct tree *t, int *self, struct mlq_err *err)
{
	enum mlq_status rc;
	int64_t thread = 0;
	const char *id = msgid + (*msgid == '<');
	size_t n = strlen(id);
	size_t i;

	memset(t, 0, sizeof(*t));
	if (n > 0 && id[n - 1] == '>')
		n--;
	if ((rc = mlq_store_get(st, msgid, take_thread, &thread, err)) !=
	    MLQ_OK)
		return rc;
	if ((rc = tree_load(st, thread, t, err)) != MLQ_OK ||
	    (series && (rc = tree_add_series(st, thread, t, err)) != MLQ_OK))
		return rc;
	for (i = 0; i < t->count; i++)
		if (!t->n[i].ghost && strlen(t->n[i].hit.msgid) == n &&
		    strncmp(t->n[i].hit.msgid, id, n) == 0) {
			*self = (int)i;
			return MLQ_OK;
		}
	return mlq_err_set(err, MLQ_EDB, "thread of '%s' is inconsistent",
	    msgid);
}
