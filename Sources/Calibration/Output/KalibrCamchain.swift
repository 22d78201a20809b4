import Foundation

/// A rig as Kalibr's `camchain.yaml` holds it, written only when it is the same rig: Kalibr's
/// pinhole camera with `radtan` distortion holds exactly OpenCV's k1 k2 p1 p2 (a
/// ``CameraModel/pinholeRadtan`` solve), and `equidistant` holds the fisheye model's k1..k4, and
/// its `T_cn_cnm1` is in metres. A camera with k3 (``CameraModel/pinhole``) or the rational
/// model's eight coefficients, or a target without a size, would be a different rig: the file is
/// then left out and ``leftOut`` says why.
///
/// Each camera `camN` has `T_cn_cnm1` from `cam1` on (the 4 x 4 motion from the previous camera's
/// frame into this one's), `cam_overlaps` (the cameras it shares a set with), `camera_model`
/// (`pinhole`), `distortion_coeffs`, `distortion_model`, `intrinsics` (`[fu, fv, pu, pv]`),
/// `resolution` (`[width, height]`) and `rostopic` (`/NAME/image_raw`).
public struct KalibrCamchain: Sendable, Hashable {
    /// The file's text, or `nil` when Kalibr cannot hold this rig.
    public let yaml: String?
    /// Why the file is left out, when it is.
    public let leftOut: String?

    /// Kalibr's `distortion_model` for `model`, or `nil` when Kalibr has none that is the same.
    public static func distortionModel(of model: CameraModel) -> String? {
        switch model {
        case .pinholeRadtan: "radtan"
        case .fisheye: "equidistant"
        case .pinhole, .rational: nil
        }
    }

    /// Describes `result` for Kalibr, its lengths in `units`.
    public init(_ result: RigCalibrationResult, units: TargetLayout.Units) {
        if let camera = result.cameras.first(where: { Self.distortionModel(of: $0.camera.model) == nil }) {
            let model = camera.camera.model
            let detail = model == .pinhole
                ? "its k3 is \(CalibrationReport.yamlNumber(camera.camera.distortion[4])), which radtan (k1 k2 p1 p2) has no place for: "
                    + "calibrate with --model pinhole-radtan (k3 held at 0) for a camchain"
                : "Kalibr has no rational model: calibrate with --model pinhole-radtan or fisheye for a camchain"
            yaml = nil
            leftOut = "camera \(camera.name) is a \(model) camera: \(detail)"
            return
        }
        guard units.isMetric else {
            yaml = nil
            leftOut = "Kalibr's T_cn_cnm1 is in metres and the target has no size (its lengths are \(units)): "
                + "give the pattern one, e.g. square=25mm"
            return
        }
        func list(_ values: [Double]) -> String { "[" + values.map(CalibrationReport.yamlNumber).joined(separator: ", ") + "]" }
        var text = ""
        for (index, camera) in result.cameras.enumerated() {
            let solved = camera.camera
            text += "cam\(index):\n"
            if index > 0 {
                let previous = result.cameras[index - 1].extrinsics.pose
                let motion = camera.extrinsics.pose.composed(after: previous.inverse)
                let r = motion.matrix, t = motion.translation
                text += "  T_cn_cnm1:\n"
                for row in 0..<3 { text += "  - " + list([r[3 * row], r[3 * row + 1], r[3 * row + 2], t[row]]) + "\n" }
                text += "  - " + list([0, 0, 0, 1]) + "\n"
            }
            let overlaps = (0..<result.cameras.count).filter { other in
                other != index && result.sets.contains { $0.cameras.contains(index) && $0.cameras.contains(other) }
            }
            text += "  cam_overlaps: [" + overlaps.map(String.init).joined(separator: ", ") + "]\n"
            text += "  camera_model: pinhole\n"
            text += "  distortion_coeffs: " + list(Array(solved.distortion.prefix(4))) + "\n"
            text += "  distortion_model: " + (Self.distortionModel(of: solved.model) ?? "") + "\n"
            text += "  intrinsics: " + list([solved.fx, solved.fy, solved.cx, solved.cy]) + "\n"
            text += "  resolution: [\(solved.imageSize.width), \(solved.imageSize.height)]\n"
            text += "  rostopic: " + CalibrationReport.yamlQuoted("/\(camera.name)/image_raw") + "\n"
        }
        yaml = text
        leftOut = nil
    }
}
