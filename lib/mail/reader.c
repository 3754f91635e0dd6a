#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "mlq-int.h"

/* Bytes per read(2) and per inflate output: few syscalls, little memory. */
#define READER_CHUNK (256u * 1024)

struct mlq_reader {
	char *path;	  /* as opened, for messages */
	const char *name; /* the stream being read, for messages */
	/* The stream being read: a file, a file of the directory, stdin. */
	int fd;
	bool open;
	bool gz;
	bool zend;    /* a gzip member ended; another may follow */
	bool raw_eof; /* read(2) gave 0 */
	bool eof;     /* no content left */
	z_stream z;
	unsigned char *zbuf; /* compressed input, READER_CHUNK */
	uint64_t consumed;   /* bytes read(2) from the stream */
	struct mlq_err pend; /* a stream error seen after some content */
	/* Content (inflated if need be) not yet split. */
	char *out;
	size_t outlen;
	size_t outoff;
	struct mlq__split split;
	/* A directory: its files, one message each. */
	char **files;
	size_t nfiles;
	size_t fileidx;
	bool is_dir;
	uint64_t done;	/* bytes of the files already read */
	uint64_t total; /* size of the file, or of the directory's files */
};

static void
reader_stream_close(struct mlq_reader *r)
{
	if (!r->open)
		return;
	if (r->fd != STDIN_FILENO)
		close(r->fd);
	if (r->gz)
		inflateEnd(&r->z);
	r->done += r->consumed;
	r->consumed = 0;
	r->open = r->gz = false;
}

/* Reads raw bytes into p; 0 at the end. */
static enum mlq_status
reader_read(struct mlq_reader *r, void *p, size_t n, size_t *got,
    struct mlq_err *err)
{
	ssize_t k;

	do
		k = read(r->fd, p, n);
	while (k == -1 && errno == EINTR);
	if (k == -1)
		return mlq_err_set(err, MLQ_EIO, "'%s': read: %s", r->name,
		    strerror(errno));
	*got = (size_t)k;
	r->consumed += (uint64_t)k;
	return MLQ_OK;
}

/* A zlib failure as a status, stored in err. */
static enum mlq_status
reader_zerr(struct mlq_reader *r, int ret, struct mlq_err *err)
{
	if (ret == Z_MEM_ERROR)
		return mlq_err_set(err, MLQ_ENOMEM, "'%s': gzip: out of memory",
		    r->name);
	return mlq_err_set(err, MLQ_EINPUT, "'%s': gzip: %s", r->name,
	    r->z.msg != NULL ? r->z.msg : "corrupt data");
}

/* Inflates into the free end of r->out; sets r->eof after the last member. */
static enum mlq_status
reader_inflate(struct mlq_reader *r, struct mlq_err *err)
{
	enum mlq_status st;
	size_t got;
	int ret;

	r->z.next_out = (unsigned char *)r->out + r->outlen;
	r->z.avail_out = (uInt)(READER_CHUNK - r->outlen);
	while (r->z.avail_out > 0) {
		if (r->z.avail_in == 0) {
			if (r->raw_eof) {
				if (r->zend) {
					r->eof = true;
					break;
				}
				st = mlq_err_set(err, MLQ_EINPUT,
				    "'%s': gzip: unexpected end of file",
				    r->name);
				goto out;
			}
			st = reader_read(r, r->zbuf, READER_CHUNK, &got, err);
			if (st != MLQ_OK)
				goto out;
			r->raw_eof = got == 0;
			r->z.next_in = r->zbuf;
			r->z.avail_in = (uInt)got;
			continue;
		}
		/* Concatenated members (gzip a >> b) are one stream. */
		if (r->zend && (ret = inflateReset(&r->z)) != Z_OK) {
			st = reader_zerr(r, ret, err);
			goto out;
		}
		r->zend = false;
		ret = inflate(&r->z, Z_NO_FLUSH);
		if (ret == Z_STREAM_END)
			r->zend = true;
		else if (ret != Z_OK && ret != Z_BUF_ERROR) {
			st = reader_zerr(r, ret, err);
			goto out;
		}
	}
	st = MLQ_OK;
out:
	r->outlen = (size_t)((char *)r->z.next_out - r->out);
	return st;
}

/*
 * Appends content to r->out.  An error after some content is kept in
 * r->pend and reported by the next call, so that the messages before a
 * corrupt or cut gzip are read first.
 */
static enum mlq_status
reader_fill(struct mlq_reader *r, struct mlq_err *err)
{
	enum mlq_status st;
	size_t before = r->outlen, got;

	if (r->pend.status == MLQ_OK) {
		if (r->gz)
			st = reader_inflate(r, &r->pend);
		else if ((st = reader_read(r, r->out + r->outlen,
			      READER_CHUNK - r->outlen, &got, &r->pend)) ==
		    MLQ_OK) {
			r->outlen += got;
			r->eof = got == 0;
		}
		if (st == MLQ_OK || r->outlen > before)
			return MLQ_OK;
	}
	r->eof = true;
	st = mlq_err_set(err, r->pend.status, "%s", r->pend.msg);
	mlq_err_clear(&r->pend);
	return st;
}

/*
 * Opens a stream (fd taken) and reads its start: gzip or not, and for the
 * content, mbox or one message.
 */
static enum mlq_status
reader_stream_open(struct mlq_reader *r, int fd, const char *name, bool one,
    struct mlq_err *err)
{
	enum mlq_status st;
	int ret;

	r->fd = fd;
	r->name = name;
	r->open = true;
	r->gz = r->zend = r->raw_eof = r->eof = false;
	r->consumed = 0;
	r->outlen = r->outoff = 0;
	mlq_err_clear(&r->pend);
	while (r->outlen < 2 && !r->eof) {
		if ((st = reader_fill(r, err)) != MLQ_OK)
			return st;
	}
	if (r->outlen >= 2 && (unsigned char)r->out[0] == 0x1f &&
	    (unsigned char)r->out[1] == 0x8b) {
		if (r->zbuf == NULL && (r->zbuf = malloc(READER_CHUNK)) == NULL)
			return mlq_err_set(err, MLQ_ENOMEM,
			    "'%s': out of memory", name);
		memset(&r->z, 0, sizeof(r->z));
		if ((ret = inflateInit2(&r->z, 15 + 16)) != Z_OK)
			return reader_zerr(r, ret, err);
		r->gz = true;
		memcpy(r->zbuf, r->out, r->outlen);
		r->z.next_in = r->zbuf;
		r->z.avail_in = (uInt)r->outlen;
		r->outlen = 0;
		r->raw_eof = r->eof;
		r->eof = false;
	}
	while (r->outlen < 5 && !r->eof) {
		if ((st = reader_fill(r, err)) != MLQ_OK)
			return st;
	}
	mlq__split_reset(&r->split,
	    !one && r->outlen >= 5 && memcmp(r->out, "From ", 5) == 0
		? MLQ__SPLIT_MBOX
		: MLQ__SPLIT_ONE);
	return MLQ_OK;
}

/* Opens path as a stream; one message if 'one'. */
static enum mlq_status
reader_stream_path(struct mlq_reader *r, const char *path, bool one,
    struct mlq_err *err)
{
	enum mlq_status st;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return mlq_err_set(err, MLQ_EIO, "'%s': %s", path,
		    strerror(errno));
	st = reader_stream_open(r, fd, path, one, err);
	if (st != MLQ_OK)
		reader_stream_close(r);
	return st;
}

enum mlq_status
mlq_reader_open(const char *path, struct mlq_reader **out, struct mlq_err *err)
{
	struct mlq_reader *r;
	enum mlq_status st;
	struct stat sb;

	*out = NULL;
	if ((r = calloc(1, sizeof(*r))) == NULL ||
	    (r->path = strdup(path)) == NULL ||
	    (r->out = malloc(READER_CHUNK)) == NULL) {
		mlq_reader_close(r);
		return mlq_err_set(err, MLQ_ENOMEM, "'%s': out of memory",
		    path);
	}
	r->fd = -1;
	mlq__split_init(&r->split, MLQ__SPLIT_ONE);
	if (strcmp(path, "-") == 0) {
		if (fstat(STDIN_FILENO, &sb) == 0 && S_ISREG(sb.st_mode))
			r->total = (uint64_t)sb.st_size;
		st = reader_stream_open(r, STDIN_FILENO, "<stdin>", false, err);
	} else if (stat(path, &sb) == -1) {
		st = mlq_err_set(err, MLQ_EIO, "'%s': %s", path,
		    strerror(errno));
	} else if (S_ISDIR(sb.st_mode)) {
		r->is_dir = true;
		st = mlq__dir_list(path, &r->files, &r->nfiles, &r->total, err);
	} else {
		r->total = S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
		st = reader_stream_path(r, r->path, false, err);
	}
	if (st != MLQ_OK) {
		mlq_reader_close(r);
		return st;
	}
	*out = r;
	return MLQ_OK;
}

/* Lends the message the splitter holds, or says why it is skipped. */
static enum mlq_status
reader_hand(struct mlq_reader *r, const char **msg, size_t *len, uint64_t *pos,
    struct mlq_err *err)
{
	const struct mlq__split *s = &r->split;

	*pos = r->is_dir ? r->fileidx + 1 : s->count;
	switch (s->fail) {
	case MLQ_OK:
		*msg = s->msg.data;
		*len = s->msg.len;
		return MLQ_OK;
	case MLQ_EINPUT:
		return mlq_err_set(err, MLQ_EINPUT,
		    "'%s': message %llu: larger than %u bytes", r->name,
		    (unsigned long long)*pos, (unsigned)MLQ_MAX_MESSAGE_BYTES);
	default:
		return mlq_err_set(err, s->fail,
		    "'%s': message %llu: out of memory", r->name,
		    (unsigned long long)*pos);
	}
}

enum mlq_status
mlq_reader_next(struct mlq_reader *r, const char **msg, size_t *len,
    uint64_t *pos, struct mlq_err *err)
{
	enum mlq_status st;
	size_t used;

	*msg = NULL;
	*len = 0;
	*pos = 0;
	for (;;) {
		if (!r->open) {
			if (!r->is_dir || r->fileidx == r->nfiles)
				return MLQ_NOTFOUND;
			st = reader_stream_path(r, r->files[r->fileidx], true,
			    err);
			if (st != MLQ_OK) {
				*pos = ++r->fileidx;
				return st;
			}
		}
		if (r->outoff < r->outlen) {
			if (mlq__split_step(&r->split, r->out + r->outoff,
				r->outlen - r->outoff, &used)) {
				r->outoff += used;
				return reader_hand(r, msg, len, pos, err);
			}
			r->outoff += used;
			continue;
		}
		if (!r->eof) {
			r->outoff = r->outlen = 0;
			if ((st = reader_fill(r, err)) != MLQ_OK) {
				*pos = r->is_dir ? r->fileidx + 1
						 : r->split.count + 1;
				reader_stream_close(r);
				if (r->is_dir)
					r->fileidx++;
				return st;
			}
			continue;
		}
		if (mlq__split_end(&r->split))
			return reader_hand(r, msg, len, pos, err);
		reader_stream_close(r);
		if (!r->is_dir)
			return MLQ_NOTFOUND;
		r->fileidx++;
	}
}

void
mlq_reader_progress(const struct mlq_reader *r, uint64_t *done, uint64_t *total)
{
	*done = r->done + r->consumed;
	*total = r->total;
}

void
mlq_reader_close(struct mlq_reader *r)
{
	size_t i;

	if (r == NULL)
		return;
	reader_stream_close(r);
	for (i = 0; i < r->nfiles; i++)
		free(r->files[i]);
	free(r->files);
	mlq__split_release(&r->split);
	free(r->zbuf);
	free(r->out);
	free(r->path);
	free(r);
}
