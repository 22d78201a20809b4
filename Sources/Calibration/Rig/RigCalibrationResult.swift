import MarkerDetection

/// What a rig calibration found: each camera's own solve, then the joint one of every camera's
/// intrinsics and pose and every set's target pose, with the sets dropped and why.
public struct RigCalibrationResult: Sendable, Hashable {
    /// One camera of the rig after the joint solve.
    public struct CameraResult: Sendable, Hashable {
        /// Its name.
        public var name: String
        /// Its calibration on its own (its views, outliers and files as a single camera's).
        public var single: CalibrationResult
        /// The camera after the joint solve.
        public var camera: Camera
        /// fx, fy, cx, cy and each distortion coefficient after the joint solve, with standard deviations.
        public var parameters: [CalibrationRun.Parameter]
        /// Their covariance, row by row.
        public var covariance: [[Double]]
        /// Where it sits relative to the first camera.
        public var extrinsics: RigExtrinsics
        /// RMS reprojection error over its corners kept in the joint solve, in pixels.
        public var rms: Double
        /// Its corner drop threshold in the joint solve, in pixels.
        public var dropThreshold: Double
        /// The sets it saw in the joint solve.
        public var sets: [String]
        /// Per set, the ids of its corners the joint solve dropped (sets with none are left out).
        public var droppedCorners: [String: [Int]]

        /// The parameter of that name.
        public func parameter(_ name: String) -> CalibrationRun.Parameter? { parameters.first { $0.name == name } }
    }

    /// One set of pictures taken together.
    public struct SolvedSet: Sendable, Hashable {
        /// Its name: the pictures' common stem.
        public var name: String
        /// The indices of the cameras that saw the target in it.
        public var cameras: [Int]
        /// RMS reprojection error over all its corners (dropped ones included), in pixels.
        public var rms: Double
        /// The target's pose in the first camera's frame.
        public var pose: RigidTransform
    }

    /// How a camera was first placed: through the camera it shares the most sets with, along a
    /// spanning tree from the first camera.
    public struct Link: Sendable, Hashable {
        /// The camera placed.
        public var camera: Int
        /// The camera it was placed from.
        public var from: Int
        /// The sets both saw.
        public var sharedSets: Int
    }

    /// The first camera and another, rectified as a stereo pair.
    public struct Pair: Sendable, Hashable {
        /// The first camera's index (0).
        public var first: Int
        /// The other's.
        public var second: Int
        /// Their rectification, or `nil` when it is not made (a fisheye camera with another model).
        public var rectification: StereoRectification?
        /// The epipolar error of every set both saw (ROS cameracheck's measure: the mean absolute
        /// difference of a corner's rectified rows in the two pictures), in pixels, by set name.
        public var epipolarErrors: [String: Double]

        /// The mean epipolar error over the sets, or `nil` when there are none.
        public var meanEpipolarError: Double? {
            epipolarErrors.isEmpty ? nil : epipolarErrors.values.reduce(0, +) / Double(epipolarErrors.count)
        }
    }

    /// The cameras, the first being the reference.
    public var cameras: [CameraResult]
    /// The sets of the joint solve, in name order.
    public var sets: [SolvedSet]
    /// Sets left out of the joint solve, and why.
    public var droppedSets: [RejectedView]
    /// How the cameras were first placed.
    public var links: [Link]
    /// The first camera with each other one.
    public var pairs: [Pair]
    /// RMS reprojection error over every kept corner of the joint solve, in pixels.
    public var rms: Double
    /// The same before outlier sets were dropped (equal to ``rms`` when none were).
    public var firstRMS: Double
    /// The residuals' degrees of freedom: 2 x kept corners - refined intrinsics - 6 x (cameras - 1) - 6 x sets.
    public var degreesOfFreedom: Int
    /// The refinement's settings.
    public var refinement: CalibrationRefinement
    /// Whether the joint solve refined the intrinsics (otherwise they are each camera's own solve's).
    public var refinesIntrinsics: Bool
    /// The spread between sets (``RigSpread``), which the intrinsics' and poses' intervals take
    /// in, when it was measured.
    public var spread: RigSpread?
    /// Why the spread was not measured, when it was not.
    public var spreadNotMeasured: String?
}
