/*
 * Fuzz target: the reply classifier, as a reviewer and as the patch's own
 * author.  Checked: evidence comes one per tag in bit order, folded to
 * one line; the author never questions, asks changes of, acks, reviews
 * or tests his own patch (mlq.h).
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "mlq.h"

#define ALL_TAGS ((1u << MLQ_TAG_COUNT) - 1)
#define OTHERS_ONLY                                                            \
	(MLQ_TAG_QUESTION | MLQ_TAG_CHANGES | MLQ_TAG_ACK | MLQ_TAG_REVIEWED | \
	    MLQ_TAG_TESTED)

static unsigned
classify(const uint8_t *data, size_t size, bool by_submitter)
{
	struct mlq_arena *a;
	struct mlq_evidence *ev;
	unsigned tags, seen = 0, last = 0;
	size_t nev, i, ntagged = 0;

	if ((a = mlq_arena_new()) == NULL)
		return 0;
	if (mlq_classify_reply((const char *)data, size, by_submitter, a, &tags,
		&ev, &nev, NULL) != MLQ_OK) {
		FUZZ_CHECK(tags == 0 && nev == 0);
		mlq_arena_free(a);
		return 0;
	}
	FUZZ_CHECK((tags & ~ALL_TAGS) == 0);
	for (i = 0; i < nev; i++) {
		FUZZ_CHECK(ev[i].line != NULL && ev[i].rule != NULL);
		if (ev[i].tag == 0) {
			/* The greeting: last, once, for a question or changes. */
			FUZZ_CHECK(i == nev - 1);
			FUZZ_CHECK(tags & (MLQ_TAG_QUESTION | MLQ_TAG_CHANGES));
			continue;
		}
		FUZZ_CHECK((ev[i].tag & (ev[i].tag - 1)) == 0);
		FUZZ_CHECK(ev[i].tag > last);
		FUZZ_CHECK(mlq_tag_name(ev[i].tag) != NULL);
		FUZZ_CHECK(strpbrk(ev[i].line, "\n\r\t") == NULL);
		last = ev[i].tag;
		seen |= ev[i].tag;
		ntagged++;
	}
	FUZZ_CHECK(seen == tags);
	FUZZ_CHECK(ntagged == (size_t)__builtin_popcount(tags));
	mlq_arena_free(a);
	return tags;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned own;

	classify(data, size, false);
	own = classify(data, size, true);
	FUZZ_CHECK((own & OTHERS_ONLY) == 0);
	return 0;
}
