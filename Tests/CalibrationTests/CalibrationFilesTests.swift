import Calibration
import Foundation
import MarkerDetection
import Testing
import Yams

/// The files a calibration writes, read back by OpenCV's FileStorage and by an independent YAML
/// parser (Yams), with the fields and shapes they must have.
@Suite struct CalibrationFilesTests {
    static func report(_ model: CameraModel) throws -> CalibrationReport {
        let truth = model == .fisheye ? SyntheticCalibrationTests.fisheye : SyntheticCalibrationTests.pinhole
        let views = try SyntheticViews.projected(
            camera: truth, columns: 12, rows: 9, noise: 0.3, seed: 2, depthScale: model == .fisheye ? 0.55 : 1)
        return CalibrationReport(result: try CameraCalibration.calibrate(views, model: model), pattern: "chessboard:12x9",
                                 cameraName: "test_camera")
    }

    static func write(_ text: String, _ name: String) throws -> String {
        let path = try temporaryFolder(name) + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(.enabled(if: Python.hasOpenCV, Comment(rawValue: Python.missing)), arguments: CameraModel.allCases)
    func openCVFileStorageReadsCalibrationYAML(model: CameraModel) throws {
        let report = try Self.report(model)
        let path = try Self.write(report.openCVYAML, "calibration.yaml")
        let script = """
            import cv2, json, sys
            fs = cv2.FileStorage(sys.argv[1], cv2.FILE_STORAGE_READ)
            out = {k: fs.getNode(k).mat().tolist() for k in ["camera_matrix", "distortion_coefficients", "per_view_errors"]}
            for k in ["image_width", "image_height"]: out[k] = int(fs.getNode(k).real())
            out["avg_reprojection_error"] = fs.getNode("avg_reprojection_error").real()
            out["distortion_model"] = fs.getNode("distortion_model").string()
            print(json.dumps(out))
            """
        let text = try Python.run(script, [path])
        let read = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let camera = report.result.camera
        #expect(read["image_width"] as? Int == camera.imageSize.width)
        #expect(read["image_height"] as? Int == camera.imageSize.height)
        #expect(read["distortion_model"] as? String == model.rawValue)
        let matrix = try #require(read["camera_matrix"] as? [[Double]])
        #expect(matrix.count == 3 && matrix.allSatisfy { $0.count == 3 })
        #expect(zip(matrix.flatMap { $0 }, camera.cameraMatrix).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($1)) })
        let distortion = try #require(read["distortion_coefficients"] as? [[Double]])
        #expect(distortion.count == 1 && distortion[0].count == model.distortionNames.count)
        #expect(zip(distortion[0], camera.distortion).allSatisfy { abs($0 - $1) <= 1e-12 + 1e-9 * abs($1) })
        let perView = try #require(read["per_view_errors"] as? [[Double]])
        #expect(perView.count == report.result.run.views.count && perView.allSatisfy { $0.count == 1 })
        #expect(abs((read["avg_reprojection_error"] as? Double ?? 0) - report.result.run.rms) < 1e-9)
    }

    /// The matrix of a FileStorage node as Yams reads it: rows, cols and data.
    static func matrix(_ node: Node?) throws -> (rows: Int, cols: Int, data: [Double]) {
        let node = try #require(node)
        let rows = try #require(node["rows"]?.int), cols = try #require(node["cols"]?.int)
        let items: [Node] = try #require(node["data"]?.array())
        let data: [Double] = items.compactMap { $0.float }
        try #require(data.count == items.count, "every data item is a number")
        return (rows, cols, data)
    }

    @Test(arguments: CameraModel.allCases)
    func yamsReadsCalibrationYAML(model: CameraModel) throws {
        let report = try Self.report(model)
        let node = try #require(try Yams.compose(yaml: report.openCVYAML))
        #expect(node["image_width"]?.int == report.result.imageSize.width)
        #expect(node["image_height"]?.int == report.result.imageSize.height)
        #expect(node["distortion_model"]?.string == model.rawValue)
        #expect(node["camera_matrix"]?.tag.description == "tag:yaml.org,2002:opencv-matrix")
        let k = try Self.matrix(node["camera_matrix"])
        #expect(k.rows == 3 && k.cols == 3 && k.data.count == 9)
        #expect(zip(k.data, report.result.camera.cameraMatrix).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($1)) })
        let d = try Self.matrix(node["distortion_coefficients"])
        #expect(d.rows == 1 && d.cols == model.distortionNames.count && d.data.count == d.cols)
        let perView = try Self.matrix(node["per_view_errors"])
        #expect(perView.rows == report.result.run.views.count && perView.cols == 1 && perView.data.count == perView.rows)
        let average: Double = try #require(node["avg_reprojection_error"]?.float)
        #expect(abs(average - report.result.run.rms) < 1e-9)
    }

    @Test(arguments: CameraModel.allCases)
    func yamsReadsCameraInfoYAMLAsROSWritesIt(model: CameraModel) throws {
        let report = try Self.report(model)
        let node = try #require(try Yams.compose(yaml: report.cameraInfoYAML))
        let mapping = try #require(node.mapping)
        let keys: [String] = mapping.keys.compactMap { $0.string }
        #expect(keys == [
            "image_width", "image_height", "camera_name", "camera_matrix", "distortion_model", "distortion_coefficients",
            "rectification_matrix", "projection_matrix",
        ])
        #expect(node["camera_name"]?.string == "test_camera")
        let names: [CameraModel: String] = [.pinhole: "plumb_bob", .pinholeRadtan: "plumb_bob", .rational: "rational_polynomial", .fisheye: "equidistant"]
        #expect(node["distortion_model"]?.string == names[model])
        let k = try Self.matrix(node["camera_matrix"])
        #expect(k.rows == 3 && k.cols == 3 && k.data.count == 9)
        #expect(zip(k.data, report.result.camera.cameraMatrix).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($1)) })
        let d = try Self.matrix(node["distortion_coefficients"])
        #expect(d.rows == 1 && d.cols == model.distortionNames.count && d.data.count == d.cols)
        let r = try Self.matrix(node["rectification_matrix"])
        #expect(r.rows == 3 && r.cols == 3 && r.data == [1, 0, 0, 0, 1, 0, 0, 0, 1])
        let p = try Self.matrix(node["projection_matrix"])
        #expect(p.rows == 3 && p.cols == 4 && p.data.count == 12)
        #expect(p.data[3] == 0 && p.data[7] == 0 && p.data[10] == 1)
    }

    @Test func calibrationJSONHoldsUncertaintiesViewsAndCoverage() throws {
        var views = try SyntheticViews.projected(
            camera: SyntheticCalibrationTests.pinhole, columns: 12, rows: 9, noise: 0.3, seed: 2)
        views[2].points = Array(views[2].points.prefix(4))
        let result = try CameraCalibration.calibrate(
            views, model: .pinhole, setAside: [RejectedView(name: "blank.png", reason: "target not found")])
        let report = CalibrationReport(result: result, pattern: "chessboard:12x9")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        let uncertainty = try #require(object["uncertainty"] as? [String: [String: Double]])
        #expect(Set(uncertainty.keys) == ["fx", "fy", "cx", "cy", "k1", "k2", "p1", "p2", "k3"])
        let fx = try #require(uncertainty["fx"])
        #expect((fx["std"] ?? 0) > 0 && abs((fx["ci95_half_width"] ?? 0) - 1.96 * (fx["std"] ?? 0)) < 1e-9)
        let rejected = try #require(object["views_rejected"] as? [[String: String]])
        #expect(rejected == [
            ["name": "blank.png", "reason": "target not found"],
            ["name": "view_02", "reason": "only 4 corners (6 needed)"],
        ])
        #expect((object["views_used"] as? [String])?.count == 23)
        #expect((object["per_view_errors"] as? [Double])?.count == 23)
        let coverage = try #require(object["coverage"] as? [String: Any])
        #expect((coverage["counts"] as? [Int])?.count == 48)
        #expect((coverage["fraction"] as? Double).map { $0 > 0.5 && $0 <= 1 } == true)
        #expect(object["outlier_rule"] as? String == CameraCalibration.outlierRule)
        #expect(object["first_run"] is [String: Any])
        #expect(object["final_run"] is NSNull)
    }
}
