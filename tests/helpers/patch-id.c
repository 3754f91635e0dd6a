/*
 * patch-id FILE...: mlq's patch id of each file, one a line ("none" where
 * it finds no diff), as `git patch-id --stable` prints its first.  For
 * T158, which holds the two side by side.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "mlq-int.h"

int
main(int argc, char **argv)
{
	char *buf = NULL, out[41];
	size_t len, cap = 0, n;
	FILE *f;
	int i;

	for (i = 1; i < argc; i++) {
		if ((f = fopen(argv[i], "rb")) == NULL) {
			perror(argv[i]);
			return 1;
		}
		for (len = 0;;) {
			if (len == cap && (buf = realloc(buf, cap = cap * 2 +
					       65536)) == NULL)
				abort();
			if ((n = fread(buf + len, 1, cap - len, f)) == 0)
				break;
			len += n;
		}
		fclose(f);
		puts(mlq__git_patch_id(buf, len, out) ? out : "none");
	}
	free(buf);
	return 0;
}
