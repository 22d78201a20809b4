package import MarkerDetection
package import Pixels

/// Finds out which target a live camera shows (`live --pattern auto`): keeps a frame every
/// ``interval`` of the frames' own time, the newest ``window`` of them, and identifies the target
/// in them each time one is kept, until the identification is sure.
///
/// ```swift
/// var search = PatternSearch(identifier: try PatternIdentifier())
/// for try await frame in camera.frames() {
///     guard let found = try search.offer(frame.pixels, at: frame.timestamp) else { continue }
///     if let pattern = found.pattern { use(pattern); break }
/// }
/// ```
///
/// Frames are copied when kept, so that a camera's buffers go back to it at once.
package struct PatternSearch: Sendable {
    /// The identifier the frames go through.
    package let identifier: PatternIdentifier
    /// How many of the newest kept frames each identification looks at.
    package let window: Int
    /// The frame time between two kept frames, so that the frames show the board from a few places.
    package let interval: Duration
    private var kept: [PixelBuffer] = []
    private var lastKept: Duration?

    /// Makes a search.
    ///
    /// - Parameters:
    ///   - identifier: The identifier.
    ///   - window: Frames each identification looks at (at least 1).
    ///   - interval: Frame time between kept frames.
    package init(identifier: PatternIdentifier, window: Int = PatternIdentifier.typicalFrameCount, interval: Duration = .milliseconds(250)) {
        self.identifier = identifier
        self.window = max(1, window)
        self.interval = interval
    }

    /// Offers a frame taken at `time` (the frames' own clock). Returns `nil` when the frame is not
    /// kept (too soon after the last one kept); otherwise what the newest frames show.
    ///
    /// - Throws: ``DetectionError`` from identification (an image too small, say), or
    ///   `PixelBufferError` when the frame cannot be copied.
    package mutating func offer(_ image: PixelBuffer, at time: Duration) throws -> PatternIdentification? {
        if let lastKept, time - lastKept < interval, time >= lastKept { return nil }
        lastKept = time
        let copy = try image.withUnsafeBytes {
            try PixelBuffer(copying: $0, width: image.width, height: image.height, format: image.format, rowStride: image.rowStride)
        }
        kept.append(copy)
        if kept.count > window { kept.removeFirst(kept.count - window) }
        return try identifier.identify(kept)
    }
}
