/*
 * Fuzz target: trailer parsing.  Checked: known keys only, lines in
 * order and inside the text, values taken from the text, addresses
 * lower-cased, no name or address for Fixes: and Link:.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "mlq-limits.h"
#include "mlq.h"

static const char *const keys[] = { "Signed-off-by", "Acked-by", "Reviewed-by",
	"Tested-by", "Nacked-by", "Reported-by", "Suggested-by",
	"Co-developed-by", "Cc", "Fixes", "Link" };

static bool
known_key(const char *k, bool *person)
{
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(k, keys[i]) == 0) {
			*person =
			    strcmp(k, "Fixes") != 0 && strcmp(k, "Link") != 0;
			return true;
		}
	return false;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct mlq_arena *a;
	struct mlq_trailer *t;
	size_t n, i, lines = 1, last = 0;
	bool person;
	const char *c;

	if ((a = mlq_arena_new()) == NULL)
		return 0;
	for (i = 0; i < size; i++)
		lines += text[i] == '\n';
	if (mlq_trailer_parse(text, size, a, &t, &n, NULL) != MLQ_OK)
		goto out;
	FUZZ_CHECK(n <= MLQ_MAX_ADDRS);
	for (i = 0; i < n; i++) {
		FUZZ_CHECK(known_key(t[i].key, &person));
		FUZZ_CHECK(t[i].line > last && t[i].line <= lines);
		last = t[i].line;
		FUZZ_CHECK(t[i].value[0] != '\0');
		FUZZ_CHECK(
		    memmem(text, size, t[i].value, strlen(t[i].value)) != NULL);
		FUZZ_CHECK(strchr(t[i].value, '\n') == NULL);
		FUZZ_CHECK(t[i].name != NULL && t[i].email != NULL);
		if (!person)
			FUZZ_CHECK(
			    t[i].name[0] == '\0' && t[i].email[0] == '\0');
		for (c = t[i].email; *c != '\0'; c++)
			FUZZ_CHECK(!(*c >= 'A' && *c <= 'Z'));
	}
out:
	mlq_arena_free(a);
	return 0;
}
