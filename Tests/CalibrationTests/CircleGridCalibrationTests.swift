import Calibration
import MarkerDetection
import MarkerDetectionTestSupport
import Pixels
import Testing

/// Circle grids as calibration targets: drawn, seen through a lens, found whole and placed by
/// ``TargetLayout``, they give back the camera.
@Suite struct CircleGridCalibrationTests {
    @Test func layoutPlacesEachPointAtItsSpacings() throws {
        let layout = try TargetLayout(Pattern(parsing: "acircles:4x11:spacing=0.02"))
        let detection = Detection(
            imageSize: ImageSize(width: 100, height: 100), markers: [],
            boardCorners: [BoardCorner(id: 5, point: ImagePoint(x: 1, y: 2)), BoardCorner(id: 44, point: ImagePoint(x: 3, y: 4))],
            sharpness: nil, duration: .zero)
        let points = layout.correspondences(in: detection)
        #expect(points.map(\.id) == [5])  // 44 is beyond the grid's 44 points (0...43)
        #expect(abs(points[0].object.x - 0.06) < 1e-12 && abs(points[0].object.y - 0.02) < 1e-12)
    }

    /// OpenCV's asymmetric grid as the board command draws it, through the distorting pinhole lens of
    /// the synthetic calibrations, views detected whole (a view that cuts the grid finds nothing).
    @Test func renderedAsymmetricGridViewsRecoverThePinholeCamera() throws {
        let pattern = try Pattern(parsing: "acircles:6x13:spacing=0.015")
        let board = try PrintableTarget.render(pattern, width: 1080, height: 960, margin: 20)
        let views = try SyntheticViews.rendered(pattern, board: board, camera: SyntheticCalibrationTests.pinhole, noise: 0.1, seed: 23)
        let whole = views.filter { $0.points.count == 78 }.count
        #expect(whole >= 12, "views with the whole grid: \(whole) of \(views.count)")
        #expect(views.allSatisfy { $0.points.isEmpty || $0.points.count == 78 })
        let result = try CameraCalibration.calibrate(views.filter { !$0.points.isEmpty }, model: .pinhole)
        #expect(result.run.rms < 0.6, "RMS \(result.run.rms)")
        try SyntheticCalibrationTests.expectRecovers(SyntheticCalibrationTests.pinhole, result)
    }
}
