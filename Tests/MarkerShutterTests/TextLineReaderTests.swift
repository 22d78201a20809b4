import Foundation
@testable import MarkerShutter
import Testing

/// A file of lines read one line at a time: every line as written, the last with or without its
/// line break, across chunk boundaries; a file over its limit, a line over its limit or not UTF-8
/// refused with the line's number.
@Suite struct TextLineReaderTests {
    static func file(_ bytes: [UInt8], _ name: String = #function) throws -> (folder: String, path: String) {
        let folder = try TestPaths.temporaryFolder(name)
        let path = folder + "/lines.jsonl"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (folder, path)
    }

    static func lines(_ path: String, byteLimit: Int = 1 << 30, lineLimit: Int = 1 << 20) throws(TextLineReader.Failure) -> [String] {
        var reader = try TextLineReader(path: path, byteLimit: byteLimit, lineLimit: lineLimit)
        var lines: [String] = []
        while let line = try reader.next() { lines.append(line) }
        return lines
    }

    @Test func everyLineIsReadAsWritten() throws {
        // Lines longer than a chunk (64 KiB) and many short ones, so that lines span chunks.
        var expected = (0..<20_000).map { "{\"n\":\($0)}" }
        expected.insert(String(repeating: "x", count: 100_000), at: 5000)
        expected.insert("", at: 7)
        expected.insert("ä \r", at: 9)
        let (folder, path) = try Self.file(Array(expected.joined(separator: "\n").utf8))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try Self.lines(path) == expected)
        try Data((expected.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        #expect(try Self.lines(path) == expected)
    }

    @Test func aFileOrALineOverItsLimitIsRefused() throws {
        let (folder, path) = try Self.file(Array("one\ntwo\nthree\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: TextLineReader.Failure.tooLarge(bytes: 14)) { try Self.lines(path, byteLimit: 13) }
        #expect(try Self.lines(path, byteLimit: 14) == ["one", "two", "three"])
        #expect(throws: TextLineReader.Failure.lineTooLong(line: 3)) { try Self.lines(path, lineLimit: 4) }
        #expect(try Self.lines(path, lineLimit: 5) == ["one", "two", "three"])
    }

    @Test func aLineThatIsNotUTF8IsRefused() throws {
        let (folder, path) = try Self.file(Array("one\n".utf8) + [0xff, 0xfe] + Array("\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: TextLineReader.Failure.notText(line: 2)) { try Self.lines(path) }
    }

    @Test func whatIsNotARegularFileIsRefused() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/fifo", 0o600) == 0)
        #expect(throws: TextLineReader.Failure.unreadable("not a regular file")) { try Self.lines(folder + "/fifo") }
        #expect(throws: TextLineReader.Failure.unreadable("not a regular file")) { try Self.lines(folder) }
        #expect(throws: TextLineReader.Failure.unreadable("not a regular file")) { try Self.lines("/dev/null") }
        #expect(throws: TextLineReader.Failure.self) { try Self.lines(folder + "/missing") }
    }
}
