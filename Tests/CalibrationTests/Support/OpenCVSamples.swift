import Foundation

/// OpenCV's own left-camera samples (Debian's opencv-doc): left01 to left14 (no left10), 9 x 6
/// chessboard photos, copied into a folder of their own (the samples' folder holds other pictures).
enum OpenCVSamples {
    static let source = "/usr/share/doc/opencv-doc/examples/data"
    static let names = (1...14).filter { $0 != 10 }.map { String(format: "left%02d.jpg", $0) }
    static let available = names.allSatisfy { FileManager.default.fileExists(atPath: source + "/" + $0) }
    static let missing = "OpenCV's samples (Debian's opencv-doc) are not installed"

    /// A fresh folder holding the left-camera samples.
    static func folder() throws -> String {
        let folder = try temporaryFolder("opencv-left-samples")
        for name in names { try FileManager.default.copyItem(atPath: source + "/" + name, toPath: folder + "/" + name) }
        return folder
    }
}
