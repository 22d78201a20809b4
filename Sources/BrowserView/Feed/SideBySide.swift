public import MarkerDetection
public import Pixels

/// The cameras of a rig side by side in one picture: each camera's frame annotated with its
/// detection and its badge, scaled to one common height, left to right in the rig's order, with
/// an optional band above them for the rig's badge.
///
/// The common height is the smallest camera's height, lowered further when the panels would be
/// wider than ``maximumWidth`` together: two 1280x720 cameras make 1920x540, a 640x480 beside a
/// 1280x720 makes 1493x480. Scaling takes the nearest pixel (the view only has to be recognisable).
public enum SideBySide {
    /// One camera's part of the picture.
    public struct Panel: Sendable {
        /// The camera's newest frame, or `nil` before its first (a black panel of ``placeholderSize``).
        public var pixels: PixelBuffer?
        /// What was found in it, drawn on a copy.
        public var detection: Detection?
        /// The camera's badge, drawn in the panel's top-left corner.
        public var badge: Annotation.Badge

        /// Makes a panel.
        ///
        /// - Parameters:
        ///   - pixels: The frame, or `nil` before the camera's first.
        ///   - detection: What was found in it.
        ///   - badge: The camera's state.
        public init(pixels: PixelBuffer?, detection: Detection?, badge: Annotation.Badge) {
            self.pixels = pixels
            self.detection = detection
            self.badge = badge
        }

        /// The panel's size before scaling.
        var size: ImageSize { pixels.map { ImageSize(width: $0.width, height: $0.height) } ?? SideBySide.placeholderSize }
    }

    /// The widest the panels get together, in pixels.
    public static let maximumWidth = 1920
    /// The size a camera without a frame yet takes.
    public static let placeholderSize = ImageSize(width: 640, height: 480)
    /// The height of the band above the panels that holds the rig's badge.
    public static let bandHeight = 40

    /// Each panel's size in the picture, for cameras of `sizes`: one common height, each width in
    /// proportion (rounded), together at most ``maximumWidth`` wide.
    public static func layout(_ sizes: [ImageSize]) -> [ImageSize] {
        guard let smallest = sizes.map(\.height).min(), smallest > 0 else { return [] }
        let aspect = sizes.map { Double($0.width) / Double($0.height) }
        let natural = aspect.reduce(0) { $0 + $1 * Double(smallest) }
        let height = natural > Double(maximumWidth)
            ? max(1, Int((Double(smallest) * Double(maximumWidth) / natural).rounded(.down)))
            : smallest
        return aspect.map { ImageSize(width: max(1, Int((Double(height) * $0).rounded())), height: height) }
    }

    /// The size of the picture ``compose(_:rig:)`` makes of panels of `sizes`, with or without the band.
    public static func size(of sizes: [ImageSize], withBand: Bool) -> ImageSize {
        let panels = layout(sizes)
        return ImageSize(width: panels.reduce(0) { $0 + $1.width },
                    height: (panels.first?.height ?? 0) + (withBand && !panels.isEmpty ? bandHeight : 0))
    }

    /// The picture: every panel annotated and scaled, left to right, in BGR24; with `rig`, a band
    /// of ``bandHeight`` above them holding that badge.
    ///
    /// - Throws: ``ViewFrameError`` when there is no panel, or drawing fails.
    public static func compose(_ panels: [Panel], rig: Annotation.Badge? = nil) throws(ViewFrameError) -> PixelBuffer {
        let sizes = layout(panels.map(\.size))
        guard !sizes.isEmpty else { throw ViewFrameError(reason: "no camera to show") }
        var drawn: [PixelBuffer] = []
        do {
            for panel in panels {
                let pixels = try panel.pixels ?? black(placeholderSize)
                let detection = panel.detection ?? Detection(imageSize: ImageSize(width: pixels.width, height: pixels.height),
                                                             markers: [], boardCorners: [], sharpness: nil, duration: .zero)
                drawn.append(try Annotation.draw(detection, on: pixels, badge: panel.badge))
            }
        } catch {
            throw ViewFrameError(reason: "\(error)")
        }
        let band: PixelBuffer?
        do {
            band = try rig.map { badge in
                let size = ImageSize(width: sizes.reduce(0) { $0 + $1.width }, height: bandHeight)
                let empty = Detection(imageSize: ImageSize(width: size.width, height: size.height), markers: [], boardCorners: [],
                                      sharpness: nil, duration: .zero)
                return try Annotation.draw(empty, on: try black(size), badge: badge)
            }
        } catch {
            throw ViewFrameError(reason: "\(error)")
        }
        return try place(drawn, at: sizes, below: band)
    }

    /// A black BGR24 picture.
    private static func black(_ size: ImageSize) throws -> PixelBuffer {
        try PixelBuffer(width: size.width, height: size.height, format: .bgr24)  // memory starts zeroed
    }

    /// Copies each BGR24 picture, scaled to its size, beside the one before, under `band` if any.
    private static func place(_ pictures: [PixelBuffer], at sizes: [ImageSize], below band: PixelBuffer?) throws(ViewFrameError) -> PixelBuffer {
        let width = sizes.reduce(0) { $0 + $1.width }
        let top = band?.height ?? 0
        let height = top + sizes[0].height
        do {
            return try PixelBuffer(width: width, height: height, format: .bgr24) { target in
                let rowBytes = width * 3
                if let band {
                    band.withUnsafeBytes { bytes in
                        for y in 0..<top {
                            for i in 0..<rowBytes { target[y * rowBytes + i] = bytes[y * band.rowStride + i] }
                        }
                    }
                }
                var left = 0
                for (picture, size) in zip(pictures, sizes) {
                    let columns = (0..<size.width).map { min(picture.width - 1, $0 * picture.width / size.width) * 3 }
                    picture.withUnsafeBytes { bytes in
                        for y in 0..<size.height {
                            let from = min(picture.height - 1, y * picture.height / size.height) * picture.rowStride
                            var to = (top + y) * rowBytes + left * 3
                            for column in columns {
                                target[to] = bytes[from + column]
                                target[to + 1] = bytes[from + column + 1]
                                target[to + 2] = bytes[from + column + 2]
                                to += 3
                            }
                        }
                    }
                    left += size.width
                }
            }
        } catch {
            throw ViewFrameError(reason: "\(error)")
        }
    }
}
