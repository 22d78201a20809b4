import Foundation
import MarkerDetection
package import Pixels

extension FrameFolder.Frame {
    /// Decodes the frame's file, with every check of ``ImageFile/read(_:pixelLimit:channels:)``: a file
    /// that is not regular is refused from its metadata, the header is checked before the rest.
    ///
    /// - Parameter channels: BGR (the default), or gray for detection alone.
    /// - Throws: ``ImageFileError`` naming the file as ``path`` shows it.
    func readPixels(pixelLimit: Int = ImageFile.defaultPixelLimit, channels: ImageFile.Channels = .bgr) throws(ImageFileError) -> PixelBuffer {
        if let content { return try content.content.pixels(channels: channels, pixelLimit: pixelLimit) }
        guard let pathBytes else { return try ImageFile.read(path, pixelLimit: pixelLimit, channels: channels) }
        let descriptor = try openPath(pathBytes)
        defer { close(descriptor) }
        do {
            return try ImageFile.read(Self.procPath(descriptor), pixelLimit: pixelLimit, channels: channels)
        } catch {
            throw error.naming(path)
        }
    }

    /// The bytes of the frame's file, as they are (to copy it).
    ///
    /// - Throws: The error of reading it, or ``ImageFileError/unreadable(path:errno:)``.
    func readBytes() throws -> Data {
        if let content { return Data(try content.content.fileBytes()) }
        guard let pathBytes else { return try Data(contentsOf: URL(fileURLWithPath: path)) }
        let descriptor = try openPath(pathBytes)
        defer { close(descriptor) }
        return try Data(contentsOf: URL(fileURLWithPath: Self.procPath(descriptor)))
    }

    /// Opens the file by its bytes only to name it (`O_PATH`): nothing is read, so a FIFO does not
    /// wait and a device is not touched; the shim's checks then see the file through
    /// `/proc/self/fd`, a name that is valid UTF-8.
    private func openPath(_ bytes: [UInt8]) throws(ImageFileError) -> Int32 {
        let descriptor = (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, Self.openPathOnly | O_CLOEXEC) }
        }
        guard descriptor >= 0 else { throw .unreadable(path: path, errno: errno) }
        return descriptor
    }

    /// `O_PATH` (Linux's value; Glibc's module does not export it).
    private static let openPathOnly: Int32 = 0o10_000_000

    private static func procPath(_ descriptor: Int32) -> String { "/proc/self/fd/\(descriptor)" }
}

extension ImageFileError {
    /// The same error naming `path` (for a file read through another name).
    func naming(_ path: String) -> ImageFileError {
        switch self {
        case .unreadable(_, let code): .unreadable(path: path, errno: code)
        case .notARegularFile(_, let kind): .notARegularFile(path: path, kind: kind)
        case .fileTooLarge(_, let bytes, let limit): .fileTooLarge(path: path, bytes: bytes, limit: limit)
        case .empty: .empty(path: path)
        case .unrecognizedFormat: .unrecognizedFormat(path: path)
        case .truncated: .truncated(path: path)
        case .tooManyPixels(_, let width, let height, let limit): .tooManyPixels(path: path, width: width, height: height, limit: limit)
        case .undecodable(_, let reason): .undecodable(path: path, reason: reason)
        case .unencodable: self
        }
    }
}

extension RigRecording.Frame {
    /// Reads the frame's pixels (BGR by default): through its ``content`` when it has one (a
    /// message of a bag), else the file at ``path``.
    ///
    /// - Throws: ``ImageFileError`` naming the frame as ``path`` shows it.
    func readPixels(channels: ImageFile.Channels = .bgr) throws(ImageFileError) -> PixelBuffer {
        if let content { return try content.content.pixels(channels: channels, pixelLimit: ImageFile.defaultPixelLimit) }
        return try ImageFile.read(path, channels: channels)
    }
}

/// The frames `--pattern auto` identifies the target from: the first that can be read, decoded as
/// gray and large enough to detect in, wherever they are read from (a file, a file whose name is
/// not UTF-8, a message of a bag); the others are passed over.
package enum IdentificationFrames {
    /// Up to `limit` such frames of `folder`, in its order.
    package static func first(_ limit: Int, of folder: FrameFolder) -> [PixelBuffer] {
        first(limit, of: folder.frames) { frame throws(ImageFileError) in try frame.readPixels(channels: .gray) }
    }

    /// Up to `limit` such frames of `recording`, in its manifest's order (every camera's).
    package static func first(_ limit: Int, of recording: RigRecording) -> [PixelBuffer] {
        first(limit, of: recording.frames) { frame throws(ImageFileError) in try frame.readPixels(channels: .gray) }
    }

    private static func first<Frame>(_ limit: Int, of frames: [Frame], read: (Frame) throws(ImageFileError) -> PixelBuffer) -> [PixelBuffer] {
        var images: [PixelBuffer] = []
        for frame in frames where images.count < limit {
            guard let image = try? read(frame),
                  image.width >= MarkerDetector.minimumImageSide, image.height >= MarkerDetector.minimumImageSide else { continue }
            images.append(image)
        }
        return images
    }
}
