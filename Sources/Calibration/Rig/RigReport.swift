import FileFormats
import Foundation
import MarkerDetection

/// A rig calibration with everything said about it: the files `marker-shutter calibrate` writes
/// for a rig and the summary it prints.
///
/// The rig's files (`rig.yaml`, `camchain.yaml`, `camera_info/NAME.yaml`, `mrcal/NAME.cameramodel`,
/// `rig.json`) hold the joint solve; `NAME-alone/` holds the files of each camera's calibration on
/// its own, as `calibrate` writes them for one camera but for camera_info, which is the joint
/// solve's alone.
public struct RigReport: Sendable {
    /// The result.
    public var result: RigCalibrationResult
    /// The target's pattern string.
    public var pattern: String
    /// Each camera's calibration on its own, described as one camera's (named as the camera).
    public var cameraReports: [CalibrationReport]

    /// Describes `result`.
    public init(result: RigCalibrationResult, pattern: String) {
        self.result = result
        self.pattern = pattern
        cameraReports = result.cameras.map { CalibrationReport(result: $0.single, pattern: pattern, cameraName: $0.name) }
    }

    // MARK: - Matrices

    /// The cross-product matrix of `t` times `r`: the essential matrix E = [T]x R, row by row.
    static func essential(rotation r: [Double], translation t: [Double]) -> [Double] {
        let skew = [0, -t[2], t[1], t[2], 0, -t[0], -t[1], t[0], 0]
        return multiply(skew, r)
    }

    /// `a` times `b`, 3 x 3 row by row.
    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var product = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                var sum = 0.0
                for k in 0..<3 { sum += a[3 * row + k] * b[3 * k + column] }
                product[3 * row + column] = sum
            }
        }
        return product
    }

    /// The inverse of a camera matrix (upper triangular, no skew), row by row.
    static func inverseCameraMatrix(_ camera: Camera) -> [Double] {
        [1 / camera.fx, 0, -camera.cx / camera.fx, 0, 1 / camera.fy, -camera.cy / camera.fy, 0, 0, 1]
    }

    /// The fundamental matrix F = K2^-T E K1^-1 of the first two cameras, row by row.
    static func fundamental(_ first: Camera, _ second: Camera, essential: [Double]) -> [Double] {
        let inverse2 = inverseCameraMatrix(second)
        let transposed = (0..<9).map { inverse2[3 * ($0 % 3) + $0 / 3] }
        return multiply(multiply(transposed, essential), inverseCameraMatrix(first))
    }

    /// The first two cameras' stereo matrices: R, T, E, F.
    public var stereo: (r: [Double], t: [Double], e: [Double], f: [Double])? {
        guard result.cameras.count == 2 else { return nil }
        let pose = result.cameras[1].extrinsics.pose
        let r = pose.matrix, t = pose.translation
        let e = Self.essential(rotation: r, translation: t)
        return (r, t, e, Self.fundamental(result.cameras[0].camera, result.cameras[1].camera, essential: e))
    }

    // MARK: - rig.yaml

    /// OpenCV FileStorage YAML: `camera_count`, then `cameras`, a sequence with each camera's
    /// `name`, `model`, `image_width`, `image_height`, `K`, `D`, and `R`, `T` taking a point of the
    /// first camera's frame into its own; for two cameras also, at the top level, `M1`, `D1`, `M2`,
    /// `D2`, `R`, `T`, `E`, `F`, and `stereoRectify`'s `R1`, `R2`, `P1`, `P2`, `Q`, named as OpenCV's
    /// stereo calibration sample (stereo_calib.cpp) names them.
    public var rigYAML: String {
        func matrix(_ name: String, rows: Int, cols: Int, _ data: [Double], indent: String = "") -> String {
            "\(indent)\(name): !!opencv-matrix\n\(indent)   rows: \(rows)\n\(indent)   cols: \(cols)\n\(indent)   dt: d\n"
                + "\(indent)   data: [ " + data.map(CalibrationReport.yamlNumber).joined(separator: ", ") + " ]\n"
        }
        var text = "%YAML 1.1\n---\n"
        text += "camera_count: \(result.cameras.count)\n"
        text += "cameras:\n"
        for camera in result.cameras {
            let solved = camera.camera
            text += "   -\n"
            text += "      name: \(CalibrationReport.yamlQuoted(camera.name))\n"
            text += "      model: \(solved.model.rawValue)\n"
            text += "      image_width: \(solved.imageSize.width)\n"
            text += "      image_height: \(solved.imageSize.height)\n"
            text += matrix("K", rows: 3, cols: 3, solved.cameraMatrix, indent: "      ")
            text += matrix("D", rows: 1, cols: solved.distortion.count, solved.distortion, indent: "      ")
            text += matrix("R", rows: 3, cols: 3, camera.extrinsics.pose.matrix, indent: "      ")
            text += matrix("T", rows: 3, cols: 1, camera.extrinsics.pose.translation, indent: "      ")
        }
        if let stereo {
            let first = result.cameras[0].camera, second = result.cameras[1].camera
            text += matrix("M1", rows: 3, cols: 3, first.cameraMatrix)
            text += matrix("D1", rows: 1, cols: first.distortion.count, first.distortion)
            text += matrix("M2", rows: 3, cols: 3, second.cameraMatrix)
            text += matrix("D2", rows: 1, cols: second.distortion.count, second.distortion)
            text += matrix("R", rows: 3, cols: 3, stereo.r)
            text += matrix("T", rows: 3, cols: 1, stereo.t)
            text += matrix("E", rows: 3, cols: 3, stereo.e)
            text += matrix("F", rows: 3, cols: 3, stereo.f)
            if let rectification = result.pairs.first?.rectification {
                text += matrix("R1", rows: 3, cols: 3, rectification.r1)
                text += matrix("R2", rows: 3, cols: 3, rectification.r2)
                text += matrix("P1", rows: 3, cols: 4, rectification.p1)
                text += matrix("P2", rows: 3, cols: 4, rectification.p2)
                text += matrix("Q", rows: 4, cols: 4, rectification.q)
            }
        }
        return text
    }

    // MARK: - camera_info

    /// ROS camera_info YAML of camera `index` after the joint solve, as ROS's stereo calibrator
    /// writes `left.yaml` and `right.yaml`: for two cameras, the first's `rectification_matrix`
    /// and `projection_matrix` are `R1` and `P1`, the second's `R2` and `P2`; with more cameras,
    /// an identity rectification and `[K | 0]`, as for one camera.
    public func cameraInfoYAML(_ index: Int) -> String {
        let camera = result.cameras[index]
        let solved = camera.camera
        func matrix(_ name: String, rows: Int, cols: Int, _ data: [Double]) -> String {
            "\(name):\n  rows: \(rows)\n  cols: \(cols)\n  data: [" + data.map(CalibrationReport.yamlNumber).joined(separator: ", ") + "]\n"
        }
        let k = solved.cameraMatrix
        var rectification: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        var projection = [k[0], k[1], k[2], 0, k[3], k[4], k[5], 0, 0, 0, 1, 0]
        if result.cameras.count == 2, let pair = result.pairs.first?.rectification {
            rectification = index == 0 ? pair.r1 : pair.r2
            projection = index == 0 ? pair.p1 : pair.p2
        }
        var text = "image_width: \(solved.imageSize.width)\n"
        text += "image_height: \(solved.imageSize.height)\n"
        text += "camera_name: \(CalibrationReport.yamlQuoted(camera.name))\n"
        text += matrix("camera_matrix", rows: 3, cols: 3, k)
        text += "distortion_model: \(solved.model.rosName)\n"
        text += matrix("distortion_coefficients", rows: 1, cols: solved.distortion.count, solved.distortion)
        text += matrix("rectification_matrix", rows: 3, cols: 3, rectification)
        text += matrix("projection_matrix", rows: 3, cols: 4, projection)
        return text
    }

    // MARK: - Other tools' files

    /// What the rig's lengths are in: metres when the pattern has a size.
    public var units: TargetLayout.Units { (try? Pattern(parsing: pattern)).map(TargetLayout.Units.init(of:)) ?? .boardUnits }

    /// Kalibr's camera chain of the joint solve, or why it is left out.
    public var camchain: KalibrCamchain { KalibrCamchain(result, units: units) }

    /// mrcal's model of camera `index` after the joint solve, its extrinsics from the first camera.
    public func mrcalModel(_ index: Int) -> MrcalCameraModel {
        let camera = result.cameras[index]
        return MrcalCameraModel(
            camera: camera.camera, extrinsics: camera.extrinsics.pose, units: units,
            source: "camera \(camera.name) of a rig of \(result.cameras.count), joint solve; reference frame: camera \(result.cameras[0].name)")
    }

    /// The lines of the summary on units and on the files for other tools.
    var otherToolLines: [String] {
        var lines: [String] = []
        switch units {
        case .metres:
            lines.append("  lengths (T, baselines, P2, Q, Tx of camera_info, T_cn_cnm1) are in metres (pattern \(pattern))")
        case .squares, .boardUnits:
            lines.append(
                "  lengths (T, baselines, P2, Q, Tx of camera_info) are in \(units), not metres: Kalibr and ROS expect metres; "
                    + "give the pattern its size (e.g. square=25mm)")
        }
        if let reason = camchain.leftOut { lines.append("  camchain.yaml left out: " + reason) }
        for (index, camera) in result.cameras.enumerated() {
            if let reason = mrcalModel(index).leftOut { lines.append("  mrcal/\(camera.name).cameramodel left out: " + reason) }
        }
        lines.append("  camera_info/, mrcal/, rig.yaml and rig.json hold the joint solve; NAME-alone/ each camera calibrated on its own, for checking")
        return lines
    }

    // MARK: - Summary

    /// The lines `marker-shutter calibrate` prints on standard error for a rig: each camera's own
    /// summary, then the joint solve.
    public var summary: [String] {
        var lines: [String] = []
        for (camera, report) in zip(result.cameras, cameraReports) {
            lines.append("camera \(camera.name), on its own:")
            lines += report.summary.map { "  " + $0 }
        }
        let cameras = result.cameras.count
        lines.append(
            "rig: \(cameras) cameras, \(result.sets.count) sets used, \(result.droppedSets.count) dropped (pattern \(pattern))")
        for set in result.droppedSets { lines.append("  dropped set \(set.name): \(set.reason)") }
        for link in result.links {
            lines.append(
                "  \(result.cameras[link.camera].name) placed from \(result.cameras[link.from].name) "
                    + "(\(link.sharedSets) shared set\(link.sharedSets == 1 ? "" : "s"))")
        }
        lines.append(
            "  RMS reprojection error: " + CameraCalibration.format(result.rms) + " px"
                + (result.droppedSets.isEmpty ? "" : " (first run with every set: " + CameraCalibration.format(result.firstRMS) + " px)"))
        for camera in result.cameras {
            let dropped = camera.droppedCorners.values.reduce(0) { $0 + $1.count }
            lines.append(
                "  \(camera.name): RMS " + CameraCalibration.format(camera.rms) + " px over \(camera.sets.count) sets"
                    + (dropped > 0 ? ", \(dropped) corners dropped (error over " + CameraCalibration.format(camera.dropThreshold) + " px)" : ""))
            for name in ["fx", "fy", "cx", "cy"] {
                guard let parameter = camera.parameter(name) else { continue }
                lines.append("    \(name) = " + String(format: "%.2f ± %.2f px (95%%", parameter.value, parameter.interval95)
                    + (parameter.spread > 0 ? String(format: "; corners ± %.2f, sets ± %.2f)", parameter.noiseInterval95, parameter.spreadInterval95) : ")"))
            }
        }
        for camera in result.cameras.dropFirst() {
            let extrinsics = camera.extrinsics
            let baseline = extrinsics.baseline, angle = extrinsics.angleDegrees
            let t = extrinsics.translation, r = extrinsics.rotationDegrees
            lines.append(
                "  \(camera.name) from \(result.cameras[0].name): baseline " + String(format: "%.5g ± %.2g", baseline.value, baseline.interval95)
                    + (units.isMetric ? " m" : " \(units)")
                    + ", rotation " + String(format: "%.3f ± %.3f", angle.value, angle.interval95) + " degrees (95%)")
            if !(baseline.value > baseline.interval95) {
                lines.append(
                    "    the baseline is within its interval of zero: as far as these sets tell, \(camera.name) sees from where "
                        + "\(result.cameras[0].name) does (one camera's pictures twice?); no stereo rectification (R1, R2, P1, P2, Q) is written")
            }
            if baseline.spread > 0 || angle.spread > 0 {
                lines.append(
                    "    of which the spread between sets: baseline ± " + String(format: "%.2g", baseline.spreadInterval95)
                        + ", rotation ± " + String(format: "%.3f", angle.spreadInterval95) + " degrees (the corners' scatter: ± "
                        + String(format: "%.2g", baseline.noiseInterval95) + ", ± " + String(format: "%.3f", angle.noiseInterval95) + ")")
            }
            lines.append(
                "    T = [" + t.map { String(format: "%.5g ± %.2g", $0.value, $0.interval95) }.joined(separator: ", ") + "]")
            lines.append(
                "    rotation vector = [" + r.map { String(format: "%.3f ± %.3f", $0.value, $0.interval95) }.joined(separator: ", ")
                    + "] degrees")
        }
        for pair in result.pairs {
            guard let mean = pair.meanEpipolarError else { continue }
            let worst = pair.epipolarErrors.max { $0.value < $1.value }!
            lines.append(
                "  epipolar error \(result.cameras[pair.first].name)-\(result.cameras[pair.second].name): mean "
                    + CameraCalibration.format(mean) + " px over \(pair.epipolarErrors.count) sets, worst "
                    + CameraCalibration.format(worst.value) + " px (\(worst.key))")
            lines.append(
                "    per set: " + pair.epipolarErrors.sorted { $0.key < $1.key }
                    .map { "\($0.key) " + CameraCalibration.format($0.value) }.joined(separator: ", ") + " px")
        }
        lines += otherToolLines
        lines.append("  " + CalibrationRefinement.intervalNote(spreadMeasured: result.spread != nil, notMeasured: result.spreadNotMeasured, between: "set"))
        return lines
    }
}
