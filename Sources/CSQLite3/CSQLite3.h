// SQLite's own header (pure C).
#include <sqlite3.h>
