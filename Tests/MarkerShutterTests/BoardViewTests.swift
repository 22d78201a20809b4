import Foundation
import MarkerDetection
@testable import MarkerShutter
import Testing

/// A detection of a 4x4 grid of board corners spanning the given rectangle of a 640x480 image.
private func grid(x: Double, y: Double, width: Double, height: Double, shear: Double = 0) -> Detection {
    var corners: [BoardCorner] = []
    for row in 0..<4 {
        for column in 0..<4 {
            let v = Double(row) / 3
            let point = ImagePoint(x: x + Double(column) / 3 * width + shear * v * height, y: y + v * height)
            corners.append(BoardCorner(id: row * 4 + column, point: point))
        }
    }
    return Detection(imageSize: ImageSize(width: 640, height: 480), markers: [], boardCorners: corners,
                     sharpness: 500, duration: .milliseconds(5))
}

private func observation(_ detection: Detection, index: Int = 0) -> FrameObservation {
    FrameObservation(index: index, time: FrameTime(.zero), sequence: nil, file: nil, detection: detection,
                     rule: ValidityRule(minimumMarkers: 0, minimumBoardCorners: 16, minimumSharpness: 50), pixels: nil)
}

@Suite struct BoardViewTests {
    @Test func measuresPositionSizeAndSkew() throws {
        let square = try #require(BoardView(grid(x: 160, y: 120, width: 320, height: 240)))
        #expect(abs(square.x - 0.5) < 1e-9)
        #expect(abs(square.y - 0.5) < 1e-9)
        #expect(abs(square.size - 0.5) < 1e-9)  // a quarter of the image's area
        #expect(abs(square.skew) < 1e-9)
        let corner = try #require(BoardView(grid(x: 0, y: 0, width: 160, height: 120)))
        #expect(abs(corner.x - 0.125) < 1e-9 && abs(corner.y - 0.125) < 1e-9)
        #expect(abs(corner.size - 0.25) < 1e-9)
        // Sheared by 45 degrees: two corners at 45 and two at 135 degrees, each 45 degrees from square.
        let sheared = try #require(BoardView(grid(x: 100, y: 100, width: 200, height: 200, shear: 1)))
        #expect(abs(sheared.skew - 1) < 1e-9, "2 x 45 degrees in radians is more than 1: capped")
        let slight = try #require(BoardView(grid(x: 100, y: 100, width: 200, height: 200, shear: 0.1)))
        #expect(abs(slight.skew - 2 * (atan(0.1))) < 1e-9)
    }

    @Test func needsFourPoints() {
        let few = Detection(imageSize: ImageSize(width: 640, height: 480), markers: [],
                            boardCorners: [BoardCorner(id: 0, point: ImagePoint(x: 1, y: 1))], sharpness: 100, duration: .zero)
        #expect(BoardView(few) == nil)
    }

    @Test func autoCaptureKeepsOnlyViewsThatDifferFromEveryEarlierOne() {
        var policy = AutoCapturePolicy(minimumDistance: 0.2)
        let centre = observation(grid(x: 160, y: 120, width: 320, height: 240))
        let nudged = observation(grid(x: 176, y: 120, width: 320, height: 240))   // 0.025 across
        let left = observation(grid(x: 0, y: 120, width: 320, height: 240))       // 0.25 across
        let near = observation(grid(x: 80, y: 60, width: 480, height: 360))       // bigger
        #expect(policy.consider(centre, phase: .enabled) != nil)
        #expect(policy.consider(nudged, phase: .enabled) == nil)
        #expect(policy.consider(left, phase: .enabled) != nil)
        #expect(policy.consider(near, phase: .enabled) != nil)
        #expect(policy.captured.count == 3)
        // Never while holding or disabled, and never an invalid frame.
        var fresh = AutoCapturePolicy()
        #expect(fresh.consider(centre, phase: .held(since: FrameTime(.zero))) == nil)
        #expect(fresh.consider(centre, phase: .disabled) == nil)
        let invalid = FrameObservation(index: 0, time: FrameTime(.zero), sequence: nil, file: nil,
                                       detection: grid(x: 0, y: 0, width: 100, height: 100),
                                       rule: ValidityRule(minimumMarkers: 0, minimumBoardCorners: 17, minimumSharpness: 0), pixels: nil)
        #expect(fresh.consider(invalid, phase: .enabled) == nil)
    }
}
