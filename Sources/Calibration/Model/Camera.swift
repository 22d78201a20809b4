public import MarkerDetection
public import Pixels

/// A calibrated camera: its matrix and lens distortion, for images of one size.
public struct Camera: Sendable, Hashable {
    /// The lens model the distortion coefficients belong to.
    public var model: CameraModel
    /// The size of the images the camera was calibrated on.
    public var imageSize: ImageSize
    /// Focal length across, in pixels.
    public var fx: Double
    /// Focal length down, in pixels.
    public var fy: Double
    /// Principal point across, in pixels (OpenCV's convention: the top-left pixel's centre is 0).
    public var cx: Double
    /// Principal point down, in pixels.
    public var cy: Double
    /// The distortion coefficients in OpenCV's order (``CameraModel/distortionNames``).
    public var distortion: [Double]

    /// Makes a camera.
    ///
    /// - Parameters:
    ///   - model: The lens model.
    ///   - imageSize: The size of its images.
    ///   - fx: Focal length across, in pixels.
    ///   - fy: Focal length down, in pixels.
    ///   - cx: Principal point across, in pixels.
    ///   - cy: Principal point down, in pixels.
    ///   - distortion: As many coefficients as the model has (missing ones are 0).
    public init(
        model: CameraModel, imageSize: ImageSize, fx: Double, fy: Double, cx: Double, cy: Double,
        distortion: [Double] = []
    ) {
        let count = model.distortionNames.count
        self.model = model
        self.imageSize = imageSize
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
        self.distortion = Array((distortion + Array(repeating: 0, count: count)).prefix(count))
    }

    /// The 3x3 camera matrix, row by row.
    public var cameraMatrix: [Double] { [fx, 0, cx, 0, fy, cy, 0, 0, 1] }

    /// Where points given in the camera's own frame (z forward, z > 0) appear in the image
    /// (`cv::projectPoints` or `cv::fisheye::projectPoints`).
    ///
    /// - Throws: ``CalibrationError/invalidInput(_:)`` for distortion coefficients the model does not have,
    ///   ``CalibrationError/openCV(_:)`` when OpenCV fails.
    public func project(_ points: [ObjectPoint]) throws(CalibrationError) -> [ImagePoint] {
        try CalibrationShim.project(points, through: self)
    }

    /// The ideal, undistorted direction of each image point, as `(x/z, y/z)` in the camera's frame
    /// (`cv::undistortPoints` or `cv::fisheye::undistortPoints`).
    ///
    /// - Throws: ``CalibrationError/invalidInput(_:)`` for distortion coefficients the model does not have,
    ///   ``CalibrationError/openCV(_:)`` when OpenCV fails.
    public func normalized(_ points: [ImagePoint]) throws(CalibrationError) -> [ImagePoint] {
        try CalibrationShim.normalize(points, through: self)
    }
}

/// A point in space: on a calibration target (its plane is z = 0), or in a camera's frame.
public struct ObjectPoint: Sendable, Hashable {
    /// Across.
    public var x: Double
    /// Down.
    public var y: Double
    /// Along the viewing direction (0 on a target's plane).
    public var z: Double

    /// Makes a point.
    public init(x: Double, y: Double, z: Double = 0) {
        self.x = x
        self.y = y
        self.z = z
    }
}

extension Camera {
    /// The picture this camera would have taken without distortion, with the same camera matrix
    /// (`cv::undistort`, or `cv::fisheye::undistortImage`); pixels that see nothing are black.
    ///
    /// - Parameter image: A GRAY8 or BGR24 picture of this camera's image size.
    /// - Throws: ``CalibrationError/invalidInput(_:)`` for other formats, ``CalibrationError/openCV(_:)`` when
    ///   OpenCV fails.
    public func undistort(_ image: PixelBuffer) throws(CalibrationError) -> PixelBuffer {
        try CalibrationShim.undistort(image, through: self)
    }
}
