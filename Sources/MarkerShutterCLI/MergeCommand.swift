import ArgumentParser
import FileFormats
import Foundation
import MarkerShutter
import Sharding

/// `marker-shutter merge SHARDS... --output timeline.jsonl`: the shard files of `process --shard`
/// put back together, as one machine's `process` would have written them.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Put the shard files of `process --shard` together into the rows one machine's `process` writes.",
        discussion: """
            Takes shard files (NAME.shard-K-of-N.jsonl) or folders of them, checks that the shards of \
            each folder were made from one frame list with one set of options, that none is missing, \
            doubled or cut short, and replays the shutter over their frames in order: the rows and the \
            summary are those of `process` on one machine (each frame's detect_ms aside). A missing shard \
            names the task to run again. Nothing is written unless every shard checks out.

            --output FILE takes the shards of one folder; --output DIR (an existing folder, or a path \
            ending in /) takes those of any number (process --folders) and writes NAME.jsonl for each. \
            An existing file is replaced only with --force; `-` is standard output. An output inside a \
            folder the shards were made from is refused, with or without --force.

            Exit status: 0 merged; 2 merged, but some frames could not be read; 1 nothing written (a \
            shard missing, doubled, foreign, cut short or unreadable, or the output refused).

            Examples:
              marker-shutter merge shards --output timeline.jsonl
              marker-shutter merge shards/session.shard-*.jsonl --output timeline.jsonl
              marker-shutter merge shards --output timelines/
            """
    )

    @Argument(help: ArgumentHelp("Shard files, or folders of them.", valueName: "shards"))
    var shards: [String]

    @Option(help: ArgumentHelp("The merged rows: a file (- for standard output), or a folder for one NAME.jsonl per folder.",
                               valueName: "file|dir"))
    var output: String

    @Flag(help: "Replace output files that exist.")
    var force = false

    func validate() throws {
        if shards.isEmpty { throw ValidationError("give the shard files, or the folder that holds them") }
    }

    func run() throws {
        // Ctrl-C (or SIGTERM, SIGHUP) ends the merge at once: the temporary file being written is
        // removed, and an existing output is left as it was.
        let interrupt = InterruptFlag()
        interrupt.onInterrupt { name in
            FileHandle.standardError.write("merge: \(name): stopped; nothing written\n")
            SafeOutput.exitRemovingStagedFiles(status: 130)
        }
        defer { interrupt.cancel() }
        var isFolder: ObjCBool = false
        let toFolder = output.hasSuffix("/") || (FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) && isFolder.boolValue)
        let recordings: [ShardMerge.Recording]
        do {
            recordings = try ShardMerge.recordings(ShardMerge.files(in: shards), oneRecording: !toFolder)
        } catch {
            throw RuntimeError("\(error); nothing written")
        }
        let inputs = recordings.flatMap(\.files)
        // Nothing goes into a folder the shards were made from, whatever --force says: the merged
        // rows would sit beside (or over) the frames and manifest they describe.
        let sources = recordings.map(\.header.folder)
        var destinations: [SafeOutput.Destination] = []
        do {
            if toFolder {
                for recording in recordings {
                    let path = (output as NSString).appendingPathComponent(recording.header.name + ".jsonl")
                    try SafeOutput.checkOutside(path, folders: sources)
                    destinations.append(try SafeOutput.destination(for: path, replacing: force, inputs: inputs))
                }
                let names = recordings.map(\.header.name)
                if let doubled = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
                    throw RuntimeError("two folders are named \(doubled): merge them into separate folders")
                }
            } else {
                try SafeOutput.checkOutside(output, folders: sources)
                destinations.append(try SafeOutput.destination(for: output, replacing: force, inputs: inputs))
            }
            // The rows are written as the shards are read, never held whole. One recording into a
            // regular file is merged once, into a temporary file renamed into place at the end.
            // Several, or standard output, a device or FIFO (where rows cannot be taken back), are
            // first read through and checked, every one, so that nothing is written unless all
            // check out.
            if recordings.count > 1 || destinations.contains(where: { if case .replacing = $0 { false } else { true } }) {
                for recording in recordings { _ = try ShardMerge.merge(recording) }
            }
            if toFolder { try SafeOutput.prepareFolder(output) }
        } catch {
            throw RuntimeError("\(error); nothing written")
        }
        var incomplete = false
        for (recording, destination) in zip(recordings, destinations) {
            let result: ShardMerge.Merged
            do {
                let writer = try SafeOutput.Writer(destination)
                do {
                    result = try ShardMerge.merge(recording, into: writer)
                    try writer.commit(replacing: force)
                } catch {
                    writer.abandon()
                    throw error
                }
            } catch {
                // A regular file is not in place; what went to standard output, a device or FIFO stays sent.
                guard case .replacing(let path) = destination else { throw RuntimeError("\(error)") }
                throw RuntimeError("\(error); \(recordings.count == 1 ? "nothing written" : path + " not written")")
            }
            FileHandle.standardError.write(result.description + "\n")
            if !result.summary.errors.isEmpty { incomplete = true }
        }
        if incomplete { throw ExitCode(2) }
    }
}
