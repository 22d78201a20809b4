/// The frames of one set: one frame per camera, close enough in time, each with a valid detection.
public struct RigSet: Sendable, Hashable {
    /// One camera's frame in the set.
    public struct Member: Sendable, Hashable {
        /// The camera's position in the rig.
        public let camera: Int
        /// The frame's index among that camera's frames.
        public let index: Int
        /// The frame's timestamp.
        public let time: FrameTime
        /// The board's motion in the frame, in pixels per frame; `nil` when not known.
        public let motion: Double?
    }

    /// The members, in the rig's camera order.
    public let members: [Member]

    /// The largest time difference between two frames of the set.
    public var largestDifference: Duration {
        guard let first = members.map(\.time).min(), let last = members.map(\.time).max() else { return .zero }
        return first.duration(to: last)
    }

    /// The member from `camera`, if the set has one.
    public func member(camera: Int) -> Member? { members.first { $0.camera == camera } }
}
