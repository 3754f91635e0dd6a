/* mlq: the command table; cli.c does the rest. */
#include "config.h"

#include "cli.h"

/* Run by mlq-ingest, so that no other command loads libetpan. */
static const struct cli_cmd am_helper = {
	.name = "am",
	.usage = CMD_AM_USAGE,
	.summary = CMD_AM_SUMMARY,
	.details = CMD_AM_DETAILS CMD_ID_DETAILS,
	.helper = CMD_INGEST_HELPER,
};

static const struct cli_cmd cat_helper = {
	.name = "cat",
	.usage = CMD_CAT_USAGE,
	.summary = CMD_CAT_SUMMARY,
	.details = CMD_ID_DETAILS,
	.helper = CMD_INGEST_HELPER,
};

static const struct cli_cmd import_helper = {
	.name = "import",
	.usage = CMD_IMPORT_USAGE,
	.summary = CMD_IMPORT_SUMMARY,
	.helper = CMD_INGEST_HELPER,
};

static const struct cli_cmd reindex_helper = {
	.name = "reindex",
	.usage = CMD_REINDEX_USAGE,
	.summary = CMD_REINDEX_SUMMARY,
	.helper = CMD_INGEST_HELPER,
};

/* A phrase is checked in the mail, which mlq-ingest parses. */
enum mlq_status (*const cli_phrases)(struct mlq_store *,
    struct mlq_err *) = NULL;

/* Sorted by name: `mlq help` prints them in this order. */
static const struct cli_cmd *const commands[] = {
	&am_helper,
	&cat_helper,
	&cmd_config,
	&cmd_digest,
	&import_helper,
	&cmd_lists,
	&cmd_mark,
	&reindex_helper,
	&cmd_search,
	&cmd_show,
	&cmd_sources,
	&cmd_status,
	&cmd_thread,
	&cmd_who,
};

int
main(int argc, char **argv)
{
	return cli_main(argc, argv, commands,
	    sizeof(commands) / sizeof(commands[0]));
}
