package import MarkerDetection
package import Pixels

/// A frame that is not an image file of its own but a part of another file, read on demand: a
/// message of a ROS bag, say. A ``FrameFolder/Frame`` with such content is read through it, so that
/// `process`, `live --replay` and the rest treat it as they treat a file.
package protocol FrameContent: Sendable {
    /// Names the frame uniquely among all frames (the container's path and the message's place),
    /// for comparing frames.
    var identity: String { get }

    /// Decodes the frame.
    ///
    /// - Parameters:
    ///   - channels: BGR, or gray when only the luma is needed (a colour image may come as it is).
    ///   - pixelLimit: The most pixels to accept, checked before decoding.
    /// - Throws: ``ImageFileError`` naming the frame as its ``FrameFolder/Frame/path`` shows it.
    func pixels(channels: ImageFile.Channels, pixelLimit: Int) throws(ImageFileError) -> PixelBuffer

    /// The frame as an image file's bytes, to copy it (`process --select`).
    func fileBytes() throws -> [UInt8]
}

/// A frame's ``FrameContent``, compared by its identity.
package struct FrameContentReference: Sendable, Hashable {
    /// The content.
    package let content: any FrameContent

    /// Refers to `content`.
    package init(_ content: any FrameContent) { self.content = content }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.content.identity == rhs.content.identity }
    package func hash(into hasher: inout Hasher) { hasher.combine(content.identity) }
}
