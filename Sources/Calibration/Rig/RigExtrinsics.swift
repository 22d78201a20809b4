import Foundation

/// Where one camera of a rig sits: the motion taking a point of the first camera's frame into
/// this camera's frame, with its covariance and what follows from it.
///
/// The standard deviations come from the joint solve's covariance (``CalibrationRefinement``), the
/// corners' scatter, and, when it was measured, from the spread between sets beyond it
/// (``RigSpread``, a jackknife over groups of sets), as one camera's parameters take in the views'
/// spread (``CalibrationRun/Parameter``).
public struct RigExtrinsics: Sendable, Hashable {
    /// One number with its standard deviation.
    public struct Value: Sendable, Hashable {
        /// The value.
        public var value: Double
        /// Its standard deviation from the corners' scatter.
        public var standardDeviation: Double
        /// Its standard deviation from the spread between sets beyond the scatter (0 when the
        /// scatter explains the spread, or none was measured).
        public var spread: Double = 0
        /// The degrees of freedom of the jackknife that measured ``spread`` (0 when none was measured).
        public var spreadDegreesOfFreedom: Int = 0

        /// Makes a value with its scatter's standard deviation and no spread.
        public init(value: Double, standardDeviation: Double) {
            self.value = value
            self.standardDeviation = standardDeviation
        }

        /// Half the width of the 95% interval over the scatter and the spread (``TwoPartInterval``).
        public var interval95: Double {
            TwoPartInterval.halfWidth95(standardDeviation: standardDeviation, spread: spread, degreesOfFreedom: spreadDegreesOfFreedom)
        }
        /// The standard deviation that ``interval95`` is 1.96 of.
        public var totalStandardDeviation: Double { interval95 / 1.96 }
        /// Half the width of the corners' scatter's 95% interval: 1.96 standard deviations.
        public var noiseInterval95: Double { 1.96 * standardDeviation }
        /// The part of ``interval95`` the spread adds: the root of the difference of its square and
        /// the scatter's interval's square.
        public var spreadInterval95: Double {
            let total = interval95, noise = noiseInterval95
            return total > noise ? (total * total - noise * noise).squareRoot() : 0
        }
        /// Whether `truth` lies inside the 95% interval.
        public func contains(_ truth: Double) -> Bool { abs(truth - value) <= interval95 }
    }

    /// The motion from the first camera's frame into this one's.
    public var pose: RigidTransform
    /// The covariance of (Rodrigues vector, translation), 6 x 6, row by row (all 0 for the first camera).
    public var covariance: [[Double]]
    /// The jackknife's covariance of (Rodrigues vector, translation) over groups of sets left out
    /// (``RigSpread``), when it was measured.
    public var spreadCovariance: [[Double]]?
    /// The degrees of freedom of ``spreadCovariance``.
    public var spreadDegreesOfFreedom = 0

    /// Makes extrinsics.
    public init(pose: RigidTransform, covariance: [[Double]]) {
        self.pose = pose
        self.covariance = covariance
    }

    /// The first camera's: no motion, no uncertainty.
    public static let reference = RigExtrinsics(
        pose: .identity, covariance: Array(repeating: Array(repeating: 0, count: 6), count: 6))

    private static func variance(_ gradient: [Double], _ covariance: [[Double]]) -> Double {
        var sum = 0.0
        for row in 0..<6 {
            for column in 0..<6 { sum += gradient[row] * covariance[row][column] * gradient[column] }
        }
        return sum
    }

    private func value(_ value: Double, _ gradient: [Double]) -> Value {
        let variance = Self.variance(gradient, covariance)
        var result = Value(value: value, standardDeviation: variance >= 0 ? variance.squareRoot() : .nan)
        if let spreadCovariance {
            result.spread = TwoPartInterval.spread(
                jackknifeVariance: Self.variance(gradient, spreadCovariance), noiseVariance: variance,
                degreesOfFreedom: spreadDegreesOfFreedom)
            result.spreadDegreesOfFreedom = spreadDegreesOfFreedom
        }
        return result
    }

    /// The distance between the two cameras' centres (the translation's length), in the target's units.
    public var baseline: Value {
        let length = pose.length
        guard length > 0 else { return Value(value: 0, standardDeviation: 0) }
        return value(length, [0, 0, 0] + pose.translation.map { $0 / length })
    }

    /// The translation's x, y and z.
    public var translation: [Value] {
        (0..<3).map { axis in value(pose.translation[axis], (0..<6).map { $0 == 3 + axis ? 1 : 0 }) }
    }

    /// The Rodrigues vector's x, y and z in degrees.
    public var rotationDegrees: [Value] {
        (0..<3).map { axis in
            let scale = 180 / Double.pi
            return value(pose.rotation[axis] * scale, (0..<6).map { $0 == axis ? scale : 0 })
        }
    }

    /// The rotation's angle in degrees.
    public var angleDegrees: Value {
        let angle = pose.angleDegrees
        guard angle > 0 else { return Value(value: 0, standardDeviation: 0) }
        let radians = angle * .pi / 180
        return value(angle, pose.rotation.map { $0 / radians * 180 / .pi } + [0, 0, 0])
    }

    /// The first camera's centre in this camera's frame is the translation; this camera's centre
    /// in the first camera's frame is `-R^T t`.
    public var centre: [Double] { pose.inverse.translation }
}
