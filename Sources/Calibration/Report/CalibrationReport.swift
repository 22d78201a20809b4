import FileFormats
import Foundation
import MarkerDetection

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
    /// The projection-uncertainty map of the final solve at the boards' mean distance: the
    /// corners' scatter (``noiseUncertainty``) and the views' spread (``spreadUncertainty``)
    /// together, or the scatter alone when the spread was not measured; `nil` when the solve has
    /// no covariance over the poses (OpenCV's solve alone).
    public var uncertainty: UncertaintyMap?
    /// The corners' scatter's part of the map (``ProjectionUncertainty``).
    public var noiseUncertainty: UncertaintyMap?
    /// The views' spread's part of the map (``ViewSpread/map(of:beyond:)``), when it was measured.
    public var spreadUncertainty: UncertaintyMap?
    /// The cross-validation, when it was run.
    public var crossValidation: CrossValidation?
    /// Why the cross-validation asked for was not run, when it was not.
    public var crossValidationNotRun: String?
    /// When the halves disagreed with a pinhole model: the cross-validation of the rational
    /// model on the same views, which says whether the model is what they disagree on.
    public var richerModelCheck: CrossValidation?
    /// The limits the verdict is judged by.
    public var thresholds: CalibrationVerdict.Thresholds = .standard

    /// Whether the calibration is good (``CalibrationVerdict``).
    public var verdict: CalibrationVerdict { CalibrationVerdict.judge(self, thresholds: thresholds) }

    /// Describes `result`, with its cross-validation when there is one.
    public init(result: CalibrationResult, pattern: String, cameraName: String = "camera", crossValidation: CrossValidation? = nil) {
        self.result = result
        self.pattern = pattern
        self.cameraName = cameraName
        self.crossValidation = crossValidation
        let noise = ProjectionUncertainty(run: result.run)?.map()
        noiseUncertainty = noise
        if let noise, let spread = result.run.spread {
            let spreadMap = spread.map(of: result.camera, beyond: noise)
            spreadUncertainty = spreadMap
            uncertainty = .combining(noise, spreadMap)
        } else {
            uncertainty = noise
        }
        coverage = CornerCoverage(views: result.run.views.map(\.view), imageSize: result.imageSize)
        advice = CalibrationAdvice.sentences(for: result, coverage: coverage, uncertainty: uncertainty)
    }

    /// Solves the final run's views in two halves (``CrossValidation``) at the distance of
    /// ``uncertainty``, when `requested`, or when it is `nil` and the final solve has
    /// ``CrossValidation/defaultMinimumViews`` views or more. When a half cannot be solved, the
    /// calibration stands and ``crossValidationNotRun`` says why.
    public mutating func crossValidate(_ requested: Bool?) {
        let run = result.run
        guard requested ?? (run.views.count >= CrossValidation.defaultMinimumViews) else { return }
        guard let distance = uncertainty?.distance else {
            crossValidationNotRun = "this solve has no uncertainty map to compare the halves with"
            return
        }
        do {
            crossValidation = try CrossValidation.run(run, distance: distance)
        } catch {
            crossValidationNotRun = "\(error)"
        }
        checkRicherModel(distance: distance)
    }

    /// When the halves of a pinhole solve disagree while each is sure of itself, solves the same
    /// views with the rational model and cross-validates it with the same splits: when its halves
    /// agree, the pinhole model is what they disagreed on and the verdict says so, naming the
    /// model to use. Otherwise the verdict stays that the halves disagree (a richer model does not
    /// explain it: the board, the corners or the pictures do). A model with no richer one here
    /// (rational, fisheye) is never told to use itself.
    mutating func checkRicherModel(distance: Double) {
        guard var check = crossValidation, case .halvesDisagree = check.verdict, result.model == .pinhole else { return }
        let views = result.run.views.map(\.view)
        guard let richer = try? CameraCalibration.calibrate(views, model: .rational, spreadGroups: nil),
              let richerCheck = try? CrossValidation.run(richer.run, distance: distance, splits: check.splits.count)
        else { return }
        richerModelCheck = richerCheck
        if richerCheck.verdict == .consistent {
            check.verdict = .modelDoesNotFit(richer: .rational)
            crossValidation = check
        }
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

    /// Everything: the camera, each intrinsic with its standard deviation and 95% interval (and
    /// what they do not cover), the intrinsics' covariance, both runs with OpenCV's starting solve,
    /// every view used (RMS, tilt, dropped corners) and rejected (reason), the outlier and corner
    /// rules, the regularization, whether the distortion was refined, coverage and advice.
    ///
    /// Keys sorted, two spaces of indent (`JSONEncoder`'s pretty printing); a number that is not
    /// finite is `null`.
    public var json: String { CalibrationFile(self).text }

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
        if run.droppedCornerCount > 0 {
            let views = run.views.filter { !$0.droppedCorners.isEmpty }
            lines.append(
                "corners: \(run.keptCornerCount) used, \(run.droppedCornerCount) dropped in \(views.count) "
                    + "view\(views.count == 1 ? "" : "s") (error over " + CameraCalibration.format(run.dropThreshold) + " px)")
            for view in views {
                let ids = view.droppedCorners.map(String.init).joined(separator: ", ")
                lines.append("  dropped from \(view.view.name): corner\(view.droppedCorners.count == 1 ? "" : "s") \(ids)")
            }
        }
        for name in ["fx", "fy", "cx", "cy"] {
            guard let parameter = run.parameter(name) else { continue }
            lines.append("  \(name) = " + String(format: "%.2f ± %.2f px (95%%", parameter.value, parameter.interval95)
                + (parameter.spread > 0 ? String(format: "; corners ± %.2f, views ± %.2f)", parameter.noiseInterval95, parameter.spreadInterval95) : ")"))
        }
        let distortion = run.parameters.dropFirst(4).map { "\($0.name) " + String(format: "%.5g", $0.value) }
        let held = run.refinement?.holdsDistortion(of: result.model) == true
        let zero = result.model.heldAtZero.isEmpty ? "" : " (" + result.model.heldAtZero.joined(separator: ", ") + " held at 0)"
        lines.append("  distortion: " + distortion.joined(separator: ", ") + (held ? " (OpenCV's, held by the refinement)" : "") + zero)
        lines.append("  " + CalibrationRefinement.intervalNote(spread: run.spread, notMeasured: run.spreadNotMeasured))
        lines.append(
            "coverage: \(Int((coverage.fraction * 100).rounded()))% of the image "
                + "(\(coverage.columns)x\(coverage.rows) cells with \(coverage.minimumCorners)+ corners)")
        lines += uncertaintyLines
        lines += otherToolLines
        for sentence in advice { lines.append("advice: " + sentence) }
        lines.append("verdict: \(verdict)")
        return lines
    }

    /// The summary's lines on the uncertainty map and the cross-validation.
    var uncertaintyLines: [String] {
        var lines: [String] = []
        if let map = uncertainty {
            let worst = map.worstCorner
            var parts = ""
            if let noise = noiseUncertainty, spreadUncertainty != nil {
                parts = "; the corners' scatter alone: centre " + ProjectionWording.amount(noise.centre) + ", worst corner "
                    + (noise.worstCorner.value.isInfinite ? "unbounded" : ProjectionWording.amount(noise.worstCorner.value))
            }
            lines.append(
                "projection uncertainty (worst direction, 1 sigma, at the boards' mean distance): centre "
                    + ProjectionWording.amount(map.centre) + ", worst corner " + ProjectionWording.corner(worst.value, name: worst.name)
                    + ", \(Int((map.share(under: 1) * 100).rounded()))% of the image under 1 px" + parts)
        }
        if let reason = crossValidationNotRun { lines.append("cross-validation: not run: " + reason) }
        if let check = crossValidation {
            let d = check.difference
            var range = ""
            if check.splits.count > 1, let spread = check.differenceRange {
                range = " (" + ProjectionWording.pixels(spread.lowerBound) + " to " + ProjectionWording.pixels(spread.upperBound)
                    + " over the splits)"
            }
            lines.append(
                "cross-validation (\(check.splits.count) random split\(check.splits.count == 1 ? "" : "s") into halves of "
                    + "\(check.halves[0].count) and \(check.halves[1].count) views): they differ by "
                    + ProjectionWording.amount(d.mean) + " on average, " + ProjectionWording.amount(d.percentile95)
                    + " at the 95th percentile\(range), where their uncertainties explain " + ProjectionWording.amount(check.explained95)
                    + ": \(check.verdict)")
            lines.append(
                "  held-out error: " + CameraCalibration.format(check.heldOutRMS)
                    + " px RMS (each half's camera on the other half's views, their poses fitted again)")
        }
        return lines
    }
}

private extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
