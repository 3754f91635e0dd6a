/*
 * Fuzz target: one message through the whole parser (libetpan included).
 * Checked: a Message-Id always (without <>), text handed on as UTF-8,
 * and the deflated copy kept for the store parses to the same message.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "mlq.h"

static void
check_text(const char *s)
{
	FUZZ_CHECK(s != NULL);
	FUZZ_CHECK(fuzz_utf8_ok(s, strlen(s)));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mlq_msg *m = NULL, *s = NULL;
	size_t i;

	if (mlq_msg_parse((const char *)data, size, &m, NULL) != MLQ_OK)
		return 0;
	FUZZ_CHECK(m->msgid != NULL && m->msgid[0] != '\0');
	FUZZ_CHECK(strpbrk(m->msgid, "\r\n") == NULL);
	check_text(m->subject);
	check_text(m->subj.title);
	FUZZ_CHECK(m->body != NULL && fuzz_utf8_ok(m->body, m->body_len));
	check_text(m->from.name);
	for (i = 0; i < m->naddrs; i++)
		check_text(m->addrs[i].name);
	FUZZ_CHECK(m->raw_len == size);
	FUZZ_CHECK(m->nrefs == 0 || m->refs != NULL);
	if (m->zraw != NULL &&
	    mlq_msg_parse_stored(m->zraw, m->zraw_len, m->raw_len, &s, NULL) ==
		MLQ_OK) {
		FUZZ_CHECK(
		    strcmp(s->msgid, m->msgid) == 0 || m->msgid_synthetic);
		FUZZ_CHECK(strcmp(s->subject, m->subject) == 0);
		FUZZ_CHECK(s->body_len == m->body_len &&
		    memcmp(s->body, m->body, m->body_len) == 0);
		FUZZ_CHECK(s->tags == m->tags && s->nrefs == m->nrefs);
		mlq_msg_free(s);
	}
	mlq_msg_free(m);
	return 0;
}
