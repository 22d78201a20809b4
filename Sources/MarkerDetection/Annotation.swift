public import Pixels

/// Draws a detection on a copy of its frame, so that a person can check it by looking.
///
/// Markers get a green outline, a red square on their first corner and their id; board corners get
/// a magenta circle and their id; the badge, if any, is a green or red box with white text in the
/// top-left corner. Lines and text grow with the frame size.
public enum Annotation {
    /// The status box drawn in the top-left corner.
    public struct Badge: Sendable, Hashable {
        /// The text; characters outside ASCII are drawn as `?`.
        public var text: String
        /// Green when `true`, red when `false`.
        public var isOK: Bool

        /// Makes a badge.
        public init(text: String, isOK: Bool) {
            self.text = text
            self.isOK = isOK
        }

        /// The badge for `detection` under `rule`: `VALID: 17 markers, 24 corners, sharpness 812`
        /// in green, or `INVALID: 3 of 12 corners` (every shortfall) in red.
        public init(detection: Detection, rule: ValidityRule) {
            let shortfalls = rule.shortfalls(of: detection)
            if shortfalls.isEmpty {
                let sharpness = detection.sharpness.map { ", sharpness \(Int($0.rounded()))" } ?? ""
                self.init(
                    text: "VALID: \(detection.markers.count) markers, \(detection.boardCorners.count) corners\(sharpness)",
                    isOK: true)
            } else {
                self.init(text: "INVALID: " + shortfalls.map(\.description).joined(separator: ", "), isOK: false)
            }
        }
    }

    /// Returns a BGR24 copy of `image` with `detection` and `badge` drawn on it; `image` is not
    /// changed. Wraps `msd_image_annotate`.
    ///
    /// Save the result with ``ImageFile/encode(_:as:)``.
    /// - Throws: ``DetectionError`` if OpenCV fails.
    public static func draw(_ detection: Detection, on image: PixelBuffer, badge: Badge?) throws(DetectionError) -> PixelBuffer {
        try Shim.annotate(image, with: detection, badge: badge)
    }
}
