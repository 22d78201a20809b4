import ArgumentParser
import Foundation
import MarkerShutter
import RosBags

/// A bag named where `process` and `calibrate` take a folder, with the topics `--topic` chose:
/// opened, its topics checked, its messages listed once (with a progress bar), and each topic's
/// camera name (for a rig).
struct BagInput {
    /// The bag's messages on the chosen topics.
    let index: BagIndex
    /// The cameras' names, one a topic: given as `--topic NAME=TOPIC`, or from the topics.
    let names: [String]

    /// Whether `path` is a bag rather than a folder of frames.
    static func isBag(_ path: String) -> Bool { ImageBag.isBag(path) }

    /// Opens `path` and lists the messages of `topics` (`--topic` values, `NAME=TOPIC` or `TOPIC`;
    /// none: the bag's one image topic).
    ///
    /// - Throws: ``RuntimeError`` with the bag's error (naming the file or the topic).
    init(path: String, topics: [String]) throws {
        let given = topics.map(BagCameraNames.split)
        do {
            let bag = try ImageBag(path: path)
            let chosen = try bag.imageTopics(named: given.map(\.topic))
            let total = chosen.compactMap(\.count).reduce(0, +)
            let progress = ProgressBar(total: max(total, 1))
            var shown = 0
            defer { progress.finish() }
            index = try BagIndex(bag: bag, topics: chosen) { listed in
                while shown < listed {
                    progress.advance()
                    shown += 1
                }
            }
        } catch {
            throw RuntimeError("\(error)")
        }
        let derived = BagCameraNames.names(for: index.topics.map(\.name))
        names = zip(given.map(\.name) + Array(repeating: nil, count: max(0, index.topics.count - given.count)), derived).map { $0 ?? $1 }
    }

    /// The chosen topics as a rig's recording, each a camera named by ``names``.
    ///
    /// - Throws: ``ValidationError`` for a name that cannot name a camera.
    func rigRecording() throws -> RigRecording {
        do {
            return try RigRecording(index, names: names)
        } catch {
            throw ValidationError("--topic: \(error) (name it with --topic NAME=TOPIC)")
        }
    }

    /// The paths a command must never write to or into: the bag (a file, or a rosbag2 folder).
    var inputs: [String] { [index.bag.path] }
}
