@testable import FileFormats
import Foundation
import Testing

/// calibration.json: written with every key (`null` for what a run lacked) and its keys sorted, read
/// back to the camera it holds, and hostile files refused with what is wrong before a decoder that
/// recurses per level meets them.
@Suite struct CalibrationFileTests {
    static func file() -> CalibrationFile {
        var file = CalibrationFile()
        file.image_width = 640
        file.image_height = 480
        file.distortion_model = "pinhole"
        file.pattern = "chessboard:9x6"
        file.camera_matrix = FiniteNumber.list([533.1, 0, 342.11, 0, 533.19, 234.11, 0, 0, 1])
        file.distortion_coefficients = FiniteNumber.list([-0.29, 0.1027, 0.00108, -0.00011, 0])
        var map = CalibrationFile.ProjectionUncertainty()
        map.centre_px = 0.15
        map.corners_px = [5.0, 1.2, nil, 0.8]
        map.grid = .init(columns: 2, rows: 2, px: [5.0, 1.2, nil, 0.8])
        file.projection_uncertainty = map
        file.verdict.kind = "not_good"
        file.verdict.sentence = "not good: the corners cover 33% of the image (50% wanted)"
        file.first_run.corner_drop_threshold = FiniteNumber(.nan)
        return file
    }

    @Test func everyKeyIsWrittenSortedWithNullForWhatARunLacked() throws {
        let text = Self.file().text
        #expect(text.hasSuffix("}\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object.keys.sorted() == [
            "advice", "avg_reprojection_error", "camera_matrix", "corner_rule", "corners_dropped", "coverage", "cross_validation",
            "distortion_coefficients", "distortion_model", "distortion_refined", "final_run", "first_run", "image_height",
            "image_width", "interval_note", "outlier_rule", "pattern", "per_view_errors", "projection_uncertainty",
            "regularization", "richer_model_check", "uncertainty", "verdict", "views_rejected", "views_used",
        ])
        #expect(object["final_run"] is NSNull && object["cross_validation"] is NSNull && object["corner_rule"] is NSNull)
        #expect((object["first_run"] as? [String: Any])?["corner_drop_threshold"] is NSNull, "a number that is not finite is null")
        #expect(text.range(of: "\"advice\"")!.lowerBound < text.range(of: "\"verdict\"")!.lowerBound)
    }

    @Test func theCameraReadsBackAsWritten() throws {
        let camera = try CalibrationFile.read(Array(Self.file().text.utf8))
        #expect(camera.image_width == 640 && camera.image_height == 480 && camera.distortion_model == "pinhole")
        #expect(camera.camera_matrix == [533.1, 0, 342.11, 0, 533.19, 234.11, 0, 0, 1])
        #expect(camera.distortion_coefficients == [-0.29, 0.1027, 0.00108, -0.00011, 0])
        #expect(camera.projection_uncertainty?.grid.px == [5.0, 1.2, nil, 0.8], "null reads as no bound")
        #expect(camera.verdict?.sentence == "not good: the corners cover 33% of the image (50% wanted)")
    }

    @Test func anOlderFileWithTheCameraAloneStillReads() throws {
        let camera = try CalibrationFile.read(Array(#"""
            {"image_width":640,"image_height":480,"distortion_model":"pinhole","camera_matrix":[500,0,320,0,500,240,0,0,1],
             "distortion_coefficients":[0.1,-0.2,0,0,0]}
            """#.utf8))
        #expect(camera.projection_uncertainty == nil && camera.verdict == nil)
    }

    @Test(arguments: [
        (#"{"image_width":640}"#, "not a calibration.json written by calibrate (field image_height is missing)"),
        (#"[1,2,3]"#, "not a calibration.json written by calibrate (it is not an object of fields)"),
        ("", "not a calibration.json written by calibrate (it is not JSON)"),
        (String(repeating: "[", count: 100_000), "not a calibration.json written by calibrate (it is nested deeper than 64 levels)"),
        (#"{"image_width":640,"image_height":480,"distortion_model":"pinhole","camera_matrix":[0,0,320,0,500,240,0,0,1],"distortion_coefficients":[]}"#,
         "field camera_matrix[0], the focal length fx, is 0.0: it must be above 0"),
        (#"{"image_width":1,"image_height":480,"distortion_model":"pinhole","camera_matrix":[500,0,320,0,500,240,0,0,1],"distortion_coefficients":[]}"#,
         "field image_width is 1: an image is 2 pixels or more each way"),
        (#"{"image_width":640,"image_height":480,"distortion_model":"pinhole","camera_matrix":[500,0,320,0,500,240,0,0],"distortion_coefficients":[]}"#,
         "field camera_matrix holds 8 numbers, not the 9 of a 3x3 matrix"),
        (#"{"image_width":640,"image_height":480,"distortion_model":"pinhole","camera_matrix":[500,0,320,0,"500",240,0,0,1],"distortion_coefficients":[]}"#,
         "not a calibration.json written by calibrate (field camera_matrix[4] is not a number)"),
        (#"{"image_width":640,"image_height":480,"distortion_model":"pinhole","camera_matrix":{"data":[]},"distortion_coefficients":[]}"#,
         "not a calibration.json written by calibrate (field camera_matrix is not a list)"),
        (#"{"image_width":640,"image_height":null,"distortion_model":"pinhole","camera_matrix":[500,0,320,0,500,240,0,0,1],"distortion_coefficients":[]}"#,
         "not a calibration.json written by calibrate (field image_height is null, not a whole number)"),
        (#"{"image_width":640.5,"image_height":480,"distortion_model":"pinhole","camera_matrix":[500,0,320,0,500,240,0,0,1],"distortion_coefficients":[]}"#,
         "not a calibration.json written by calibrate (a number in it is not one its field can hold"),
    ])
    func aFileThatIsNotACameraSaysWhatIsWrong(text: String, message: String) {
        #expect(throws: CalibrationFileError.self) { try CalibrationFile.read(Array(text.utf8)) }
        do {
            _ = try CalibrationFile.read(Array(text.utf8))
        } catch {
            #expect("\(error)".hasPrefix(message), "\(error)")
            #expect(!"\(error)".contains("codingPath") && !"\(error)".contains("DecodingError"), "\(error)")
        }
    }
}
