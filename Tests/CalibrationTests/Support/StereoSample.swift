import Calibration
import Foundation
import MarkerDetection

/// OpenCV's stereo calibration sample (left01..14 and right01..14 without 10, a 9x6 chessboard),
/// from Debian's opencv-doc, laid out as a rig: a `left` and a `right` folder whose pictures of
/// one moment share their name (`01.jpg`).
enum StereoSample {
    static let data = "/usr/share/doc/opencv-doc/examples/data"
    static let numbers = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "11", "12", "13", "14"]

    static let available = numbers.allSatisfy {
        FileManager.default.fileExists(atPath: "\(data)/left\($0).jpg") && FileManager.default.fileExists(atPath: "\(data)/right\($0).jpg")
    }

    static let missing = "OpenCV's stereo sample is not installed (Debian's opencv-doc: /usr/share/doc/opencv-doc/examples/data)"

    /// A fresh folder holding `left/` and `right/`, each picture a link to the sample's.
    static func folders(_ name: String = #function) throws -> (root: String, left: String, right: String) {
        let root = try temporaryFolder(name)
        let left = "\(root)/left", right = "\(root)/right"
        for (side, folder) in [("left", left), ("right", right)] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for number in numbers {
                try FileManager.default.createSymbolicLink(atPath: "\(folder)/\(number).jpg", withDestinationPath: "\(data)/\(side)\(number).jpg")
            }
        }
        return (root, left, right)
    }
}
