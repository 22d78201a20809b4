import Calibration
import MarkerDetection
import Testing

/// `Camera.undistort` (what `calibrate --undistort` writes): a board seen through a distorting lens,
/// undistorted with that lens, has its corners where a distortion-free camera with the same matrix
/// puts them.
@Suite struct UndistortTests {
    @Test(arguments: [
        (SyntheticCalibrationTests.pinhole, 1.1), (SyntheticCalibrationTests.fisheye, 0.9),
    ])
    func undistortedCornersAreWhereAnIdealCameraPutsThem(camera: Camera, distance: Double) throws {
        let pattern = try Pattern(parsing: "charuco:9x6:DICT_4X4_50:square=0.04,marker=0.03")
        let board = try PrintableTarget.render(pattern, width: 1080, height: 720, margin: 30)
        let detector = try MarkerDetector(pattern: pattern)
        // Each corner's place on the board image, then on the plane the renderer puts it on.
        let onBoard = Dictionary(uniqueKeysWithValues: try detector.detect(board).boardCorners.map { ($0.id, $0.point) })
        let pose = SyntheticViews.Pose(tiltX: 20, tiltY: -15, x: 0, y: 0, z: distance)
        let ideal = Camera(
            model: .pinhole, imageSize: camera.imageSize, fx: camera.fx, fy: camera.fy, cx: camera.cx, cy: camera.cy,
            distortion: [0, 0, 0, 0, 0])
        func misses(_ corners: [BoardCorner]) throws -> [Double] {
            let width = Double(board.width), height = Double(board.height)
            let placed = try corners.map { corner in
                let pixel = try #require(onBoard[corner.id])
                let plane = ObjectPoint(x: (pixel.x - (width - 1) / 2) / width, y: (pixel.y - (height - 1) / 2) / width)
                return SyntheticViews.transform(plane, pose)
            }
            return zip(try ideal.project(placed), corners).map { $0.distance(to: $1.point) }
        }
        let image = try SyntheticViews.render(board, camera: camera, pose: pose, seed: 41)
        let seen = try detector.detect(image).boardCorners
        let straightened = try detector.detect(camera.undistort(image)).boardCorners
        #expect(seen.count >= 30 && straightened.count >= 30, "corners found: \(seen.count), \(straightened.count)")
        let before = try misses(seen), after = try misses(straightened)
        let moved = before.max() ?? 0, mean = after.reduce(0, +) / Double(max(1, after.count)), worst = after.max() ?? .infinity
        #expect(moved > 5, "the lens moves the corners: at most \(moved) px")
        #expect(mean < 0.3 && worst < 1, "undistorted corners miss by \(mean) px on average, \(worst) at most")
    }
}
