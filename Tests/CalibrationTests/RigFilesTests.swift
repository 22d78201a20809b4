import Calibration
import FileFormats
import Foundation
import MarkerDetection
import Testing

/// The rig's files, written from OpenCV's stereo sample, read back by other programs' parsers:
/// rig.yaml by cv2.FileStorage, camchain.yaml field by field as Kalibr documents it, camera_info by
/// ROS's camera_calibration_parsers (or a YAML parser with ROS's field names).
@Suite(.enabled(if: StereoSample.available, "OpenCV's stereo sample is not installed (Debian's opencv-doc: /usr/share/doc/opencv-doc/examples/data)"))
struct RigFilesTests {
    /// Solves the sample into a fresh folder; returns the folder, what was written and the result.
    static func solved(
        _ name: String = #function, pattern: String = "chessboard:9x6", model: CameraModel = .pinhole
    ) throws -> (root: String, out: String, written: CalibrationJob.RigWritten) {
        let folders = try StereoSample.folders(name)
        let out = "\(folders.root)/out"
        let written = try CalibrationJob(into: out, input: nil).runRig(
            cameras: [("left", folders.left), ("right", folders.right)], pattern: try Pattern(parsing: pattern), model: model)
        return (folders.root, out, written)
    }

    /// Every file named, and the rectified pairs, are there; nothing else; the input folders are untouched.
    @Test func everyFileIsWritten() throws {
        let (root, out, written) = try Self.solved()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // The pinhole model's k3 has no place in Kalibr's radtan: no camchain.yaml (see camchainFollowsKalibr).
        let expected = ["rig.yaml", "rig.json", "camera_info/left.yaml", "camera_info/right.yaml", "mrcal/left.cameramodel",
                        "mrcal/right.cameramodel"]
            + ["left", "right"].flatMap { camera in CalibrationReport.ownSolveFileNames.map { "\(camera)-alone/\($0)" } }
        #expect(written.paths == expected.map { "\(out)/\($0)" } + ["\(out)/rectified/"])
        for name in expected { #expect(FileManager.default.fileExists(atPath: "\(out)/\(name)"), "\(name)") }
        let rectified = try FileManager.default.contentsOfDirectory(atPath: "\(out)/rectified").sorted()
        #expect(rectified == StereoSample.numbers.map { "\($0).png" })
        let picture = try ImageFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: "\(out)/rectified/01.png"))))
        #expect(picture.width == 1280 && picture.height == 480)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(root)/left").count == 13)
        let summary = written.report.summary
        #expect(summary.contains { $0.hasPrefix("rig: 2 cameras, 13 sets used, 0 dropped (pattern chessboard:9x6") })
        #expect(summary.contains { $0.hasPrefix("  right from left: baseline ") })
        #expect(summary.contains { $0.hasPrefix("  epipolar error left-right: mean ") })
    }

    /// rig.yaml read by OpenCV's own FileStorage: each camera's K, D, size, R, T, and the stereo
    /// matrices of the sample's names, equal to what was solved.
    @Test(.enabled(if: Python.hasOpenCV, "/usr/bin/python3 with cv2 (Debian's python3-opencv) is not installed"))
    func rigYAMLIsReadByOpenCV() throws {
        let (root, out, written) = try Self.solved()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let output = try Python.run("""
            import cv2, json, sys
            fs = cv2.FileStorage(sys.argv[1], cv2.FILE_STORAGE_READ)
            cameras = fs.getNode("cameras")
            result = {"count": int(fs.getNode("camera_count").real()), "cameras": []}
            for index in range(cameras.size()):
                node = cameras.at(index)
                result["cameras"].append({
                    "name": node.getNode("name").string(), "model": node.getNode("model").string(),
                    "size": [int(node.getNode("image_width").real()), int(node.getNode("image_height").real())],
                    "K": node.getNode("K").mat().flatten().tolist(), "D": node.getNode("D").mat().flatten().tolist(),
                    "R": node.getNode("R").mat().flatten().tolist(), "T": node.getNode("T").mat().flatten().tolist()})
            for name in ["M1", "D1", "M2", "D2", "R", "T", "E", "F", "R1", "R2", "P1", "P2", "Q"]:
                result[name] = list(fs.getNode(name).mat().shape)
                result[name + "_data"] = fs.getNode(name).mat().flatten().tolist()
            print(json.dumps(result))
            """, ["\(out)/rig.yaml"])
        let read = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(read["count"] as? Int == 2)
        let cameras = try #require(read["cameras"] as? [[String: Any]])
        let result = written.report.result
        for (index, camera) in cameras.enumerated() {
            let solved = result.cameras[index]
            #expect(camera["name"] as? String == solved.name)
            #expect(camera["model"] as? String == "pinhole")
            #expect(camera["size"] as? [Int] == [640, 480])
            Self.expectClose(try #require(camera["K"] as? [Double]), solved.camera.cameraMatrix)
            Self.expectClose(try #require(camera["D"] as? [Double]), solved.camera.distortion)
            Self.expectClose(try #require(camera["R"] as? [Double]), solved.extrinsics.pose.matrix)
            Self.expectClose(try #require(camera["T"] as? [Double]), solved.extrinsics.pose.translation)
        }
        let shapes: [String: [Int]] = [
            "M1": [3, 3], "D1": [1, 5], "M2": [3, 3], "D2": [1, 5], "R": [3, 3], "T": [3, 1], "E": [3, 3], "F": [3, 3],
            "R1": [3, 3], "R2": [3, 3], "P1": [3, 4], "P2": [3, 4], "Q": [4, 4],
        ]
        for (name, shape) in shapes { #expect(read[name] as? [Int] == shape, "\(name)") }
        let stereo = try #require(written.report.stereo)
        Self.expectClose(try #require(read["E_data"] as? [Double]), stereo.e)
        Self.expectClose(try #require(read["F_data"] as? [Double]), stereo.f)
        // E is T x R: a left point and its right image satisfy x2^T E x1 = 0 for points on the baseline's plane.
        let rectification = try #require(result.pairs.first?.rectification)
        Self.expectClose(try #require(read["P2_data"] as? [Double]), rectification.p2)
        // P2's fourth column is -f x baseline in the rectified frame (CALIB_ZERO_DISPARITY).
        let baseline = result.cameras[1].extrinsics.baseline.value
        #expect(abs(abs(rectification.p2[3]) / rectification.p2[0] - baseline) < 1e-6 * baseline)
    }

    /// camchain.yaml of a pinhole-radtan rig with a size, field by field as Kalibr's documentation gives it.
    @Test(.enabled(if: Python.hasYAML, "/usr/bin/python3 with yaml (Debian's python3-yaml) is not installed"))
    func camchainFollowsKalibr() throws {
        let (root, out, written) = try Self.solved(pattern: "chessboard:9x6:square=25mm", model: .pinholeRadtan)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let output = try Python.run("""
            import json, sys, yaml
            print(json.dumps(yaml.safe_load(open(sys.argv[1]))))
            """, ["\(out)/camchain.yaml"])
        let chain = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [String: Any]])
        #expect(chain.keys.sorted() == ["cam0", "cam1"])
        let result = written.report.result
        for (index, key) in ["cam0", "cam1"].enumerated() {
            let camera = try #require(chain[key]), solved = result.cameras[index].camera
            let keys = ["cam_overlaps", "camera_model", "distortion_coeffs", "distortion_model", "intrinsics", "resolution", "rostopic"]
            #expect(camera.keys.sorted() == (index == 0 ? keys : ["T_cn_cnm1"] + keys))
            #expect(camera["camera_model"] as? String == "pinhole")
            #expect(camera["distortion_model"] as? String == "radtan")
            Self.expectClose(try #require(camera["intrinsics"] as? [Double]), [solved.fx, solved.fy, solved.cx, solved.cy])
            Self.expectClose(try #require(camera["distortion_coeffs"] as? [Double]), Array(solved.distortion.prefix(4)))
            #expect(camera["resolution"] as? [Int] == [640, 480])
            #expect(camera["cam_overlaps"] as? [Int] == [1 - index])
            #expect(camera["rostopic"] as? String == (index == 0 ? "/left/image_raw" : "/right/image_raw"))
        }
        let transform = try #require(chain["cam1"]?["T_cn_cnm1"] as? [[Double]])
        let pose = result.cameras[1].extrinsics.pose
        let r = pose.matrix, t = pose.translation
        #expect(transform.count == 4)
        for row in 0..<3 { Self.expectClose(transform[row], [r[3 * row], r[3 * row + 1], r[3 * row + 2], t[row]]) }
        #expect(transform[3] == [0, 0, 0, 1])
    }

    /// camera_info/NAME.yaml read by ROS's camera_calibration_parsers: the joint intrinsics, and
    /// the stereo rectification's R1, P1 and R2, P2 as ROS's stereo calibrator writes them.
    @Test(.enabled(if: Python.hasYAML, "/usr/bin/python3 with yaml (Debian's python3-yaml) is not installed"))
    func cameraInfoIsReadByROS() throws {
        let (root, out, written) = try Self.solved()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let hasParser = (try? Python.run("import camera_calibration_parsers")) != nil
        let script = hasParser ? """
            import json, sys
            import camera_calibration_parsers as parsers
            name, info = parsers.readCalibration(sys.argv[1])
            print(json.dumps({"camera_name": name, "image_width": info.width, "image_height": info.height,
                "distortion_model": info.distortion_model, "camera_matrix": list(info.K), "distortion_coefficients": list(info.D),
                "rectification_matrix": list(info.R), "projection_matrix": list(info.P)}))
            """ : """
            import json, sys, yaml
            data = yaml.safe_load(open(sys.argv[1]))
            for key in ["camera_matrix", "distortion_coefficients", "rectification_matrix", "projection_matrix"]:
                data[key] = data[key]["data"]
            print(json.dumps(data))
            """
        let result = written.report.result
        let rectification = try #require(result.pairs.first?.rectification)
        for (index, name) in ["left", "right"].enumerated() {
            let output = try Python.run(script, ["\(out)/camera_info/\(name).yaml"])
            let info = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            let solved = result.cameras[index].camera
            #expect(info["camera_name"] as? String == name)
            #expect(info["image_width"] as? Int == 640)
            #expect(info["image_height"] as? Int == 480)
            #expect(info["distortion_model"] as? String == "plumb_bob")
            Self.expectClose(try #require(info["camera_matrix"] as? [Double]), solved.cameraMatrix)
            Self.expectClose(try #require(info["distortion_coefficients"] as? [Double]), solved.distortion)
            Self.expectClose(try #require(info["rectification_matrix"] as? [Double]), index == 0 ? rectification.r1 : rectification.r2)
            Self.expectClose(try #require(info["projection_matrix"] as? [Double]), index == 0 ? rectification.p1 : rectification.p2)
        }
    }

    /// rig.json: the extrinsics with standard deviations and 95% intervals, and every set's epipolar
    /// error, read by Foundation's JSONSerialization and by RigFile.
    @Test func rigJSONHoldsTheExtrinsicsWithTheirIntervals() throws {
        let (root, out, written) = try Self.solved()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/rig.json"))) as? [String: Any])
        let cameras = try #require(json["cameras"] as? [[String: Any]])
        #expect(cameras.map { $0["name"] as? String } == ["left", "right"])
        let extrinsics = try #require(cameras[1]["extrinsics"] as? [String: Any])
        let baseline = try #require(extrinsics["baseline"] as? [String: Any])
        let solved = written.report.result.cameras[1].extrinsics.baseline
        Self.expectClose([try #require(baseline["value"] as? Double)], [solved.value])
        Self.expectClose([try #require(baseline["std"] as? Double)], [solved.totalStandardDeviation])
        Self.expectClose([try #require(baseline["noise_std"] as? Double)], [solved.standardDeviation])
        Self.expectClose([try #require(baseline["spread_std"] as? Double)], [solved.spread])
        // The stereo sample's 13 sets, dealt into 10 groups and each left out in turn.
        let spread = try #require(json["set_spread"] as? [String: Any])
        #expect(spread["groups"] as? Int == 10 && spread["degrees_of_freedom"] as? Int == 9)
        #expect((spread["left_out"] as? [[String]])?.flatMap { $0 }.count == 13)
        Self.expectClose(try #require(baseline["ci95"] as? [Double]), [solved.value - solved.interval95, solved.value + solved.interval95])
        #expect(solved.standardDeviation > 0)
        let rotation = try #require(extrinsics["rotation_vector_degrees"] as? [Any])
        #expect(rotation.count == 3)
        let sets = try #require(json["sets"] as? [[String: Any]])
        #expect(sets.count == 13)
        #expect(sets.allSatisfy { ($0["epipolar_error"] as? Double ?? -1) >= 0 })
        let stereo = try #require(json["stereo"] as? [String: Any])
        #expect(stereo.keys.sorted() == ["E", "F", "R", "T"])
        // Read back by the format's own reader, exactly: every camera, the spread's degrees of freedom.
        let read = try RigFile.read(Array(try Data(contentsOf: URL(fileURLWithPath: "\(out)/rig.json"))))
        #expect(read.text == written.report.json)
        #expect(read.cameras.map(\.name) == ["left", "right"] && read.sets.count == 13 && read.stereo != nil)
        for (camera, result) in zip(read.cameras, written.report.result.cameras) {
            #expect(camera.camera_matrix.map(\.value) == result.camera.cameraMatrix)
            #expect(camera.distortion_coefficients.map(\.value) == result.camera.distortion)
            #expect(camera.parameters.map(\.spread_dof) == result.parameters.map(\.spreadDegreesOfFreedom))
            #expect(camera.extrinsics.translation.map(\.value) == result.extrinsics.pose.translation)
        }
        #expect(read.cameras[1].extrinsics.baseline.value.value == solved.value)
        #expect(read.cameras[1].extrinsics.baseline.spread_dof == 9 && solved.spreadDegreesOfFreedom == 9)
    }

    static func expectClose(_ read: [Double], _ expected: [Double], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(read.count == expected.count, sourceLocation: sourceLocation)
        for (a, b) in zip(read, expected) {
            #expect(abs(a - b) <= 1e-9 * max(1, abs(b)), "\(read) against \(expected)", sourceLocation: sourceLocation)
        }
    }
}
