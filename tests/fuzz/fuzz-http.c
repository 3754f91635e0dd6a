/*
 * Fuzz target: a public-inbox search's answer as mlqd reads it, gzipped
 * mboxrd through inflate into the mbox splitter (daemon/wire.c).
 * Checked: the input gzipped as two concatenated members and fed in
 * uneven pieces gives the messages the plain text gives.  An input that
 * is itself gzip is fed as it comes: it may be refused, never crash.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "fuzz/fuzz.h"
#include "wire.h"

static enum mlq_status
keep(const char *msg, size_t len, void *arg)
{
	fuzz_msgs_add(arg, msg, len);
	return MLQ_OK;
}

/* Appends p[0..n) to out as one gzip member. */
static void
gzip_member(const uint8_t *p, size_t n, unsigned char **out, size_t *len)
{
	z_stream z;
	size_t max;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 8,
		Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	max = deflateBound(&z, n) + 32;
	if ((*out = realloc(*out, *len + max)) == NULL)
		abort();
	z.next_in = (unsigned char *)(uintptr_t)p;
	z.avail_in = (uInt)n;
	z.next_out = *out + *len;
	z.avail_out = (uInt)max;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	*len += max - z.avail_out;
	deflateEnd(&z);
}

/* Feeds gz in pieces as src-http.c does; the status of the first failure. */
static enum mlq_status
feed_gzip(const unsigned char *gz, size_t len, struct fuzz_msgs *msgs)
{
	struct mlq_mbox_split *s;
	struct mlq_err err = { MLQ_OK, "" };
	enum mlq_status st = MLQ_OK;
	size_t off, n, step = 1;
	z_stream z;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK ||
	    mlq_mbox_split_new(keep, msgs, &s, NULL) != MLQ_OK)
		abort();
	for (off = 0; off < len && st == MLQ_OK; off += n) {
		n = len - off < step ? len - off : step;
		st = wire_gunzip_feed(&z, s, (const char *)gz + off, n, "fuzz",
		    &err);
		step = fuzz_step(step);
	}
	if (st == MLQ_OK)
		st = mlq_mbox_split_finish(s, &err);
	FUZZ_CHECK(st == MLQ_OK || (err.status == st && err.msg[0] != '\0'));
	inflateEnd(&z);
	mlq_mbox_split_free(s);
	return st;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_msgs plain = { 0 }, inflated = { 0 };
	struct mlq_mbox_split *s;
	unsigned char *gz = NULL;
	size_t gzlen = 0;

	if (wire_is_gzip((const char *)data, size)) {
		feed_gzip(data, size, &inflated);
		fuzz_msgs_release(&inflated);
		return 0;
	}
	if (mlq_mbox_split_new(keep, &plain, &s, NULL) != MLQ_OK)
		abort();
	if (mlq_mbox_split_feed(s, (const char *)data, size, NULL) != MLQ_OK ||
	    mlq_mbox_split_finish(s, NULL) != MLQ_OK)
		abort();
	mlq_mbox_split_free(s);
	gzip_member(data, size / 2, &gz, &gzlen);
	gzip_member(data + size / 2, size - size / 2, &gz, &gzlen);
	FUZZ_CHECK(wire_is_gzip((const char *)gz, gzlen));
	FUZZ_CHECK(feed_gzip(gz, gzlen, &inflated) == MLQ_OK);
	FUZZ_CHECK(fuzz_msgs_equal(&plain, &inflated));
	free(gz);
	fuzz_msgs_release(&plain);
	fuzz_msgs_release(&inflated);
	return 0;
}
