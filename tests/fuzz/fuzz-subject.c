/*
 * Fuzz target: subject parsing.  Checked: title and norm are folded
 * (single spaces, none at the ends), norm is title lower-cased byte for
 * byte, numbers stay in their bounds, a revert has its quoted title.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "mlq.h"

static void
check_folded(const char *s)
{
	size_t n = strlen(s), i;

	FUZZ_CHECK(n == 0 || (s[0] != ' ' && s[n - 1] != ' '));
	FUZZ_CHECK(strstr(s, "  ") == NULL);
	for (i = 0; i < n; i++)
		FUZZ_CHECK(s[i] != '\t' && s[i] != '\r' && s[i] != '\n');
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	struct mlq_arena *a;
	struct mlq_subject sj;
	size_t i;

	if ((a = mlq_arena_new()) == NULL) {
		free(s);
		return 0;
	}
	if (mlq_subject_parse(s, a, &sj, NULL) == MLQ_OK) {
		FUZZ_CHECK(
		    sj.title != NULL && sj.norm != NULL && sj.prefix != NULL);
		check_folded(sj.title);
		check_folded(sj.norm);
		FUZZ_CHECK(strlen(sj.norm) == strlen(sj.title));
		for (i = 0; sj.title[i] != '\0'; i++) {
			char c = sj.title[i];

			FUZZ_CHECK(sj.norm[i] ==
			    (c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
		}
		FUZZ_CHECK(sj.version >= 1 && sj.version <= 99999);
		FUZZ_CHECK(sj.index >= 0 && sj.index <= 99999);
		FUZZ_CHECK(sj.total >= 0 && sj.total <= 99999);
		FUZZ_CHECK((sj.revert_depth == 0) == (sj.reverted == NULL));
		FUZZ_CHECK(sj.revert_depth >= 0);
		if (sj.reverted != NULL)
			FUZZ_CHECK(strlen(sj.reverted) < strlen(sj.title));
	}
	mlq_arena_free(a);
	free(s);
	return 0;
}
