/*
 * What the review engine (lib/store/store-review.c) assumes of the classifier:
 * a reply classified as its submitter's own gets exactly the tags it gets
 * as anyone else's, less MLQ__TAG_OTHERS_ONLY, with the same evidence.
 * The store therefore classifies once, at parse time, and masks.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlq-int.h"
#include "mbox-util.h"
#include "tap.h"

static void
check_text(const char *name, const char *text, size_t len)
{
	struct mlq_arena *a = mlq_arena_new();
	struct mlq_evidence *eo, *es;
	size_t no, ns, i, j;
	unsigned to, ts;
	bool same = true;

	if (a == NULL ||
	    mlq_classify_reply(text, len, false, a, &to, &eo, &no, NULL) !=
		MLQ_OK ||
	    mlq_classify_reply(text, len, true, a, &ts, &es, &ns, NULL) !=
		MLQ_OK) {
		ok(0, "%s: classify", name);
		mlq_arena_free(a);
		return;
	}
	is_int(ts, to & ~(unsigned)MLQ__TAG_OTHERS_ONLY,
	    "%s: submitter's tags are the others' less the others-only ones",
	    name);
	/* Rows of tag 0 are the review engine's markers, not evidence. */
	for (i = 0, j = 0; i < no; i++) {
		if ((eo[i].tag & MLQ__TAG_OTHERS_ONLY) || eo[i].tag == 0)
			continue;
		while (j < ns && es[j].tag == 0)
			j++;
		same = same && j < ns && es[j].tag == eo[i].tag &&
		    strcmp(es[j].line, eo[i].line) == 0 &&
		    strcmp(es[j].rule, eo[i].rule) == 0;
		j++;
	}
	while (j < ns && es[j].tag == 0)
		j++;
	ok(same && j == ns, "%s: the same evidence for the kept tags", name);
	mlq_arena_free(a);
}

int
main(void)
{
	static const char *const extra[] = {
		"NACK. I'm NAKing this; could you send a v2? Applied, thanks!\n",
		"Acked-by: A <a@example.org>\nReviewed-by: B <b@example.org>\n"
		"Tested-by: C <c@example.org>\nWhy is this needed?\n",
		"ping?\n",
	};
	const char *src = getenv("top_srcdir");
	char dir[4096], path[4200], **names;
	size_t n = 0, i, len;
	char *text;

	for (i = 0; i < MLQ__ARRAY_SIZE(extra); i++) {
		snprintf(path, sizeof(path), "inline %zu", i);
		check_text(path, extra[i], strlen(extra[i]));
	}
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/classify",
	    src ? src : ".");
	if ((names = tmail_list_dir(dir, ".txt", &n)) == NULL) {
		ok(0, "fixture directory %s", dir);
		return done_testing();
	}
	ok(n >= 40, "at least 40 classify fixtures (%zu)", n);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if ((text = tmail_read(path, &len)) == NULL)
			ok(0, "read %s", path);
		else
			check_text(names[i], text, len);
		free(text);
		free(names[i]);
	}
	free(names);
	return done_testing();
}
