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
#endif
