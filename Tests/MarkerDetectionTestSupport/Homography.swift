/// A plane-to-plane projective map, `p' ~ H p`, for making synthetic views with known ground truth.
public struct Homography: Sendable, Equatable {
    /// The 3x3 matrix, row by row.
    public var matrix: [Double]

    /// Makes a homography from its 3x3 matrix, row by row.
    public init(_ matrix: [Double]) {
        precondition(matrix.count == 9)
        self.matrix = matrix
    }

    /// The identity map.
    public static let identity = Homography([1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// Maps a point.
    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        let m = matrix
        let w = m[6] * x + m[7] * y + m[8]
        return ((m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w)
    }

    /// `self` after `other`: maps `p` to `self(other(p))`.
    public func composed(after other: Homography) -> Homography {
        var result = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                for k in 0..<3 { result[row * 3 + column] += matrix[row * 3 + k] * other.matrix[k * 3 + column] }
            }
        }
        return Homography(result)
    }

    /// The inverse map (adjugate over determinant).
    public var inverse: Homography {
        let m = matrix
        let cofactors = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        let determinant = m[0] * cofactors[0] + m[1] * cofactors[3] + m[2] * cofactors[6]
        return Homography(cofactors.map { $0 / determinant })
    }

    /// The view of a flat picture through a pinhole camera.
    ///
    /// The picture (`sourceWidth` x `sourceHeight` pixels) is scaled to a width of 1, centred on the
    /// optical axis, turned by `tiltX` degrees about the horizontal axis and then `tiltY` degrees
    /// about the vertical one, and placed `distance` in front of a camera with a focal length of
    /// `focal` pixels whose image centre is the middle of a `targetWidth` x `targetHeight` frame.
    /// Pixel centres are at whole coordinates in both images, as in OpenCV.
    public static func camera(
        sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int,
        tiltX: Double, tiltY: Double, distance: Double, focal: Double
    ) -> Homography {
        let scale = 1 / Double(sourceWidth)
        let toPlane = Homography([
            scale, 0, -scale * Double(sourceWidth - 1) / 2,
            0, scale, -scale * Double(sourceHeight - 1) / 2,
            0, 0, 1,
        ])
        let a = tiltX * .pi / 180, b = tiltY * .pi / 180
        // R = Ry(b) * Rx(a); the plane's points (X, Y, 0) map to X * r1 + Y * r2 + t.
        let rx: [Double] = [1, 0, 0, 0, cos(a), -sin(a), 0, sin(a), cos(a)]
        let ry: [Double] = [cos(b), 0, sin(b), 0, 1, 0, -sin(b), 0, cos(b)]
        let r = Homography(ry).composed(after: Homography(rx)).matrix
        let plane = Homography([r[0], r[1], 0, r[3], r[4], 0, r[6], r[7], distance])
        let intrinsics = Homography([
            focal, 0, Double(targetWidth - 1) / 2,
            0, focal, Double(targetHeight - 1) / 2,
            0, 0, 1,
        ])
        return intrinsics.composed(after: plane).composed(after: toPlane)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
