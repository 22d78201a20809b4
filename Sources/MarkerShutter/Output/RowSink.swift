import FileFormats
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where JSON Lines go: standard output, a device or FIFO written through, or a file written under
/// a hidden temporary name and renamed into place when the rows end, so that a file of that name
/// always holds whole rows.
///
/// A write that fails (a full disk, standard output closed or `/dev/full`) ends the output: the
/// rows written before it are kept, whole, and ``finish()`` says what failed.
struct RowSink {
    private let name: String
    /// The file being written under its temporary name, for a file that is renamed into place.
    private let staged: SafeOutput.Staged?
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Bytes written so far, all of them whole rows.
    private var written = 0
    private var rowsWritten = 0
    private var rowsBuffered = 0
    private var failure: OutputError?

    /// Opens the sink for `destination` (see ``SafeOutput/destination(for:replacing:inputs:)``).
    ///
    /// - Throws: ``OutputError`` when the file (or its temporary file) cannot be opened.
    init(_ destination: SafeOutput.Destination) throws(OutputError) {
        (name, staged, descriptor) = try destination.open()
    }

    /// Adds one row (a newline follows it); nothing after a failed write.
    mutating func write(_ row: String) {
        guard failure == nil else { return }
        buffer.append(contentsOf: row.utf8)
        buffer.append(UInt8(ascii: "\n"))
        rowsBuffered += 1
        if buffer.count >= 1 << 16 { flush() }
    }

    private mutating func flush() {
        guard failure == nil, !buffer.isEmpty else { return }
        do {
            try SafeOutput.writeAll(buffer, to: descriptor, path: name)
            written += buffer.count
            rowsWritten += rowsBuffered
        } catch {
            failure = error
            // A part of a row may have reached the file: cut it back to the last whole row.
            if staged != nil { _ = ftruncate(descriptor, off_t(written)) }
        }
        buffer.removeAll(keepingCapacity: true)
        rowsBuffered = 0
    }

    /// Writes what is left and, for a file, moves it into place: the rows written so far are kept
    /// after an interruption or a failed write too.
    ///
    /// - Returns: What failed, with how many rows were kept; nil when every row was written.
    mutating func finish() -> String? {
        flush()
        var failure = self.failure
        if let staged {
            do {
                try staged.commit(keepingUnflushed: true)
            } catch {
                // The rows written so far are in place unless the file itself could not be.
                if error.call == "rename" { return "\(error)" }
                if failure == nil { failure = error }
            }
        } else if descriptor != STDOUT_FILENO {
            close(descriptor)
        }
        guard let failure else { return nil }
        return "\(failure); the \(rowsWritten) rows written before it are kept"
    }
}
