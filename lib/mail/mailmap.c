/*
 * A git .mailmap (gitmailmap(5)): one person, several addresses.  Each
 * line maps the name and address a mail was sent under to the person's
 * own:
 *
 *	Proper Name <proper@email>
 *	<proper@email> <commit@email>
 *	Proper Name <proper@email> <commit@email>
 *	Proper Name <proper@email> Commit Name <commit@email>
 *
 * The addresses compare without case, a line naming a commit name as well
 * wins over one naming the address alone, and a later line over an
 * earlier one, as in git.  Read-only once loaded: the parse workers share
 * it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mlq-int.h"

struct mailmap_entry {
	const char *name, *email;		/* what to show; NULL: keep */
	const char *commit_name, *commit_email; /* what it matches */
};

struct mlq_mailmap {
	struct mlq_arena *a;
	struct mailmap_entry *e;
	size_t n;
};

/* The next "<...>" at *p: its text into *email, the name before it. */
static bool
take_pair(struct mlq_arena *a, const char **p, const char **name,
    const char **email, bool *oom)
{
	const char *s = *p, *lt, *gt, *e;
	char *em, *c;

	if ((lt = strchr(s, '<')) == NULL || (gt = strchr(lt, '>')) == NULL)
		return false;
	while (*s == ' ' || *s == '\t')
		s++;
	for (e = lt; e > s && (e[-1] == ' ' || e[-1] == '\t'); e--)
		;
	*name = e > s ? mlq_arena_strndup(a, s, (size_t)(e - s)) : NULL;
	em = mlq_arena_strndup(a, lt + 1, (size_t)(gt - lt - 1));
	if ((e > s && *name == NULL) || em == NULL)
		*oom = true;
	else
		for (c = em; *c != '\0'; c++)
			*c = mlq__lower(*c);
	*email = em;
	*p = gt + 1;
	return true;
}

enum mlq_status
mlq_mailmap_load(const char *path, struct mlq_mailmap **out,
    struct mlq_err *err)
{
	struct mlq_mailmap *mm;
	struct mailmap_entry e, *g;
	char line[1024], *hash;
	const char *p;
	bool oom = false;
	FILE *f;

	*out = NULL;
	if ((f = fopen(path, "r")) == NULL)
		return mlq_err_set(err, MLQ_EINPUT, "mailmap '%s': %s", path,
		    strerror(errno));
	if ((mm = calloc(1, sizeof(*mm))) == NULL ||
	    (mm->a = mlq_arena_new()) == NULL) {
		free(mm);
		fclose(f);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	while (fgets(line, sizeof(line), f) != NULL && !oom) {
		if ((hash = strchr(line, '#')) != NULL)
			*hash = '\0';
		memset(&e, 0, sizeof(e));
		p = line;
		if (!take_pair(mm->a, &p, &e.name, &e.email, &oom))
			continue; /* blank, a comment, or not a mapping */
		if (!take_pair(mm->a, &p, &e.commit_name, &e.commit_email,
			&oom)) {
			/* "Proper Name <email>": the name for that address. */
			e.commit_email = e.email;
			e.email = NULL;
			if (e.name == NULL)
				continue;
		}
		if (oom)
			break;
		g = mlq_arena_grow(mm->a, mm->e, mm->n, sizeof(*mm->e));
		if (g == NULL) {
			oom = true;
			break;
		}
		mm->e = g;
		mm->e[mm->n++] = e;
	}
	if (ferror(f) && !oom) {
		mlq_mailmap_free(mm);
		fclose(f);
		return mlq_err_set(err, MLQ_EIO, "mailmap '%s': read error",
		    path);
	}
	fclose(f);
	if (oom) {
		mlq_mailmap_free(mm);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	*out = mm;
	return MLQ_OK;
}

void
mlq_mailmap_free(struct mlq_mailmap *mm)
{
	if (mm == NULL)
		return;
	mlq_arena_free(mm->a);
	free(mm);
}

bool
mlq_mailmap_lookup(const struct mlq_mailmap *mm, const char *name,
    const char *email, const char **out_name, const char **out_email)
{
	const struct mailmap_entry *best = NULL, *e;
	size_t i;

	*out_name = name;
	*out_email = email;
	if (mm == NULL || email == NULL || *email == '\0')
		return false;
	for (i = 0; i < mm->n; i++) {
		e = &mm->e[i];
		if (strcasecmp(e->commit_email, email) != 0)
			continue;
		if (e->commit_name != NULL) {
			if (name == NULL || strcasecmp(e->commit_name, name) != 0)
				continue;
		} else if (best != NULL && best->commit_name != NULL)
			continue; /* a line naming the name as well wins */
		best = e;
	}
	if (best == NULL)
		return false;
	if (best->name != NULL)
		*out_name = best->name;
	if (best->email != NULL)
		*out_email = best->email;
	return strcmp(*out_name ? *out_name : "", name ? name : "") != 0 ||
	    strcmp(*out_email, email) != 0;
}

void
mlq__mailmap_apply(const struct mlq_mailmap *mm, struct mlq_msg *m)
{
	const char *name, *email;

	if (mm == NULL)
		return;
	/* The author of a patch posted by someone else is a person too. */
	if (m->author.email != NULL && mlq_mailmap_lookup(mm, m->author.name,
					   m->author.email, &name, &email)) {
		m->unmapped = m->author;
		m->author.name = name;
		m->author.email = email;
	}
	if (!mlq_mailmap_lookup(mm, m->from.name, m->from.email, &name, &email))
		return;
	if (m->author.email == NULL)
		m->unmapped = m->from;
	m->from.name = name;
	m->from.email = email;
}
