/// Where one camera's frames come from, whatever delivers them: a capture backend's camera
/// (``CameraBackend``, V4L2 by default), a recorded folder replayed (``ReplaySource``), frames a
/// program hands over (``StreamSource``), or any other source a program makes (a topic of a ROS
/// bag, a network stream). A ``LiveSession`` speaks to its cameras through this protocol alone.
///
/// A source is opened (negotiated, its controls set) when it is made, and streams from
/// ``start(notify:)`` on; ``stop()`` ends its items. Its errors end its items too: one whose
/// ``SourceError/kind`` is ``SourceError/Kind/gone`` is a camera unplugged; any other is a source
/// that can deliver no more. A source that merely goes quiet (a camera that stalls) ends nothing:
/// the session judges stalls by its clock.
public protocol FrameSource: AnyObject, Sendable {
    /// The camera's path or the recording's, as messages name it.
    var name: String { get }
    /// One line saying what is watched: size, format and rate, or the recording's timing.
    var banner: String { get }
    /// The time between frames the source promises, for a rig's stall limit and sync tolerance;
    /// `nil` when it promises none.
    var frameInterval: Duration? { get }
    /// Whether frames may stop coming while the source is open (a camera): the session then ends a
    /// hold and marks a stall by its clock. A replay never stalls.
    var mayStall: Bool { get }

    /// Starts delivering, once. Before its first item it may tell the session the camera controls
    /// set (``SourceNotice/controls(_:locked:)``), and again whenever they change.
    ///
    /// - Parameter notify: Told of the source's notices, from any thread.
    /// - Returns: The frames in order, with replayed frames that cannot be read in their place; the
    ///   stream ends after ``stop()``, at the source's end, or with a ``SourceError``.
    func start(notify: @escaping @Sendable (SourceNotice) -> Void) -> AsyncThrowingStream<SourceItem, any Error>

    /// Stops the frames: a camera stops streaming, a replay before its next frame. Calling it again,
    /// or before ``start(notify:)``, closes the source.
    func stop()
}

/// What a ``FrameSource`` delivers, in order.
public enum SourceItem: Sendable {
    /// A frame.
    case frame(SourceFrame)
    /// A replayed frame that cannot be read: its time passes all the same.
    case missing(MissingFrame)
}

/// A replayed frame whose file is missing or cannot be read.
public struct MissingFrame: Sendable, Equatable {
    /// The frame's recorded time.
    public let time: FrameTime
    /// Its file name.
    public let file: String
    /// Why it cannot be read.
    public let reason: String

    /// Describes a frame that cannot be read.
    public init(time: FrameTime, file: String, reason: String) {
        self.time = time
        self.file = file
        self.reason = reason
    }
}

/// Something a source tells the session besides its frames.
public enum SourceNotice: Sendable, Equatable {
    /// The camera controls set, by name (for V4L2, as `v4l2-ctl` names them), as read back: before
    /// the first frame, and again once `locked` (``CameraControls/lock``).
    case controls([String: Int64], locked: Bool)
}
