// libFuzzer harness over the shard file's line reader (compiled with the FileFormats module by
// Fuzz/build). Whatever the bytes, the reader returns or throws; a header it accepts has counts and
// frames that can be, a frame line a time and index in range, and every accepted line writes itself
// back as text that reads to the same value (a frame's whole row reads as a process row).

import FileFormats
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzShardLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
        guard let parsed = try? ShardLine(parsing: line) else { continue }
        switch parsed {
        case .header(let header):
            precondition((1...ShardLine.maximumShards).contains(header.shards) && (0..<header.shards).contains(header.shard),
                         "accepted shard \(header.shard) of \(header.shards)")
            precondition(header.first >= 0 && header.first <= header.end && header.end <= header.frames
                         && header.frames <= ShardLine.maximumFrames, "accepted frames \(header.first)..<\(header.end) of \(header.frames)")
            precondition((0...ShardLine.maximumHoldNanoseconds).contains(header.options.holdNanoseconds), "accepted hold \(header.options.holdNanoseconds)")
        case .frame(let frame):
            precondition(ShardLine.frameNanoseconds.contains(frame.nanoseconds), "accepted time \(frame.nanoseconds)")
            precondition((0..<ShardLine.maximumFrames).contains(frame.index), "accepted index \(frame.index)")
            let row = frame.row(shutter: "held", heldIndex: 0).text
            do {
                _ = try ProcessRow(parsing: row)
            } catch {
                preconditionFailure("'\(line)' makes the row '\(row)', which does not read: \(error)")
            }
        case .trailer(let trailer):
            precondition(trailer.seconds.isFinite && trailer.cpuSeconds.isFinite, "accepted times \(trailer)")
        }
        do {
            let again = try ShardLine(parsing: parsed.text)
            precondition(again.text == parsed.text, "'\(line)' writes '\(parsed.text)', which reads back as '\(again.text)'")
        } catch {
            preconditionFailure("'\(line)' parsed, but its own text '\(parsed.text)' does not: \(error)")
        }
    }
    return 0
}
