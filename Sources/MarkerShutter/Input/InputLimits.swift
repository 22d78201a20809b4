import Foundation

/// The ranges the numbers a user gives must fall in: options of `live`, `process` and `board`, and
/// the timestamps of a `manifest.jsonl`. Each keeps the arithmetic that follows (nanoseconds in an
/// `Int64`, threads, pixels) far from overflow.
package enum InputLimits {
    /// Frame timestamps, in seconds (about ±31 years; nanoseconds in an `Int64` reach ±292 years).
    static let frameSeconds = AllowedRange(-1e9...1e9, unit: "seconds")
    /// The size of a `manifest.jsonl`, in bytes: 64 MiB, about 800,000 frames (seven hours at
    /// 30 frames per second); a larger one is refused before it is read.
    package static let manifestBytes = 64 << 20
    /// How long a lost detection is held (`--hold`): up to an hour.
    package static let holdSeconds = AllowedRange(0.0...3600, unit: "seconds")
    /// The rate of a folder without a manifest (`process --fps`, `live --fps` for a replay).
    package static let framesPerSecond = AllowedRange(0.01...10_000, unit: "frames per second")
    /// The rate asked of a camera (`live --fps`).
    package static let cameraFramesPerSecond = AllowedRange(1...1000, unit: "frames per second")
    /// The sides of the frame size asked of a camera (`live --size`).
    package static let cameraSide = AllowedRange(1...16_384, unit: "pixels")
    /// `live --stop-after`.
    package static let frameCount = AllowedRange(1...1_000_000_000, unit: "frames")
    /// `--min-sharpness`: a variance of the Laplacian of 8-bit pixels stays far below 1e9.
    package static let sharpness = AllowedRange(0.0...1e9)
    /// `--min-markers` and `--min-corners`.
    package static let featureCount = AllowedRange(0...1_000_000)
    /// `--opencv-threads`: OpenCV's threads inside one detection.
    package static let openCVThreads = AllowedRange(1...256, unit: "threads")
    /// `--jobs` as given; the jobs that run are also capped by ``cores``.
    package static let jobs = AllowedRange(1...1024)
    /// `live --good-rms`: the RMS reprojection error under which a calibration is good.
    package static let goodRMS = AllowedRange(0.01...100, unit: "pixels")
    /// `live --good-focal-interval`: the share of each focal length its 95% interval must stay under.
    package static let goodFocalInterval = AllowedRange(0.01...100, unit: "percent")
    /// `live --settle`: how long automatic modes settle before `--lock` fixes them.
    package static let settleSeconds = AllowedRange(0.0...60, unit: "seconds")
    /// `process --shards-per-folder`: how many shards each folder of a list is cut into.
    package static let shardsPerFolder = AllowedRange(1...100_000)
    /// The cores of this machine, the most jobs that run at once.
    package static var cores: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
