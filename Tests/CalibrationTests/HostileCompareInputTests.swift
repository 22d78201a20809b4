@testable import Calibration
import Foundation
import MarkerDetection
import Testing

/// Hostile input for `compare`, one table per reader it uses: every file that is no camera is
/// refused with one plain sentence naming the file and the field, never a decoder's dump, and never
/// read into "an unknown amount" of difference. Grow the tables as new cases are found.
@Suite struct HostileCompareInputTests {
    static var good: [String: Any] {
        [
            "image_width": 640, "image_height": 480, "distortion_model": "pinhole",
            "camera_matrix": [800.0, 0, 320, 0, 800, 240, 0, 0, 1], "distortion_coefficients": [0.1, -0.2, 0, 0, 0.05],
        ]
    }

    /// A map as `calibrate` writes one: 2 x 2 points.
    static var map: [String: Any] {
        [
            "measure": "worstdirection-stdev", "distance": 1.5, "distance_note": "", "centre_px": 0.2,
            "worst_corner": ["name": "upper-left", "px": 0.4], "corners_px": [0.4, 0.3, 0.3, 0.3],
            "grid": ["columns": 2, "rows": 2, "px": [0.4, 0.3, 0.3, 0.3]],
        ]
    }

    /// The good camera with `change` made to its fields.
    static func json(_ change: (inout [String: Any]) -> Void) -> String {
        var fields = good
        change(&fields)
        return String(decoding: try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Writes `text` as `name` in a fresh folder and reads it as `compare` does.
    static func refusal(_ name: String, _ text: String) throws -> (path: String, message: String?) {
        let root = try temporaryFolder("hostile")
        let path = root + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try SavedCalibration(reading: path)
            return (path, nil)
        } catch {
            return (path, "\(error)")
        }
    }

    /// This tool's calibration.json: bad file -> the end of the message.
    static let calibrationJSON: [(String, String)] = [
        (json { $0["camera_matrix"] = nil }, "field camera_matrix is missing"),
        (json { $0["camera_matrix"] = "800" }, "field camera_matrix is not a list"),
        (json { $0["camera_matrix"] = [800, 0, 320, 0, "x", 240, 0, 0, 1] }, "field camera_matrix[4] is not a number"),
        (json { $0["image_height"] = NSNull() }, "field image_height is null, not a whole number"),
        (json { $0["camera_matrix"] = [-800.0, 0, 320, 0, 800, 240, 0, 0, 1] }, "the focal length fx, is -800.0: it must be above 0"),
        (json { $0["camera_matrix"] = [800.0, 0, 320, 0, 0, 240, 0, 0, 1] }, "the focal length fy, is 0.0: it must be above 0"),
        (json { $0["camera_matrix"] = [1e-300, 0, 320, 0, 800, 240, 0, 0, 1] }, "its focal length fx is 1e-300 pixels: a camera's is from 1 to 10000000 pixels"),
        (json { $0["camera_matrix"] = [800.0, 0, 320, 0, 1e12, 240, 0, 0, 1] }, "its focal length fy is 1000000000000.0 pixels"),
        (json { $0["camera_matrix"] = [800.0, 0, 1e300, 0, 800, 240, 0, 0, 1] }, "its principal point cx is 1e+300"),
        (json { $0["camera_matrix"] = [800.0, 0, 320, 0, 800, -5000, 0, 0, 1] }, "its principal point cy is -5000.0"),
        (json { $0["image_width"] = 0 }, "field image_width is 0: an image is 2 pixels or more each way"),
        (json { $0["image_height"] = -480 }, "field image_height is -480"),
        (json { $0["image_width"] = 1_000_000_000; $0["image_height"] = 1_000_000_000 }, "its image width is 1000000000 pixels: an image is from 2 to 100000"),
        (json { $0["distortion_coefficients"] = [1e300, 0, 0, 0, 0] }, "its distortion coefficient k1 is 1e+300"),
        (json { $0["distortion_coefficients"] = [0, 0, 0, 0, -2e7] }, "its distortion coefficient k3 is -20000000.0"),
        (json { $0["distortion_coefficients"] = [0, 0, 0] }, "field distortion_coefficients holds 3 numbers: the pinhole model has 5"),
        (json { $0["distortion_model"] = "kannala" }, "field distortion_model is 'kannala', not one of"),
        (json { $0["camera_matrix"] = [800.0, 0, 320, 0, 800, 240, 0, 0] }, "field camera_matrix holds 8 numbers, not the 9 of a 3x3 matrix"),
        (json { $0["image_width"] = 640.5 }, "a number in it is not one its field can hold"),
        (json { _ in }.replacingOccurrences(of: "0.05", with: "NaN"), "it is not JSON"),
        (json { _ in }.replacingOccurrences(of: "800,", with: "1e999,"), "calibrate ("),
        ("{\"image_width\": 640, ", "it is not JSON"),
        (json { $0["projection_uncertainty"] = map.merging(["distance": NSNull()]) { $1 } }, "field projection_uncertainty.distance is null"),
        (json { $0["projection_uncertainty"] = map.merging(["distance": -1.0]) { $1 } }, "field projection_uncertainty.distance is -1.0"),
        (json { $0["projection_uncertainty"] = map.merging(["grid": ["columns": 4_611_686_018_427_387_904, "rows": 4, "px": [1]]]) { $1 } },
         "field projection_uncertainty.grid.columns is 4611686018427387904"),
        (json { $0["projection_uncertainty"] = map.merging(["grid": ["columns": 2, "rows": 2, "px": [1]]]) { $1 } },
         "field projection_uncertainty.grid.px holds 1 values: its 2 x 2 grid has 4"),
        (json { $0["projection_uncertainty"] = map.merging(["grid": ["columns": 2, "rows": 2, "px": [1, -1, 1, 1]]]) { $1 } },
         "field projection_uncertainty.grid.px[1] is -1.0"),
        (json { $0["projection_uncertainty"] = map.merging(["corners_px": [1, 1, 1]]) { $1 } }, "field projection_uncertainty.corners_px holds 3 values"),
        (json { $0["projection_uncertainty"] = map.merging(["centre_px": -0.5]) { $1 } }, "field projection_uncertainty.centre_px is -0.5"),
    ]

    @Test func aHostileCalibrationJSONIsRefusedNamingTheField() throws {
        for (index, (text, fragment)) in Self.calibrationJSON.enumerated() {
            // As a folder's calibration.json, and as a JSON file of another name that is this tool's.
            for name in ["case-\(index)/calibration.json", "left-\(index).json"] {
                let (path, message) = try Self.refusal(name, text)
                defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
                guard let message else {
                    Issue.record("\(name) was read: \(text)")
                    continue
                }
                #expect(message.hasPrefix("cannot read \(path): "), "\(message)")
                #expect(message.contains(fragment), "\(name) \(text): \(message)")
                #expect(!message.contains("codingPath") && !message.contains("DecodingError") && !message.contains("\n"), "\(message)")
            }
        }
    }

    /// Other tools' files (YAML as ROS and OpenCV's own writer write it, a Kalibr camchain, an
    /// mrcal model): bad numbers are refused naming the camera and the quantity.
    static let otherTools: [(String, String, String)] = [
        ("nan.yaml", "image_width: 640\nimage_height: 480\ncamera_matrix: [.nan, 0, 320, 0, 800, 240, 0, 0, 1]\n"
            + "distortion_coefficients: [0, 0, 0, 0, 0]\n", "its focal length fx is nan pixels"),
        ("inf.yaml", "image_width: 640\nimage_height: 480\ncamera_matrix: [800, 0, 320, 0, 800, 240, 0, 0, 1]\n"
            + "distortion_coefficients: [.inf, 0, 0, 0, 0]\n", "its distortion coefficient k1 is inf"),
        ("zero-size.yaml", "image_width: 0\nimage_height: 480\ncamera_matrix: [800, 0, 320, 0, 800, 240, 0, 0, 1]\n"
            + "distortion_coefficients: [0, 0, 0, 0, 0]\n", "its image width is 0 pixels"),
        ("ros.yaml", "image_width: 640\nimage_height: 480\ncamera_name: left\ndistortion_model: plumb_bob\n"
            + "camera_matrix: {rows: 3, cols: 3, data: [0.0001, 0, 320, 0, 800, 240, 0, 0, 1]}\n"
            + "distortion_coefficients: {rows: 1, cols: 5, data: [0, 0, 0, 0, 0]}\n", "its focal length fx is 0.0001 pixels"),
        ("opencv.yml", "%YAML:1.0\n---\nimage_width: 640\nimage_height: 480\ncamera_matrix: !!opencv-matrix\n   rows: 3\n   cols: 3\n"
            + "   dt: d\n   data: [ 800., 0., 1.0e+200, 0., 800., 240., 0., 0., 1. ]\n"
            + "distortion_coefficients: !!opencv-matrix\n   rows: 1\n   cols: 5\n   dt: d\n   data: [ 0., 0., 0., 0., 0. ]\n",
         "its principal point cx is 1e+200"),
        ("words.yaml", "image_width: 640\nimage_height: 480\ncamera_matrix: [800, 0, 320, 0, 800, 240, 0, 0, 1]\n"
            + "distortion_coefficients: [k1, 0, 0, 0, 0]\n", "the camera's distortion coefficients are not a list of numbers"),
        ("rig.yaml", "camera_count: 1\ncameras:\n  - name: left\n    image_width: 640\n    image_height: 480\n"
            + "    K: [800, 0, 320, 0, 800, 240, 0, 0, 1]\n    D: {data: nope}\n", "camera left's distortion coefficients are not a list of numbers"),
        ("camchain.yaml", "cam0:\n  camera_model: pinhole\n  intrinsics: [800, 800, 320, 240]\n  distortion_model: radtan\n"
            + "  distortion_coeffs: [0, 0, 0, 0]\n  resolution: [640, 4000000]\n  rostopic: /left/image_raw\n",
         "cam0: its image height is 4000000 pixels"),
        ("left.cameramodel", "{'lensmodel': 'LENSMODEL_OPENCV4', 'intrinsics': [800, -800, 320, 240, 0, 0, 0, 0], 'imagersize': [640, 480]}",
         "its focal length fy is -800.0 pixels"),
    ]

    @Test func anotherToolsFileWithImpossibleNumbersIsRefused() throws {
        for (name, text, fragment) in Self.otherTools {
            let (path, message) = try Self.refusal(name, text)
            defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
            #expect(message?.hasPrefix("cannot read \(path): ") == true, "\(name): \(message ?? "read")")
            #expect(message?.contains(fragment) == true, "\(name): \(message ?? "read")")
        }
    }

    /// Files larger than any calibration are refused by their size, unread, whichever reader
    /// would take them.
    @Test func aFileBeyondTheSizeLimitIsRefusedUnread() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for name in ["calibration.json", "camera.yaml", "left.cameramodel"] {
            let path = root + "/" + name
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            #expect(truncate(path, off_t(DocumentReader.maximumBytes + 1)) == 0)
            for argument in name == "calibration.json" ? [path, root] : [path] {
                #expect(throws: ComparisonError.unreadable(
                    path: path, reason: "\(DocumentReader.maximumBytes + 1) bytes: a calibration file is at most \(DocumentReader.maximumBytes) bytes")) {
                    try SavedCalibration(reading: argument)
                }
            }
            try FileManager.default.removeItem(atPath: path)
        }
        #expect(throws: ComparisonError.self) { try SavedCalibration(path: root) }
    }
}
