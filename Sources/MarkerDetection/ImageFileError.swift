import SystemCalls

/// Why an image file could not be read, decoded or encoded.
///
/// `path` is `nil` when the bytes came from memory rather than a file.
public enum ImageFileError: Error, Hashable, CustomStringConvertible {
    /// The file could not be opened or read; `errno` says why.
    case unreadable(path: String, errno: Int32)
    /// The path names a FIFO, device, directory or socket (`kind`), not a regular file; nothing was
    /// read from it, so a FIFO without a writer or an endless device cannot stall the reader.
    case notARegularFile(path: String, kind: String)
    /// The file is larger than ``ImageFile/fileByteLimit``; nothing was read from it.
    case fileTooLarge(path: String, bytes: Int, limit: Int)
    /// The file or buffer holds no bytes.
    case empty(path: String?)
    /// The bytes are not a JPEG, PNG, BMP or TIFF image, whatever the file's name says.
    case unrecognizedFormat(path: String?)
    /// The data stops before the image does (a cut-off download or copy).
    case truncated(path: String?)
    /// The header claims more pixels than the limit; nothing was decoded.
    case tooManyPixels(path: String?, width: Int, height: Int, limit: Int)
    /// A recognised format whose contents could not be decoded.
    case undecodable(path: String?, reason: String)
    /// The pixels could not be encoded.
    case unencodable(reason: String)

    /// A sentence a user can act on.
    public var description: String {
        func source(_ path: String?) -> String { path.map { "'\($0)'" } ?? "image data" }
        switch self {
        case .unreadable(let path, let code): return "cannot read '\(path)': \(SystemCallError.explanation(of: code))"
        case .notARegularFile(let path, let kind): return "'\(path)' is a \(kind), not a regular file"
        case .fileTooLarge(let path, let bytes, let limit):
            return "'\(path)' is \(bytes) bytes, more than the limit of \(limit) bytes for an image file"
        case .empty(let path): return "\(source(path)) is empty"
        case .unrecognizedFormat(let path): return "\(source(path)) is not a JPEG, PNG, BMP or TIFF image"
        case .truncated(let path): return "\(source(path)) is truncated: the image data ends early"
        case .tooManyPixels(let path, let width, let height, let limit):
            return "\(source(path)) is \(width)x\(height) pixels, more than the limit of \(limit) pixels"
        case .undecodable(let path, let reason): return "cannot decode \(source(path)): \(reason)"
        case .unencodable(let reason): return "cannot encode image: \(reason)"
        }
    }
}
