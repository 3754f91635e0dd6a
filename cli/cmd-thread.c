/* mlq thread [--format text|json|mbox] MSGID: the whole thread as a tree. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tree.h"

static int cmd_thread_exec(struct cli *, int, char **);

const struct cli_cmd cmd_thread = {
	.name = "thread",
	.usage = "[--format text|json|mbox] MSGID",
	.summary = "the whole thread of a message as a tree",
	.details = CMD_ID_DETAILS,
	.flags = CLI_DB_READ,
	.exec = cmd_thread_exec,
	.conf_needs = "database identity",
};

/* A ghost is worth showing only when a stored message answers it. */
static bool
ghost_has_children(const struct tree *t, size_t i)
{
	size_t j;

	for (j = 0; j < t->count; j++)
		if (t->n[j].parent == (int)i)
			return true;
	return false;
}

static void
print_node_text(const struct tree *t, size_t i, int depth)
{
	const struct tree_node *n = &t->n[i];
	const char *sep;
	char date[32];
	unsigned bit;
	size_t j;
	int d;

	for (d = 0; d < depth && d < 20; d++)
		fputs("  ", stdout);
	if (n->ghost) {
		fputs("[not in the archive] <", stdout);
		out_safe(stdout, n->hit.msgid);
		fputs(">\n", stdout);
	} else {
		out_date(&n->hit, date, sizeof(date));
		date[10] = '\0';
		printf("%s ", n->hit.date_ok ? date : "unknown   ");
		out_safe(stdout, *n->hit.from_name ? n->hit.from_name :
						    n->hit.from_email);
		fputs(": ", stdout);
		out_safe(stdout, n->hit.subject);
		if (n->hit.kind > 0)
			printf(" [%s]", mlq_state_name(n->hit.status));
		else if (n->hit.tags != 0) {
			for (bit = 1, sep = " ("; bit < (1u << MLQ_TAG_COUNT);
			     bit <<= 1)
				if (n->hit.tags & bit) {
					printf("%s%s", sep, mlq_tag_name(bit));
					sep = " ";
				}
			fputc(')', stdout);
		}
		fputs("  <", stdout);
		out_safe(stdout, n->hit.msgid);
		fputs(">\n", stdout);
	}
	for (j = 0; j < t->count; j++)
		if (t->n[j].parent == (int)i)
			print_node_text(t, j, depth + 1);
}

static void
print_node_json(struct out_json *jw, const struct tree *t, size_t i)
{
	const struct tree_node *n = &t->n[i];
	size_t j;

	json_obj_begin(jw);
	if (n->ghost) {
		json_key(jw, "message_id");
		json_str(jw, n->hit.msgid);
		json_key(jw, "missing");
		json_bool(jw, true);
	} else {
		out_hit_fields(jw, &n->hit);
	}
	json_key(jw, "children");
	json_arr_begin(jw);
	for (j = 0; j < t->count; j++)
		if (t->n[j].parent == (int)i)
			print_node_json(jw, t, j);
	json_arr_end(jw);
	json_obj_end(jw);
}

static bool
is_root(const struct tree *t, size_t i)
{
	return t->n[i].parent < 0 && (!t->n[i].ghost || ghost_has_children(t, i));
}

static int
cmd_thread_exec(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	enum out_format fmt = OUT_TEXT;
	struct out_json jw;
	struct mlq_err err;
	struct tree t;
	struct mlq_buf id;
	enum mlq_status rc;
	size_t i;
	int c, self;

	if ((c = cli_check_options(&cmd_thread, argc, argv, opts)) != 0)
		return c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'f' || !out_format_parse(optarg, OUT_ALLOW(OUT_TEXT) |
		    OUT_ALLOW(OUT_JSON) | OUT_ALLOW(OUT_MBOX), &fmt))
			return cli_bad_option(&cmd_thread);
	}
	if (optind + 1 != argc)
		return cli_usage_error(&cmd_thread, "thread: one MSGID is needed");
	mlq_buf_init(&id);
	if ((c = cli_msgid("thread", argv[optind], &id)) != 0) {
		mlq_buf_release(&id);
		return c;
	}
	mlq_err_clear(&err);
	rc = tree_load_msgid(cli->st, id.data, false, &t, &self, &err);
	mlq_buf_release(&id);
	if (rc == MLQ_NOTFOUND) {
		tree_release(&t);
		return cli_not_found("thread", argv[optind]);
	}
	if (rc != MLQ_OK) {
		tree_release(&t);
		return cli_fail(&err);
	}
	json_init(&jw, stdout);
	if (fmt == OUT_JSON)
		json_arr_begin(&jw);
	for (i = 0; i < t.count && rc == MLQ_OK; i++) {
		if (fmt == OUT_MBOX) {
			if (!t.n[i].ghost)
				rc = out_mbox(stdout, cli->st, &t.n[i].hit, &err);
		} else if (is_root(&t, i)) {
			if (fmt == OUT_JSON)
				print_node_json(&jw, &t, i);
			else
				print_node_text(&t, i, 0);
		}
	}
	if (fmt == OUT_JSON) {
		json_arr_end(&jw);
		json_end_line(&jw);
	}
	tree_release(&t);
	return rc == MLQ_OK ? 0 : cli_fail(&err);
}
