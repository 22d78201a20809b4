import MarkerDetection
public import MarkerShutter
import Pixels

/// A frame of a bag's topic as a ``FrameContent``: read again by its place in the bag when
/// `process` (or `live --replay`) reads the frame.
struct BagFrameContent: FrameContent {
    let index: BagIndex
    let entry: BagIndex.Entry

    var identity: String { index.displayPath(of: entry) }

    func pixels(channels: ImageFile.Channels, pixelLimit: Int) throws(ImageFileError) -> PixelBuffer {
        do {
            return try index.message(entry).pixels(channels: channels, pixelLimit: pixelLimit)
        } catch let error as BagError {
            throw .undecodable(path: identity, reason: error.reason)
        } catch let error as ImageMessageError {
            throw .undecodable(path: identity, reason: error.reason)
        } catch {
            throw .undecodable(path: identity, reason: "\(error)")
        }
    }

    func fileBytes() throws -> [UInt8] {
        try index.message(entry).imageFile().bytes
    }
}

extension BagIndex {
    /// The frame of `entry` as a ``FrameContentReference``.
    func content(of entry: Entry) -> FrameContentReference {
        FrameContentReference(BagFrameContent(index: self, entry: entry))
    }

    /// How the frames' times are described: the header stamps of the topics.
    var timing: FrameFolder.Timing {
        .stamps("timestamps from the header stamps of \(topics.map(\.name).joined(separator: ", "))")
    }
}

extension FrameFolder {
    /// The frames of one topic of a bag, in the order of their header stamps, each read from the bag
    /// when it is read; its times the stamps, its files named by them (``BagIndex/Entry/fileName``).
    ///
    /// - Parameters:
    ///   - index: The bag's messages.
    ///   - topic: Which of its topics.
    public init(_ index: BagIndex, topic: Int = 0) {
        let frames = index.entries[topic].enumerated().map { number, entry in
            Frame(index: number, file: entry.fileName, path: index.displayPath(of: entry),
                  time: FrameTime(.nanoseconds(entry.stamp)), sequence: nil, content: index.content(of: entry))
        }
        self.init(path: index.bag.path, frames: frames, timing: index.timing)
    }
}
