import Calibration
import Foundation
import MarkerDetection
import Testing

/// Calibrations written by other tools' own writers (cv2.FileStorage in YAML, JSON and XML, ROS's
/// camera_calibration_parsers, mrcal's cameramodel.write, a Kalibr camchain through PyYAML) read
/// back as the same camera; what is not a calibration is refused by name.
@Suite(.enabled(if: Python.hasOpenCV && Python.hasYAML, "/usr/bin/python3 with cv2 and yaml is not installed"))
struct ForeignCalibrationTests {
    static let k = [612.5, 0, 318.25, 0, 610.75, 241.5, 0, 0, 1]
    static let d5 = [-0.31, 0.12, 0.0011, -0.0007, -0.021]

    static func expectCamera(_ saved: SavedCalibration, model: CameraModel, distortion: [Double], sourceLocation: SourceLocation = #_sourceLocation) {
        let camera = saved.camera
        #expect(camera.model == model, sourceLocation: sourceLocation)
        #expect(camera.imageSize == ImageSize(width: 640, height: 480), sourceLocation: sourceLocation)
        #expect(camera.cameraMatrix == k, sourceLocation: sourceLocation)
        // Within a few units in the last place: the numbers went through text.
        #expect(camera.distortion.count == distortion.count, sourceLocation: sourceLocation)
        for (read, written) in zip(camera.distortion, distortion) {
            #expect(abs(read - written) <= 1e-15 * max(1, abs(written)), "\(camera.distortion)", sourceLocation: sourceLocation)
        }
        #expect(saved.uncertainty == nil, sourceLocation: sourceLocation)
    }

    @Test(arguments: ["yml", "json", "xml"])
    func openCVFileStorageInEveryFormat(ext: String) throws {
        let root = try temporaryFolder("storage-\(ext)")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = "\(root)/camera.\(ext)"
        _ = try Python.run("""
            import cv2, sys
            import numpy as np
            fs = cv2.FileStorage(sys.argv[1], cv2.FILE_STORAGE_WRITE)
            fs.write("image_width", 640)
            fs.write("image_height", 480)
            fs.write("camera_matrix", np.array(\(Self.k), float).reshape(3, 3))
            fs.write("distortion_coefficients", np.array([\(Self.d5.map { "\($0)" }.joined(separator: ","))], float).reshape(1, 5))
            fs.release()
            """, [path])
        let saved = try SavedCalibration(reading: path)
        Self.expectCamera(saved, model: .pinhole, distortion: Self.d5)
        #expect(saved.format == "OpenCV FileStorage")
    }

    /// camera_info as ROS's calibrators write it (the layout of camera_calibration_parsers' YAML
    /// writer, Debian's Python binding of which only reads), checked first with ROS's own reader.
    @Test(.enabled(if: (try? Python.run("import camera_calibration_parsers")) != nil, "ROS's camera_calibration_parsers is not installed"),
          arguments: [("plumb_bob", CameraModel.pinhole), ("rational_polynomial", .rational), ("equidistant", .fisheye)])
    func rosCameraInfo(model: String, expected: CameraModel) throws {
        let root = try temporaryFolder("ros-\(model)")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let distortion = Array((Self.d5 + [0.4, 0.05, 0.002]).prefix(expected.distortionNames.count))
        func list(_ values: [Double]) -> String { "[" + values.map { "\($0)" }.joined(separator: ", ") + "]" }
        let text = """
            image_width: 640
            image_height: 480
            camera_name: narrow_stereo
            camera_matrix:
              rows: 3
              cols: 3
              data: \(list(Self.k))
            distortion_model: \(model)
            distortion_coefficients:
              rows: 1
              cols: \(distortion.count)
              data: \(list(distortion))
            rectification_matrix:
              rows: 3
              cols: 3
              data: [1, 0, 0, 0, 1, 0, 0, 0, 1]
            projection_matrix:
              rows: 3
              cols: 4
              data: [612.5, 0, 318.25, 0, 0, 610.75, 241.5, 0, 0, 0, 1, 0]

            """
        try text.write(toFile: "\(root)/left.yaml", atomically: true, encoding: .utf8)
        let ros = try Python.run("""
            import sys, json
            import camera_calibration_parsers as parsers
            name, info = parsers.readCalibration(sys.argv[1])
            print(json.dumps({"name": name, "model": info.distortion_model, "D": list(info.D), "K": list(info.K), "size": [info.width, info.height]}))
            """, ["\(root)/left.yaml"])
        let read = try #require(try JSONSerialization.jsonObject(with: Data(ros.utf8)) as? [String: Any])
        #expect(read["name"] as? String == "narrow_stereo")
        #expect(read["D"] as? [Double] == distortion)
        #expect(read["K"] as? [Double] == Self.k)
        let saved = try SavedCalibration(reading: "\(root)/left.yaml")
        Self.expectCamera(saved, model: expected, distortion: distortion)
        #expect(saved.format == "ROS camera_info")
    }

    @Test(.enabled(if: Mrcal.available, "/usr/bin/python3 with mrcal (Debian's python3-mrcal) is not installed"),
          arguments: [("LENSMODEL_OPENCV4", CameraModel.pinholeRadtan), ("LENSMODEL_OPENCV5", .pinhole), ("LENSMODEL_OPENCV8", .rational)])
    func mrcalCameraModel(lensModel: String, expected: CameraModel) throws {
        let root = try temporaryFolder("mrcal-\(expected)")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let count = ["LENSMODEL_OPENCV4": 4, "LENSMODEL_OPENCV5": 5, "LENSMODEL_OPENCV8": 8][lensModel]!
        let coefficients = Array((Self.d5 + [0.4, 0.05, 0.002]).prefix(count))
        _ = try Python.run("""
            import sys, json, mrcal
            import numpy as np
            m = mrcal.cameramodel(intrinsics=(sys.argv[2], np.array([612.5, 610.75, 318.25, 241.5] + json.loads(sys.argv[3]))),
                                  imagersize=(640, 480), extrinsics_rt_fromref=np.array([0.01, 0.02, 0.03, -0.1, 0, 0]))
            m.write(sys.argv[1])
            """, ["\(root)/cam.cameramodel", lensModel, "\(coefficients)"])
        let saved = try SavedCalibration(reading: "\(root)/cam.cameramodel")
        Self.expectCamera(saved, model: expected, distortion: expected == .pinholeRadtan ? coefficients + [0] : coefficients)
        #expect(saved.format == "mrcal cameramodel")
    }

    @Test func kalibrCamchainByNameAndTopic() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try Python.run("""
            import sys, yaml
            cam = lambda topic, model, d: {"camera_model": "pinhole", "intrinsics": [612.5, 610.75, 318.25, 241.5],
                "distortion_model": model, "distortion_coeffs": d, "resolution": [640, 480], "rostopic": topic}
            chain = {"cam0": cam("/cam0/image_raw", "radtan", [-0.31, 0.12, 0.0011, -0.0007]),
                     "cam1": cam("/fish/image_raw", "equidistant", [0.05, -0.01, 0.003, -0.0005])}
            chain["cam1"]["T_cn_cnm1"] = [[1, 0, 0, -0.1], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
            yaml.safe_dump(chain, open(sys.argv[1], "w"))
            """, ["\(root)/camchain.yaml"])
        let first = try SavedCalibration(reading: "\(root)/camchain.yaml:cam0")
        Self.expectCamera(first, model: .pinholeRadtan, distortion: Array(Self.d5.prefix(4)) + [0])
        Self.expectCamera(try SavedCalibration(reading: "\(root)/camchain.yaml:fish"), model: .fisheye, distortion: [0.05, -0.01, 0.003, -0.0005])
        #expect(throws: ComparisonError.unreadable(
            path: "\(root)/camchain.yaml", reason: "this Kalibr camchain holds 2 cameras (cam0, cam1): name one as \(root)/camchain.yaml:NAME")) {
            try SavedCalibration(reading: "\(root)/camchain.yaml")
        }
    }

    /// What is not a calibration says why, and special files are never read.
    @Test func whatIsNoCalibrationIsRefused() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cases: [(String, String, String)] = [
            ("notes.yaml", "title: holiday\n", "no camera in it"),
            ("deep.json", String(repeating: "[", count: 200) + String(repeating: "]", count: 200), "not a calibration file"),
            ("skew.yaml", "image_width: 640\nimage_height: 480\ncamera_matrix: [500, 3, 320, 0, 500, 240, 0, 0, 1]\n"
                + "distortion_coefficients: [0, 0, 0, 0, 0]\n", "has skew"),
            ("nosize.yaml", "camera_matrix: [500, 0, 320, 0, 500, 240, 0, 0, 1]\ndistortion_coefficients: [0, 0, 0, 0, 0]\n", "has no image size"),
            ("spline.cameramodel", "{'lensmodel': 'LENSMODEL_CAHVOR', 'intrinsics': [1, 1, 1, 1], 'imagersize': [640, 480]}",
             "mrcal's LENSMODEL_CAHVOR is not one of OpenCV's models"),
            ("broken.cameramodel", "{'lensmodel': 'LENSMODEL_OPENCV4', 'intrinsics': [1, 2,", "not a calibration file"),
            ("twelve.yaml", "image_width: 640\nimage_height: 480\ncamera_matrix: [500, 0, 320, 0, 500, 240, 0, 0, 1]\n"
                + "distortion_coefficients: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]\n", "12 distortion coefficients"),
        ]
        for (name, text, reason) in cases {
            try text.write(toFile: "\(root)/\(name)", atomically: true, encoding: .utf8)
            do {
                _ = try SavedCalibration(reading: "\(root)/\(name)")
                Issue.record("\(name) was read")
            } catch {
                #expect("\(error)".contains(reason), "\(name): \(error)")
            }
        }
        #expect(mkfifo("\(root)/fifo.yaml", 0o600) == 0)
        #expect(throws: ComparisonError.unreadable(
            path: "\(root)/fifo.yaml", reason: "not a regular file (a device, FIFO or other special file is never read)")) {
            try SavedCalibration(reading: "\(root)/fifo.yaml")
        }
        #expect(throws: ComparisonError.self) { try SavedCalibration(reading: "/dev/zero") }
    }
}

/// Documents nested far deeper than any calibration (a few megabytes of brackets) are refused
/// before a recursive parser (Foundation's JSON, OpenCV's FileStorage, libyaml through Yams) sees
/// them: they would overflow its stack.
@Suite struct DeepDocumentTests {
    @Test(arguments: [
        ("deep.json", "[", "]", "", ""), ("calibration.json", "{\"a\":", "}", "", ""), ("deep.yaml", "[", "]", "a: ", "\n"),
        ("deepmap.yaml", "{b: ", "}", "a: ", "\n"), ("deepcv.yaml", "[", "]", "%YAML:1.0\n---\na: ", "\n"),
        ("deepcv.xml", "<a>", "</a>", "<?xml version=\"1.0\"?>\n<opencv_storage>", "</opencv_storage>\n"),
        ("deep.cameramodel", "[", "]", "", ""),
    ])
    func deepNestingIsRefused(name: String, open: String, close: String, head: String, tail: String) throws {
        let root = try temporaryFolder("deep-\(name)")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let text = head + String(repeating: open, count: 100_000) + "1" + String(repeating: close, count: 100_000) + tail
        try text.write(toFile: "\(root)/\(name)", atomically: true, encoding: .utf8)
        #expect(throws: ComparisonError.self) { try SavedCalibration(reading: "\(root)/\(name)") }
    }

    /// Block nesting in YAML: a line indented 300 columns, or `- - - ...` a thousand deep on one line.
    @Test func deepBlockYAMLIsRefused() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try ("a:\n" + String(repeating: " ", count: 300) + "b: 1\n").write(toFile: "\(root)/indent.yaml", atomically: true, encoding: .utf8)
        try (String(repeating: "- ", count: 1000) + "1\n").write(toFile: "\(root)/dashes.yaml", atomically: true, encoding: .utf8)
        for name in ["indent.yaml", "dashes.yaml"] {
            #expect(throws: ComparisonError.self) { try SavedCalibration(reading: "\(root)/\(name)") }
        }
    }
}
