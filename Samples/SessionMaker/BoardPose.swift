import Foundation
import MarkerDetectionTestSupport

/// Where the board is and how it is turned, as the camera sees it.
struct BoardPose: Sendable {
    /// Where the board's centre appears in the frame, in pixels.
    var centreX: Double
    var centreY: Double
    /// How far the board is from the camera, in board widths (its short side is 1).
    var distance: Double
    /// Degrees the board is tilted about the frame's horizontal axis.
    var tiltX: Double
    /// Degrees the board is tilted about the frame's vertical axis.
    var tiltY: Double
    /// Degrees the board is turned in its own plane, clockwise in the image; 90 holds the
    /// portrait board sideways.
    var roll: Double

    /// The map from the board picture's pixels (`sourceWidth` x `sourceHeight`) to the frame's.
    ///
    /// The picture is turned by ``roll`` about its centre, viewed through a pinhole camera with the
    /// given tilts and distance (``Homography/camera(sourceWidth:sourceHeight:targetWidth:targetHeight:tiltX:tiltY:distance:focal:)``),
    /// and the view is moved so that the board's centre lands on ``centreX``, ``centreY``.
    func homography(sourceWidth: Int, sourceHeight: Int, frameWidth: Int, frameHeight: Int, focal: Double) -> Homography {
        let middle = (x: Double(sourceWidth - 1) / 2, y: Double(sourceHeight - 1) / 2)
        let angle = roll * .pi / 180, c = cos(angle), s = sin(angle)
        let turn = Homography([
            c, -s, middle.x - c * middle.x + s * middle.y,
            s, c, middle.y - s * middle.x - c * middle.y,
            0, 0, 1,
        ])
        let view = Homography.camera(
            sourceWidth: sourceWidth, sourceHeight: sourceHeight, targetWidth: frameWidth, targetHeight: frameHeight,
            tiltX: tiltX, tiltY: tiltY, distance: distance, focal: focal)
        let shift = Homography([
            1, 0, centreX - Double(frameWidth - 1) / 2,
            0, 1, centreY - Double(frameHeight - 1) / 2,
            0, 0, 1,
        ])
        return shift.composed(after: view).composed(after: turn)
    }
}
