/* Raw mail is kept deflated: mail text shrinks to about a quarter. */
#include "config.h"

#include <string.h>

#include <zlib.h>

#include "mlq-int.h"

/* Level 6 costs little more CPU than 1 here and saves a sixth of the bytes. */
#ifndef MLQ_ZRAW_LEVEL
#define MLQ_ZRAW_LEVEL 6
#endif

enum mlq_status
mlq_zraw_pack(const char *raw, size_t len, struct mlq_arena *a,
    const unsigned char **out, size_t *outlen, struct mlq_err *err)
{
	uLongf cap;
	unsigned char *buf;
	int rc;

	if (len > UINT32_MAX)
		return mlq_err_set(err, MLQ_EINPUT, "message too large to store");
	cap = compressBound((uLong)len);
	buf = mlq_arena_alloc(a, cap);
	if (buf == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	rc = compress2(buf, &cap, (const Bytef *)raw, (uLong)len, MLQ_ZRAW_LEVEL);
	if (rc != Z_OK)
		return mlq_err_set(err, MLQ_ENOMEM, "deflate: %s", zError(rc));
	*out = buf;
	*outlen = cap;
	return MLQ_OK;
}

enum mlq_status
mlq_zraw_unpack(const void *z, size_t zlen, size_t rawlen, struct mlq_buf *out,
    struct mlq_err *err)
{
	uLongf n = (uLongf)rawlen;
	size_t start = out->len;
	int rc;

	if (!mlq_buf_grow(out, rawlen))
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	rc = uncompress((Bytef *)out->data + start, &n, z, (uLong)zlen);
	if (rc != Z_OK || n != rawlen) {
		out->data[start] = '\0';
		return mlq_err_set(err, MLQ_EDB, "stored message is corrupt: %s",
		    rc != Z_OK ? zError(rc) : "wrong length");
	}
	out->len = start + rawlen;
	out->data[out->len] = '\0';
	return MLQ_OK;
}
