/*
 * Fuzz target: what mlqd does itself with IMAP (daemon/wire.c; libetpan
 * parses the protocol).  The first line is a url after "imap://" (after
 * "imaps://" if it starts with 's'), the rest a message body as a FETCH
 * hands it.  Checked: the url's parts fit their buffers and come from
 * it; unfolding drops exactly the CR of each CRLF and nothing else.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "wire.h"

static void
check_url(const char *line, size_t n)
{
	char url[1100], host[256], mailbox[512];
	bool tls;
	uint16_t port;
	int len;

	len = snprintf(url, sizeof(url), "%s%.*s",
	    n > 0 && line[0] == 's' ? "imaps://" : "imap://", (int)n, line);
	if (len < 0 || (size_t)len >= sizeof(url))
		return;
	memset(host, 'x', sizeof(host));
	memset(mailbox, 'x', sizeof(mailbox));
	if (wire_imap_url(url, &tls, host, sizeof(host), &port, mailbox,
		sizeof(mailbox), NULL) != MLQ_OK)
		return;
	FUZZ_CHECK(tls == (strncmp(url, "imaps://", 8) == 0));
	FUZZ_CHECK(host[0] != '\0' && strlen(host) < sizeof(host));
	FUZZ_CHECK(strpbrk(host, "/:") == NULL);
	FUZZ_CHECK(strstr(url, host) != NULL);
	FUZZ_CHECK(port != 0);
	FUZZ_CHECK(mailbox[0] != '\0' && strlen(mailbox) < sizeof(mailbox));
}

static void
check_unfold(const char *p, size_t n)
{
	size_t len, i, j;
	char *out;

	if ((out = wire_unfold_crlf(p, n, &len)) == NULL)
		abort();
	FUZZ_CHECK(out[len] == '\0' && len <= n);
	for (i = j = 0; i < n; i++) {
		if (p[i] == '\r' && i + 1 < n && p[i + 1] == '\n')
			continue;
		FUZZ_CHECK(j < len && out[j] == p[i]);
		j++;
	}
	FUZZ_CHECK(j == len);
	free(out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *nl;
	size_t first;

	nl = memchr(p, '\n', size);
	first = nl != NULL ? (size_t)(nl - p) : size;
	if (memchr(p, '\0', first) == NULL)
		check_url(p, first);
	check_unfold(p, size);
	return 0;
}
