/* The store's handle, shared by lib/store*.c (the only sqlite3 users). */
#ifndef MLQ_STORE_INT_H
#define MLQ_STORE_INT_H

#include <sqlite3.h>

#include "mlq-int.h"

/* Statements prepared once per handle, by the function that runs them. */
enum store_stmt {
	S_FIND_ID,
	S_INSERT_MSG,
	S_NEXT_ID,
	S_MSG_THREAD,
	S_GHOST_THREAD,
	S_GHOST_PUT,
	S_GHOST_DEL,
	S_MERGE_MSG,
	S_MERGE_GHOST,
	S_LIST_FIND,
	S_LIST_ADD,
	S_MSG_LIST_ADD,
	S_ADDR_ADD,
	S_FILE_ADD,
	S_TRAILER_ADD,
	S_EVIDENCE_ADD,
	S_TAG_ADD,
	S_FTS_ADD,
	S_CURSOR_GET,
	S_CURSOR_SET,
	S_SOURCE_SAVE,
	S_SOURCE_COUNT,
	S_SOURCE_GET,
	S_RAW_GET,
	S_COUNT
};

struct mlq_store {
	sqlite3 *db;
	bool writable;
	bool in_tx;
	sqlite3_stmt *stmt[S_COUNT];
	/* Text lent by getters until the next call. */
	struct mlq_buf scratch[8];
};

/* The statement for slot, prepared from sql on first use; NULL on error. */
sqlite3_stmt *mlq__store_stmt(struct mlq_store *st, enum store_stmt slot,
    const char *sql, struct mlq_err *err);
/* Records a SQLite failure as MLQ_EDB with what was being done. */
enum mlq_status mlq__store_fail(struct mlq_store *st, struct mlq_err *err,
    const char *what);
/* Applies every migration past the database's user_version. */
enum mlq_status mlq__schema_migrate(struct mlq_store *st, struct mlq_err *err);

#endif
