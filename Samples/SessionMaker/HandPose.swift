import Foundation

/// A hand held close to the camera: a palm, four fingers, a thumb and the forearm it hangs from.
///
/// The shape is a signed distance field (negative inside) in the hand's own coordinates, in
/// pixels at scale 1, with the palm's centre at the origin and the fingers pointing up.
struct HandPose: Sendable {
    /// Where the palm's centre appears in the frame, in pixels.
    var centreX: Double
    var centreY: Double
    /// Radians the hand is turned, clockwise in the image.
    var angle: Double
    /// How large the hand appears (1: a palm about 160 pixels across).
    var scale: Double

    /// How far from the palm's centre any part of the hand reaches, in frame pixels: the forearm,
    /// the longest part, ends 650 pixels away at scale 1.
    var reach: Double { 650 * scale }

    /// The signed distance in frame pixels from the point (`x`, `y`) of the frame to the hand's
    /// outline: negative inside the hand.
    func signedDistance(x: Double, y: Double) -> Double {
        let c = cos(angle), s = sin(angle)
        let dx = x - centreX, dy = y - centreY
        let local = (x: (c * dx + s * dy) / scale, y: (-s * dx + c * dy) / scale)
        return Self.shape(local.x, local.y) * scale
    }

    /// Fingers as (base, tip, radius), index finger first, then the thumb.
    private static let digits: [(base: (Double, Double), tip: (Double, Double), radius: Double)] = [
        ((-52, -70), (-66, -215), 21),
        ((-12, -80), (-14, -240), 22),
        ((28, -75), (36, -222), 21),
        ((62, -58), (82, -175), 17),
        ((-72, 20), (-150, -70), 23),
    ]

    private static func shape(_ x: Double, _ y: Double) -> Double {
        var distance = roundedBox(x, y, halfWidth: 78, halfHeight: 85, radius: 45)
        distance = smoothMinimum(distance, capsule(x, y, from: (8, 70), to: (30, 560), radius: 70), blend: 20)
        for digit in digits {
            distance = smoothMinimum(distance, capsule(x, y, from: digit.base, to: digit.tip, radius: digit.radius), blend: 12)
        }
        return distance
    }

    private static func roundedBox(_ x: Double, _ y: Double, halfWidth: Double, halfHeight: Double, radius: Double) -> Double {
        let qx = abs(x) - halfWidth + radius, qy = abs(y) - halfHeight + radius
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        return outside + min(max(qx, qy), 0) - radius
    }

    private static func capsule(_ x: Double, _ y: Double, from a: (Double, Double), to b: (Double, Double), radius: Double) -> Double {
        let pa = (x - a.0, y - a.1), ba = (b.0 - a.0, b.1 - a.1)
        let h = min(max((pa.0 * ba.0 + pa.1 * ba.1) / (ba.0 * ba.0 + ba.1 * ba.1), 0), 1)
        let dx = pa.0 - ba.0 * h, dy = pa.1 - ba.1 * h
        return (dx * dx + dy * dy).squareRoot() - radius
    }

    /// The union of two shapes with a fillet of about `blend` pixels where they meet.
    private static func smoothMinimum(_ a: Double, _ b: Double, blend: Double) -> Double {
        let h = max(blend - abs(a - b), 0) / blend
        return min(a, b) - h * h * blend / 4
    }
}
