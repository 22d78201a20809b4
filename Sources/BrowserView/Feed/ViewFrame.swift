public import MarkerDetection
public import Pixels

/// The newest frame for the view: JPEG bytes made elsewhere, or pixels (with the detection to draw
/// on them) that the view annotates and encodes only when a viewer asks for a frame.
public struct ViewFrame: Sendable {
    enum Content: Sendable {
        case jpeg([UInt8])
        case pixels(PixelBuffer, detection: Detection?, badge: Annotation.Badge?)
        case sideBySide([SideBySide.Panel])
    }

    let content: Content

    /// A frame already encoded as a JPEG file; it is sent as it is.
    public static func jpeg(_ bytes: [UInt8]) -> ViewFrame { ViewFrame(content: .jpeg(bytes)) }

    /// A frame as pixels. Handing it over costs nothing: the detection and badge are drawn and the
    /// JPEG is encoded only while someone watches, at most once per frame however many watch.
    ///
    /// - Parameters:
    ///   - pixels: The frame as captured.
    ///   - detection: What was found in it, drawn on a copy (markers, corners).
    ///   - badge: The status box drawn in the top-left corner.
    public static func pixels(_ pixels: PixelBuffer, detection: Detection? = nil, badge: Annotation.Badge? = nil) -> ViewFrame {
        ViewFrame(content: .pixels(pixels, detection: detection, badge: badge))
    }

    /// A rig's cameras side by side (``SideBySide``). Handing it over costs nothing: the panels are
    /// drawn, scaled, put together and encoded only while someone watches.
    ///
    /// - Parameter panels: Each camera's newest frame with its detection and badge, in the rig's order.
    public static func sideBySide(_ panels: [SideBySide.Panel]) -> ViewFrame {
        ViewFrame(content: .sideBySide(panels))
    }

    /// Whether the frame is drawn and encoded by the view (not handed over as a JPEG).
    var isDrawn: Bool {
        if case .jpeg = content { return false }
        return true
    }

    /// The JPEG file of the frame, annotated.
    ///
    /// - Throws: ``ViewFrameError`` when drawing or encoding fails.
    func encoded(quality: Int) throws(ViewFrameError) -> [UInt8] {
        switch content {
        case .jpeg(let bytes):
            return bytes
        case .pixels(let pixels, let detection, let badge):
            do {
                let drawn = try detection.map { detection throws(DetectionError) in
                    try Annotation.draw(detection, on: pixels, badge: badge)
                } ?? pixels
                return try ImageFile.encode(drawn, as: .jpeg(quality: quality))
            } catch {
                throw ViewFrameError(reason: "\(error)")
            }
        case .sideBySide(let panels):
            let picture = try SideBySide.compose(panels)
            do {
                return try ImageFile.encode(picture, as: .jpeg(quality: quality))
            } catch {
                throw ViewFrameError(reason: "\(error)")
            }
        }
    }
}

/// A frame could not be drawn or encoded for the view.
public struct ViewFrameError: Error, CustomStringConvertible {
    /// What failed.
    public let reason: String

    public var description: String { "the frame could not be encoded for the view: \(reason)" }
}
