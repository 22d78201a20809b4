import Calibration
import Foundation
import MarkerDetection
import Testing

/// The shared chessboard photos: the same corners through Python's cv2.calibrateCamera and through
/// this library's OpenCV solve give the same camera, and the Ceres refinement stays close to it.
@Suite struct SharedPhotoTests {
    static let folder: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // CalibrationTests, Tests, package root
        return url.deletingLastPathComponent().appendingPathComponent("shared/images/chessboard").path
    }()
    static let available = FileManager.default.fileExists(atPath: folder + "/left01.jpg")

    @Test(.enabled(if: available, "the shared photos are not next to the package (../shared/images)"))
    func chessboardPhotosCalibrate() throws {
        let pictures = try PictureSet(folder: Self.folder, pattern: Pattern(parsing: "chessboard:9x6"))
        #expect(pictures.source == .detected)
        #expect(pictures.views.count == 9 && pictures.views.allSatisfy { $0.points.count == 54 })
        let result = try pictures.calibrate(.pinhole)
        #expect(result.rejected.isEmpty)
        #expect(result.run.rms < 0.3, "RMS \(result.run.rms)")
        let report = CalibrationReport(result: result, pattern: "chessboard:9x6")
        #expect(report.advice.contains("only 9 views were used: 15 to 30 varied views calibrate reliably"))
    }

    /// How far the refined camera may be from cv2's on these photos, per intrinsic, in pixels
    /// (measured: 0.045 px for pinhole; for rational, whose distortion the refinement holds at
    /// OpenCV's, see Benchmarks/HISTORY.md).
    static let refinedDifference: [CameraModel: Double] = [.pinhole: 0.1, .rational: 1]

    @Test(.enabled(if: available && Python.hasOpenCV, "needs the shared photos and /usr/bin/python3 with cv2"),
          arguments: [CameraModel.pinhole, .rational])
    func pythonOpenCVFindsTheSameCameraFromTheSameCorners(model: CameraModel) throws {
        let pictures = try PictureSet(folder: Self.folder, pattern: Pattern(parsing: "chessboard:9x6"))
        let result = try CameraCalibration.calibrate(pictures.views, model: model, refinement: nil)
        let refined = try pictures.calibrate(model)
        let corners = try temporaryFolder() + "/corners.json"
        try Data(CalibrationViewsFile.json(pictures.views).utf8).write(to: URL(fileURLWithPath: corners))
        let script = """
            import cv2, json, sys, numpy as np
            data = json.load(open(sys.argv[1]))
            objects = [np.array(v["object"], np.float32) for v in data["views"]]
            images = [np.array(v["image"], np.float32) for v in data["views"]]
            flags = cv2.CALIB_RATIONAL_MODEL if sys.argv[2] == "rational" else 0
            rms, K, D, r, t = cv2.calibrateCamera(objects, images, tuple(data["image_size"]), None, None, flags=flags)
            print(json.dumps([K[0, 0], K[1, 1], K[0, 2], K[1, 2], rms]))
            """
        let output = try Python.run(script, [corners, model.rawValue])
        let python = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [Double])
        let ours = [result.camera.fx, result.camera.fy, result.camera.cx, result.camera.cy]
        for (name, (a, b)) in zip(["fx", "fy", "cx", "cy"], zip(ours, python)) {
            #expect(abs(a / b - 1) < 0.001, "\(name): \(a) here, \(b) from cv2.calibrateCamera")
        }
        #expect(abs(result.run.rms - python[4]) < 1e-3)
        // The refinement moves on from where OpenCV stops (and pulls k3 lightly towards 0): the
        // stated difference from cv2's camera, per intrinsic, in pixels.
        let refinedValues = [refined.camera.fx, refined.camera.fy, refined.camera.cx, refined.camera.cy]
        for (name, (a, b)) in zip(["fx", "fy", "cx", "cy"], zip(refinedValues, python)) {
            print("refined \(model) \(name): \(a) here, \(b) from cv2, \(a - b) px")
            #expect(abs(a - b) < Self.refinedDifference[model]!, "\(name): \(a) refined, \(b) from cv2.calibrateCamera")
        }
        #expect(refined.run.droppedCornerCount == 0)
        // The regularization costs a little of the fit: the RMS stays within 1% of cv2's.
        #expect(refined.run.rms <= python[4] * 1.01, "refined RMS \(refined.run.rms), cv2 \(python[4])")
    }
}
