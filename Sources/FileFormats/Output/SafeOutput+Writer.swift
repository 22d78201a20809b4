#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension SafeOutput {
    /// A file written as its contents come, where a ``Destination`` says, with all or nothing
    /// reaching a regular file: it is written under its hidden temporary name (``Staged``) and
    /// renamed into place only by ``commit(replacing:)``; ``abandon()``, a failed write or the
    /// writer's end without a commit removes it, and an existing file of that name is left as it was.
    ///
    /// Standard output, a device, a FIFO or a link is written through as the bytes come (buffered
    /// up to ``bufferBytes``); what was written there before a failure stays written.
    package final class Writer {
        /// How many bytes are gathered before they are written.
        package static let bufferBytes = 1 << 20

        private let name: String
        private let staged: Staged?
        private let descriptor: Int32
        private var buffer: [UInt8] = []
        private var isOpen = true

        /// Opens the file (for a regular file, its temporary file).
        ///
        /// - Throws: ``OutputError`` when it cannot be opened.
        package init(_ destination: Destination) throws(OutputError) {
            (name, staged, descriptor) = try destination.open()
            buffer.reserveCapacity(Self.bufferBytes)
        }

        deinit { if isOpen { abandon() } }

        /// Adds `bytes` to the file.
        ///
        /// - Throws: ``OutputError`` naming the path; the writer is then abandoned.
        package func write(_ bytes: some Collection<UInt8>) throws(OutputError) {
            precondition(isOpen, "a write to \(name) after its commit or abandon")
            buffer.append(contentsOf: bytes)
            if buffer.count >= Self.bufferBytes { try flush() }
        }

        /// Writes what is gathered, then moves a regular file into place (flushed to the disk
        /// first), or closes the device, FIFO or link.
        ///
        /// - Parameter replacing: Whether an existing regular file may be replaced.
        /// - Throws: ``OutputError`` naming the call that failed (`EEXIST` for a file that
        ///   appeared meanwhile and may not be replaced); a regular file is then not in place.
        package func commit(replacing: Bool) throws(OutputError) {
            precondition(isOpen, "a second commit of \(name)")
            try flush()
            isOpen = false
            if let staged {
                try staged.commit(replacing: replacing)
            } else if descriptor != STDOUT_FILENO, close(descriptor) != 0 {
                throw OutputError(path: name, call: "close", errno: errno)
            }
        }

        /// Closes the file; a regular file's temporary file is removed and nothing reaches its path.
        package func abandon() {
            guard isOpen else { return }
            isOpen = false
            if let staged {
                staged.abandon()
            } else if descriptor != STDOUT_FILENO {
                close(descriptor)
            }
        }

        private func flush() throws(OutputError) {
            guard !buffer.isEmpty else { return }
            do {
                try SafeOutput.writeAll(buffer, to: descriptor, path: name)
            } catch {
                abandon()
                throw error
            }
            buffer.removeAll(keepingCapacity: true)
        }
    }
}
