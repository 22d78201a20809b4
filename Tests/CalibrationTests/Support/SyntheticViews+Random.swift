import Calibration
import Foundation
import MarkerDetection
import MarkerDetectionTestSupport

extension SyntheticViews {
    /// `count` board poses drawn from `seed`: tilted up to 40 degrees about each axis, 1.2 to 2.2
    /// board widths away, the board's centre anywhere within the middle of the frame.
    static func randomPoses(_ count: Int, seed: UInt64) -> [Pose] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let z = 1.2 + random.nextUniform()
            return Pose(
                tiltX: (random.nextUniform() - 0.5) * 80, tiltY: (random.nextUniform() - 0.5) * 80,
                x: (random.nextUniform() - 0.5) * 0.7 * z, y: (random.nextUniform() - 0.5) * 0.5 * z, z: z)
        }
    }

    /// `views` with `fraction` of all corners (drawn from `seed`) moved 2 to 6 px in a random
    /// direction: wrong corners among good ones.
    static func withWrongCorners(_ views: [CalibrationView], fraction: Double, seed: UInt64) -> [CalibrationView] {
        var random = SplitMix64(seed: seed)
        return views.map { view in
            var moved = view
            moved.points = view.points.map { point in
                guard random.nextUniform() < fraction else { return point }
                let distance = 2 + 4 * random.nextUniform(), angle = 2 * Double.pi * random.nextUniform()
                var wrong = point
                wrong.image.x += distance * cos(angle)
                wrong.image.y += distance * sin(angle)
                return wrong
            }
            return moved
        }
    }
}
