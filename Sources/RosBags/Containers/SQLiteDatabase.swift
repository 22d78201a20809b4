import CSQLite3

/// A rosbag2 `.db3` file, opened read-only through Debian's libsqlite3: the one file that calls into
/// `CSQLite3`.
///
/// The database is opened `immutable` (a URI parameter): SQLite then takes no lock and writes no
/// journal, `-wal` or `-shm` file beside it, so the recording's folder is never written into. One
/// connection serves one thread at a time (a walk has its own; reads by row share one under a lock).
final class SQLiteDatabase {
    private let handle: OpaquePointer
    /// The file, as the user's path names it.
    let path: String

    /// Opens `path` read-only and immutable.
    ///
    /// - Throws: ``BagError`` (`unreadable`) when SQLite cannot open it.
    init(path: String) throws(BagError) {
        var handle: OpaquePointer?
        let uri = "file:" + Self.percentEncoded(path) + "?immutable=1"
        let status = sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close(handle)
            throw BagError(.unreadable, path: path, "cannot be opened as an SQLite database: \(message)")
        }
        self.handle = handle
        self.path = path
    }

    deinit { sqlite3_close(handle) }

    /// `path` with the characters a URI gives meaning to written as `%XX`.
    private static func percentEncoded(_ path: String) -> String {
        var text = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                text.unicodeScalars.append("%")
                text.unicodeScalars.append(hex[Int(byte >> 4)])
                text.unicodeScalars.append(hex[Int(byte & 15)])
            }
        }
        return text
    }

    /// The error SQLite reports for the last call, as a ``BagError`` naming the file.
    func failure(_ what: String, _ status: Int32) -> BagError {
        let message = String(cString: sqlite3_errmsg(handle))
        let kind: BagError.Kind = status == SQLITE_CORRUPT || status == SQLITE_NOTADB ? .malformed : .unreadable
        let hint = status == SQLITE_CORRUPT ? " (a file cut off or damaged)" : ""
        return BagError(kind, path: path, "\(what): \(message)\(hint)")
    }

    /// A prepared statement, stepped row by row.
    final class Statement {
        private let database: SQLiteDatabase
        private let statement: OpaquePointer
        private let what: String

        init(_ database: SQLiteDatabase, _ sql: String, what: String) throws(BagError) {
            var statement: OpaquePointer?
            let status = sqlite3_prepare_v2(database.handle, sql, -1, &statement, nil)
            guard status == SQLITE_OK, let statement else { throw database.failure(what, status) }
            self.database = database
            self.statement = statement
            self.what = what
        }

        deinit { sqlite3_finalize(statement) }

        /// Binds 64-bit integer `value` to parameter `index` (from 1).
        func bind(_ index: Int32, _ value: Int64) throws(BagError) {
            let status = sqlite3_bind_int64(statement, index, value)
            guard status == SQLITE_OK else { throw database.failure(what, status) }
        }

        /// Steps to the next row: false at the end.
        func step() throws(BagError) -> Bool {
            let status = sqlite3_step(statement)
            if status == SQLITE_ROW { return true }
            if status == SQLITE_DONE { return false }
            throw database.failure(what, status)
        }

        /// Starts again (for the next binding).
        func reset() { sqlite3_reset(statement) }

        func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        func text(_ column: Int32) -> String {
            guard let text = sqlite3_column_text(statement, column) else { return "" }
            return String(cString: text)
        }

        /// The column's bytes (a BLOB), or at most `limit` of them.
        func blob(_ column: Int32, limit: Int = .max) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: bytes, count: min(count, limit)))
        }
    }

    /// Reads `count` bytes from the start of the BLOB `column` of row `row` of `table`, through
    /// SQLite's incremental BLOB reads (only the pages those bytes are on).
    func readBlob(table: String, column: String, row: Int64, count: Int) throws(BagError) -> [UInt8] {
        var blob: OpaquePointer?
        let status = sqlite3_blob_open(handle, "main", table, column, row, 0, &blob)
        guard status == SQLITE_OK, let blob else { throw failure("cannot read \(table) row \(row)", status) }
        defer { sqlite3_blob_close(blob) }
        let stored = Int(sqlite3_blob_bytes(blob))
        guard count <= stored else {
            throw BagError(.malformed, path: path, "\(table) row \(row) holds \(stored) bytes, fewer than the \(count) expected")
        }
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { sqlite3_blob_read(blob, $0.baseAddress, Int32(count), 0) }
        guard read == SQLITE_OK else { throw failure("cannot read \(table) row \(row)", read) }
        return bytes
    }
}
