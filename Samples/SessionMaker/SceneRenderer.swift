import Foundation
import MarkerDetection
import MarkerDetectionTestSupport
import Pixels

/// Draws the frames of the sample session: the room, the printed board with its shadow, and the
/// hand, as a camera with a finite exposure and some sensor noise would see them.
struct SceneRenderer: Sendable {
    /// The board picture: the pattern black on white, with a white border (the paper).
    let board: PixelBuffer
    /// A white picture the board's size, warped alongside it to know which pixels it covers.
    let sheet: PixelBuffer
    let room: Room
    let width: Int
    let height: Int

    /// The printed board's ink and paper, and the hand's skin, before lighting.
    static let ink = ColorCanvas.Color(0.12, 0.12, 0.13)
    static let paper = ColorCanvas.Color(0.93, 0.92, 0.89)
    static let skin = ColorCanvas.Color(0.87, 0.64, 0.52)
    /// The board's shadow on the wall: how far it falls (pixels right and down), how soft it is
    /// and how dark.
    static let shadowOffset = (x: 14, y: 18)
    static let shadowSoftness = 9.0
    static let shadowStrength: Float = 0.35
    /// The sensor noise, in grey levels.
    static let noise = 2.0

    /// Prepares the board picture and the room.
    ///
    /// - Throws: What rendering `pattern` throws.
    init(pattern: Pattern, seed: UInt64) throws {
        width = SessionScript.width
        height = SessionScript.height
        board = try PrintableTarget.render(pattern, width: 500, height: 680, margin: 24)
        sheet = try PixelBuffer(width: board.width, height: board.height, format: .gray8) { bytes in
            bytes.initializeMemory(as: UInt8.self, repeating: 255)
        }
        room = Room(width: width, height: height, seed: seed)
    }

    /// The frame exposed around `t` seconds: the scene averaged over the exposure (finely
    /// enough that fast motion smears rather than doubles), lit, with noise drawn from
    /// `noiseSeed`, as RGB24.
    ///
    /// - Throws: What warping and blurring throw (only for impossible sizes).
    func frame(at t: Double, noiseSeed: UInt64) throws -> PixelBuffer {
        let exposure = SessionScript.exposure
        let views = viewsNeeded(from: t - exposure / 2, to: t + exposure / 2)
        var sum = ColorCanvas(width: width, height: height)
        for view in 0..<views {
            sum.add(try scene(at: t - exposure / 2 + (Double(view) + 0.5) * exposure / Double(views), fine: views < 4))
        }
        var generator = SplitMix64(seed: noiseSeed)
        let scale = 255 / Float(views)
        return try PixelBuffer(width: width, height: height, format: .rgb24) { bytes in
            for index in sum.pixels.indices {
                let color = sum.pixels[index] * (scale * room.light[index])
                for channel in 0..<3 {
                    let value = Double(color[channel]) + Self.noise * generator.nextGaussian()
                    bytes[index * 3 + channel] = UInt8(min(max(value.rounded(), 0), 255))
                }
            }
        }
    }

    /// The scene at one instant, unlit. `fine` samples each pixel 3 x 3 times where the board is;
    /// otherwise once (when many instants are averaged, they smooth the edges instead).
    func scene(at t: Double, fine: Bool) throws -> ColorCanvas {
        var canvas = room.backdrop
        if let pose = SessionScript.boardPose(at: t) { try drawBoard(pose, into: &canvas, fine: fine) }
        if let hand = SessionScript.handPose(at: t) { drawHand(hand, into: &canvas) }
        return canvas
    }

    /// How many instants to average over an exposure from `start` to `end` so that nothing
    /// moves more than about a pixel from one to the next.
    func viewsNeeded(from start: Double, to end: Double) -> Int {
        let middle = (start + end) / 2
        let travel = displacement(from: start, to: middle) + displacement(from: middle, to: end)
        return min(max(Int(travel.rounded(.up)), 1), 128)
    }

    /// How far, in pixels, the fastest-moving point of the board or hand moves from `t0` to `t1`;
    /// something that appears or disappears counts as moving across the frame.
    private func displacement(from t0: Double, to t1: Double) -> Double {
        var most = 0.0
        switch (SessionScript.boardPose(at: t0), SessionScript.boardPose(at: t1)) {
        case (nil, nil): break
        case (let a?, let b?):
            for (p, q) in zip(outline(of: a), outline(of: b)) {
                most = max(most, ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot())
            }
        default: most = Double(width)
        }
        switch (SessionScript.handPose(at: t0), SessionScript.handPose(at: t1)) {
        case (nil, nil): break
        case (let a?, let b?):
            let shift = ((a.centreX - b.centreX) * (a.centreX - b.centreX) + (a.centreY - b.centreY) * (a.centreY - b.centreY)).squareRoot()
            most = max(most, shift + abs(a.angle - b.angle) * 300 * a.scale)
        default: most = Double(width)
        }
        return most
    }

    /// The board picture's corners in the frame.
    func outline(of pose: BoardPose) -> [(x: Double, y: Double)] {
        let map = homography(for: pose)
        let right = Double(board.width - 1), bottom = Double(board.height - 1)
        return [(0, 0), (right, 0), (right, bottom), (0, bottom)].map { map.apply(x: $0.0, y: $0.1) }
    }

    /// Whether the whole board picture lies inside the frame, with a few pixels to spare.
    func isInside(_ pose: BoardPose) -> Bool {
        let spare = 4.0
        return outline(of: pose).allSatisfy { corner in
            (spare...Double(width - 1) - spare).contains(corner.x) && (spare...Double(height - 1) - spare).contains(corner.y)
        }
    }

    private func homography(for pose: BoardPose) -> Homography {
        pose.homography(
            sourceWidth: board.width, sourceHeight: board.height, frameWidth: width, frameHeight: height,
            focal: SessionScript.focal)
    }

    /// Draws the board's shadow and then the board, warping only the part of the frame they reach.
    private func drawBoard(_ pose: BoardPose, into canvas: inout ColorCanvas, fine: Bool) throws {
        let corners = outline(of: pose)
        let pad = Double(max(Self.shadowOffset.x, Self.shadowOffset.y)) + 3 * Self.shadowSoftness
        let left = max(0, Int((corners.map(\.x).min()! - pad).rounded(.down)))
        let top = max(0, Int((corners.map(\.y).min()! - pad).rounded(.down)))
        let right = min(width, Int((corners.map(\.x).max()! + pad).rounded(.up)) + 1)
        let bottom = min(height, Int((corners.map(\.y).max()! + pad).rounded(.up)) + 1)
        guard left < right, top < bottom else { return }
        let boxWidth = right - left, boxHeight = bottom - top
        let map = Homography([1, 0, -Double(left), 0, 1, -Double(top), 0, 0, 1]).composed(after: homography(for: pose))
        let samples = fine ? 3 : 1
        let printed = try SyntheticImage.warp(board, by: map, width: boxWidth, height: boxHeight, background: 255, samples: samples)
        let covered = try SyntheticImage.warp(sheet, by: map, width: boxWidth, height: boxHeight, background: 0, samples: samples)
        let shadow = try SyntheticImage.blur(covered, sigma: Self.shadowSoftness)

        // Turned away from the light (up and to the left), the paper gets darker.
        let facing = Float(0.84 + 0.16 * cos((pose.tiltX - 10) * .pi / 180) * cos((pose.tiltY + 15) * .pi / 180))
        shadow.withUnsafeBytes { shade in
            let offset = Self.shadowOffset
            for y in min(offset.y, boxHeight)..<boxHeight {
                for x in min(offset.x, boxWidth)..<boxWidth {
                    let amount = Float(shade[(y - offset.y) * shadow.rowStride + x - offset.x]) / 255 * Self.shadowStrength
                    canvas.darken(x: left + x, y: top + y, by: amount)
                }
            }
        }
        printed.withUnsafeBytes { print in
            covered.withUnsafeBytes { cover in
                for y in 0..<boxHeight {
                    for x in 0..<boxWidth {
                        let alpha = Float(cover[y * covered.rowStride + x]) / 255
                        guard alpha > 0 else { continue }
                        let white = Float(print[y * printed.rowStride + x]) / 255
                        let color = (Self.ink + (Self.paper - Self.ink) * white) * facing
                        canvas.blend(color, x: left + x, y: top + y, alpha: alpha)
                    }
                }
            }
        }
    }

    /// Draws the hand: skin, darker towards its outline as a rounded thing is, with a soft edge
    /// because it is too close to the camera to be in focus.
    private func drawHand(_ hand: HandPose, into canvas: inout ColorCanvas) {
        let left = max(0, Int(hand.centreX - hand.reach)), right = min(width, Int(hand.centreX + hand.reach) + 1)
        let top = max(0, Int(hand.centreY - hand.reach)), bottom = min(height, Int(hand.centreY + hand.reach) + 1)
        guard left < right, top < bottom else { return }
        for y in top..<bottom {
            for x in left..<right {
                let distance = hand.signedDistance(x: Double(x), y: Double(y))
                guard distance < 3 else { continue }
                let alpha = Float(min(max(0.5 - distance / 5, 0), 1))
                let rounding = 0.68 + 0.32 * SessionScript.smoothStep(-distance, over: 0...30)
                canvas.blend(Self.skin * Float(rounding), x: x, y: y, alpha: alpha)
            }
        }
    }
}
