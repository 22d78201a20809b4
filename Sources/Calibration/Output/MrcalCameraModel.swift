import Foundation

/// A camera as mrcal's `.cameramodel` file holds it (mrcal 2.2: `mrcal.cameramodel(path)` reads it
/// with Python's `ast.literal_eval`): `lensmodel`, `intrinsics` (fx, fy, cx, cy, then the
/// distortion in OpenCV's order), `imagersize` and `extrinsics` (`rt_fromref`: the Rodrigues
/// vector and translation taking a point of the reference frame into the camera's).
///
/// mrcal's OpenCV models are OpenCV's own projection, pixel centres at integers as in OpenCV, so a
/// camera of ``CameraModel/pinholeRadtan``, ``CameraModel/pinhole`` or ``CameraModel/rational``
/// is held exactly as `LENSMODEL_OPENCV4`, `OPENCV5` or `OPENCV8`. mrcal 2.2 has no Kannala-Brandt
/// model, so a fisheye camera is left out (``leftOut``) rather than written as another camera.
public struct MrcalCameraModel: Sendable, Hashable {
    /// The file's text, or `nil` when mrcal cannot hold the camera.
    public let text: String?
    /// Why the camera is left out, when it is.
    public let leftOut: String?

    /// The lens model mrcal 2.2 names for `model`, or `nil` when it has none that is the same.
    public static func lensModel(of model: CameraModel) -> String? {
        switch model {
        case .pinholeRadtan: "LENSMODEL_OPENCV4"
        case .pinhole: "LENSMODEL_OPENCV5"
        case .rational: "LENSMODEL_OPENCV8"
        case .fisheye: nil
        }
    }

    /// Describes `camera` for mrcal.
    ///
    /// - Parameters:
    ///   - camera: The camera.
    ///   - extrinsics: The motion from the reference frame into the camera's (a rig's first camera);
    ///     the identity for a camera on its own.
    ///   - units: What the translation is measured in, stated in the file.
    ///   - source: What the camera is, for the file's first comment (`left, joint solve of the rig`).
    public init(camera: Camera, extrinsics: RigidTransform = .identity, units: TargetLayout.Units = .metres, source: String) {
        guard let lensModel = Self.lensModel(of: camera.model) else {
            text = nil
            leftOut = "mrcal 2.2 has no Kannala-Brandt (cv::fisheye) lens model, and no other of its models is the same camera"
            return
        }
        let intrinsics = [camera.fx, camera.fy, camera.cx, camera.cy]
            + (camera.model == .pinholeRadtan ? Array(camera.distortion.prefix(4)) : camera.distortion)
        func list(_ values: [Double]) -> String { "[ " + values.map(Self.number).joined(separator: ", ") + " ]" }
        var text = "# mrcal camera model written by marker-shutter: \(source)\n"
        text += "# \(lensModel) is OpenCV's \(camera.model) model (\(camera.model.distortionNames.prefix(intrinsics.count - 4).joined(separator: " ")))\n"
        text += "{\n"
        text += "    'lensmodel': '\(lensModel)',\n"
        text += "    # intrinsics are fx, fy, cx, cy, then the distortion coefficients in OpenCV's order\n"
        text += "    'intrinsics': \(list(intrinsics)),\n"
        text += "    'imagersize': [ \(camera.imageSize.width), \(camera.imageSize.height) ],\n"
        text += "    # extrinsics are rt_fromref: Rodrigues vector, then translation (in \(units))\n"
        text += "    'extrinsics': \(list(extrinsics.rotation + extrinsics.translation)),\n"
        text += "}\n"
        self.text = text
        leftOut = nil
    }

    /// A number Python reads back to the same double.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "float('nan')" }
        return String(format: "%.17g", value)
    }
}
