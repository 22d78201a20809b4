import Foundation
public import MarkerDetection

/// A calibration with everything said about it: the files `marker-shutter calibrate` writes and
/// the summary it prints.
public struct CalibrationReport: Sendable {
    /// The result.
    public var result: CalibrationResult
    /// Where the corners of the used views fell.
    public var coverage: CornerCoverage
    /// What to capture next, when the result is weak.
    public var advice: [String]
    /// The target's pattern string.
    public var pattern: String
    /// The camera's name in camera_info.yaml.
    public var cameraName: String

    /// Describes `result`.
    public init(result: CalibrationResult, pattern: String, cameraName: String = "camera") {
        self.result = result
        self.pattern = pattern
        self.cameraName = cameraName
        coverage = CornerCoverage(views: result.run.views.map(\.view), imageSize: result.imageSize)
        advice = CalibrationAdvice.sentences(for: result, coverage: coverage)
    }

    // MARK: - Numbers as text

    /// A number YAML 1.1 and 1.2 both read as a float: 15 significant digits, always with a point.
    static func yamlNumber(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? ".nan" : (value > 0 ? ".inf" : "-.inf") }
        var text = String(format: "%.15g", value)
        if !text.contains(".") {
            if let e = text.firstIndex(of: "e") { text.insert(contentsOf: ".0", at: e) } else { text += ".0" }
        }
        return text
    }

    /// `text` as a double-quoted YAML scalar, read back unchanged by YAML 1.1 and 1.2 parsers
    /// (PyYAML, yaml-cpp, Yams): `"` and `\` escaped, and every character that is not printable
    /// (controls, line and paragraph separators, the byte order mark) written as an escape, so that
    /// nothing in it can end the scalar, start another key or be read as another type.
    public static func yamlQuoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case let s where s.value < 0x20 || (0x7F...0x9F).contains(s.value):
                result += "\\x" + String(s.value, radix: 16, uppercase: true).leftPadded(to: 2)
            case let s where s.value == 0x2028 || s.value == 0x2029 || s.value == 0xFEFF || (0xFFFE...0xFFFF).contains(s.value)
                || (0xD800...0xDFFF).contains(s.value):
                result += "\\u" + String(s.value, radix: 16, uppercase: true).leftPadded(to: 4)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static func list(_ values: [Double]) -> String {
        "[ " + values.map(yamlNumber).joined(separator: ", ") + " ]"
    }

    // MARK: - calibration.yaml

    /// OpenCV FileStorage YAML: `image_width`, `image_height`, `camera_matrix` (3x3),
    /// `distortion_coefficients` (1xN), `avg_reprojection_error`, `per_view_errors` (Nx1, in the
    /// order of the views used) and `distortion_model` (`pinhole`, `rational` or `fisheye`).
    public var openCVYAML: String {
        let camera = result.camera
        func matrix(_ name: String, rows: Int, cols: Int, _ data: [Double]) -> String {
            "\(name): !!opencv-matrix\n   rows: \(rows)\n   cols: \(cols)\n   dt: d\n   data: \(Self.list(data))\n"
        }
        var text = "%YAML 1.1\n---\n"
        text += "image_width: \(result.imageSize.width)\n"
        text += "image_height: \(result.imageSize.height)\n"
        text += matrix("camera_matrix", rows: 3, cols: 3, camera.cameraMatrix)
        text += matrix("distortion_coefficients", rows: 1, cols: camera.distortion.count, camera.distortion)
        text += "avg_reprojection_error: \(Self.yamlNumber(result.run.rms))\n"
        text += matrix("per_view_errors", rows: result.run.views.count, cols: 1, result.run.views.map(\.rms))
        text += "distortion_model: \(result.model.rawValue)\n"
        return text
    }

    // MARK: - camera_info.yaml

    /// ROS camera_info YAML as camera drivers load it (camera_calibration_parsers): size, name,
    /// `camera_matrix`, `distortion_model` (`plumb_bob`, `rational_polynomial` or `equidistant`),
    /// `distortion_coefficients`, an identity `rectification_matrix`, and a `projection_matrix`
    /// `[K | 0]` (a monocular camera keeps its matrix after rectification).
    public var cameraInfoYAML: String {
        let camera = result.camera
        func matrix(_ name: String, rows: Int, cols: Int, _ data: [Double]) -> String {
            "\(name):\n  rows: \(rows)\n  cols: \(cols)\n  data: \(Self.list(data))\n"
        }
        let k = camera.cameraMatrix
        var text = "image_width: \(result.imageSize.width)\n"
        text += "image_height: \(result.imageSize.height)\n"
        text += "camera_name: \(Self.yamlQuoted(cameraName))\n"
        text += matrix("camera_matrix", rows: 3, cols: 3, k)
        text += "distortion_model: \(result.model.rosName)\n"
        text += matrix("distortion_coefficients", rows: 1, cols: camera.distortion.count, camera.distortion)
        text += matrix("rectification_matrix", rows: 3, cols: 3, [1, 0, 0, 0, 1, 0, 0, 0, 1])
        text += matrix("projection_matrix", rows: 3, cols: 4, [k[0], k[1], k[2], 0, k[3], k[4], k[5], 0, 0, 0, 1, 0])
        return text
    }

    // MARK: - calibration.json

    /// Everything: the camera, each intrinsic with its standard deviation and 95% interval, both
    /// runs, every view used (RMS, tilt) and rejected (reason), the outlier rule, coverage and advice.
    public var json: String {
        func finite(_ value: Double) -> Any { value.isFinite ? value : NSNull() }
        func run(_ run: CalibrationRun) -> [String: Any] {
            [
                "rms": finite(run.rms),
                "camera_matrix": run.camera.cameraMatrix,
                "distortion_coefficients": run.camera.distortion,
                "parameters": run.parameters.map { parameter -> [String: Any] in
                    [
                        "name": parameter.name, "value": finite(parameter.value),
                        "std": finite(parameter.standardDeviation),
                        "ci95": [finite(parameter.value - parameter.interval95), finite(parameter.value + parameter.interval95)],
                    ]
                },
                "views": run.views.map { view -> [String: Any] in
                    ["name": view.view.name, "rms": finite(view.rms), "tilt_degrees": finite(view.tiltDegrees),
                     "corners": view.view.points.count]
                },
            ]
        }
        var object: [String: Any] = [
            "image_width": result.imageSize.width,
            "image_height": result.imageSize.height,
            "distortion_model": result.model.rawValue,
            "pattern": pattern,
            "camera_matrix": result.camera.cameraMatrix,
            "distortion_coefficients": result.camera.distortion,
            "avg_reprojection_error": finite(result.run.rms),
            "per_view_errors": result.run.views.map { finite($0.rms) },
            "views_used": result.run.views.map(\.view.name),
            "views_rejected": result.rejected.map { ["name": $0.name, "reason": $0.reason] },
            "outlier_rule": CameraCalibration.outlierRule,
            "first_run": run(result.firstRun),
            "coverage": [
                "fraction": coverage.fraction,
                "columns": coverage.columns, "rows": coverage.rows,
                "minimum_corners": coverage.minimumCorners,
                "counts": coverage.counts,
            ] as [String: Any],
            "advice": advice,
        ]
        object["uncertainty"] = Dictionary(uniqueKeysWithValues: result.run.parameters.map { parameter in
            (parameter.name, ["std": finite(parameter.standardDeviation), "ci95_half_width": finite(parameter.interval95)])
        })
        object["final_run"] = result.finalRun.map(run) ?? NSNull()
        if let data = try? JSONSerialization.data(withJSONObject: Self.jsonSafe(object), options: [.prettyPrinted, .sortedKeys]) {
            return String(decoding: data, as: UTF8.self) + "\n"
        }
        // Not reached with the values above (every number is finite or null); kept so that the
        // file is never empty whatever a future field holds.
        return "{\"error\": \"the report could not be encoded\"}\n"
    }

    /// `value` with every number that is not finite, at any depth, replaced by `null` (JSON has
    /// no NaN or infinity, and one would make the whole encoding fail).
    static func jsonSafe(_ value: Any) -> Any {
        switch value {
        case let number as Double: number.isFinite ? number : NSNull()
        case let list as [Double]: list.map { $0.isFinite ? $0 as Any : NSNull() }
        case let list as [Any]: list.map(jsonSafe)
        case let object as [String: Any]: object.mapValues(jsonSafe)
        default: value
        }
    }

    // MARK: - Summary

    /// The lines `marker-shutter calibrate` prints on standard error.
    public var summary: [String] {
        let run = result.run
        var lines: [String] = []
        let rejected = result.rejected
        lines.append(
            "views: \(run.views.count) used, \(rejected.count) rejected (model \(result.model), "
                + "image \(result.imageSize), pattern \(pattern))")
        for view in rejected { lines.append("  rejected \(view.name): \(view.reason)") }
        if let finalRun = result.finalRun {
            lines.append(
                "RMS reprojection error: " + CameraCalibration.format(finalRun.rms) + " px (first run with every view: "
                    + CameraCalibration.format(result.firstRun.rms) + " px)")
        } else {
            lines.append("RMS reprojection error: " + CameraCalibration.format(run.rms) + " px")
        }
        for name in ["fx", "fy", "cx", "cy"] {
            guard let parameter = run.parameter(name) else { continue }
            lines.append("  \(name) = " + String(format: "%.2f ± %.2f px (95%%)", parameter.value, parameter.interval95))
        }
        let distortion = run.parameters.dropFirst(4).map { "\($0.name) " + String(format: "%.5g", $0.value) }
        lines.append("  distortion: " + distortion.joined(separator: ", "))
        lines.append(
            "coverage: \(Int((coverage.fraction * 100).rounded()))% of the image "
                + "(\(coverage.columns)x\(coverage.rows) cells with \(coverage.minimumCorners)+ corners)")
        for sentence in advice { lines.append("advice: " + sentence) }
        return lines
    }
}

private extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
