// What the bag harnesses share: the input written to a file (the readers read files at offsets),
// and the walk every harness makes over what a reader accepts, with its invariants.

import Foundation

/// Writes `size` bytes at `data` to `path` (replacing it), for a reader that opens files.
func writeInput(_ data: UnsafePointer<UInt8>, _ size: Int, to path: String) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(descriptor >= 0, "cannot write \(path): errno \(errno)")
    var written = 0
    while written < size {
        let count = write(descriptor, data + written, size - written)
        precondition(count > 0, "cannot write \(path): errno \(errno)")
        written += count
    }
    close(descriptor)
}

/// A scratch path of this process (in /dev/shm when there is one).
func scratchPath(_ name: String) -> String {
    let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    return "\(folder)/bag-fuzz-\(getpid())-\(name)"
}

/// Walks every message of `container` whole, checks that reading each again by its place gives the
/// same bytes, and deserializes the image topics' messages; the walk over first bytes gives the
/// same messages in the same order. Errors end the walk (a refused input); a broken invariant crashes.
func exercise(_ container: any MessageContainer) {
    let everything = Set(container.topics.map(\.id))
    var whole: [RawMessage] = []
    do {
        let walk = try container.walk(topics: everything, complete: true)
        while let message = try walk.next() {
            precondition(message.isComplete && message.bytes.count == message.length, "a whole message of \(message.bytes.count) bytes, \(message.length) stated")
            precondition(everything.contains(message.topic), "a message of topic \(message.topic), which the container does not list")
            whole.append(message)
            if whole.count > 10_000 { break }
        }
    } catch {
        return
    }
    do {
        let prefixes = try container.walk(topics: everything, complete: false)
        for message in whole {
            guard let first = try prefixes.next() else { preconditionFailure("the walk of first bytes ended early") }
            precondition(first.location == message.location && first.length == message.length, "the walks disagree")
            precondition(message.bytes.starts(with: first.bytes), "the first bytes are not the message's")
        }
    } catch {
        preconditionFailure("the walk of first bytes failed where the whole walk did not: \(error)")
    }
    for message in whole {
        guard let read = try? container.read(message.location) else { continue }
        precondition(read == message.bytes, "the message read again by its place differs from the walk's")
        guard let topic = container.topics.first(where: { $0.id == message.topic }), let kind = ImageMessage.kind(ofType: topic.type) else {
            continue
        }
        if let image = try? ImageMessage(message.bytes, length: message.length, kind: kind, encoding: topic.encoding) {
            precondition(image.data.upperBound <= message.bytes.count, "an image's data past the message")
            _ = image.fileExtension
        }
    }
}
