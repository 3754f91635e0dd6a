#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

bool
out_format_parse(const char *s, unsigned allowed, enum out_format *f)
{
	static const char *const names[] = { "text", "json", "jsonl", "mbox",
		"ids" };
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0 && (allowed & (1u << i))) {
			*f = (enum out_format)i;
			return true;
		}
	return false;
}

void
out_safe(FILE *f, const char *s)
{
	struct mlq_buf b;

	if (s == NULL)
		return;
	mlq_buf_init(&b);
	mlq_text_escape(&b, s, strlen(s));
	fwrite(b.data, 1, b.len, f);
	mlq_buf_release(&b);
}

void
out_safe_width(FILE *f, const char *s, int width)
{
	struct mlq_buf b;
	size_t i;
	int cols = 0;

	if (s == NULL)
		return;
	mlq_buf_init(&b);
	mlq_text_escape(&b, s, strlen(s));
	for (i = 0; i < b.len; i++) {
		if (((unsigned char)b.data[i] & 0xc0) != 0x80 && ++cols > width) {
			b.len = i;
			break;
		}
	}
	fwrite(b.data, 1, b.len, f);
	mlq_buf_release(&b);
}

void
out_safe_lines(FILE *f, const char *p, size_t n)
{
	const char *eol;
	struct mlq_buf b;
	size_t k;

	mlq_buf_init(&b);
	while (n > 0) {
		eol = memchr(p, '\n', n);
		k = eol ? (size_t)(eol - p) : n;
		mlq_buf_reset(&b);
		/* mlq_text_escape shows a LF as \x0a: one line at a time. */
		mlq_text_escape(&b, p, k);
		if (b.len > 0)
			fwrite(b.data, 1, b.len, f);
		fputc('\n', f);
		if (eol == NULL)
			break;
		n -= k + 1;
		p = eol + 1;
	}
	mlq_buf_release(&b);
}

void
out_safe_wrap(FILE *f, const char *s, int col, int width, const char *open,
    const char *close)
{
	struct mlq_buf b;
	const char *p, *end, *w;
	int indent = col, n;

	if (s == NULL)
		return;
	mlq_buf_init(&b);
	mlq_buf_addstr(&b, open);
	mlq_text_escape(&b, s, strlen(s));
	mlq_buf_addstr(&b, close);
	if (b.oom) {
		mlq_buf_release(&b);
		return;
	}
	for (p = b.data, end = b.data + b.len; p < end; p = w) {
		while (p < end && *p == ' ')
			p++;
		for (w = p, n = 0; w < end && *w != ' '; w++)
			n += ((unsigned char)*w & 0xc0) != 0x80;
		if (col > indent && col + 1 + n > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, (size_t)(w - p), f);
		col += n;
	}
	mlq_buf_release(&b);
}

/* ---- JSON ---- */

void
json_init(struct out_json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->first[0] = true;
}

/* Separates values: a comma unless first in its container or after a key. */
static void
json_sep(struct out_json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
}

static void
json_open(struct out_json *j, char c)
{
	json_sep(j);
	fputc(c, j->f);
	if (j->depth < 31)
		j->depth++;
	j->first[j->depth] = true;
}

static void
json_close(struct out_json *j, char c)
{
	fputc(c, j->f);
	if (j->depth > 0)
		j->depth--;
}

void
json_obj_begin(struct out_json *j)
{
	json_open(j, '{');
}

void
json_obj_end(struct out_json *j)
{
	json_close(j, '}');
}

void
json_arr_begin(struct out_json *j)
{
	json_open(j, '[');
}

void
json_arr_end(struct out_json *j)
{
	json_close(j, ']');
}

/* JSON string text: UTF-8 kept (invalid bytes become U+FFFD), controls escaped. */
static void
json_text(FILE *f, const char *s)
{
	struct mlq_buf b;
	const unsigned char *p;
	size_t i;

	mlq_buf_init(&b);
	mlq_text_utf8_clean(&b, s, strlen(s));
	fputc('"', f);
	p = (const unsigned char *)b.data;
	for (i = 0; i < b.len; i++) {
		if (p[i] == '"' || p[i] == '\\')
			fprintf(f, "\\%c", p[i]);
		else if (p[i] == '\n')
			fputs("\\n", f);
		else if (p[i] == '\t')
			fputs("\\t", f);
		else if (p[i] < 0x20 || p[i] == 0x7f)
			fprintf(f, "\\u%04x", p[i]);
		else
			fputc(p[i], f);
	}
	fputc('"', f);
	mlq_buf_release(&b);
}

void
json_key(struct out_json *j, const char *k)
{
	json_sep(j);
	json_text(j->f, k);
	fputc(':', j->f);
	j->after_key = true;
}

void
json_str(struct out_json *j, const char *s)
{
	if (s == NULL) {
		json_null(j);
		return;
	}
	json_sep(j);
	json_text(j->f, s);
}

void
json_int(struct out_json *j, long long v)
{
	json_sep(j);
	fprintf(j->f, "%lld", v);
}

void
json_real(struct out_json *j, double v, int decimals)
{
	json_sep(j);
	fprintf(j->f, "%.*f", decimals, v);
}

void
json_bool(struct out_json *j, bool v)
{
	json_sep(j);
	fputs(v ? "true" : "false", j->f);
}

void
json_null(struct out_json *j)
{
	json_sep(j);
	fputs("null", j->f);
}

void
json_end_line(struct out_json *j)
{
	fputc('\n', j->f);
	j->first[0] = true;
}

const char *
out_date(const struct mlq_hit *h, char *buf, size_t n)
{
	if (!h->date_ok) {
		buf[0] = '\0';
		return buf;
	}
	mlq_date_format_rfc3339(h->date, buf, n);
	return buf;
}

void
out_hit_fields(struct out_json *j, const struct mlq_hit *h)
{
	char date[32];
	unsigned bit;

	json_key(j, "message_id");
	json_str(j, h->msgid);
	json_key(j, "subject");
	json_str(j, h->subject);
	json_key(j, "from");
	json_obj_begin(j);
	json_key(j, "name");
	json_str(j, h->from_name);
	json_key(j, "email");
	json_str(j, h->from_email);
	json_obj_end(j);
	if (h->sender_email != NULL) {
		json_key(j, "sender");
		json_obj_begin(j);
		json_key(j, "name");
		json_str(j, h->sender_name);
		json_key(j, "email");
		json_str(j, h->sender_email);
		json_obj_end(j);
	}
	json_key(j, "date");
	if (h->date_ok)
		json_str(j, out_date(h, date, sizeof(date)));
	else
		json_null(j);
	json_key(j, "list");
	json_str(j, h->list);
	json_key(j, "is_patch");
	json_bool(j, h->kind > 0);
	if (h->kind > 0) {
		json_key(j, "status");
		json_str(j, mlq_state_name(h->status));
	}
	json_key(j, "tags");
	json_arr_begin(j);
	for (bit = 1; bit < (1u << MLQ_TAG_COUNT); bit <<= 1)
		if (h->tags & bit)
			json_str(j, mlq_tag_name(bit));
	json_arr_end(j);
}

bool
out_is_terminal(FILE *f)
{
	return isatty(fileno(f)) == 1;
}

void
out_mbox_text(FILE *f, const char *p, size_t n)
{
	const char *end = p + n, *eol, *q;

	/* Mail bytes never reach a terminal as they are. */
	if (out_is_terminal(f)) {
		out_safe_lines(f, p, n);
		if (n == 0)
			fputc('\n', f);
		return;
	}
	while (p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		eol = eol ? eol + 1 : end;
		for (q = p; q < eol && *q == '>'; q++)
			;
		if (eol - q >= 5 && memcmp(q, "From ", 5) == 0)
			fputc('>', f);
		fwrite(p, 1, (size_t)(eol - p), f);
		p = eol;
	}
	if (n == 0 || end[-1] != '\n')
		fputc('\n', f);
}

enum mlq_status
out_mbox(FILE *f, struct mlq_store *st, const struct mlq_hit *h,
    struct mlq_err *err)
{
	struct mlq_buf raw;
	enum mlq_status rc;
	char date[64] = "Thu Jan  1 00:00:00 1970";
	time_t t;
	struct tm tm;

	mlq_buf_init(&raw);
	if ((rc = mlq_store_raw(st, h->id, &raw, err)) != MLQ_OK) {
		mlq_buf_release(&raw);
		return rc;
	}
	if (h->date_ok) {
		t = (time_t)h->date;
		if (gmtime_r(&t, &tm) != NULL)
			strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", &tm);
	}
	fprintf(f, "From mlq@z %s\n", date);
	out_mbox_text(f, raw.data, raw.len);
	fputc('\n', f);
	mlq_buf_release(&raw);
	return MLQ_OK;
}
