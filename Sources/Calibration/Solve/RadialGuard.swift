/// The band of radii where a camera's radial distortion has no corner to follow: from the corners'
/// farthest radius to the image corners', as tangents of the angle off the axis, with the focal
/// length that turns them into pixels. The refinement keeps the mapping one-to-one and smooth there
/// (``CalibrationRefinement/guardWeight``), so that a model with more coefficients than the corners
/// pin down cannot fold or run away where the image has no data.
struct RadialGuard: Sendable, Hashable {
    /// The corners' farthest radius.
    var inner: Double
    /// The image corners' radius.
    var outer: Double
    /// Pixels per unit of radius: the focal length.
    var scale: Double

    /// The band for `camera` (a solve's start) seeing `views`, or `nil` when the corners reach the
    /// image's corners (there is nothing to guard) or a radius cannot be told.
    ///
    /// The corners' radius is that of their undistorted positions; the image corners' is their
    /// pinhole radius scaled as the corners' undistorted radius is scaled from their pinhole one, and
    /// a quarter more (a start that folds cannot undistort them itself).
    static func band(camera: Camera, views: [CalibrationView]) -> RadialGuard? {
        guard camera.fx > 0, camera.fy > 0 else { return nil }
        let points = views.flatMap { $0.points.map(\.image) }
        guard !points.isEmpty, let normalized = try? camera.normalized(points) else { return nil }
        func pinhole(_ x: Double, _ y: Double) -> Double {
            let u = (x - camera.cx) / camera.fx, v = (y - camera.cy) / camera.fy
            return (u * u + v * v).squareRoot()
        }
        let inner = normalized.map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }.filter(\.isFinite).max() ?? 0
        let innerPinhole = points.map { pinhole($0.x, $0.y) }.max() ?? 0
        let width = Double(camera.imageSize.width - 1), height = Double(camera.imageSize.height - 1)
        let outerPinhole = [(0.0, 0.0), (width, 0.0), (0.0, height), (width, height)].map { pinhole($0.0, $0.1) }.max() ?? 0
        guard inner > 0, innerPinhole > 0, outerPinhole > innerPinhole * 1.02 else { return nil }
        let outer = outerPinhole * inner / innerPinhole * 1.25
        guard outer.isFinite, outer > inner else { return nil }
        return RadialGuard(inner: inner, outer: outer, scale: camera.fx)
    }
}
