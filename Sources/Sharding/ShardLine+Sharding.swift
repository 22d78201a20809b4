package import FileFormats
import Foundation
package import MarkerDetection
package import MarkerShutter

extension ShardLine.Header.Options {
    /// The options of a processor.
    package init(detector: MarkerDetector, rule: ValidityRule, options: FolderProcessor.Options) {
        let (seconds, attoseconds) = options.hold.components
        self.init(pattern: detector.pattern.description, detect: detector.mode.rawValue, minMarkers: rule.minimumMarkers,
                  minCorners: rule.minimumBoardCorners, minSharpness: rule.minimumSharpness,
                  holdNanoseconds: seconds * 1_000_000_000 + attoseconds / 1_000_000_000, pixelLimit: options.pixelLimit)
    }
}

extension FrameFolder {
    /// A digest of the frame list: each frame's file, timestamp (nanoseconds) and sequence number,
    /// in order (64-bit FNV-1a, as `fnv1a64:` and 16 hex digits). Shards of one recording share it.
    var listDigest: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        for frame in frames {
            add(frame.file)
            add("\t\(frame.time.nanoseconds)\t\(frame.sequence.map(String.init) ?? "-")\n")
        }
        let hex = String(hash, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The folder's absolute path with links resolved: the same for every task given it.
    var resolvedPath: String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
