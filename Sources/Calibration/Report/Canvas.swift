public import MarkerDetection
public import Pixels

/// A picture described as shapes and drawn in one go by OpenCV (for the coverage and residual
/// pictures).
public struct Canvas: Sendable {
    /// A BGR colour.
    public struct Color: Sendable, Hashable {
        /// The blue part, 0...255.
        public var blue: UInt8
        /// The green part.
        public var green: UInt8
        /// The red part.
        public var red: UInt8

        /// Makes a colour from its red, green and blue parts.
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// White.
        public static let white = Color(red: 255, green: 255, blue: 255)
        /// Black.
        public static let black = Color(red: 0, green: 0, blue: 0)
        /// Mid gray, for grid lines.
        public static let gray = Color(red: 160, green: 160, blue: 160)
        /// Red, for errors and gaps.
        public static let red = Color(red: 220, green: 30, blue: 30)
        /// Green.
        public static let green = Color(red: 30, green: 160, blue: 60)
        /// Blue, for detected points.
        public static let blue = Color(red: 30, green: 80, blue: 220)
    }

    /// What can be drawn. Thickness -1 fills rectangles and circles.
    public enum Shape: Sendable, Hashable {
        /// A line, with an arrow head at `to` when `arrow` is true.
        case line(from: ImagePoint, to: ImagePoint, color: Color, thickness: Int, arrow: Bool)
        /// An axis-aligned rectangle between two corners.
        case rectangle(from: ImagePoint, to: ImagePoint, color: Color, thickness: Int)
        /// A circle.
        case circle(centre: ImagePoint, radius: Double, color: Color, thickness: Int)
        /// ASCII text whose baseline starts at `at`.
        case text(String, at: ImagePoint, scale: Double, color: Color, thickness: Int)
    }

    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The colour under everything.
    public var background: Color
    /// The shapes, drawn in order.
    public var shapes: [Shape] = []

    /// Makes an empty canvas.
    public init(width: Int, height: Int, background: Color = .white) {
        self.width = width
        self.height = height
        self.background = background
    }

    /// Adds a shape on top.
    public mutating func add(_ shape: Shape) { shapes.append(shape) }

    /// Draws the shapes into BGR24 pixels (OpenCV's `line`, `arrowedLine`, `rectangle`, `circle`,
    /// `putText`).
    ///
    /// - Throws: ``CalibrationError/openCV(_:)`` when drawing fails.
    public func render() throws(CalibrationError) -> PixelBuffer {
        try CalibrationShim.draw(shapes, width: width, height: height, background: background)
    }
}
