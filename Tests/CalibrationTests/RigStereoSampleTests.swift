import Calibration
import Foundation
import MarkerDetection
import Testing

/// OpenCV's stereo sample solved as a rig, against Python's `cv2.stereoCalibrate` on the same corners.
@Suite struct RigStereoSampleTests {
    static let pattern = "chessboard:9x6"

    /// The rig's rotation within 0.1 degree and translation within 1% of cv2.stereoCalibrate's
    /// (each camera first solved by cv2.calibrateCamera, then both refined jointly:
    /// CALIB_USE_INTRINSIC_GUESS) on the corners this project detected; every set rectified with its
    /// epipolar error reported.
    @Test(.enabled(if: StereoSample.available, "OpenCV's stereo sample is not installed (Debian's opencv-doc: /usr/share/doc/opencv-doc/examples/data)"), .enabled(if: Python.hasOpenCV, "/usr/bin/python3 with cv2 (Debian's python3-opencv) is not installed"))
    func rotationAndTranslationAgreeWithOpenCV() throws {
        let folders = try StereoSample.folders()
        defer { try? FileManager.default.removeItem(atPath: folders.root) }
        let pictures = try RigPictureSet(
            cameras: [("left", folders.left), ("right", folders.right)], pattern: try Pattern(parsing: Self.pattern))
        let result = try RigCalibration.calibrate(pictures.cameras(models: [:], model: .pinhole))
        #expect(result.sets.count == 13)
        // The same corners for cv2: the sets both cameras saw, corners by id.
        var sets: [[String: Any]] = []
        let right = Dictionary(uniqueKeysWithValues: pictures.pictures[1].views.map { (RigCameraViews.set(of: $0.name), $0) })
        for view in pictures.pictures[0].views {
            guard let other = right[RigCameraViews.set(of: view.name)] else { continue }
            let ids = Dictionary(uniqueKeysWithValues: other.points.map { ($0.id, $0.image) })
            let common = view.points.filter { ids[$0.id] != nil }
            sets.append([
                "object": common.map { [$0.object.x, $0.object.y, $0.object.z] },
                "left": common.map { [$0.image.x, $0.image.y] },
                "right": common.map { [ids[$0.id]!.x, ids[$0.id]!.y] },
            ])
        }
        let size = pictures.pictures[0].views[0].imageSize
        let input = "\(folders.root)/corners.json"
        try JSONSerialization.data(withJSONObject: ["size": [size.width, size.height], "sets": sets]).write(to: URL(fileURLWithPath: input))
        let output = try Python.run("""
            import cv2, json, sys
            import numpy as np
            data = json.load(open(sys.argv[1]))
            size = tuple(data["size"])
            objects = [np.array(s["object"], np.float32) for s in data["sets"]]
            left = [np.array(s["left"], np.float32).reshape(-1, 1, 2) for s in data["sets"]]
            right = [np.array(s["right"], np.float32).reshape(-1, 1, 2) for s in data["sets"]]
            _, K1, D1, _, _ = cv2.calibrateCamera(objects, left, size, None, None)
            _, K2, D2, _, _ = cv2.calibrateCamera(objects, right, size, None, None)
            criteria = (cv2.TERM_CRITERIA_COUNT + cv2.TERM_CRITERIA_EPS, 200, 1e-12)
            rms, K1, D1, K2, D2, R, T, E, F = cv2.stereoCalibrate(
                objects, left, right, K1, D1, K2, D2, size, flags=cv2.CALIB_USE_INTRINSIC_GUESS, criteria=criteria)
            print(json.dumps({"R": R.flatten().tolist(), "T": T.flatten().tolist(), "rms": rms}))
            """, [input])
        let python = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let r = try #require(python["R"] as? [Double]), t = try #require(python["T"] as? [Double])
        let theirs = RigidTransform(matrix: r, translation: t)
        let ours = result.cameras[1].extrinsics.pose
        let angle = ours.composed(after: theirs.inverse).angleDegrees
        let difference = zip(ours.translation, t).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
        print("stereo sample: ours R \(ours.rotation) T \(ours.translation), cv2 T \(t); rotation apart \(angle) degrees, "
              + "translation apart \(difference / theirs.length * 100)%, cv2 RMS \(python["rms"]!), ours \(result.rms)")
        #expect(angle < 0.1, "rotation \(angle) degrees from cv2.stereoCalibrate's")
        #expect(difference / theirs.length < 0.01, "translation \(ours.translation) against cv2's \(t)")
        let pair = try #require(result.pairs.first)
        #expect(pair.epipolarErrors.count == 13)
        let mean = try #require(pair.meanEpipolarError)
        #expect(mean > 0 && mean < 0.5, "mean epipolar error \(mean) px")
    }
}
