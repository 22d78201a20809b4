import Calibration
import Foundation
import MarkerDetection
import MarkerDetectionTestSupport

/// Ground truth for rig calibration tests: known cameras at known places, and the views each makes
/// of a board whose poses are given in the first camera's frame.
enum SyntheticRig {
    /// Two webcam-like cameras of different sizes, the second 0.4 board widths (12 cm beside a
    /// 30 cm board) to the right of the first and turned 5 degrees about the vertical axis.
    static let left = Camera(
        model: .pinhole, imageSize: ImageSize(width: 1280, height: 720), fx: 910, fy: 905, cx: 641.5, cy: 362,
        distortion: [-0.21, 0.07, 0.0008, -0.0005, 0])
    static let right = Camera(
        model: .pinhole, imageSize: ImageSize(width: 1024, height: 768), fx: 820, fy: 818, cx: 515, cy: 380.5,
        distortion: [-0.17, 0.04, -0.0006, 0.0004, 0])

    /// The motion from a camera's frame into one whose centre sits at `centre` (in the first frame)
    /// and which is turned `yawDegrees` about the vertical axis.
    static func pose(centre: [Double], yawDegrees: Double) -> RigidTransform {
        let turn = RigidTransform(rotation: [0, -yawDegrees * .pi / 180, 0], translation: [0, 0, 0])
        let moved = turn.apply(centre)
        return RigidTransform(rotation: turn.rotation, translation: moved.map { -$0 })
    }

    /// The second camera's true pose: 0.4 to the right, turned 5 degrees.
    static let rightPose = pose(centre: [0.4, 0, 0], yawDegrees: 5)

    /// Each camera's views of a `columns` x `rows` board (one board width across) under `poses`
    /// (in the first camera's frame), with Gaussian noise of `noise` pixels; a camera keeps a view
    /// when at least 12 corners fall inside its image and `sees(camera, set)` allows it. Views are
    /// named `set_NN.png`.
    static func views(
        cameras: [Camera], poses cameraPoses: [RigidTransform], boardPoses: [SyntheticViews.Pose], noise: Double, seed: UInt64,
        columns: Int = 9, rows: Int = 6, sees: (Int, Int) -> Bool = { _, _ in true }
    ) throws -> [[CalibrationView]] {
        var random = SplitMix64(seed: seed)
        let pitch = 1 / Double(columns - 1)
        var result: [[CalibrationView]] = Array(repeating: [], count: cameras.count)
        for (set, pose) in boardPoses.enumerated() {
            for (index, camera) in cameras.enumerated() {
                var ids: [Int] = [], objects: [ObjectPoint] = [], inCamera: [ObjectPoint] = []
                for row in 0..<rows {
                    for column in 0..<columns {
                        let board = ObjectPoint(x: Double(column) * pitch, y: Double(row) * pitch)
                        let centred = ObjectPoint(x: board.x - 0.5, y: board.y - Double(rows - 1) * pitch / 2)
                        let first = SyntheticViews.transform(centred, pose)
                        let moved = cameraPoses[index].apply([first.x, first.y, first.z])
                        ids.append(row * columns + column)
                        objects.append(board)
                        inCamera.append(ObjectPoint(x: moved[0], y: moved[1], z: moved[2]))
                    }
                }
                let images = try camera.project(inCamera)
                var points: [CalibrationView.Correspondence] = []
                for (offset, image) in images.enumerated() {
                    // Draw the noise for every corner, inside or not, so that one camera's noise
                    // does not depend on what another sees.
                    let dx = noise * random.nextGaussian(), dy = noise * random.nextGaussian()
                    guard inCamera[offset].z > 0.1, image.x >= 0, image.y >= 0, image.x <= Double(camera.imageSize.width - 1),
                          image.y <= Double(camera.imageSize.height - 1)
                    else { continue }
                    points.append(.init(id: ids[offset], object: objects[offset], image: ImagePoint(x: image.x + dx, y: image.y + dy)))
                }
                guard points.count >= 12, sees(index, set) else { continue }
                result[index].append(
                    CalibrationView(name: String(format: "set_%02d.png", set), imageSize: camera.imageSize, points: points))
            }
        }
        return result
    }

    /// The angle between two rotations, in degrees.
    static func angleBetween(_ a: RigidTransform, _ b: RigidTransform) -> Double {
        a.composed(after: b.inverse).angleDegrees
    }
}
