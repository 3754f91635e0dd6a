/*
 * Fuzz target: new.atom as mlqd's HTTP fallback reads it (daemon/wire.c).
 * Checked: each url is the entry's link with "/raw" put after it, holds
 * no quote, and is updated no earlier than the cursor asked for.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "wire.h"

struct atom_check {
	const char *feed;
	bool have_since;
	int64_t since;
	size_t n;
};

static void
entry(char *url, int64_t updated, void *arg)
{
	struct atom_check *c = arg;
	size_t len = strlen(url);

	FUZZ_CHECK(len >= 4 && strcmp(url + len - 4, "/raw") == 0);
	FUZZ_CHECK(strchr(url, '"') == NULL);
	FUZZ_CHECK(!c->have_since || updated >= c->since);
	/* At most the link, a '/' and "raw": &amp; only shortens it. */
	FUZZ_CHECK(len <= strlen(c->feed));
	c->n++;
	free(url);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *feed = fuzz_str(data, size);
	struct atom_check all = { feed, false, 0, 0 };
	struct atom_check late = { feed, true, 1617700000, 0 };

	wire_atom_parse(feed, all.have_since, all.since, entry, &all);
	wire_atom_parse(feed, late.have_since, late.since, entry, &late);
	FUZZ_CHECK(late.n <= all.n);
	free(feed);
	return 0;
}
