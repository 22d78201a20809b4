import FrameCapture

/// `--lock` on a streaming V4L2 camera: the automatic modes are left to settle on the scene for a
/// while, then exposure, gain, white balance and focus are fixed at the values they reached
/// (``Camera/lockControls()``).
///
/// The time is counted in frame time, from the first frame's timestamp, so a busy machine that
/// takes the frames late still lets the camera settle for as long.
struct CameraControlLock: Sendable {
    /// How long the automatic modes settle before they are fixed; zero fixes them before the first frame.
    let settling: Duration
    /// Controls set before streaming, read back again with the lock's.
    let earlier: [String]

    /// Takes frames from `iterator` (they are dropped) until one comes `settling` after the first.
    ///
    /// - Returns: Whether the time was reached; false when the stream ended first.
    /// - Throws: The ``CaptureError`` that ended the stream.
    func settle(_ iterator: inout FrameStream.Iterator) async throws(CaptureError) -> Bool {
        guard settling > .zero else { return true }
        guard let first = try await iterator.next() else { return false }
        while let frame = try await iterator.next() {
            if frame.timestamp - first.timestamp >= settling { return true }
        }
        return false
    }

    /// Fixes the automatic modes and reads back every control set.
    ///
    /// - Returns: Every control set (``earlier`` and the lock's), by name, as read back.
    /// - Throws: ``ControlError`` from setting or reading a control.
    func apply(to camera: Camera) throws(ControlError) -> [String: Int64] {
        let locked = try camera.lockControls()
        return try camera.currentValues(of: earlier + locked.map(\.name)).valuesByName
    }
}

extension [ControlAssignment] {
    /// The values by control name; a name given twice keeps its last value.
    var valuesByName: [String: Int64] {
        Dictionary(map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }
}
