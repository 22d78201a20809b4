public import MarkerDetection

/// What a calibration found: the first solve, and the second after outliers were dropped (when any
/// were), with every view that was set aside and why.
public struct CalibrationResult: Sendable, Hashable {
    /// The images' size.
    public var imageSize: ImageSize
    /// The lens model.
    public var model: CameraModel
    /// The solve over every usable view.
    public var firstRun: CalibrationRun
    /// The solve without the outliers, or `nil` when no view was dropped.
    public var finalRun: CalibrationRun?
    /// Views set aside before solving (too few points, points on one line).
    public var unusable: [RejectedView]
    /// Views dropped by the outlier rule (``CameraCalibration/outlierRule``).
    public var outliers: [RejectedView]

    /// The run whose camera is the result: the second when there is one.
    public var run: CalibrationRun { finalRun ?? firstRun }
    /// The calibrated camera.
    public var camera: Camera { run.camera }
    /// Every view not in the final solve.
    public var rejected: [RejectedView] { unusable + outliers }
}
