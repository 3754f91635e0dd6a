/*
 * mlq-ingest: import, reindex, cat, am, and a search with a phrase: the
 * commands that parse mail.  mlq runs it in its own place (execv, same arguments),
 * so only these load libetpan and the libraries it brings (helper.c).
 */
#include "config.h"

#include "cli.h"

static const struct cli_cmd *const commands[] = {
	&cmd_am,
	&cmd_cat,
	&cmd_import,
	&cmd_reindex,
	&cmd_search,
};

enum mlq_status (*const cli_phrases)(struct mlq_store *,
    struct mlq_err *) = mlq_store_phrases;

int
main(int argc, char **argv)
{
	mlq_ingest_tune_malloc();
	return cli_main(argc, argv, commands,
	    sizeof(commands) / sizeof(commands[0]));
}
