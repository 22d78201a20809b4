import Foundation
import SystemCalls

/// The frames of a recorded folder, in order, each with its timestamp.
///
/// With a `manifest.jsonl` (written by `marker-shutter live --record`), the manifest gives the
/// frames and their timestamps. Without one, every image file in the folder is a frame, in natural
/// name order (`frame2` before `frame10`), `1 / framesPerSecond` apart from zero.
public struct FrameFolder: Sendable {
    /// One frame to read.
    public struct Frame: Sendable, Hashable {
        /// Position in the folder's order, from 0.
        public var index: Int
        /// File name inside the folder.
        public var file: String
        /// Full path of the file.
        public var path: String
        /// The path's bytes when the file's name is not UTF-8 (`file` and `path` then show those
        /// bytes as `\xFF`); the file is opened by these bytes.
        var pathBytes: [UInt8]? = nil
        /// When the frame was captured.
        public var time: FrameTime
        /// The camera's sequence number, when the manifest has it.
        public var sequence: UInt64?
        /// The camera controls set for the frame, as the manifest last gave them (see
        /// ``FrameManifest/Entry/controls``); empty without.
        public var controls: [String: Int64] = [:]
        /// Where the frame is read from when it is not the file at `path` (a message of a bag);
        /// `path` then only names it.
        package var content: FrameContentReference? = nil

        /// Makes a frame to read from `path`, or from `content`.
        package init(
            index: Int, file: String, path: String, pathBytes: [UInt8]? = nil, time: FrameTime, sequence: UInt64? = nil,
            controls: [String: Int64] = [:], content: FrameContentReference? = nil
        ) {
            self.index = index
            self.file = file
            self.path = path
            self.pathBytes = pathBytes
            self.time = time
            self.sequence = sequence
            self.controls = controls
            self.content = content
        }

        /// Whether this frame came right after `previous` in the same video, so that the board is
        /// most likely near where `previous` showed it: the camera's sequence numbers are 1 to 3
        /// apart (a frame or two it dropped), or, without them, the folder is taken as a video in
        /// its order.
        package func follows(_ previous: Frame) -> Bool {
            guard let sequence, let before = previous.sequence else { return index == previous.index + 1 }
            return sequence > before && sequence - before <= 3
        }
    }

    /// Where the timestamps come from.
    public enum Timing: Sendable, Hashable, CustomStringConvertible {
        /// The folder's `manifest.jsonl`.
        case manifest
        /// A fixed rate over files in natural name order.
        case rate(framesPerSecond: Double)
        /// Timestamps the frames carry in the file they are in, described (`timestamps from the
        /// header stamps of /camera/image_raw`).
        case stamps(String)

        public var description: String {
            switch self {
            case .manifest: "timestamps from \(FrameManifest.fileName)"
            case .rate(let fps): "no \(FrameManifest.fileName): \(fps) frames per second in file name order"
            case .stamps(let source): source
            }
        }
    }

    /// File name extensions read as images (compared without case).
    package static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "bmp", "tif", "tiff"]

    /// The folder.
    public let path: String
    /// The frames, in order.
    public let frames: [Frame]
    /// Where the timestamps came from.
    public let timing: Timing

    /// Frames already listed, with their times: those of a file that holds them all (a bag's
    /// topic), each with its ``Frame/content``.
    ///
    /// - Parameters:
    ///   - path: What holds the frames, as messages name it.
    ///   - frames: The frames, in order, their times increasing.
    ///   - timing: Where their times came from.
    package init(path: String, frames: [Frame], timing: Timing) {
        self.path = path
        self.frames = frames
        self.timing = timing
    }

    /// Lists a folder's frames.
    ///
    /// - Parameters:
    ///   - path: The folder.
    ///   - framesPerSecond: The rate used when there is no manifest, in ``InputLimits/framesPerSecond``.
    /// - Throws: ``FrameFolderError`` when the folder cannot be listed, holds no frames, or its
    ///   manifest cannot be read.
    public init(path: String, framesPerSecond: Double = 30) throws(FrameFolderError) {
        guard InputLimits.framesPerSecond.contains(framesPerSecond) else { throw .badRate(framesPerSecond) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missing(path) }
        guard isDirectory.boolValue else { throw .notAFolder(path) }
        self.path = path
        let manifestPath = (path as NSString).appendingPathComponent(FrameManifest.fileName)
        if FileManager.default.fileExists(atPath: manifestPath) {
            // Never wait on a FIFO or stream from a device put where the manifest belongs.
            guard Self.isRegularFile(manifestPath) else { throw .unreadable(manifestPath, reason: "not a regular file") }
            let text = try Self.manifestText(manifestPath)
            let manifest: FrameManifest
            do {
                manifest = try FrameManifest(parsing: text)
            } catch {
                throw .manifest(manifestPath, error)
            }
            guard !manifest.entries.isEmpty else { throw .empty(path) }
            var controls: [String: Int64] = [:]
            frames = manifest.entries.enumerated().map { index, entry in
                controls = entry.controls ?? controls  // given on the line where they change, kept after
                return Frame(index: index, file: entry.file, path: (path as NSString).appendingPathComponent(entry.file),
                             time: FrameTime(seconds: entry.t), sequence: entry.sequence, controls: controls)
            }
            timing = .manifest
        } else {
            let images = try Self.names(in: path).filter { name, _ in
                !name.hasPrefix(".") && Self.imageExtensions.contains((name as NSString).pathExtension.lowercased())
            }.sorted { NaturalOrder.areInIncreasingOrder($0.text, $1.text) }
            guard !images.isEmpty else { throw .empty(path) }
            let interval = Duration.nanoseconds(Int64((1e9 / framesPerSecond).rounded()))
            frames = images.enumerated().map { index, name in
                Frame(index: index, file: name.text, path: (path as NSString).appendingPathComponent(name.text),
                      pathBytes: name.bytes.map { Array(path.utf8) + [UInt8(ascii: "/")] + $0 },
                      time: FrameTime(interval * index), sequence: nil)
            }
            timing = .rate(framesPerSecond: framesPerSecond)
        }
    }
}

extension FrameFolder {
    /// The names in a folder, as text, each with its bytes when they are not UTF-8.
    ///
    /// Read with `readdir`, because Foundation's listing replaces bytes that are not UTF-8 with
    /// U+FFFD, and a name so changed opens no file.
    static func names(in path: String) throws(FrameFolderError) -> [(text: String, bytes: [UInt8]?)] {
        guard let directory = opendir(path) else {
            throw .unreadable(path, reason: SystemCallError.explanation(of: errno))
        }
        defer { closedir(directory) }
        var names: [(text: String, bytes: [UInt8]?)] = []
        while let entry = readdir(directory) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if bytes == Array(".".utf8) || bytes == Array("..".utf8) { continue }
            let valid = String(validating: bytes, as: UTF8.self) != nil
            names.append((FileNameText.text(ofBytes: bytes), valid ? nil : bytes))
        }
        return names
    }

    /// The text of the manifest at `path`, read only when it has at most
    /// ``InputLimits/manifestBytes`` bytes (and never more than one byte past them, should it grow).
    static func manifestText(_ path: String) throws(FrameFolderError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .unreadable(path, reason: SystemCallError.explanation(of: errno))
        }
        defer { try? handle.close() }
        let limit = InputLimits.manifestBytes
        var status = stat()
        if fstat(handle.fileDescriptor, &status) == 0, status.st_size > limit {
            throw .manifestTooLarge(path, bytes: Int(status.st_size))
        }
        let data: Data
        do {
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw .unreadable(path, reason: "\(error.localizedDescription)")
        }
        guard data.count <= limit else { throw .manifestTooLarge(path, bytes: data.count) }
        guard let text = String(data: data, encoding: .utf8) else { throw .unreadable(path, reason: "not UTF-8 text") }
        return text
    }

    /// Whether `path`, after following symbolic links, is a regular file.
    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}

/// Why a frame folder could not be listed.
public enum FrameFolderError: Error, Equatable, CustomStringConvertible {
    /// Nothing at the path.
    case missing(String)
    /// The path is a file, not a folder.
    case notAFolder(String)
    /// The folder or its manifest could not be read.
    case unreadable(String, reason: String)
    /// No image files, and no manifest listing any.
    case empty(String)
    /// The manifest is malformed.
    case manifest(String, FrameManifestError)
    /// A frame rate outside ``InputLimits/framesPerSecond``.
    case badRate(Double)
    /// The manifest has more than ``InputLimits/manifestBytes`` bytes (at least `bytes`); it was not read.
    case manifestTooLarge(String, bytes: Int)

    public var description: String {
        switch self {
        case .missing(let path): "\(path): no such folder"
        case .notAFolder(let path): "\(path): not a folder (give the folder that holds the frames)"
        case .unreadable(let path, let reason): "\(path): cannot be read: \(reason)"
        case .empty(let path):
            "\(path): no frames (image files ending in \(FrameFolder.imageExtensions.sorted().joined(separator: ", ")), or a \(FrameManifest.fileName) listing them)"
        case .manifest(let path, let error): "\(path): \(error)"
        case .manifestTooLarge(let path, let bytes):
            "\(path): \(bytes) bytes, more than the limit of \(InputLimits.manifestBytes) bytes (64 MiB) for a manifest"
        case .badRate(let fps): "\(OutOfRangeError(name: "the frame rate", value: "\(fps)", allowed: InputLimits.framesPerSecond.description))"
        }
    }
}
