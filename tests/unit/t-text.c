#include "config.h"

#include <string.h>

#include "mlq-int.h"
#include "tap.h"

static const char *
escaped(struct mlq_buf *b, const char *s)
{
	mlq_buf_reset(b);
	mlq_text_escape(b, s, strlen(s));
	return b->data;
}

int
main(void)
{
	struct mlq_buf b;
	struct mlq_arena *a;
	int *arr = NULL;
	size_t i;

	mlq_buf_init(&b);
	is_str(escaped(&b, "plain"), "plain", "ascii passes");
	is_str(escaped(&b, "\x1b]0;owned\x07title"), "\\e]0;owned\\x07title",
	    "ESC and BEL are made visible");
	is_str(escaped(&b, "caf\xc3\xa9"), "caf\xc3\xa9", "UTF-8 passes");
	is_str(escaped(&b, "a\xc2\x9b" "31m"), "a\\u009b31m", "C1 CSI is made visible");
	is_str(escaped(&b, "bad\xff"), "bad\xef\xbf\xbd", "invalid byte becomes U+FFFD");
	is_str(escaped(&b, "tab\there"), "tab here", "tab becomes a space");
	mlq_buf_reset(&b);
	mlq_text_utf8_clean(&b, "x\xe2\x82y", 4);
	is_str(b.data, "x\xef\xbf\xbd\xef\xbf\xbdy", "truncated sequence is replaced");
	mlq_buf_reset(&b);
	mlq_buf_addf(&b, "%d-%s", 42, "x");
	is_str(b.data, "42-x", "addf formats");
	ok(mlq_text_has_prefix_ci("Re: x", 5, "RE:"), "prefix is case-insensitive");
	ok(!mlq_text_has_prefix_ci("R", 1, "RE:"), "short input is no prefix");

	/* Address terms: "edu.umn.cs." and "pakki001" in hex. */
	mlq_buf_reset(&b);
	mlq__addr_term(&b, 'f', "CS.umn.edu.", "Pakki001@x", 8);
	is_str(b.data, "f6564752e756d6e2e63732e" "g70616b6b69303031",
	    "address term: role, reversed domain, local part, lower-cased");
	mlq_buf_reset(&b);
	mlq__addr_term(&b, 'a', "umn.edu", NULL, 0);
	is_str(b.data, "a6564752e756d6e2e", "a domain alone is the prefix");
	mlq_buf_reset(&b);
	mlq__addr_term(&b, 'a', "", "root", 4);
	is_str(b.data, "ag726f6f74", "no domain: the role, then the local part");
	mlq_buf_release(&b);

	a = mlq_arena_new();
	for (i = 0; i < 1000; i++) {
		arr = mlq_arena_grow(a, arr, i, sizeof(*arr));
		arr[i] = (int)i;
	}
	for (i = 0; i < 1000 && arr[i] == (int)i; i++)
		;
	is_int((long long)i, 1000, "arena array keeps its items while growing");
	is_str(mlq_arena_strndup(a, "abcdef", 3), "abc", "strndup cuts");
	mlq_arena_free(a);
	return done_testing();
}
