import Foundation
import MarkerDetection
import MarkerDetectionTestSupport
@testable import MarkerShutter
import Pixels
import Testing

/// Made-up videos drawn from a seed: a board seen at a slant that drifts, jumps across the frame,
/// is half hidden by a hand, and shares the view with a second board of another kind. Followed
/// from frame to frame as `process` follows it, each frame must give what a full search of that
/// frame alone gives: the same markers and corners, none moved more than 0.1 px.
@Suite struct TrackedSequenceTests {
    static let width = 800, height = 450

    @Test(arguments: [
        ("charuco:5x7:DICT_6X6_250", "chessboard:7x5", UInt64(11)),
        ("chessboard:9x6", "charuco:4x4:DICT_4X4_50", UInt64(12)),
    ])
    func followingTheBoardFindsWhatEachFrameAloneShows(pattern text: String, distractor: String, seed: UInt64) throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pattern = try Pattern(parsing: text)
        let frames = try Self.drawSequence(pattern: pattern, distractor: Pattern(parsing: distractor), count: 30, seed: seed,
                                           into: folder)
        let full = try MarkerDetector(pattern: pattern, mode: .full)
        let alone = try frames.map { try full.detect(ImageFile.read($0, channels: .gray)) }
        // The sequence is worth checking: most frames show the board, some only in part.
        #expect(alone.filter { !$0.boardCorners.isEmpty }.count >= 15)

        let processor = FolderProcessor(
            folder: try FrameFolder(path: folder), detector: try MarkerDetector(pattern: pattern, mode: .fast),
            rule: ValidityRule(defaultsFor: pattern))
        var index = 0
        _ = processor.run { frame, outcome in
            defer { index += 1 }
            guard case .observed(let observation, _) = outcome else {
                Issue.record("\(frame.file) could not be read")
                return
            }
            RealRecordings.expectSame(observation.detection, alone[index], tolerance: 0.1, "\(text) seed \(seed) \(frame.file)")
        }
        #expect(index == frames.count)
    }

    /// Writes `count` JPEG frames and returns their paths. Each frame: the board at a random slant
    /// (up to 35 degrees each way), at a distance that makes it 25 to 45% of the frame's width,
    /// moving 12 to 30 px a frame, with a jump to a new place one frame in six; a grey "hand" over
    /// a third of it one frame in five; the other board always in a corner of the view; blur of
    /// 0.5 to 1.2 px and noise of 2 grey levels.
    static func drawSequence(pattern: Pattern, distractor: Pattern, count: Int, seed: UInt64, into folder: String) throws
        -> [String]
    {
        var random = SplitMix64(seed: seed)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + (range.upperBound - range.lowerBound) * random.nextUniform()
        }
        let board = try PrintableTarget.render(pattern, width: 500, height: 700, margin: 20)
        let other = try PrintableTarget.render(distractor, width: 300, height: 300, margin: 10)
        let otherView = Homography.camera(
            sourceWidth: 300, sourceHeight: 300, targetWidth: width, targetHeight: height, tiltX: 10, tiltY: -20,
            distance: 6, focal: Double(width))
            .translated(x: -Double(width) * 0.38, y: -Double(height) * 0.3)
        var centre = (x: uniform(-150...150), y: uniform(-60...60))
        var tilt = (x: uniform(-35...35), y: uniform(-35...35))
        var distance = uniform(2.4...4)
        // A quick wave: 12 to 30 px a frame across, up to 8 down, so that the board nears the edge of
        // the part of the frame searched first (a sixth of its size beyond where it was).
        func velocity() -> (x: Double, y: Double) {
            ((random.nextUniform() < 0.5 ? -1 : 1) * uniform(12...30), uniform(-8...8))
        }
        var speed = velocity()
        var paths: [String] = []
        for index in 0..<count {
            if index % 6 == 5 {
                centre = (uniform(-150...150), uniform(-60...60))
                tilt = (uniform(-35...35), uniform(-35...35))
                distance = uniform(2.4...4)
                speed = velocity()
            } else {
                if abs(centre.x + speed.x) > 200 || abs(centre.y + speed.y) > 80 { speed = (-speed.x, -speed.y) }
                centre = (centre.x + speed.x, centre.y + speed.y)
                tilt = (tilt.x + uniform(-1...1), tilt.y + uniform(-1...1))
            }
            let view = Homography.camera(
                sourceWidth: 500, sourceHeight: 700, targetWidth: width, targetHeight: height, tiltX: tilt.x, tiltY: tilt.y,
                distance: distance, focal: Double(width))
                .translated(x: centre.x, y: centre.y)
            var frame = try SyntheticImage.warp(board, by: view, width: width, height: height, samples: 2)
            frame = try Self.overlay(other, by: otherView, on: frame)
            if index % 5 == 2 {
                // A hand: a flat grey band over part of the board.
                let (x, y) = view.apply(x: 250, y: 350)
                frame = try Self.fill(frame, x: Int(x) - 40, y: 0, width: 80, height: Int(y), value: 150)
            }
            frame = try SyntheticImage.addNoise(SyntheticImage.blur(frame, sigma: uniform(0.5...1.2)), sigma: 2, seed: seed &+ UInt64(index))
            let path = folder + String(format: "/frame-%02d.jpg", index)
            try Data(ImageFile.encode(frame, as: .jpeg(quality: 95))).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        return paths
    }

    /// `frame` with `picture` drawn over it through `homography` (its own background left out).
    static func overlay(_ picture: PixelBuffer, by homography: Homography, on frame: PixelBuffer) throws -> PixelBuffer {
        let drawn = try SyntheticImage.warp(picture, by: homography, width: frame.width, height: frame.height, background: 1, samples: 2)
        let mask = try SyntheticImage.warp(
            PixelBuffer(width: picture.width, height: picture.height, format: .gray8) {
                $0.initializeMemory(as: UInt8.self, repeating: 255)
            }, by: homography, width: frame.width, height: frame.height, background: 0, samples: 1)
        return try PixelBuffer(width: frame.width, height: frame.height, format: .gray8) { target in
            for y in 0..<frame.height {
                let base = frame.row(y), top = drawn.row(y), inside = mask.row(y)
                for x in 0..<frame.width { target[y * frame.width + x] = inside[x] > 128 ? top[x] : base[x] }
            }
        }
    }

    /// `frame` with a rectangle (clipped to it) set to `value`.
    static func fill(_ frame: PixelBuffer, x: Int, y: Int, width: Int, height: Int, value: UInt8) throws -> PixelBuffer {
        try PixelBuffer(width: frame.width, height: frame.height, format: .gray8) { target in
            for row in 0..<frame.height {
                let source = frame.row(row)
                for column in 0..<frame.width {
                    let covered = column >= x && column < x + width && row >= y && row < y + height
                    target[row * frame.width + column] = covered ? value : source[column]
                }
            }
        }
    }
}

extension Homography {
    /// This view moved `x`, `y` pixels in the target image.
    func translated(x: Double, y: Double) -> Homography {
        Homography([1, 0, x, 0, 1, y, 0, 0, 1]).composed(after: self)
    }
}
