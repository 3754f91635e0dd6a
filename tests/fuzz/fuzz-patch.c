/*
 * Fuzz target: the patch parser.  Checked: counts add up over the files,
 * the patch id is 40 hex digits or empty, and the diff found at
 * diff_start is found again in the text from there, with the same id
 * when that is where git patch-id starts too.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "mlq-limits.h"
#include "mlq.h"

static bool
is_patch_id(const char *id)
{
	size_t i;

	if (id[0] == '\0')
		return true;
	for (i = 0; i < 40; i++)
		if (!((id[i] >= '0' && id[i] <= '9') ||
			(id[i] >= 'a' && id[i] <= 'f')))
			return false;
	return id[40] == '\0';
}

/* Whether a line of text[0..n) starts "diff ". */
static bool
has_diff_line(const char *text, size_t n)
{
	const char *p = text, *nl;

	while (p < text + n) {
		if ((size_t)(text + n - p) >= 5 && memcmp(p, "diff ", 5) == 0)
			return true;
		if ((nl = memchr(p, '\n', (size_t)(text + n - p))) == NULL)
			break;
		p = nl + 1;
	}
	return false;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct mlq_arena *a;
	struct mlq_patch p, again;
	bool found, found2;
	long ins = 0, del = 0;
	size_t i;

	if ((a = mlq_arena_new()) == NULL)
		return 0;
	if (mlq_patch_parse(text, size, a, &p, &found, NULL) != MLQ_OK)
		goto out;
	if (!found) {
		FUZZ_CHECK(p.nfiles == 0 && p.patch_id[0] == '\0');
		goto out;
	}
	FUZZ_CHECK(p.diff_start < size);
	FUZZ_CHECK(is_patch_id(p.patch_id));
	FUZZ_CHECK(p.insertions >= 0 && p.deletions >= 0);
	FUZZ_CHECK(p.nfiles <= MLQ_MAX_PATCH_FILES);
	for (i = 0; i < p.nfiles; i++) {
		FUZZ_CHECK(p.files[i].path != NULL);
		FUZZ_CHECK(p.files[i].insertions >= 0);
		FUZZ_CHECK(p.files[i].deletions >= 0);
		ins += p.files[i].insertions;
		del += p.files[i].deletions;
	}
	FUZZ_CHECK(ins <= p.insertions && del <= p.deletions);
	if (p.nfiles < MLQ_MAX_PATCH_FILES)
		FUZZ_CHECK(ins == p.insertions && del == p.deletions);
	/* What precedes the diff does not change it. */
	if (mlq_patch_parse(text + p.diff_start, size - p.diff_start, a, &again,
		&found2, NULL) != MLQ_OK)
		goto out;
	FUZZ_CHECK(found2 && again.diff_start == 0);
	FUZZ_CHECK(again.nfiles == p.nfiles);
	/*
	 * git patch-id starts at the first line starting "diff ": the same
	 * when the diff starts there and no prose line before it does (a
	 * quilt diff's "diff -u" line comes before the "---" it starts at).
	 */
	if (size - p.diff_start >= 5 &&
	    memcmp(text + p.diff_start, "diff ", 5) == 0 &&
	    !has_diff_line(text, p.diff_start))
		FUZZ_CHECK(strcmp(again.patch_id, p.patch_id) == 0);
out:
	mlq_arena_free(a);
	return 0;
}
