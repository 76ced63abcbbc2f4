#ifndef KEYSHAPE_CSQLITE_SHIM_H
#define KEYSHAPE_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: sqlite copies the bytes before the
// call returns, so a Swift string's temporary buffer is safe to pass.
static inline int keyshape_sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

// The same for bytes (a blob id, a blob scan record).
static inline int keyshape_sqlite3_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}
// sqlite3_db_config is variadic, which Swift cannot call. A datastore is a file anyone may
// hand over, so a connection runs nothing the file's schema brings with it: no trigger fires
// and no view runs (keyshape creates neither; the schema check refuses any), functions with
// side effects are not callable from the schema (trusted_schema off), and SQL cannot rewrite
// the schema or corrupt the file on purpose (defensive). 0 when every setting took.
static inline int keyshape_sqlite3_distrust_schema(sqlite3 *db) {
    int failed = 0;
    failed |= sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
    failed |= sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)0);
#ifdef SQLITE_DBCONFIG_ENABLE_VIEW
    failed |= sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, (int *)0);
#endif
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
    failed |= sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)0);
#endif
    return failed;
}
#endif
