import Calibration
import Foundation
import MarkerDetection

/// Picture folders as `live` writes them: `capture_NNNN.png` with a JSON sidecar each.
enum SidecarFolder {
    /// Writes one sidecar per view (with an empty stand-in picture: sidecar folders are read without
    /// decoding their pictures) and returns the folder.
    static func write(_ views: [CalibrationView], pattern: String, name: String = #function) throws -> String {
        let folder = try temporaryFolder(name)
        for (index, view) in views.enumerated() {
            let stem = String(format: "capture_%04d", index + 1)
            let corners = view.points.map { point in
                "{\"id\":\(point.id),\"xy\":[\(point.image.x),\(point.image.y)]}"
            }
            let text = """
                {"image":"\(stem).png","pattern":"\(pattern)","trigger":"request","frame_index":\(index),\
                "width":\(view.imageSize.width),"height":\(view.imageSize.height),"valid":true,"markers":[],\
                "corners":[\(corners.joined(separator: ","))],"sharpness":100}
                """
            try text.write(toFile: "\(folder)/\(stem).json", atomically: true, encoding: .utf8)
            guard FileManager.default.createFile(atPath: "\(folder)/\(stem).png", contents: Data()) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: "\(folder)/\(stem).png"])
            }
        }
        return folder
    }

    /// The names in a folder, sorted.
    static func contents(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}
