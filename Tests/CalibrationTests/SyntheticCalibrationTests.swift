import Calibration
import MarkerDetection
import MarkerDetectionTestSupport
import Pixels
import Testing

/// Calibrations of synthetic views whose camera is known: the solve must find it again.
@Suite struct SyntheticCalibrationTests {
    /// A webcam-like lens with clear barrel distortion.
    static let pinhole = Camera(
        model: .pinhole, imageSize: ImageSize(width: 640, height: 480), fx: 500, fy: 496, cx: 322.5, cy: 237,
        distortion: [-0.28, 0.09, 0.0012, -0.0008, 0])

    /// A fisheye lens (Kannala-Brandt).
    static let fisheye = Camera(
        model: .fisheye, imageSize: ImageSize(width: 800, height: 600), fx: 285, fy: 283, cx: 402, cy: 297.5,
        distortion: [0.06, -0.02, 0.004, -0.0008])

    static func expectRecovers(
        _ truth: Camera, _ result: CalibrationResult, maximumAngle: Double = 90, maximumModelError: Double = 0.3
    ) throws {
        let camera = result.camera
        #expect(abs(camera.fx / truth.fx - 1) < 0.005, "fx \(camera.fx), true \(truth.fx)")
        #expect(abs(camera.fy / truth.fy - 1) < 0.005, "fy \(camera.fy), true \(truth.fy)")
        #expect(abs(camera.cx - truth.cx) < 2, "cx \(camera.cx), true \(truth.cx)")
        #expect(abs(camera.cy - truth.cy) < 2, "cy \(camera.cy), true \(truth.cy)")
        let error = try SyntheticViews.meanModelError(truth: truth, estimate: camera, maximumAngle: maximumAngle)
        #expect(error < maximumModelError, "mean error against the true model over the image: \(error) px")
        // The true values lie within the reported 95% intervals' reach (generously: 3 of them).
        for (name, value) in [("fx", truth.fx), ("fy", truth.fy), ("cx", truth.cx), ("cy", truth.cy)] {
            let parameter = try #require(result.run.parameter(name))
            #expect(parameter.standardDeviation > 0)
            #expect(abs(parameter.value - value) < 3 * parameter.interval95, "\(name) \(parameter.value) ± \(parameter.interval95)")
        }
    }

    /// Rendered ChArUco views (tilted, partly out of the frame at the edges), detected, with 0.2 px
    /// of extra corner noise.
    @Test func renderedCharucoViewsRecoverThePinholeCamera() throws {
        let pattern = try Pattern(parsing: "charuco:9x6:DICT_4X4_50:square=0.04,marker=0.03")
        let board = try PrintableTarget.render(pattern, width: 1080, height: 720, margin: 30)
        let views = try SyntheticViews.rendered(pattern, board: board, camera: Self.pinhole, noise: 0.1, seed: 11)
        let partial = views.filter { $0.points.count < 40 }.count
        #expect(partial >= 4, "views with part of the board outside the frame: \(partial)")
        let result = try CameraCalibration.calibrate(views, model: .pinhole)
        #expect(result.run.views.count >= 22)
        #expect(result.run.rms > 0.1 && result.run.rms < 0.6, "RMS \(result.run.rms)")
        try Self.expectRecovers(Self.pinhole, result)
    }

    /// Kalibr's AprilGrid as the board command draws it, rendered through the same lens, detected by
    /// libapriltag and placed by ``TargetLayout`` through the detector's corner ids (four per tag),
    /// with 0.2 px of extra corner noise: partial grids count, as ChArUco boards do.
    @Test func renderedAprilGridViewsRecoverThePinholeCamera() throws {
        let pattern = try Pattern(parsing: "aprilgrid:5x4:tag36h11:size=0.05,spacing=0.3,first=3")
        let board = try PrintableTarget.render(pattern, width: 1080, height: 880, margin: 30)
        let views = try SyntheticViews.rendered(pattern, board: board, camera: Self.pinhole, noise: 0.1, seed: 13)
        // Tags cut by the frame or too small to read at the far side of a steep tilt are left out.
        let corners = views.map(\.points.count)
        #expect(corners.filter { $0 == 80 }.count >= 2, "views with every corner: \(corners)")
        #expect(corners.filter { $0 >= 6 && $0 < 80 }.count >= 16, "views with part of the grid: \(corners)")
        let result = try CameraCalibration.calibrate(views, model: .pinhole)
        #expect(result.run.views.count >= 20, "views used: \(result.run.views.count) of \(views.count)")
        #expect(result.run.rms > 0.1 && result.run.rms < 0.6, "RMS \(result.run.rms)")
        try Self.expectRecovers(Self.pinhole, result)
    }

    /// Rendered ChArUco views through the fisheye lens, near enough for the board to reach into the
    /// strongly bent edges of the image (about 80% of the 8x6 cells covered), detected, with 0.2 px
    /// of extra corner noise. The error against the true lens is measured over the whole image, so
    /// views that leave its edges empty fail here (at 0.55 times the distance: 0.7 px).
    @Test func renderedCharucoViewsRecoverTheFisheyeCamera() throws {
        let pattern = try Pattern(parsing: "charuco:9x6:DICT_4X4_50:square=0.04,marker=0.03")
        let board = try PrintableTarget.render(pattern, width: 1080, height: 720, margin: 30)
        let views = try SyntheticViews.rendered(
            pattern, board: board, camera: Self.fisheye, noise: 0.1, seed: 17, depthScale: 0.42)
        let result = try CameraCalibration.calibrate(views, model: .fisheye)
        #expect(result.run.views.count >= 20, "views used: \(result.run.views.count) of \(views.count)")
        #expect(result.run.rms > 0.1 && result.run.rms < 0.6, "RMS \(result.run.rms)")
        try Self.expectRecovers(Self.fisheye, result, maximumAngle: 80)
    }

    /// Board corners projected through a known fisheye model, with 0.3 px of noise.
    @Test func projectedViewsRecoverTheFisheyeCamera() throws {
        let views = try SyntheticViews.projected(
            camera: Self.fisheye, columns: 12, rows: 9, noise: 0.3, seed: 5, depthScale: 0.55)
        let result = try CameraCalibration.calibrate(views, model: .fisheye)
        #expect(result.run.rms > 0.2 && result.run.rms < 0.5, "RMS \(result.run.rms)")
        // Within 80 degrees of the axis: the image's corners see past 90 degrees, where no ray (x, y, 1) goes.
        try Self.expectRecovers(Self.fisheye, result, maximumAngle: 80)
        #expect(result.camera.distortion.count == 4)
    }

    /// The rational model on a pinhole lens: its extra coefficients must not spoil the camera.
    @Test func projectedViewsRecoverThePinholeCameraWithTheRationalModel() throws {
        let views = try SyntheticViews.projected(camera: Self.pinhole, columns: 12, rows: 9, noise: 0.3, seed: 9)
        let result = try CameraCalibration.calibrate(views, model: .rational)
        #expect(result.camera.distortion.count == 8)
        try Self.expectRecovers(Self.pinhole, result)
    }

    /// One view with its corners shifted by several pixels is dropped by the 3 x median rule and the
    /// solve repeated; both runs are kept and the second fits better.
    @Test func anOutlierViewIsDroppedAndTheSolveRepeated() throws {
        var views = try SyntheticViews.projected(camera: Self.pinhole, columns: 12, rows: 9, noise: 0.3, seed: 3)
        var random = SplitMix64(seed: 99)
        views[4] = SyntheticViews.jittered(views[4], by: 3, &random)
        let result = try CameraCalibration.calibrate(views, model: .pinhole)
        #expect(result.outliers.map(\.name) == ["view_04"])
        #expect(result.outliers.first?.reason.hasPrefix("outlier: RMS") == true)
        let finalRun = try #require(result.finalRun)
        #expect(result.firstRun.views.count == 24)
        #expect(finalRun.views.count == 23)
        #expect(finalRun.rms < result.firstRun.rms)
        try Self.expectRecovers(Self.pinhole, result)
    }

    /// Without outliers there is one run.
    @Test func cleanViewsNeedOneRun() throws {
        let views = try SyntheticViews.projected(camera: Self.pinhole, columns: 12, rows: 9, noise: 0.3, seed: 4)
        let result = try CameraCalibration.calibrate(views, model: .pinhole)
        #expect(result.finalRun == nil)
        #expect(result.outliers.isEmpty)
        #expect(result.run == result.firstRun)
    }
}
