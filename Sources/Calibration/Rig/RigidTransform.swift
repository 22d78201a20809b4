import Foundation

/// A rigid motion `x' = R x + t`, its rotation kept as a Rodrigues (angle-axis) vector as OpenCV
/// keeps it.
public struct RigidTransform: Sendable, Hashable {
    /// The Rodrigues vector: the axis times the angle in radians.
    public var rotation: [Double]
    /// The translation.
    public var translation: [Double]

    /// The motion that changes nothing.
    public static let identity = RigidTransform(rotation: [0, 0, 0], translation: [0, 0, 0])

    /// A motion from its Rodrigues vector and translation (3 values each).
    public init(rotation: [Double], translation: [Double]) {
        self.rotation = rotation
        self.translation = translation
    }

    /// A motion from a rotation matrix (row by row) and a translation.
    public init(matrix: [Double], translation: [Double]) {
        self.init(rotation: Self.rodrigues(Self.quaternion(matrix)), translation: translation)
    }

    /// The rotation matrix, row by row.
    public var matrix: [Double] {
        let angle = (rotation[0] * rotation[0] + rotation[1] * rotation[1] + rotation[2] * rotation[2]).squareRoot()
        guard angle > 1e-15 else { return [1, 0, 0, 0, 1, 0, 0, 0, 1] }
        let x = rotation[0] / angle, y = rotation[1] / angle, z = rotation[2] / angle
        let c = cos(angle), s = sin(angle), v = 1 - c
        return [
            c + x * x * v, x * y * v - z * s, x * z * v + y * s,
            y * x * v + z * s, c + y * y * v, y * z * v - x * s,
            z * x * v - y * s, z * y * v + x * s, c + z * z * v,
        ]
    }

    /// The rotation's angle in degrees.
    public var angleDegrees: Double {
        (rotation[0] * rotation[0] + rotation[1] * rotation[1] + rotation[2] * rotation[2]).squareRoot() * 180 / .pi
    }

    /// The length of the translation.
    public var length: Double {
        (translation[0] * translation[0] + translation[1] * translation[1] + translation[2] * translation[2]).squareRoot()
    }

    /// `point` moved.
    public func apply(_ point: [Double]) -> [Double] {
        let r = matrix
        return (0..<3).map { row in
            r[3 * row] * point[0] + r[3 * row + 1] * point[1] + r[3 * row + 2] * point[2] + translation[row]
        }
    }

    /// This motion after `other`: `x -> self(other(x))`.
    public func composed(after other: RigidTransform) -> RigidTransform {
        let a = matrix, b = other.matrix
        var product = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                var sum = 0.0
                for k in 0..<3 { sum += a[3 * row + k] * b[3 * k + column] }
                product[3 * row + column] = sum
            }
        }
        return RigidTransform(matrix: product, translation: apply(other.translation))
    }

    /// The motion that undoes this one.
    public var inverse: RigidTransform {
        let back = RigidTransform(rotation: rotation.map { -$0 }, translation: [0, 0, 0])
        return RigidTransform(rotation: back.rotation, translation: back.apply(translation).map { -$0 })
    }

    /// The mean of `motions`: their rotations averaged as unit quaternions (turned to one
    /// hemisphere), their translations averaged.
    public static func mean(_ motions: [RigidTransform]) -> RigidTransform {
        guard let first = motions.first else { return .identity }
        let reference = quaternion(first.matrix)
        var sum = [0.0, 0, 0, 0], translation = [0.0, 0, 0]
        for motion in motions {
            var q = quaternion(motion.matrix)
            if zip(q, reference).reduce(0, { $0 + $1.0 * $1.1 }) < 0 { q = q.map { -$0 } }
            for index in 0..<4 { sum[index] += q[index] }
            for index in 0..<3 { translation[index] += motion.translation[index] / Double(motions.count) }
        }
        let norm = sum.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return RigidTransform(rotation: rodrigues(sum.map { $0 / norm }), translation: translation)
    }

    /// The unit quaternion (w, x, y, z) of a rotation matrix (Shepperd's method).
    static func quaternion(_ r: [Double]) -> [Double] {
        let trace = r[0] + r[4] + r[8]
        var q: [Double]
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            q = [s / 4, (r[7] - r[5]) / s, (r[2] - r[6]) / s, (r[3] - r[1]) / s]
        } else if r[0] > r[4], r[0] > r[8] {
            let s = (1 + r[0] - r[4] - r[8]).squareRoot() * 2
            q = [(r[7] - r[5]) / s, s / 4, (r[1] + r[3]) / s, (r[2] + r[6]) / s]
        } else if r[4] > r[8] {
            let s = (1 + r[4] - r[0] - r[8]).squareRoot() * 2
            q = [(r[2] - r[6]) / s, (r[1] + r[3]) / s, s / 4, (r[5] + r[7]) / s]
        } else {
            let s = (1 + r[8] - r[0] - r[4]).squareRoot() * 2
            q = [(r[3] - r[1]) / s, (r[2] + r[6]) / s, (r[5] + r[7]) / s, s / 4]
        }
        let norm = q.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return q.map { $0 / norm }
    }

    /// The Rodrigues vector of a unit quaternion (w, x, y, z).
    static func rodrigues(_ q: [Double]) -> [Double] {
        var q = q
        if q[0] < 0 { q = q.map { -$0 } }
        let sine = (q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).squareRoot()
        guard sine > 1e-15 else { return [2 * q[1], 2 * q[2], 2 * q[3]] }
        let angle = 2 * atan2(sine, q[0])
        return [q[1] / sine * angle, q[2] / sine * angle, q[3] / sine * angle]
    }
}
