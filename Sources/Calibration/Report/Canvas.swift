public import MarkerDetection
public import Pixels

/// A picture described as shapes and drawn in one go by OpenCV (for the coverage and residual
/// pictures).
public struct Canvas: Sendable {
    /// A BGR colour.
    public struct Color: Sendable, Hashable {
        public var blue: UInt8, green: UInt8, red: UInt8

        /// Makes a colour from its red, green and blue parts.
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        public static let white = Color(red: 255, green: 255, blue: 255)
        public static let black = Color(red: 0, green: 0, blue: 0)
        public static let gray = Color(red: 160, green: 160, blue: 160)
        public static let red = Color(red: 220, green: 30, blue: 30)
        public static let green = Color(red: 30, green: 160, blue: 60)
        public static let blue = Color(red: 30, green: 80, blue: 220)
    }

    /// What can be drawn. Thickness -1 fills rectangles and circles.
    public enum Shape: Sendable, Hashable {
        case line(from: ImagePoint, to: ImagePoint, color: Color, thickness: Int, arrow: Bool)
        case rectangle(from: ImagePoint, to: ImagePoint, color: Color, thickness: Int)
        case circle(centre: ImagePoint, radius: Double, color: Color, thickness: Int)
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
