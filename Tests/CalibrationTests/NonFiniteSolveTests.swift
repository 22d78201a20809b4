import Calibration
import FileFormats
import Foundation
import MarkerDetection
import Testing
import Yams

/// A solve that gives no camera (NaN, infinity, a negative variance) is an error, and the report
/// never holds an empty or unparsable file.
@Suite struct NonFiniteSolveTests {
    /// Three views of a 9x6 board whose corners were all seen at one pixel: OpenCV's solve gives NaN
    /// for every intrinsic.
    @Test func cornersPiledOnOnePixelAreNoCamera() throws {
        let views = try BadInputTests.views(3).map { view in
            var piled = view
            piled.points = view.points.map { point in
                var moved = point
                moved.image = ImagePoint(x: 320, y: 240)
                return moved
            }
            return piled
        }
        do {
            let result = try CameraCalibration.calibrate(views, model: .pinhole)
            Issue.record("a camera was made: fx \(result.camera.fx)")
        } catch {
            guard case .nonFiniteSolve(let value) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(value == "fx = nan")
            #expect(error.description == "the solve gave fx = nan, not a camera: these views do not determine one "
                + "(points piled up or every view alike); take pictures of the whole target from different positions and angles")
        }
    }

    /// One view seen three times is no camera: its variances are no number, or its focal length
    /// is swamped by its own standard deviation.
    @Test func oneViewThreeTimesHasNoUncertainty() throws {
        let view = try BadInputTests.views(1)[0]
        let views = (0..<3).map { index in
            var copy = view
            copy.name = "copy_\(index)"
            return copy
        }
        do {
            let result = try CameraCalibration.calibrate(views, model: .pinhole)
            Issue.record("a camera was made: fx \(result.camera.fx) ± \(result.run.parameter("fx")?.standardDeviation ?? 0)")
        } catch {
            guard case .nonFiniteSolve(let value) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            // OpenCV's own solve of these views gives variances that are no number; from the
            // closed-form start the refinement gives a focal length its deviation swamps.
            #expect(value.contains("nan") || value.contains("inf") || value.contains("with a standard deviation of"), "\(value)")
        }
    }

    static func goodResult() throws -> CalibrationResult {
        try CameraCalibration.calibrate(try BadInputTests.views(6), model: .pinhole)
    }

    /// A result holding NaN (made by hand: a solve gives none) still reports as valid JSON, and is
    /// not written.
    @Test func calibrationJSONIsNeverEmpty() throws {
        var result = try Self.goodResult()
        result.firstRun.camera.fx = .nan
        result.firstRun.parameters[0].value = .nan
        result.firstRun.parameters[1].standardDeviation = -.infinity
        let report = CalibrationReport(result: result, pattern: "chessboard:9x6")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect((object["camera_matrix"] as? [Any])?.first is NSNull)
        #expect(object["pattern"] as? String == "chessboard:9x6")

        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let output = try SafeOutput.Folder(path: root + "/out", input: nil)
        #expect(throws: CalibrationError.nonFiniteSolve("fx = nan")) { try report.write(into: output) }
        #expect(SidecarFolder.contents(output.staging).isEmpty)
    }

    /// Names that YAML would read as another type, or as more than one key, survive a round trip
    /// through YAML parsers as the same string, and add no key.
    @Test(arguments: [
        "yes", "no", "null", "~", "true", "1.5", "0x1F", "*anchor", "&anchor", "- item", "{}", "[a, b]", "a: b",
        "name\ninjected: 1", "quote \" and \\ backslash", "#comment", "%TAG", "tab\there", "cr\rlf", "\u{85}nel",
        "line\u{2028}sep", "mid\u{FEFF}bom", "esc\u{1B}[2J", "\u{7F}del", " leading and trailing ", "", "ünïcødé カメラ",
        "@at", "`tick", "!tag value", "'single'", "...", "---", "? key",
    ])
    func cameraNamesSurviveAYAMLRoundTrip(name: String) throws {
        let report = CalibrationReport(result: try Self.goodResult(), pattern: "chessboard:9x6", cameraName: name)
        let node = try #require(try Yams.compose(yaml: report.cameraInfoYAML))
        let keys: [String] = try #require(node.mapping).keys.compactMap(\.string)
        #expect(keys == [
            "image_width", "image_height", "camera_name", "camera_matrix", "distortion_model", "distortion_coefficients",
            "rectification_matrix", "projection_matrix",
        ])
        #expect(node["camera_name"]?.string == name)
        #expect(try Yams.load(yaml: report.cameraInfoYAML).flatMap { ($0 as? [String: Any])?["camera_name"] as? String } == name)
    }

    /// The same names read back by PyYAML (`yaml.safe_load`), the reader ROS's Python tools use.
    @Test(.enabled(if: Python.hasYAML, Comment(rawValue: Python.missingYAML)))
    func pythonYAMLReadsTheSameNames() throws {
        let names = ["yes", "null", "*a", "- b", "{}", "a: b", "x\ny: 1", "\u{85}\u{2028}\u{FEFF}", "\"\\", "~", "  "]
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (index, name) in names.enumerated() {
            let report = CalibrationReport(result: try Self.goodResult(), pattern: "chessboard:9x6", cameraName: name)
            try report.cameraInfoYAML.write(toFile: root + "/\(index).yaml", atomically: true, encoding: .utf8)
        }
        let script = """
            import json, sys, yaml
            out = []
            for path in sys.argv[1:]:
                data = yaml.safe_load(open(path, encoding="utf-8"))
                out.append([data["camera_name"], sorted(data.keys())])
            print(json.dumps(out))
            """
        let text = try Python.run(script, names.indices.map { root + "/\($0).yaml" })
        let read = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[Any]])
        #expect(read.map { $0[0] as? String } == names)
        for entry in read {
            #expect(entry[1] as? [String] == [
                "camera_matrix", "camera_name", "distortion_coefficients", "distortion_model", "image_height", "image_width",
                "projection_matrix", "rectification_matrix",
            ])
        }
    }
}
