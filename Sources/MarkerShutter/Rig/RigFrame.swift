package import MarkerDetection

/// One camera's frame after detection, as the rig shutter takes it.
package struct RigFrame: Sendable {
    /// How the board's motion in the frame is known.
    package enum Motion: Sendable {
        /// The board corners found: the rig measures the motion from those shared with the
        /// camera's previous frame.
        case corners([BoardCorner])
        /// The motion measured already, in pixels per frame (a recording replayed, a test).
        case pixelsPerFrame(Double)
        /// Not known.
        case unknown
    }

    /// The camera's position in the rig.
    package let camera: Int
    /// The frame's index among that camera's frames.
    package let index: Int
    /// The kernel's timestamp of the frame (all cameras of a rig share that clock).
    package let time: FrameTime
    /// Whether the frame's detection passes the validity rule.
    package let isValid: Bool
    /// The board's motion.
    package let motion: Motion

    /// Makes a frame.
    package init(camera: Int, index: Int, time: FrameTime, isValid: Bool, motion: Motion) {
        self.camera = camera
        self.index = index
        self.time = time
        self.isValid = isValid
        self.motion = motion
    }
}
