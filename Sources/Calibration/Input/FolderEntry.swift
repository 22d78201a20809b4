import Foundation
import MarkerDetection
import Pixels
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// A name in a picture folder, as text and, when it is not UTF-8, as the bytes that open it.
///
/// Folders are listed with `readdir`, because Foundation's listing replaces bytes that are not
/// UTF-8 with U+FFFD, and a name so changed opens no file. Such a name is shown with each of those
/// bytes written `\xFF`.
struct FolderEntry: Sendable, Hashable {
    /// The name as text.
    var text: String
    /// The name's bytes, when they are not UTF-8.
    var bytes: [UInt8]?

    /// The entries of `folder` but `.`, `..` and hidden names, sorted by their text.
    ///
    /// - Throws: ``CalibrationError/unreadableInput(path:reason:)`` when the folder cannot be listed.
    static func list(_ folder: String) throws(CalibrationError) -> [FolderEntry] {
        guard let directory = opendir(folder) else {
            throw .unreadableInput(path: folder, reason: "not a readable folder (\(SystemCallError.explanation(of: errno)))")
        }
        defer { closedir(directory) }
        var entries: [FolderEntry] = []
        while let entry = readdir(directory) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard bytes.first != UInt8(ascii: ".") else { continue }
            if let text = String(validating: bytes, as: UTF8.self) {
                entries.append(FolderEntry(text: text, bytes: nil))
            } else {
                entries.append(FolderEntry(text: SystemCall.text(ofNameBytes: bytes), bytes: bytes))
            }
        }
        return entries.sorted { $0.text < $1.text }
    }

    /// A path that opens this entry of `folder`: the folder and name, or for a name that is not
    /// UTF-8, `/proc/self/fd/N` of a descriptor opened by its bytes (`O_PATH`: nothing is read, a
    /// FIFO does not wait), closed after `body`.
    func withOpenablePath<T>(in folder: String, _ body: (String) throws(CalibrationError) -> T) throws(CalibrationError) -> T {
        let shown = (folder as NSString).appendingPathComponent(text)
        guard let bytes else { return try body(shown) }
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + bytes + [0]
        let descriptor = path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, Self.openPathOnly | O_CLOEXEC) }
        }
        guard descriptor >= 0 else { throw .unreadableInput(path: shown, reason: SystemCallError.explanation(of: errno)) }
        defer { close(descriptor) }
        return try body("/proc/self/fd/\(descriptor)")
    }

    /// `O_PATH` (Linux's value; Glibc's module does not export it).
    private static let openPathOnly: Int32 = 0o10_000_000

    /// The bytes of this entry of `folder`, a regular file of at most `limit` bytes (a FIFO, device
    /// or folder is refused from its metadata, without waiting on it).
    ///
    /// - Throws: ``CalibrationError/unreadableInput(path:reason:)`` naming the file.
    func contents(in folder: String, limit: Int) throws(CalibrationError) -> Data {
        let shown = (folder as NSString).appendingPathComponent(text)
        return try withOpenablePath(in: folder) { (path: String) throws(CalibrationError) -> Data in
            let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { throw .unreadableInput(path: shown, reason: "cannot be opened (\(SystemCallError.explanation(of: errno)))") }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                throw .unreadableInput(path: shown, reason: "not a regular file")
            }
            guard Int(status.st_size) <= limit else {
                throw .unreadableInput(path: shown, reason: "\(status.st_size) bytes, more than the \(limit) a sidecar may have")
            }
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { throw .unreadableInput(path: shown, reason: SystemCallError.explanation(of: errno)) }
                if count == 0 { break }
                data.append(contentsOf: buffer[0..<count])
                guard data.count <= limit else {
                    throw .unreadableInput(path: shown, reason: "more than the \(limit) bytes a sidecar may have")
                }
            }
            return data
        }
    }

    /// Decodes this entry of `folder` as an image (``ImageFile/read(_:pixelLimit:channels:)``).
    ///
    /// - Throws: ``CalibrationError/unreadableInput(path:reason:)`` naming the file.
    func image(in folder: String, channels: ImageFile.Channels = .bgr) throws(CalibrationError) -> PixelBuffer {
        let shown = (folder as NSString).appendingPathComponent(text)
        return try withOpenablePath(in: folder) { (path: String) throws(CalibrationError) -> PixelBuffer in
            do {
                return try ImageFile.read(path, channels: channels)
            } catch {
                let reason = bytes == nil ? "\(error)" : "\(error)".replacingOccurrences(of: path, with: shown)
                throw .unreadableInput(path: shown, reason: reason)
            }
        }
    }
}

