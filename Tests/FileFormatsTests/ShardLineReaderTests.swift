@testable import FileFormats
import Foundation
import SystemCalls
import Testing

/// ``ShardLineReader``: a shard file's lines come back one at a time, whole, across the chunks the
/// file is read in; a line longer than any shard holds, a last line cut short and a file that
/// cannot be read are errors naming the line.
@Suite struct ShardLineReaderTests {
    static func file(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shard-lines-\(UUID().uuidString).jsonl").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func lines(of path: String) throws(ShardLineReader.Failure) -> [String] {
        let reader = try ShardLineReader(path: path)
        var lines: [String] = []
        while let line = try reader.next() { lines.append(line) }
        return lines
    }

    /// Lines of every length up to past a chunk, so that some straddle the chunks' ends, come back
    /// exactly, numbered; empty lines included.
    @Test func linesAcrossChunksComeBackWhole() throws {
        var expected: [String] = []
        var length = 0
        while expected.reduce(0, { $0 + $1.utf8.count + 1 }) < 3 * ShardLineReader.chunkBytes + 1000 {
            expected.append(String(repeating: Character(UnicodeScalar(UInt8(97 + expected.count % 26))), count: length))
            length = (length * 7 + 13_001) % (ShardLineReader.chunkBytes + 4096)
        }
        expected.insert("", at: 3)
        let path = try Self.file(Array((expected.joined(separator: "\n") + "\n").utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try ShardLineReader(path: path)
        var read: [String] = []
        while let line = try reader.next() {
            read.append(line)
            #expect(reader.lineNumber == read.count)
        }
        #expect(read.count == expected.count)
        #expect(read == expected)
    }

    /// A hostile-input table: what a shard file must not be, and the error it gives.
    @Test(arguments: [
        ("no newline at the end", Array("{\"a\":1}\n{\"b\"".utf8), ShardLineReader.Failure.noNewlineAtEnd(line: 2)),
        ("one line longer than any shard's", Array("{}\n".utf8) + [UInt8](repeating: 120, count: ShardLineReader.maximumLineBytes + 1) + [10],
         .tooLong(line: 2)),
        ("endless bytes without a newline", [UInt8](repeating: 0, count: ShardLineReader.maximumLineBytes + 2), .tooLong(line: 1)),
    ])
    func aHostileFileIsRefusedNamingTheLine(name: String, bytes: [UInt8], failure: ShardLineReader.Failure) throws {
        let path = try Self.file(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: failure, "\(name)") { try Self.lines(of: path) }
    }

    @Test func anEmptyFileHasNoLinesAndAMissingOneIsUnreadable() throws {
        let path = try Self.file([])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try Self.lines(of: path) == [])
        #expect(throws: ShardLineReader.Failure.unreadable(SystemCallError(call: "open", path: path + ".gone", errno: ENOENT))) {
            try Self.lines(of: path + ".gone")
        }
        #expect(throws: ShardLineReader.Failure.unreadable(SystemCallError(call: "read", errno: EISDIR))) {
            try Self.lines(of: FileManager.default.temporaryDirectory.path)
        }
    }
}
