/* A thread loaded into memory for show and thread: messages and ghosts. */
#ifndef MLQ_TREE_H
#define MLQ_TREE_H

#include "mlq.h"

struct tree_node {
	struct mlq_hit hit; /* strings owned by the tree's arena */
	bool ghost;         /* named by a reply but not stored */
	int parent;         /* index of the parent node, -1 for a root */
	int64_t cover_id;   /* a patch's cover letter in another thread */
};

struct tree {
	struct mlq_arena *a;
	struct tree_node *n;
	size_t count;
};

/* Loads thread; a ghost becomes a node so that its replies hang under it. */
enum mlq_status tree_load(struct mlq_store *st, int64_t thread, struct tree *t,
    struct mlq_err *err);
void tree_release(struct tree *t);
/*
 * Loads the thread of msgid (with or without <>) and sets *self to its
 * node; with series, the threads reviewed with it too (a cover letter's
 * patches sent unthreaded, such a patch's cover: mlq_store_series_bundle).
 * MLQ_NOTFOUND when no such message is stored.
 */
enum mlq_status tree_load_msgid(struct mlq_store *st, const char *msgid,
    bool series, struct tree *t, int *self, struct mlq_err *err);
/* Who posted h (its sender where that is not the author): a series is
 * one person's, whoever wrote each patch. */
const char *tree_poster(const struct mlq_hit *h);
/* Whether node i descends from node anc. */
bool tree_descends(const struct tree *t, size_t i, size_t anc);
/* The node of a Message-Id; -1 if absent. */
int tree_find(const struct tree *t, const char *msgid);
/*
 * For every node, the submission it is part of the review of, as the
 * store derives it: the nearest ancestor that is a submission (itself for
 * one); when the chain breaks at a lost message, the thread's one
 * top-level submission if it has exactly one; else -1.  out holds
 * t->count ints; O(n * depth).
 */
void tree_submissions(const struct tree *t, int *out);
/*
 * A series patch's cover letter (itself for a cover), as the store finds
 * it: an ancestor, else one in its thread, else the one its series link
 * names if loaded; -1.
 */
int tree_cover(const struct tree *t, size_t i);

#endif
