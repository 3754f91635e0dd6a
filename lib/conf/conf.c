/*
 * The INI reader: streams (section, sub, key, value, file, line) to a
 * callback and knows no keys (those are conf-keys.c's), as git's config.c.
 * Also reading files, the default paths, and the secrets file.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlq-int.h"

static bool
conf_is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* Section and key names: letters, digits and '-', any case. */
static bool
conf_is_namech(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-';
}

/* Reads a name at *p into a lower-cased copy in b. */
static void
conf_name(const char **p, const char *end, struct mlq_buf *b)
{
	mlq_buf_reset(b);
	while (*p < end && conf_is_namech(**p))
		mlq_buf_addch(b, mlq__lower(*(*p)++));
}

/*
 * A double-quoted string at *p (past the opening quote): \" and \\ are
 * the only escapes.  False when the line ends first.
 */
static bool
conf_quoted(const char **p, const char *end, struct mlq_buf *b)
{
	mlq_buf_reset(b);
	while (*p < end && **p != '"') {
		if (**p == '\\' && *p + 1 < end &&
		    ((*p)[1] == '"' || (*p)[1] == '\\'))
			(*p)++;
		mlq_buf_addch(b, *(*p)++);
	}
	if (*p == end)
		return false;
	(*p)++;
	return true;
}

/* Nothing but blanks and a comment left on the line. */
static bool
conf_rest_is_empty(const char *p, const char *end)
{
	while (p < end && conf_is_space(*p))
		p++;
	return p == end || *p == ';' || *p == '#';
}

/*
 * An unquoted value ends at a ';' or '#' that follows a blank (so URLs
 * with '#' survive) or at the end of the line; trailing blanks go.
 */
static void
conf_plain_value(const char *p, const char *end, struct mlq_buf *b)
{
	const char *q = p;

	while (q < end) {
		if ((*q == ';' || *q == '#') && q > p && conf_is_space(q[-1]))
			break;
		q++;
	}
	while (q > p && conf_is_space(q[-1]))
		q--;
	mlq_buf_reset(b);
	mlq_buf_add(b, p, (size_t)(q - p));
}

struct conf_parser {
	const char *file;
	struct mlq_buf section, sub, key, value;
	bool in_section, has_sub;
};

static enum mlq_status
conf_header(struct conf_parser *ps, const char *p, const char *end,
    unsigned line, mlq__conf_fn fn, void *arg, struct mlq_err *err)
{
	struct mlq__conf_item it = { ps->file, line, NULL, NULL, NULL, NULL };

	p++;
	while (p < end && conf_is_space(*p))
		p++;
	conf_name(&p, end, &ps->section);
	if (ps->section.len == 0)
		return mlq_err_set(err, MLQ_EINPUT,
		    "%s:%u: expected a section name after '['", ps->file, line);
	while (p < end && conf_is_space(*p))
		p++;
	ps->has_sub = false;
	if (p < end && *p == '"') {
		p++;
		if (!conf_quoted(&p, end, &ps->sub))
			return mlq_err_set(err, MLQ_EINPUT,
			    "%s:%u: unterminated quote in section header",
			    ps->file, line);
		ps->has_sub = true;
		while (p < end && conf_is_space(*p))
			p++;
	}
	if (p == end || *p != ']' || !conf_rest_is_empty(p + 1, end))
		return mlq_err_set(err, MLQ_EINPUT,
		    "%s:%u: expected ']' to end the section header", ps->file,
		    line);
	if (ps->section.oom || ps->sub.oom)
		return mlq_err_set(err, MLQ_ENOMEM, "config: out of memory");
	ps->in_section = true;
	it.section = ps->section.data;
	it.sub = ps->has_sub ? ps->sub.data : NULL;
	return fn(&it, arg, err);
}

static enum mlq_status
conf_pair(struct conf_parser *ps, const char *p, const char *end, unsigned line,
    mlq__conf_fn fn, void *arg, struct mlq_err *err)
{
	struct mlq__conf_item it = { ps->file, line, NULL, NULL, NULL, NULL };

	conf_name(&p, end, &ps->key);
	while (p < end && conf_is_space(*p))
		p++;
	if (ps->key.len == 0 || p == end || *p != '=')
		return mlq_err_set(err, MLQ_EINPUT,
		    "%s:%u: expected 'key = value' or '[section]'", ps->file,
		    line);
	if (!ps->in_section)
		return mlq_err_set(err, MLQ_EINPUT,
		    "%s:%u: key '%s' outside any [section]", ps->file, line,
		    ps->key.data);
	p++;
	while (p < end && conf_is_space(*p))
		p++;
	if (p < end && *p == '"') {
		p++;
		if (!conf_quoted(&p, end, &ps->value))
			return mlq_err_set(err, MLQ_EINPUT,
			    "%s:%u: unterminated quote in value of '%s'",
			    ps->file, line, ps->key.data);
		if (!conf_rest_is_empty(p, end))
			return mlq_err_set(err, MLQ_EINPUT,
			    "%s:%u: text after the quoted value of '%s'",
			    ps->file, line, ps->key.data);
	} else {
		conf_plain_value(p, end, &ps->value);
	}
	if (ps->key.oom || ps->value.oom)
		return mlq_err_set(err, MLQ_ENOMEM, "config: out of memory");
	it.section = ps->section.data;
	it.sub = ps->has_sub ? ps->sub.data : NULL;
	it.key = ps->key.data;
	it.value = ps->value.data;
	return fn(&it, arg, err);
}

enum mlq_status
mlq__conf_errs_take(struct mlq__conf_errs *errs, enum mlq_status st,
    struct mlq_err *err)
{
	if (errs == NULL || st != MLQ_EINPUT)
		return st;
	errs->fn(err->msg, errs->arg);
	errs->n++;
	mlq_err_clear(err);
	return MLQ_OK;
}

enum mlq_status
mlq__conf_parse(const char *file, const char *text, size_t len, mlq__conf_fn fn,
    void *arg, struct mlq__conf_errs *errs, struct mlq_err *err)
{
	struct conf_parser ps;
	struct mlq_err own = { MLQ_OK, "" };
	const char *p = text, *end = text + len, *eol, *q;
	enum mlq_status st = MLQ_OK;
	unsigned line = 0;
	bool skip = false; /* the section's header failed */

	/* errs reports each error's text, which a NULL err would lose. */
	if (err == NULL)
		err = &own;
	/* One error for the whole text: its lines cannot be trusted. */
	if (memchr(text, '\0', len) != NULL)
		return mlq__conf_errs_take(errs,
		    mlq_err_set(err, MLQ_EINPUT, "%s: contains a NUL byte",
			file),
		    err);
	memset(&ps, 0, sizeof(ps));
	ps.file = file;
	mlq_buf_init(&ps.section);
	mlq_buf_init(&ps.sub);
	mlq_buf_init(&ps.key);
	mlq_buf_init(&ps.value);
	while (st == MLQ_OK && p < end) {
		line++;
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		q = eol;
		if (q > p && q[-1] == '\r')
			q--;
		while (p < q && conf_is_space(*p))
			p++;
		if (p == q || *p == ';' || *p == '#')
			;
		else if (*p == '[') {
			st = conf_header(&ps, p, q, line, fn, arg, err);
			skip = st != MLQ_OK;
		} else if (!skip)
			st = conf_pair(&ps, p, q, line, fn, arg, err);
		st = mlq__conf_errs_take(errs, st, err);
		p = eol < end ? eol + 1 : end;
	}
	mlq_buf_release(&ps.section);
	mlq_buf_release(&ps.sub);
	mlq_buf_release(&ps.key);
	mlq_buf_release(&ps.value);
	return st;
}

/* $HOME, else the password database; NULL if neither knows. */
static const char *
conf_home(void)
{
	const struct passwd *pw;
	const char *h;

	h = getenv("HOME");
	if (h != NULL && *h == '/')
		return h;
	pw = getpwuid(getuid());
	return pw != NULL ? pw->pw_dir : NULL;
}

char *
mlq__conf_path_expand(struct mlq_arena *a, const char *path, const char *base,
    const char **why)
{
	struct mlq_buf b;
	const char *home, *slash;
	char *out;

	*why = NULL;
	mlq_buf_init(&b);
	if (path[0] == '~') {
		if (path[1] != '\0' && path[1] != '/') {
			*why = "only ~ and ~/ are expanded";
			return NULL;
		}
		home = conf_home();
		if (home == NULL) {
			*why = "no home directory to expand ~";
			return NULL;
		}
		mlq_buf_addstr(&b, home);
		mlq_buf_addstr(&b, path + 1);
	} else if (path[0] != '/' && base != NULL &&
	    (slash = strrchr(base, '/')) != NULL) {
		mlq_buf_add(&b, base, (size_t)(slash - base + 1));
		mlq_buf_addstr(&b, path);
	} else {
		mlq_buf_addstr(&b, path);
	}
	out = b.oom ? NULL : mlq_arena_strndup(a, b.data, b.len);
	mlq_buf_release(&b);
	if (out == NULL)
		*why = "out of memory";
	return out;
}

/* Appends $VAR/suffix when $VAR is an absolute path, else ~/alt/suffix. */
static bool
conf_xdg(struct mlq_buf *b, const char *var, const char *alt,
    const char *suffix)
{
	const char *v = getenv(var), *home;

	if (v != NULL && v[0] == '/') {
		mlq_buf_addstr(b, v);
	} else {
		if ((home = conf_home()) == NULL)
			return false;
		mlq_buf_addstr(b, home);
		mlq_buf_addch(b, '/');
		mlq_buf_addstr(b, alt);
	}
	mlq_buf_addch(b, '/');
	mlq_buf_addstr(b, suffix);
	return !b->oom;
}

/* Reads a whole small file into b.  MLQ_NOTFOUND if it does not exist. */
static enum mlq_status
conf_slurp(const char *path, int fd, struct mlq_buf *b, struct mlq_err *err)
{
	char chunk[8192];
	ssize_t n;

	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return mlq_err_set(err, MLQ_EIO, "%s: %s", path,
			    strerror(errno));
		if (n == 0)
			break;
		if (b->len + (size_t)n > MLQ_MAX_CONF_BYTES)
			return mlq_err_set(err, MLQ_EINPUT,
			    "%s: larger than %u bytes", path,
			    MLQ_MAX_CONF_BYTES);
		mlq_buf_add(b, chunk, (size_t)n);
	}
	if (b->oom)
		return mlq_err_set(err, MLQ_ENOMEM, "%s: out of memory", path);
	return MLQ_OK;
}

static struct mlq_conf *
conf_new(void)
{
	struct mlq_conf *c;

	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return NULL;
	if ((c->arena = mlq_arena_new()) == NULL) {
		free(c);
		return NULL;
	}
	return c;
}

/* The default secrets file sits beside the default config. */
static enum mlq_status
conf_default_secrets(struct mlq_conf *c, struct mlq_err *err)
{
	struct mlq_buf b;

	if (c->secrets != NULL)
		return MLQ_OK;
	mlq_buf_init(&b);
	if (conf_xdg(&b, "XDG_CONFIG_HOME", ".config", "mlq/secrets") &&
	    (c->secrets = mlq_arena_strndup(c->arena, b.data, b.len)) == NULL) {
		mlq_buf_release(&b);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	mlq_buf_release(&b);
	return MLQ_OK;
}

static enum mlq_status
conf_load_buf(const char *name, const char *text, size_t len,
    struct mlq__conf_errs *errs, struct mlq_conf **out, struct mlq_err *err)
{
	struct mlq_conf *c;
	enum mlq_status st;

	*out = NULL;
	if ((c = conf_new()) == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "%s: out of memory", name);
	c->found = true;
	c->path = mlq_arena_strdup(c->arena, name);
	st = c->path == NULL ? mlq_err_set(err, MLQ_ENOMEM, "out of memory")
			     : mlq__conf_build(c, text, len, errs, err);
	if (st == MLQ_OK)
		st = conf_default_secrets(c, err);
	if (st != MLQ_OK) {
		mlq_conf_free(c);
		return st;
	}
	*out = c;
	return MLQ_OK;
}

enum mlq_status
mlq_conf_load_buf(const char *name, const char *text, size_t len,
    struct mlq_conf **out, struct mlq_err *err)
{
	return conf_load_buf(name, text, len, NULL, out, err);
}

/*
 * Blanks the lines of every section not named in only (space-separated
 * names), keeping the line numbers errors give.
 */
static void
conf_keep_sections(struct mlq_buf *text, const char *only)
{
	char *p = text->data, *end = text->data + text->len, *eol, *q;
	size_t n, k;
	bool keep = true;
	const char *w;

	for (; p < end; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		for (q = p; q < eol && (*q == ' ' || *q == '\t'); q++)
			;
		if (q < eol && *q == '[') {
			q++;
			n = strcspn(q, " \t]\"\n");
			keep = false;
			for (w = only; *w != '\0'; w += k + (w[k] == ' ')) {
				k = strcspn(w, " ");
				if (k == n && strncmp(w, q, n) == 0)
					keep = true;
				if (k == 0)
					break;
			}
		}
		if (!keep)
			memset(p, ' ', (size_t)(eol - p));
		if (eol == end)
			break;
	}
}

static enum mlq_status conf_load(const char *path, const char *only,
    struct mlq__conf_errs *errs, struct mlq_conf **out, struct mlq_err *err);

enum mlq_status
mlq_conf_load(const char *path, struct mlq_conf **out, struct mlq_err *err)
{
	return conf_load(path, NULL, NULL, out, err);
}

enum mlq_status
mlq_conf_load_only(const char *path, const char *only, struct mlq_conf **out,
    struct mlq_err *err)
{
	return conf_load(path, only, NULL, out, err);
}

enum mlq_status
mlq_conf_check(const char *path, mlq_conf_report_fn fn, void *arg,
    unsigned *nerr, struct mlq_err *err)
{
	struct mlq__conf_errs errs = { fn, arg, 0 };
	struct mlq_conf *c = NULL;
	enum mlq_status st;

	st = conf_load(path, NULL, &errs, &c, err);
	/* A file that cannot be found or read is one error like the rest. */
	if (st == MLQ_EUSAGE)
		st = mlq__conf_errs_take(&errs, MLQ_EINPUT, err);
	/* The errors are told; the count is the answer. */
	if (st == MLQ_EINPUT && errs.n > 0) {
		mlq_err_clear(err);
		st = MLQ_OK;
	}
	if (st == MLQ_OK && c != NULL && errs.n == 0)
		errs.n += mlq_conf_check_digest(c, fn, arg);
	mlq_conf_free(c);
	*nerr = errs.n;
	return st;
}

static enum mlq_status
conf_load(const char *path, const char *only, struct mlq__conf_errs *errs,
    struct mlq_conf **out, struct mlq_err *err)
{
	struct mlq_buf name, text;
	struct mlq_conf *c;
	enum mlq_status st = MLQ_OK;
	bool given = path != NULL;
	int fd;

	*out = NULL;
	mlq_buf_init(&name);
	mlq_buf_init(&text);
	if (path == NULL && (path = getenv("MLQ_CONFIG")) != NULL &&
	    path[0] != '\0')
		given = true;
	else if (path == NULL || path[0] == '\0') {
		if (!conf_xdg(&name, "XDG_CONFIG_HOME", ".config",
			"mlq/config")) {
			st = mlq_err_set(err, MLQ_EUSAGE,
			    "config: no home directory to find it in");
			goto out;
		}
		path = name.data;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && !given) {
		if ((c = conf_new()) == NULL ||
		    (c->path = mlq_arena_strdup(c->arena, path)) == NULL) {
			mlq_conf_free(c);
			st = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
			goto out;
		}
		st = conf_default_secrets(c, err);
		*out = c;
		goto out;
	}
	if (fd < 0) {
		st = mlq_err_set(err, errno == ENOENT ? MLQ_EUSAGE : MLQ_EIO,
		    "%s: %s", path, strerror(errno));
		goto out;
	}
	st = conf_slurp(path, fd, &text, err);
	close(fd);
	if (st == MLQ_OK && only != NULL)
		conf_keep_sections(&text, only);
	if (st == MLQ_OK)
		st = conf_load_buf(path, text.data, text.len, errs, out, err);
out:
	mlq_buf_release(&name);
	mlq_buf_release(&text);
	return st;
}

void
mlq_conf_free(struct mlq_conf *c)
{
	if (c == NULL)
		return;
	mlq_arena_free(c->arena);
	free(c);
}

const struct mlq_conf_source *
mlq_conf_source_find(const struct mlq_conf *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nsources; i++)
		if (strcmp(c->sources[i].name, name) == 0)
			return &c->sources[i];
	return NULL;
}

const struct mlq_conf_repo *
mlq_conf_repo_find(const struct mlq_conf *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nrepos; i++)
		if (strcmp(c->repos[i].name, name) == 0)
			return &c->repos[i];
	return NULL;
}

enum mlq_status
mlq_conf_db_path(const struct mlq_conf *c, const char *opt, char **out,
    struct mlq_err *err)
{
	struct mlq_buf b;
	const char *env = getenv("MLQ_DB");

	mlq_buf_init(&b);
	if (opt != NULL && opt[0] != '\0')
		mlq_buf_addstr(&b, opt);
	else if (env != NULL && env[0] != '\0')
		mlq_buf_addstr(&b, env);
	else if (c != NULL && c->db_path != NULL)
		mlq_buf_addstr(&b, c->db_path);
	else if (!conf_xdg(&b, "XDG_DATA_HOME", ".local/share", "mlq/mlq.db")) {
		mlq_buf_release(&b);
		return mlq_err_set(err, MLQ_EUSAGE,
		    "database: no home directory to find it in");
	}
	if (b.oom) {
		mlq_buf_release(&b);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	*out = mlq_buf_detach(&b);
	return MLQ_OK;
}

/* OpenSMTPD's check_file_secrecy, on an open descriptor. */
static enum mlq_status
conf_fd_secrecy(const char *path, int fd, struct mlq_err *err)
{
	struct stat sb;

	if (fstat(fd, &sb) == -1)
		return mlq_err_set(err, MLQ_EIO, "secrets '%s': %s", path,
		    strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return mlq_err_set(err, MLQ_EINPUT,
		    "secrets '%s': not a regular file", path);
	if (sb.st_uid != geteuid())
		return mlq_err_set(err, MLQ_EINPUT,
		    "secrets '%s': owned by uid %lu, not by this user (uid %lu)",
		    path, (unsigned long)sb.st_uid, (unsigned long)geteuid());
	if ((sb.st_mode & 077) != 0)
		return mlq_err_set(err, MLQ_EINPUT,
		    "secrets '%s': mode %04o lets group or others in (chmod 600)",
		    path, (unsigned)(sb.st_mode & 07777));
	return MLQ_OK;
}

static int
conf_open_secrets(const char *path, struct mlq_err *err, enum mlq_status *st)
{
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT)
			*st = mlq_err_set(err, MLQ_NOTFOUND,
			    "secrets '%s': no such file", path);
		else if (errno == ELOOP)
			*st = mlq_err_set(err, MLQ_EINPUT,
			    "secrets '%s': is a symbolic link", path);
		else
			*st = mlq_err_set(err, MLQ_EIO, "secrets '%s': %s",
			    path, strerror(errno));
		return -1;
	}
	if ((*st = conf_fd_secrecy(path, fd, err)) != MLQ_OK) {
		close(fd);
		return -1;
	}
	return fd;
}

enum mlq_status
mlq_conf_check_secrecy(const char *path, struct mlq_err *err)
{
	enum mlq_status st;
	int fd;

	if ((fd = conf_open_secrets(path, err, &st)) < 0)
		return st;
	close(fd);
	return MLQ_OK;
}

void
mlq_conf_secret_free(char *secret)
{
	if (secret == NULL)
		return;
	explicit_bzero(secret, strlen(secret));
	free(secret);
}

/* Finds "key = value" in a secrets text; values are taken verbatim. */
static bool
conf_secret_find(const char *p, const char *end, const char *key,
    struct mlq_buf *val)
{
	const char *eol, *q, *v;
	size_t klen = strlen(key);

	for (; p < end; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		q = p;
		while (q < eol && conf_is_space(*q))
			q++;
		if ((size_t)(eol - q) <= klen || memcmp(q, key, klen) != 0)
			continue;
		v = q + klen;
		while (v < eol && conf_is_space(*v))
			v++;
		if (v == eol || *v != '=')
			continue;
		v++;
		while (v < eol && conf_is_space(*v))
			v++;
		q = eol;
		while (q > v && (conf_is_space(q[-1]) || q[-1] == '\r'))
			q--;
		mlq_buf_add(val, v, (size_t)(q - v));
		return true;
	}
	return false;
}

enum mlq_status
mlq_conf_secret(const struct mlq_conf *c, const char *key, char **out,
    struct mlq_err *err)
{
	struct mlq_buf text, val;
	enum mlq_status st;
	int fd;

	*out = NULL;
	if (c->secrets == NULL)
		return MLQ_NOTFOUND;
	if ((fd = conf_open_secrets(c->secrets, err, &st)) < 0)
		return st;
	mlq_buf_init(&text);
	mlq_buf_init(&val);
	st = conf_slurp(c->secrets, fd, &text, err);
	close(fd);
	if (st == MLQ_OK &&
	    !conf_secret_find(text.data, text.data + text.len, key, &val))
		st = MLQ_NOTFOUND;
	if (st == MLQ_OK && val.oom)
		st = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	if (st == MLQ_OK)
		*out = mlq_buf_detach(&val);
	if (text.data != NULL)
		explicit_bzero(text.data, text.len);
	if (val.data != NULL)
		explicit_bzero(val.data, val.len);
	mlq_buf_release(&text);
	mlq_buf_release(&val);
	return st;
}
