/*
 * Without libFuzzer, a fuzz target runs over the files named on the
 * command line (directories: every file below them), so `make check`
 * replays the fixtures and the broken-mail corpus under the sanitizers.
 * With MLQ_FUZZ_VERBOSE set, each file's name goes to stderr first, so
 * the last one named is the input that failed.
 */
#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long replayed;
static bool verbose; /* MLQ_FUZZ_VERBOSE set: each file's name first */

static void
replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	char chunk[65536];

	if (f == NULL)
		return;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (len + n > cap) {
			cap = (len + n) * 2;
			if ((buf = realloc(buf, cap)) == NULL)
				abort();
		}
		memcpy(buf + len, chunk, n);
		len += n;
	}
	fclose(f);
	if (verbose)
		fprintf(stderr, "%s\n", path);
	LLVMFuzzerTestOneInput((const uint8_t *)(buf ? buf : ""), len);
	free(buf);
	replayed++;
}

static void
replay(const char *path)
{
	struct stat sb;
	struct dirent *de;
	DIR *d;
	char sub[4096];

	if (stat(path, &sb) != 0)
		return;
	if (!S_ISDIR(sb.st_mode)) {
		replay_file(path);
		return;
	}
	if ((d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path,
			de->d_name) < sizeof(sub))
			replay(sub);
	}
	closedir(d);
}

int
main(int argc, char **argv)
{
	int i;

	verbose = getenv("MLQ_FUZZ_VERBOSE") != NULL;
	for (i = 1; i < argc; i++)
		replay(argv[i]);
	printf("replayed %lu inputs\n", replayed);
	return 0;
}
