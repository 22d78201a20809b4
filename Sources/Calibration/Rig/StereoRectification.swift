/// A pair's rectification as OpenCV's `stereoRectify` gives it (`CALIB_ZERO_DISPARITY`, alpha 0:
/// every rectified pixel sees something), every matrix row by row.
public struct StereoRectification: Sendable, Hashable {
    /// The rotation that turns the first camera's frame into its rectified frame (3 x 3).
    public var r1: [Double]
    /// The same for the second camera (3 x 3).
    public var r2: [Double]
    /// The first camera's projection in the rectified frame (3 x 4).
    public var p1: [Double]
    /// The second camera's projection in the rectified frame (3 x 4; its fourth column is the
    /// baseline times the focal length).
    public var p2: [Double]
    /// The disparity-to-depth matrix (4 x 4).
    public var q: [Double]
}
