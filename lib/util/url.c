#include "config.h"

#include <string.h>

#include "mlq.h"

void
mlq_url_redact(struct mlq_buf *b, const char *url)
{
	const char *rest, *end, *at, *colon;

	rest = strstr(url, "://");
	if (rest == NULL) {
		mlq_buf_addstr(b, url);
		return;
	}
	rest += 3;
	end = rest + strcspn(rest, "/?#");
	/* The last '@' of the authority ends the userinfo. */
	at = NULL;
	for (colon = rest; colon < end; colon++)
		if (*colon == '@')
			at = colon;
	colon = at != NULL ? memchr(rest, ':', (size_t)(at - rest)) : NULL;
	if (colon == NULL) {
		mlq_buf_addstr(b, url);
		return;
	}
	mlq_buf_add(b, url, (size_t)(colon + 1 - url));
	mlq_buf_addstr(b, "***");
	mlq_buf_addstr(b, at);
}
