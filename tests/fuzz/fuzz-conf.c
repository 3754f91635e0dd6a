/*
 * Fuzz target: the config file.  The INI reader (mlq__conf_parse) alone,
 * stopping at the first error and going on past each, then the whole
 * load with the key table.  Checked: items in line order with lower-case
 * names, values on one line; a refused config names file and line; an
 * accepted one has every source named and polled, schedules in range.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "mlq-int.h"

struct conf_check {
	unsigned lines, last, nerr;
};

static void
check_lower(const char *s)
{
	for (; *s != '\0'; s++)
		FUZZ_CHECK(!(*s >= 'A' && *s <= 'Z'));
}

static enum mlq_status
item(const struct mlq__conf_item *it, void *arg, struct mlq_err *err)
{
	struct conf_check *c = arg;

	(void)err;
	FUZZ_CHECK(strcmp(it->file, "fuzz") == 0);
	FUZZ_CHECK(
	    it->line >= 1 && it->line >= c->last && it->line <= c->lines);
	c->last = it->line;
	FUZZ_CHECK(it->section != NULL);
	check_lower(it->section);
	FUZZ_CHECK((it->key == NULL) == (it->value == NULL));
	if (it->key != NULL) {
		check_lower(it->key);
		FUZZ_CHECK(it->key[0] != '\0');
		FUZZ_CHECK(strchr(it->value, '\n') == NULL);
	}
	return MLQ_OK;
}

static void
report(const char *msg, void *arg)
{
	struct conf_check *c = arg;

	FUZZ_CHECK(strncmp(msg, "fuzz:", 5) == 0);
	c->nerr++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct conf_check c = { 1, 0, 0 }, all = { 1, 0, 0 };
	struct mlq__conf_errs errs = { report, &all, 0 };
	struct mlq_err err = { MLQ_OK, "" };
	struct mlq_conf *conf;
	enum mlq_status st;
	size_t i;

	for (i = 0; i < size; i++)
		c.lines += text[i] == '\n';
	all.lines = c.lines;
	st = mlq__conf_parse("fuzz", text, size, item, &c, NULL, &err);
	FUZZ_CHECK(st == MLQ_OK || st == MLQ_EINPUT || st == MLQ_ENOMEM);
	if (st == MLQ_EINPUT)
		FUZZ_CHECK(strncmp(err.msg, "fuzz:", 5) == 0);
	/* Going on past errors finds at least the one that stopped it. */
	FUZZ_CHECK(mlq__conf_parse("fuzz", text, size, item, &all, &errs,
		       NULL) == MLQ_OK);
	FUZZ_CHECK(errs.n == all.nerr);
	FUZZ_CHECK((st == MLQ_EINPUT) == (errs.n > 0));

	mlq_err_clear(&err);
	if (mlq_conf_load_buf("fuzz", text, size, &conf, &err) != MLQ_OK) {
		FUZZ_CHECK(err.status != MLQ_OK);
		FUZZ_CHECK(err.status != MLQ_EINPUT ||
		    strncmp(err.msg, "fuzz:", 5) == 0);
		return 0;
	}
	FUZZ_CHECK(st == MLQ_OK);
	for (i = 0; i < conf->nsources; i++) {
		FUZZ_CHECK(conf->sources[i].name != NULL);
		FUZZ_CHECK(conf->sources[i].url != NULL);
		FUZZ_CHECK(conf->sources[i].list != NULL);
		FUZZ_CHECK(conf->sources[i].interval > 0);
		FUZZ_CHECK(conf->sources[i].since >= 0);
	}
	if (conf->digest.schedule.kind != MLQ_SCHED_NONE) {
		FUZZ_CHECK(conf->digest.schedule.hour >= 0 &&
		    conf->digest.schedule.hour <= 23);
		FUZZ_CHECK(conf->digest.schedule.minute >= 0 &&
		    conf->digest.schedule.minute <= 59);
		FUZZ_CHECK(conf->digest.schedule.wday >= 0 &&
		    conf->digest.schedule.wday <= 6);
	}
	FUZZ_CHECK(conf->digest.nto == 0 || conf->digest.to != NULL);
	mlq_conf_free(conf);
	return 0;
}
