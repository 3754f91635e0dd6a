/*
 * One message, raw bytes in, struct mlq_msg out: headers, decoded text,
 * addresses, and everything the later stages (subject, trailers, patch,
 * classification) derive from the text.  libetpan does the RFC 5322
 * address grammar, RFC 2047 words, MIME structure, transfer encodings
 * and charsets; the header split and the fallbacks for broken mail are
 * ours, since list archives are full of mail no grammar accepts.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <libetpan/libetpan.h>

#include "mlq-int.h"

/* One unfolded header field. */
struct hdr {
	const char *name;
	size_t name_len;
	const char *value; /* unfolded, NUL-terminated, in the arena */
};

struct parse_state {
	struct mlq_msg *m;
	struct mlq_arena *a;
	struct mlq_arena *ha; /* header fields and scratch, freed when parsed */
	const char *raw; /* LF-only copy of the input */
	size_t len;
	size_t body_off; /* where the body starts in raw */
	struct hdr *hdrs;
	size_t nhdrs;
	struct mlq_buf body; /* decoded text/plain, UTF-8 */
	struct mlq_err *err;
	bool text_only; /* subject and body, for a phrase (store-phrase.c) */
};

/* A header line starts with a field name: printable ASCII up to ':'. */
static bool
is_header_start(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] == ':')
			return i > 0;
		if (p[i] <= ' ' || p[i] > '~')
			return false;
	}
	return false;
}

static const char *
hdr_get(const struct parse_state *ps, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; i < ps->nhdrs; i++)
		if (ps->hdrs[i].name_len == n &&
		    mlq_text_has_prefix_ci(ps->hdrs[i].name, n, name))
			return ps->hdrs[i].value;
	return NULL;
}

/*
 * Splits the header block into unfolded fields.  Ends at the first empty
 * line, or at a line that is neither a field nor a continuation (mail
 * missing its separator: the rest is body).
 */
static enum mlq_status
split_headers(struct parse_state *ps)
{
	const char *p = ps->raw, *end = ps->raw + ps->len, *eol, *colon;
	struct mlq_buf v;
	struct hdr *h = NULL;

	mlq_buf_init(&v);
	while (p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		if (eol == p) { /* the empty line */
			p = eol + 1;
			break;
		}
		if ((*p == ' ' || *p == '\t') && h != NULL) {
			/* Continuation: unfold, keeping one space. */
			while (p < eol && (*p == ' ' || *p == '\t'))
				p++;
			mlq_buf_addch(&v, ' ');
			mlq_buf_add(&v, p, (size_t)(eol - p));
		} else if (is_header_start(p, (size_t)(eol - p))) {
			if (h != NULL && (h->value = mlq_arena_strndup(ps->ha,
			    v.data, v.len)) == NULL)
				goto nomem;
			ps->hdrs = mlq_arena_grow(ps->ha, ps->hdrs, ps->nhdrs,
			    sizeof(*ps->hdrs));
			if (ps->hdrs == NULL)
				goto nomem;
			h = &ps->hdrs[ps->nhdrs++];
			colon = memchr(p, ':', (size_t)(eol - p));
			h->name = p;
			h->name_len = (size_t)(colon - p);
			for (p = colon + 1; p < eol && (*p == ' ' || *p == '\t');)
				p++;
			mlq_buf_reset(&v);
			mlq_buf_add(&v, p, (size_t)(eol - p));
		} else if (h == NULL) {
			mlq_buf_release(&v);
			return mlq_err_set(ps->err, MLQ_EINPUT,
			    "no mail header at the start");
		} else {
			break; /* no separator: body starts here */
		}
		p = eol < end ? eol + 1 : end;
	}
	if (h != NULL &&
	    (h->value = mlq_arena_strndup(ps->ha, v.data, v.len)) == NULL)
		goto nomem;
	if (v.oom)
		goto nomem;
	mlq_buf_release(&v);
	ps->body_off = (size_t)(p - ps->raw);
	return MLQ_OK;
nomem:
	mlq_buf_release(&v);
	return mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
}

/* Text in an unknown 8-bit charset: UTF-8 if valid, else Latin-1. */
static bool
is_valid_utf8(const char *s, size_t n)
{
	struct mlq_buf b;
	bool ok;

	mlq_buf_init(&b);
	mlq_text_utf8_clean(&b, s, n);
	ok = b.len == n;
	mlq_buf_release(&b);
	return ok;
}

static void
latin1_to_utf8(struct mlq_buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] < 0x80) {
			mlq_buf_addch(b, (char)p[i]);
		} else {
			mlq_buf_addch(b, (char)(0xc0 | (p[i] >> 6)));
			mlq_buf_addch(b, (char)(0x80 | (p[i] & 0x3f)));
		}
	}
}

static bool
is_utf8_name(const char *cs)
{
	return strcasecmp(cs, "utf-8") == 0 || strcasecmp(cs, "utf8") == 0;
}

/* Latin-1 labels that UTF-8 mail is most often mislabelled with. */
static bool
is_latin_name(const char *cs)
{
	return strcasecmp(cs, "iso-8859-1") == 0 ||
	    strcasecmp(cs, "iso-8859-15") == 0 ||
	    strcasecmp(cs, "windows-1252") == 0 ||
	    strcasecmp(cs, "us-ascii") == 0 || strcasecmp(cs, "ascii") == 0;
}

/*
 * Appends s (declared charset cs, may be NULL) to b as UTF-8.  Undeclared
 * or Latin-labelled bytes that are valid UTF-8 are UTF-8 (multi-byte
 * sequences almost never occur by chance in Latin-1 text); an unknown
 * charset falls back the same way; declared UTF-8 keeps its good bytes
 * and turns bad ones into U+FFFD.
 */
static void
append_converted(struct mlq_buf *b, const char *cs, const char *s, size_t n)
{
	char *out = NULL;

	if (n == 0)
		return;
	if (cs != NULL && is_utf8_name(cs)) {
		mlq_text_utf8_clean(b, s, n);
		return;
	}
	if ((cs == NULL || is_latin_name(cs)) && is_valid_utf8(s, n)) {
		mlq_buf_add(b, s, n);
		return;
	}
	if (cs != NULL && !is_latin_name(cs) &&
	    charconv("utf-8", cs, s, n, &out) == MAIL_CHARCONV_NO_ERROR &&
	    out != NULL) {
		mlq_text_utf8_clean(b, out, strlen(out));
		free(out);
		return;
	}
	free(out);
	if (is_valid_utf8(s, n))
		mlq_buf_add(b, s, n);
	else
		latin1_to_utf8(b, s, n);
}

/* A header value: RFC 2047 words decoded, raw 8-bit read as UTF-8 or Latin-1. */
static const char *
decode_header(struct parse_state *ps, const char *v)
{
	struct mlq_buf b;
	const char *from;
	char *out = NULL;
	size_t idx = 0, n = strlen(v);
	const char *res;

	mlq_buf_init(&b);
	from = is_valid_utf8(v, n) ? "utf-8" : "iso-8859-1";
	/* libetpan keeps the bytes between encoded words as they are. */
	if (strstr(v, "=?") != NULL &&
	    mailmime_encoded_phrase_parse(from, v, n, &idx, "utf-8", &out) ==
		MAILIMF_NO_ERROR &&
	    out != NULL) {
		mlq_text_utf8_clean(&b, out, strlen(out));
	} else {
		append_converted(&b, from, v, n);
	}
	free(out);
	res = b.oom ? NULL : mlq_arena_strndup(ps->a, b.data, b.len);
	mlq_buf_release(&b);
	return res;
}

/* The id between the first '<' and '>' (or the bare token), trimmed. */
static const char *
extract_msgid(struct mlq_arena *a, const char *v, const char **next)
{
	const char *lt, *gt, *s, *e;

	lt = strchr(v, '<');
	if (lt != NULL && (gt = strchr(lt + 1, '>')) != NULL) {
		*next = gt + 1;
		s = lt + 1;
		e = gt;
	} else {
		*next = v + strlen(v);
		if (lt != NULL)
			return NULL;
		for (s = v; *s == ' ' || *s == '\t'; s++)
			;
		for (e = s; *e != '\0' && *e != ' ' && *e != '\t'; e++)
			;
	}
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (s == e || memchr(s, ' ', (size_t)(e - s)) != NULL)
		return NULL;
	return mlq_arena_strndup(a, s, (size_t)(e - s));
}

static char *
lower_dup(struct mlq_arena *a, const char *s)
{
	char *p, *q;

	p = mlq_arena_strdup(a, s);
	if (p != NULL)
		for (q = p; *q != '\0'; q++)
			*q = mlq__lower(*q);
	return p;
}

static enum mlq_status
add_addr(struct parse_state *ps, const char *name, const char *email,
    enum mlq_addr_role role)
{
	struct mlq_msg *m = ps->m;
	struct mlq_addr *ad;

	if (m->naddrs >= MLQ_MAX_ADDRS)
		return MLQ_OK;
	m->addrs = mlq_arena_grow(ps->a, m->addrs, m->naddrs, sizeof(*m->addrs));
	if (m->addrs == NULL)
		return mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
	ad = &m->addrs[m->naddrs++];
	ad->name = name;
	ad->email = email;
	ad->role = role;
	return MLQ_OK;
}

/* name and lower-cased email of one libetpan mailbox. */
static bool
mailbox_fill(struct parse_state *ps, const struct mailimf_mailbox *mb,
    const char **name, const char **email)
{
	*name = mb->mb_display_name ? decode_header(ps, mb->mb_display_name) : "";
	*email = mb->mb_addr_spec ? lower_dup(ps->a, mb->mb_addr_spec) : "";
	return *name != NULL && *email != NULL;
}

/*
 * A From line libetpan rejects ("Kangjie Lu", "x at y.org (Name)"): keep
 * the decoded text as the name and any address-like token as the email.
 */
static enum mlq_status
from_fallback(struct parse_state *ps, const char *v)
{
	const char *lt, *gt, *name;

	name = decode_header(ps, v);
	if (name == NULL)
		return mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
	ps->m->from.name = name;
	ps->m->from.email = "";
	if ((lt = strchr(v, '<')) != NULL && (gt = strchr(lt, '>')) != NULL &&
	    memchr(lt, '@', (size_t)(gt - lt)) != NULL) {
		char *e = mlq_arena_strndup(ps->a, lt + 1, (size_t)(gt - lt - 1));
		if (e == NULL)
			return mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
		ps->m->from.email = lower_dup(ps->a, e);
		ps->m->from.name = mlq_arena_strndup(ps->a, v, (size_t)(lt - v));
	}
	return MLQ_OK;
}

/* The first mailbox of a list, if it has a real address. */
static const struct mailimf_mailbox *
first_mailbox(const struct mailimf_mailbox_list *l)
{
	const struct mailimf_mailbox *mb;

	if (l == NULL || clist_isempty(l->mb_list))
		return NULL;
	mb = clist_content(clist_begin(l->mb_list));
	/* For "Kangjie Lu" libetpan makes up an address without '@'. */
	if (mb == NULL || mb->mb_addr_spec == NULL ||
	    strchr(mb->mb_addr_spec, '@') == NULL)
		return NULL;
	return mb;
}

/* The first mailbox of header value v into name and email; false: none. */
static enum mlq_status
mailbox_of(struct parse_state *ps, const char *v, const char **name,
    const char **email, bool *found)
{
	struct mailimf_mailbox_list *l = NULL;
	const struct mailimf_mailbox *mb;
	size_t idx = 0;
	enum mlq_status st = MLQ_OK;

	*found = false;
	if (mailimf_mailbox_list_parse(v, strlen(v), &idx, &l) != MAILIMF_NO_ERROR)
		l = NULL;
	if ((mb = first_mailbox(l)) != NULL) {
		*found = true;
		if (!mailbox_fill(ps, mb, name, email))
			st = mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
	}
	if (l != NULL)
		mailimf_mailbox_list_free(l);
	return st;
}

/*
 * A list's DMARC rewrite ("Jane Doe via Intel-wired-lan
 * <intel-wired-lan@osuosl.org>") names the list, not the writer: the
 * writer is in X-Original-From, else in Reply-To; failing both, the name
 * loses its " via ..." and the address stays the list's.
 */
static enum mlq_status
undo_dmarc_rewrite(struct parse_state *ps)
{
	static const char *const headers[] = { "X-Original-From", "Reply-To" };
	const char *name = ps->m->from.name, *via = NULL, *p, *v, *n, *e;
	enum mlq_status st;
	size_t i;
	bool found;

	for (p = name; (p = strstr(p, " via ")) != NULL; p++)
		via = p;
	if (via == NULL || via == name)
		return MLQ_OK;
	for (i = 0; i < MLQ__ARRAY_SIZE(headers); i++) {
		if ((v = hdr_get(ps, headers[i])) == NULL)
			continue;
		if ((st = mailbox_of(ps, v, &n, &e, &found)) != MLQ_OK)
			return st;
		if (found && strcmp(e, ps->m->from.email) != 0) {
			ps->m->from.name = n;
			ps->m->from.email = e;
			return MLQ_OK;
		}
	}
	/* 'Jane Doe' via Group: the quotes went with the rewrite. */
	if (name[0] == '\'' && via - name > 2 && via[-1] == '\'') {
		name++;
		via--;
	}
	n = mlq_arena_strndup(ps->a, name, (size_t)(via - name));
	if (n == NULL)
		return mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
	ps->m->from.name = n;
	return MLQ_OK;
}

static enum mlq_status
parse_from(struct parse_state *ps)
{
	const char *v = hdr_get(ps, "From");
	enum mlq_status st;
	bool found;

	ps->m->from.name = ps->m->from.email = "";
	ps->m->from.role = MLQ_ROLE_FROM;
	if (v == NULL)
		return MLQ_OK;
	if ((st = mailbox_of(ps, v, &ps->m->from.name, &ps->m->from.email,
		 &found)) != MLQ_OK)
		return st;
	if (!found)
		return from_fallback(ps, v);
	return undo_dmarc_rewrite(ps);
}

/* To: and Cc: into m->addrs; unparsable lists are skipped, not fatal. */
static enum mlq_status
parse_recipients(struct parse_state *ps, const char *field,
    enum mlq_addr_role role)
{
	struct mailimf_address_list *l = NULL;
	const struct mailimf_address *ad;
	const struct mailimf_mailbox *mb;
	clistiter *it, *jt;
	const char *v, *name, *email;
	size_t i, idx;
	enum mlq_status st = MLQ_OK;

	for (i = 0; i < ps->nhdrs && st == MLQ_OK; i++) {
		if (ps->hdrs[i].name_len != strlen(field) ||
		    !mlq_text_has_prefix_ci(ps->hdrs[i].name,
			ps->hdrs[i].name_len, field))
			continue;
		v = ps->hdrs[i].value;
		idx = 0;
		l = NULL;
		if (mailimf_address_list_parse(v, strlen(v), &idx, &l) !=
		    MAILIMF_NO_ERROR)
			continue;
		for (it = clist_begin(l->ad_list); it && st == MLQ_OK;
		     it = clist_next(it)) {
			ad = clist_content(it);
			if (ad->ad_type == MAILIMF_ADDRESS_MAILBOX) {
				if (!mailbox_fill(ps, ad->ad_data.ad_mailbox,
					&name, &email))
					st = MLQ_ENOMEM;
				else
					st = add_addr(ps, name, email, role);
				continue;
			}
			if (ad->ad_data.ad_group->grp_mb_list == NULL)
				continue;
			for (jt = clist_begin(
				 ad->ad_data.ad_group->grp_mb_list->mb_list);
			     jt && st == MLQ_OK; jt = clist_next(jt)) {
				mb = clist_content(jt);
				if (!mailbox_fill(ps, mb, &name, &email))
					st = MLQ_ENOMEM;
				else
					st = add_addr(ps, name, email, role);
			}
		}
		mailimf_address_list_free(l);
	}
	if (st == MLQ_ENOMEM)
		return mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
	return st;
}

/* References oldest first, In-Reply-To last (once), duplicates dropped. */
static enum mlq_status
parse_refs(struct parse_state *ps)
{
	struct mlq_msg *m = ps->m;
	const char *v, *next, *id;
	size_t i, n = 0;
	const char **ids = NULL;

	v = hdr_get(ps, "In-Reply-To");
	if (v != NULL && (id = extract_msgid(ps->a, v, &next)) != NULL)
		m->in_reply_to = id;
	v = hdr_get(ps, "References");
	while (v != NULL && *v != '\0') {
		id = extract_msgid(ps->a, v, &next);
		v = next;
		if (id == NULL || strchr(id, '@') == NULL)
			continue;
		ids = mlq_arena_grow(ps->ha, ids, n, sizeof(*ids));
		if (ids == NULL)
			return mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
		ids[n++] = id;
	}
	if (m->in_reply_to != NULL) {
		ids = mlq_arena_grow(ps->ha, ids, n, sizeof(*ids));
		if (ids == NULL)
			return mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
		ids[n++] = m->in_reply_to;
	}
	/* Keep the newest MLQ_MAX_REFS, drop repeats and self-references. */
	if (n > MLQ_MAX_REFS) {
		ids += n - MLQ_MAX_REFS;
		n = MLQ_MAX_REFS;
	}
	/* Sized to the message: a parsed message waits in the ingest ring. */
	if ((m->refs = mlq_arena_alloc(ps->a, (n + 1) * sizeof(*m->refs))) ==
	    NULL)
		return mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		size_t j;
		bool dup = m->msgid != NULL && strcmp(ids[i], m->msgid) == 0;

		for (j = 0; j < m->nrefs && !dup; j++)
			dup = strcmp(m->refs[j], ids[i]) == 0;
		if (dup && ids[i] == m->in_reply_to && i == n - 1 &&
		    !(m->msgid != NULL && strcmp(ids[i], m->msgid) == 0)) {
			/* In-Reply-To also in References: move it last. */
			for (j = 0; j < m->nrefs; j++)
				if (strcmp(m->refs[j], ids[i]) == 0)
					break;
			memmove(&m->refs[j], &m->refs[j + 1],
			    (m->nrefs - j - 1) * sizeof(*m->refs));
			m->refs[m->nrefs - 1] = ids[i];
			continue;
		}
		if (!dup)
			m->refs[m->nrefs++] = ids[i];
	}
	return MLQ_OK;
}

/* The <id> of List-Id, e.g. "linux-nfs.vger.kernel.org". */
static void
parse_list_id(struct parse_state *ps)
{
	const char *v = hdr_get(ps, "List-Id"), *next;

	if (v != NULL)
		ps->m->list_id = extract_msgid(ps->a, v, &next);
}

/* ---- bodies ---- */

static bool
ct_is(const struct mailmime_content *ct, int discrete, const char *sub)
{
	if (ct == NULL || ct->ct_type == NULL ||
	    ct->ct_type->tp_type != MAILMIME_TYPE_DISCRETE_TYPE ||
	    ct->ct_type->tp_data.tp_discrete_type->dt_type != discrete)
		return false;
	return sub == NULL ||
	    (ct->ct_subtype && strcasecmp(ct->ct_subtype, sub) == 0);
}

static const char *
part_filename(const struct mailmime *part, bool *attachment)
{
	const struct mailmime_fields *f = part->mm_mime_fields;
	const struct mailmime_field *fld;
	const struct mailmime_disposition_parm *parm;
	clistiter *it, *jt;
	const char *name = NULL;

	*attachment = false;
	if (f != NULL)
		for (it = clist_begin(f->fld_list); it; it = clist_next(it)) {
			fld = clist_content(it);
			if (fld->fld_type != MAILMIME_FIELD_DISPOSITION)
				continue;
			*attachment = fld->fld_data.fld_disposition->dsp_type
				->dsp_type == MAILMIME_DISPOSITION_TYPE_ATTACHMENT;
			for (jt = clist_begin(fld->fld_data.fld_disposition->dsp_parms);
			     jt; jt = clist_next(jt)) {
				parm = clist_content(jt);
				if (parm->pa_type == MAILMIME_DISPOSITION_PARM_FILENAME)
					name = parm->pa_data.pa_filename;
			}
		}
	if (name == NULL && part->mm_content_type != NULL)
		name = mailmime_content_param_get(part->mm_content_type,
		    (char *)(uintptr_t)"name"); /* libetpan takes char * */
	return name;
}

static bool
has_suffix_ci(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n >= k && strcasecmp(s + n - k, suf) == 0;
}

/*
 * Whether a part's text belongs in the body: inline text/plain, and
 * patches whether inline or attached (text/x-patch, text/x-diff, or any
 * text part named *.patch / *.diff).
 */
static bool
is_body_part(const struct mailmime *part)
{
	const struct mailmime_content *ct = part->mm_content_type;
	const char *name;
	bool attachment;

	name = part_filename(part, &attachment);
	if (ct == NULL || ct_is(ct, MAILMIME_DISCRETE_TYPE_TEXT, NULL)) {
		if (ct != NULL && ct->ct_subtype != NULL &&
		    (strcasecmp(ct->ct_subtype, "x-patch") == 0 ||
		    strcasecmp(ct->ct_subtype, "x-diff") == 0))
			return true;
		if (name != NULL && (has_suffix_ci(name, ".patch") ||
		    has_suffix_ci(name, ".diff")))
			return true;
		return !attachment && (ct == NULL || ct->ct_subtype == NULL ||
		    strcasecmp(ct->ct_subtype, "plain") == 0);
	}
	/* Some clients send patches as application/octet-stream foo.patch. */
	return name != NULL &&
	    (has_suffix_ci(name, ".patch") || has_suffix_ci(name, ".diff"));
}

/* Appends text with CRLF and lone CR made LF. */
static void
append_lf(struct mlq_buf *b, const char *s, size_t n)
{
	const char *cr;

	while (n > 0 && (cr = memchr(s, '\r', n)) != NULL) {
		mlq_buf_add(b, s, (size_t)(cr - s));
		n -= (size_t)(cr - s) + 1;
		s = cr + 1;
		if (n > 0 && *s == '\n')
			continue; /* the LF itself follows */
		mlq_buf_addch(b, '\n');
	}
	mlq_buf_add(b, s, n);
}

/* Decodes one leaf part's transfer encoding and charset into ps->body. */
static void
add_part_text(struct parse_state *ps, const char *data, size_t len,
    int encoding, const char *charset)
{
	char *dec = NULL;
	size_t declen = 0, idx = 0;
	struct mlq_buf tmp;

	if (len == 0)
		return;
	if (encoding == MAILMIME_MECHANISM_BASE64 ||
	    encoding == MAILMIME_MECHANISM_QUOTED_PRINTABLE) {
		if (mailmime_part_parse(data, len, &idx, encoding, &dec,
			&declen) != MAILIMF_NO_ERROR)
			dec = NULL;
	}
	mlq_buf_init(&tmp);
	if (dec != NULL) {
		append_converted(&tmp, charset, dec, declen);
		mmap_string_unref(dec);
	} else {
		append_converted(&tmp, charset, data, len);
	}
	if (ps->body.len > 0 && ps->body.data[ps->body.len - 1] != '\n')
		mlq_buf_addch(&ps->body, '\n');
	append_lf(&ps->body, tmp.data, tmp.len);
	if (tmp.oom)
		ps->body.oom = true;
	mlq_buf_release(&tmp);
}

static void
walk_mime(struct parse_state *ps, const struct mailmime *mime, int depth)
{
	clistiter *it;
	const struct mailmime_data *d;
	int enc;

	if (depth > 32)
		return; /* hostile nesting */
	switch (mime->mm_type) {
	case MAILMIME_SINGLE:
		d = mime->mm_data.mm_single;
		if (d == NULL || d->dt_type != MAILMIME_DATA_TEXT ||
		    !is_body_part(mime))
			return;
		enc = mime->mm_mime_fields ?
		    mailmime_transfer_encoding_get(mime->mm_mime_fields) :
		    MAILMIME_MECHANISM_8BIT;
		add_part_text(ps, d->dt_data.dt_text.dt_data,
		    d->dt_data.dt_text.dt_length, enc,
		    mime->mm_content_type ?
			mailmime_content_charset_get(mime->mm_content_type) :
			NULL);
		return;
	case MAILMIME_MULTIPLE:
		for (it = clist_begin(mime->mm_data.mm_multipart.mm_mp_list);
		     it; it = clist_next(it))
			walk_mime(ps, clist_content(it), depth + 1);
		return;
	case MAILMIME_MESSAGE:
		/* Only the top level: a forwarded message's text is not ours. */
		if (depth == 0 && mime->mm_data.mm_message.mm_msg_mime)
			walk_mime(ps, mime->mm_data.mm_message.mm_msg_mime,
			    depth + 1);
		return;
	}
}

static int
encoding_of(const char *v)
{
	if (v == NULL)
		return MAILMIME_MECHANISM_8BIT;
	while (*v == ' ')
		v++;
	if (mlq_text_has_prefix_ci(v, strlen(v), "base64"))
		return MAILMIME_MECHANISM_BASE64;
	if (mlq_text_has_prefix_ci(v, strlen(v), "quoted-printable"))
		return MAILMIME_MECHANISM_QUOTED_PRINTABLE;
	return MAILMIME_MECHANISM_8BIT;
}

/*
 * The body as UTF-8 text.  A single-part text message (most list mail) is
 * decoded directly; anything multipart goes through libetpan's MIME tree.
 */
static enum mlq_status
parse_body(struct parse_state *ps)
{
	const char *ctv = hdr_get(ps, "Content-Type");
	struct mailmime_content *ct = NULL;
	struct mailmime *mime = NULL;
	size_t idx = 0;
	char *cs;

	if (ctv != NULL &&
	    mailmime_content_parse(ctv, strlen(ctv), &idx, &ct) != MAILIMF_NO_ERROR)
		ct = NULL;
	if (ct != NULL && ct->ct_type != NULL &&
	    ct->ct_type->tp_type == MAILMIME_TYPE_COMPOSITE_TYPE) {
		mailmime_content_free(ct);
		idx = 0;
		if (mailmime_parse(ps->raw, ps->len, &idx, &mime) ==
		    MAILIMF_NO_ERROR) {
			walk_mime(ps, mime, 0);
			mailmime_free(mime);
		}
	} else if (ct == NULL || ct_is(ct, MAILMIME_DISCRETE_TYPE_TEXT, NULL)) {
		bool plain = ct == NULL || ct->ct_subtype == NULL ||
		    strcasecmp(ct->ct_subtype, "plain") == 0 ||
		    strcasecmp(ct->ct_subtype, "x-patch") == 0 ||
		    strcasecmp(ct->ct_subtype, "x-diff") == 0;

		cs = ct ? mailmime_content_charset_get(ct) : NULL;
		if (plain)
			add_part_text(ps, ps->raw + ps->body_off,
			    ps->len - ps->body_off,
			    encoding_of(hdr_get(ps, "Content-Transfer-Encoding")),
			    cs);
		if (ct != NULL)
			mailmime_content_free(ct);
	} else {
		mailmime_content_free(ct);
	}
	if (ps->body.oom)
		return mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
	ps->m->body_len = ps->body.len;
	ps->m->body = mlq_arena_strndup(ps->a, ps->body.data, ps->body.len);
	if (ps->m->body == NULL)
		return mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
	return MLQ_OK;
}

/* ---- git show / git log -p input ---- */

static bool
is_commit_line(const char *p, size_t n)
{
	size_t i;

	if (n < 7 + 7 || memcmp(p, "commit ", 7) != 0)
		return false;
	for (i = 7; i < n && p[i] != ' ' && p[i] != '\n'; i++)
		if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
			return false;
	return i - 7 >= 7 && i - 7 <= 64;
}

/*
 * `git show` output ("commit ID", "Author: ...", "Date: ...", a blank
 * line, the message, then the diff) rewritten as a mail, so that the same
 * parser handles both.  The message may be indented by four spaces.
 */
static enum mlq_status
commit_to_mail(struct parse_state *ps, const char *raw, size_t len,
    struct mlq_buf *out)
{
	const char *p = raw, *end = raw + len, *eol, *subj = NULL;
	size_t subj_len = 0, id_len;
	bool indented;

	eol = memchr(p, '\n', len);
	if (eol == NULL)
		eol = end;
	id_len = strcspn(p + 7, " \n");
	if ((ps->m->commit = mlq_arena_strndup(ps->a, p + 7, id_len)) == NULL)
		return mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
	p = eol < end ? eol + 1 : end;
	while (p < end && *p != '\n') { /* Author:, Date:, Merge:, ... */
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		if (mlq_text_has_prefix_ci(p, (size_t)(eol - p), "Author:")) {
			mlq_buf_addstr(out, "From:");
			mlq_buf_add(out, p + 7, (size_t)(eol - p - 7));
			mlq_buf_addch(out, '\n');
		} else if (mlq_text_has_prefix_ci(p, (size_t)(eol - p), "Date:")) {
			mlq_buf_add(out, p, (size_t)(eol - p));
			mlq_buf_addch(out, '\n');
		}
		p = eol < end ? eol + 1 : end;
	}
	while (p < end && *p == '\n')
		p++;
	indented = end - p >= 4 && memcmp(p, "    ", 4) == 0;
	if (p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		subj = p + (indented ? 4 : 0);
		subj_len = (size_t)(eol - subj);
		p = eol < end ? eol + 1 : end;
	}
	mlq_buf_addstr(out, "Subject: ");
	if (subj != NULL)
		mlq_buf_add(out, subj, subj_len);
	mlq_buf_addstr(out, "\n\n");
	while (p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		eol = eol ? eol + 1 : end;
		if (indented && eol - p >= 4 && memcmp(p, "    ", 4) == 0)
			mlq_buf_add(out, p + 4, (size_t)(eol - p - 4));
		else
			mlq_buf_add(out, p, (size_t)(eol - p));
		p = eol;
	}
	return out->oom ? mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory") :
			  MLQ_OK;
}

/* ---- the whole message ---- */

static enum mlq_status
synth_msgid(struct parse_state *ps, const char *raw, size_t len)
{
	struct mlq__sha1 c;
	unsigned char d[20];
	char hex[41], id[64];

	mlq__sha1_init(&c);
	mlq__sha1_update(&c, raw, len);
	mlq__sha1_final(&c, d);
	mlq__sha1_hex(d, hex);
	snprintf(id, sizeof(id), "%.32s@mlq.synthetic", hex);
	ps->m->msgid = mlq_arena_strdup(ps->a, id);
	ps->m->msgid_synthetic = true;
	return ps->m->msgid ? MLQ_OK :
			      mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
}

/*
 * A patch whose body starts with in-body headers (git format-patch's
 * "From: Author" when someone else sends it, a stable backport's) is the
 * author's, as git am reads it; the header From stays who posted it.
 */
static enum mlq_status
parse_inbody_from(struct parse_state *ps)
{
	struct mlq_msg *m = ps->m;
	const char *p = m->body, *end = m->body + m->body_len, *eol = NULL, *name,
		   *email;
	char *v;
	enum mlq_status st;
	bool found;

	while (p < end && *p == '\n')
		p++;
	/* From:, Subject: and Date: lines, in any order, to a blank line. */
	for (; p < end && *p != '\n'; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		if (eol - p > 5 && memcmp(p, "From:", 5) == 0)
			break;
		if (!((eol - p > 8 && memcmp(p, "Subject:", 8) == 0) ||
			(eol - p > 5 && memcmp(p, "Date:", 5) == 0)))
			return MLQ_OK;
		if (eol == end)
			return MLQ_OK;
	}
	if (p >= end || *p == '\n')
		return MLQ_OK;
	if ((v = mlq_arena_strndup(ps->a, p + 5, (size_t)(eol - p - 5))) ==
	    NULL)
		return mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
	if ((st = mailbox_of(ps, v, &name, &email, &found)) != MLQ_OK ||
	    !found)
		return st;
	if (strcmp(email, m->from.email) == 0 &&
	    strcmp(name, m->from.name) == 0)
		return MLQ_OK;
	m->author.name = name;
	m->author.email = email;
	m->author.role = MLQ_ROLE_FROM;
	return MLQ_OK;
}

/* Trailer addresses are addresses the message names (search --addr). */
static enum mlq_status
add_trailer_addrs(struct parse_state *ps)
{
	size_t i;
	enum mlq_status st;

	for (i = 0; i < ps->m->ntrailers; i++) {
		if (ps->m->trailers[i].email[0] == '\0')
			continue;
		st = add_addr(ps, ps->m->trailers[i].name,
		    ps->m->trailers[i].email, MLQ_ROLE_TRAILER);
		if (st != MLQ_OK)
			return st;
	}
	return MLQ_OK;
}

/*
 * Tags a reply twice over: as written by someone else and by the
 * submitter.  Who the submitter is becomes known only when the store
 * finds the submission, so the store picks one.
 */
static enum mlq_status
classify(struct parse_state *ps)
{
	struct mlq_msg *m = ps->m;

	if (!m->subj.is_reply && m->in_reply_to == NULL)
		return MLQ_OK;
	return mlq_classify_reply(m->body, m->body_len, false, ps->a, &m->tags,
	    &m->evidence, &m->nevidence, ps->err);
}

static enum mlq_status
parse_fields(struct parse_state *ps, const char *orig, size_t orig_len)
{
	struct mlq_msg *m = ps->m;
	const char *v, *next;
	enum mlq_status st;
	bool found;

	if ((st = split_headers(ps)) != MLQ_OK)
		return st;
	if (hdr_get(ps, "From") == NULL && hdr_get(ps, "Date") == NULL &&
	    hdr_get(ps, "Subject") == NULL && hdr_get(ps, "Message-Id") == NULL)
		return mlq_err_set(ps->err, MLQ_EINPUT,
		    "no From, Date, Subject or Message-Id header");
	v = hdr_get(ps, "Message-Id");
	if (v != NULL)
		m->msgid = extract_msgid(ps->a, v, &next);
	if (m->msgid == NULL && (st = synth_msgid(ps, orig, orig_len)) != MLQ_OK)
		return st;
	v = hdr_get(ps, "Subject");
	m->subject = v ? decode_header(ps, v) : "";
	v = hdr_get(ps, "Date");
	m->date_raw = v ? mlq_arena_strdup(ps->a, v) : "";
	m->date_ok = v != NULL && mlq_date_parse(v, &m->date);
	if (m->subject == NULL || m->date_raw == NULL)
		return mlq_err_set(ps->err, MLQ_ENOMEM, "out of memory");
	if ((st = parse_from(ps)) != MLQ_OK ||
	    (st = parse_recipients(ps, "To", MLQ_ROLE_TO)) != MLQ_OK ||
	    (st = parse_recipients(ps, "Cc", MLQ_ROLE_CC)) != MLQ_OK)
		return st;
	if ((st = parse_refs(ps)) != MLQ_OK)
		return st;
	parse_list_id(ps);
	if (ps->text_only)
		return parse_body(ps);
	if ((st = parse_body(ps)) != MLQ_OK ||
	    (st = mlq_subject_parse(m->subject, ps->a, &m->subj, ps->err)) !=
		MLQ_OK ||
	    (st = mlq_trailer_parse(m->body, m->body_len, ps->a, &m->trailers,
		 &m->ntrailers, ps->err)) != MLQ_OK ||
	    (st = add_trailer_addrs(ps)) != MLQ_OK ||
	    (st = mlq_patch_parse(m->body, m->body_len, ps->a, &m->patch, &found,
		 ps->err)) != MLQ_OK)
		return st;
	m->is_patch = found;
	if (found && (st = parse_inbody_from(ps)) != MLQ_OK)
		return st;
	return classify(ps);
}

static enum mlq_status
too_big(size_t len, struct mlq_err *err)
{
	return mlq_err_set(err, MLQ_EINPUT,
	    "message of %zu bytes is over the %u byte limit", len,
	    (unsigned)MLQ_MAX_MESSAGE_BYTES);
}

/* Deflates raw into m->zraw for the store unless it is stored already. */
static enum mlq_status
msg_parse(const char *raw, size_t len, bool stored, bool text_only,
    struct mlq_msg **out, struct mlq_err *err)
{
	struct parse_state ps;
	struct mlq_buf conv;
	enum mlq_status st;
	struct mlq_msg *m;
	size_t skip;

	*out = NULL;
	if (len > MLQ_MAX_MESSAGE_BYTES)
		return too_big(len, err);
	for (skip = 0; skip < len && (raw[skip] == '\n' || raw[skip] == '\r' ||
	     raw[skip] == ' ' || raw[skip] == '\t');)
		skip++;
	if (skip == len)
		return mlq_err_set(err, MLQ_EINPUT, "empty message");
	memset(&ps, 0, sizeof(ps));
	ps.err = err;
	ps.text_only = text_only;
	ps.a = mlq_arena_new();
	ps.ha = mlq_arena_new();
	m = ps.a && ps.ha ? mlq_arena_alloc(ps.a, sizeof(*m)) : NULL;
	if (m == NULL) {
		mlq_arena_free(ps.a);
		mlq_arena_free(ps.ha);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	m->arena = ps.a;
	ps.m = m;
	mlq_buf_init(&ps.body);
	mlq_buf_init(&conv);
	if (is_commit_line(raw + skip, len - skip))
		st = commit_to_mail(&ps, raw + skip, len - skip, &conv);
	else
		append_lf(&conv, raw + skip, len - skip), st = conv.oom ?
		    mlq_err_set(err, MLQ_ENOMEM, "out of memory") : MLQ_OK;
	if (st == MLQ_OK) {
		ps.raw = conv.data;
		ps.len = conv.len;
		st = parse_fields(&ps, raw, len);
	}
	if (st == MLQ_OK && !stored)
		st = mlq_zraw_pack(raw, len, ps.a, &m->zraw, &m->zraw_len, err);
	m->raw_len = len;
	mlq_arena_free(ps.ha);
	mlq_buf_release(&ps.body);
	mlq_buf_release(&conv);
	if (st != MLQ_OK) {
		mlq_arena_free(ps.a);
		return st;
	}
	*out = m;
	return MLQ_OK;
}

enum mlq_status
mlq_msg_parse(const char *raw, size_t len, struct mlq_msg **out,
    struct mlq_err *err)
{
	return msg_parse(raw, len, false, false, out, err);
}

/* The stored message zraw, whole or (text_only) its subject and body. */
static enum mlq_status
parse_stored(const void *zraw, size_t zlen, size_t len, bool text_only,
    struct mlq_msg **out, struct mlq_err *err)
{
	struct mlq_buf raw;
	enum mlq_status st;

	*out = NULL;
	/* A damaged length must not size the buffer inflate writes into. */
	if (len > MLQ_MAX_MESSAGE_BYTES)
		return too_big(len, err);
	mlq_buf_init(&raw);
	st = mlq_zraw_unpack(zraw, zlen, len, &raw, err);
	if (st == MLQ_OK)
		st = msg_parse(raw.data ? raw.data : "", raw.len, true,
		    text_only, out, err);
	mlq_buf_release(&raw);
	return st;
}

enum mlq_status
mlq_msg_parse_stored(const void *zraw, size_t zlen, size_t len,
    struct mlq_msg **out, struct mlq_err *err)
{
	return parse_stored(zraw, zlen, len, false, out, err);
}

enum mlq_status
mlq__msg_parse_text(const void *zraw, size_t zlen, size_t len,
    struct mlq_msg **out, struct mlq_err *err)
{
	return parse_stored(zraw, zlen, len, true, out, err);
}

void
mlq_msg_free(struct mlq_msg *m)
{
	if (m != NULL)
		mlq_arena_free(m->arena);
}
