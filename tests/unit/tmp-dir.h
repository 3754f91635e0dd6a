/* Temporary directories and stores for the unit tests. */
#ifndef MLQ_TMP_DIR_H
#define MLQ_TMP_DIR_H

#include <stdbool.h>

#include "mlq.h"

/* mkdtemp(3) on tmpl, failing a test that says why if it cannot. */
bool tmp_dir_make(char *tmpl);
/* Removes dir and everything in it (a diag if it cannot). */
void tmp_dir_remove(const char *dir);
/*
 * A new writable store, TMPL/mlq.db in the directory made from tmpl;
 * NULL, with a failed test saying why, if either cannot be made.  The
 * caller removes the directory with tmp_dir_remove either way.
 */
struct mlq_store *tmp_store_open(char *tmpl);

#endif
