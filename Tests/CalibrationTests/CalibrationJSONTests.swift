import Calibration
import Foundation
import Testing

/// calibration.json and the views file are written through `JSONEncoder` with their keys sorted:
/// the bytes `JSONSerialization` gives for the same values, which is how they were written before.
@Suite struct CalibrationJSONTests {
    /// `text` read back and written again by `JSONSerialization` with `options`, every number as
    /// the `Double` it was written from (as the files were made: a number read back would be a
    /// decimal, which `JSONSerialization` writes without an exponent). The files hold no truth values.
    static func reserialized(_ text: String, options: JSONSerialization.WritingOptions) throws -> String {
        func doubles(_ value: Any) -> Any {
            switch value {
            // A flag stays one (an NSNumber whose type is char).
            case let number as NSNumber where String(cString: number.objCType) == "c": number.boolValue
            // Through the text: a decimal's doubleValue is not always the nearest Double.
            case let number as NSNumber: Double(number.description) ?? .nan
            case let list as [Any]: list.map(doubles)
            case let object as [String: Any]: object.mapValues(doubles)
            default: value
            }
        }
        let value = doubles(try JSONSerialization.jsonObject(with: Data(text.utf8)))
        return String(decoding: try JSONSerialization.data(withJSONObject: value, options: options), as: UTF8.self)
    }

    @Test func aSmallNumberIsWrittenAsJSONSerializationWritesIt() throws {
        // A number read back is a decimal that JSONSerialization writes as `-0.0000285…`; the file
        // was written from the Double, as `-2.8548439477895466e-05`, which the encoder gives too.
        #expect(try Self.reserialized("[-2.8548439477895466e-05,2,0.5]", options: []) == "[-2.8548439477895466e-05,2,0.5]")
    }

    @Test func theReportIsWhatJSONSerializationWritesForItsValues() throws {
        var views = try SyntheticViews.projected(camera: SyntheticCalibrationTests.pinhole, columns: 12, rows: 9, noise: 0.3, seed: 2)
        views[2].points = Array(views[2].points.prefix(4))
        let result = try CameraCalibration.calibrate(
            views, model: .pinhole, setAside: [RejectedView(name: "blank.png", reason: "target not found")])
        let json = CalibrationReport(result: result, pattern: "chessboard:12x9").json
        #expect(json.hasPrefix("{\n  \"advice\" : [") && json.hasSuffix("}\n"))
        #expect(try Self.reserialized(json, options: [.prettyPrinted, .sortedKeys]) + "\n" == json)
    }

    /// Numbers that are not finite are `null`, at any depth, and a missing second run is `null` too.
    @Test func numbersThatAreNotFiniteAreNull() throws {
        var result = try CameraCalibration.calibrate(try BadInputTests.views(6), model: .pinhole)
        result.firstRun.camera.fx = .nan
        result.firstRun.parameters[1].standardDeviation = -.infinity
        result.finalRun = nil
        let json = CalibrationReport(result: result, pattern: "chessboard:9x6").json
        #expect(json.contains("\"final_run\" : null"))
        #expect(json.contains("\"camera_matrix\" : [\n    null,"))
        #expect(try Self.reserialized(json, options: [.prettyPrinted, .sortedKeys]) + "\n" == json)
    }

    @Test func theViewsFileIsWhatJSONSerializationWritesForItsValues() throws {
        let views = try BadInputTests.views(3)
        let json = CalibrationViewsFile.json(views)
        #expect(json.hasPrefix("{\"image_size\":[\(views[0].imageSize.width),\(views[0].imageSize.height)],\"views\":[{\"image\":[["))
        #expect(try Self.reserialized(json, options: [.sortedKeys]) == json)
    }
}
