/// The lens models a calibration can solve for.
public enum CameraModel: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// OpenCV's default: radial k1 k2 k3 and tangential p1 p2 (`cv::calibrateCameraExtended`).
    case pinhole
    /// OpenCV's rational model: k1 k2 p1 p2 k3 k4 k5 k6, for wide lenses (`CALIB_RATIONAL_MODEL`).
    case rational
    /// The Kannala-Brandt fisheye model of `cv::fisheye`: k1 k2 k3 k4.
    case fisheye
    /// The pinhole model with k3 held at 0 (`CALIB_FIX_K3`): k1 k2 p1 p2, what Kalibr's
    /// pinhole-radtan and mrcal's `LENSMODEL_OPENCV4` hold exactly. Its files keep OpenCV's five
    /// coefficients, the fifth 0.
    case pinholeRadtan = "pinhole-radtan"

    /// The distortion coefficients' names, in OpenCV's order.
    public var distortionNames: [String] {
        switch self {
        case .pinhole, .pinholeRadtan: ["k1", "k2", "p1", "p2", "k3"]
        case .rational: ["k1", "k2", "p1", "p2", "k3", "k4", "k5", "k6"]
        case .fisheye: ["k1", "k2", "k3", "k4"]
        }
    }

    /// The fewest views a solve accepts: the model's unknowns (4 for the camera matrix plus its
    /// distortion coefficients) need more equations than a couple of planar views give reliably.
    public var minimumViews: Int {
        switch self {
        case .pinhole, .pinholeRadtan, .fisheye: 3
        case .rational: 4
        }
    }

    /// The name ROS's camera_info uses for the model (`distortion_model`).
    public var rosName: String {
        switch self {
        case .pinhole, .pinholeRadtan: "plumb_bob"
        case .rational: "rational_polynomial"
        case .fisheye: "equidistant"
        }
    }

    /// The coefficients the model holds at 0 (k3 of ``pinholeRadtan``): solved for by no one.
    public var heldAtZero: [String] { self == .pinholeRadtan ? ["k3"] : [] }

    /// The model's name.
    public var description: String { rawValue }
}
