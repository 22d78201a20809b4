import Foundation
@testable import MarkerShutter
@testable import Sharding
import Testing

/// ``FolderList``: the folders of `process --folders`, their names and how tasks share them.
@Suite struct FolderListTests {
    static func list(_ text: String) throws -> (FolderList, String) {
        let scratch = try TestPaths.temporaryFolder()
        try text.write(toFile: scratch + "/list.txt", atomically: true, encoding: .utf8)
        return (try FolderList(path: scratch + "/list.txt"), scratch)
    }

    @Test func foldersAreReadInOrderWithoutCommentsAndBlankLines() throws {
        let (list, scratch) = try Self.list("# nightly\n/data/robot1/session\n\n  /data/robot2/session  \n/data/robot3/other\n")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        #expect(list.folders == ["/data/robot1/session", "/data/robot2/session", "/data/robot3/other"])
        // Two folders share a last name: the later one is numbered.
        #expect(list.names == ["session", "session-2", "other"])
    }

    @Test func tasksTakeTheFoldersShardsInTurn() throws {
        let (list, scratch) = try Self.list("a\nb\nc\n")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // Three folders, two shards each, over four tasks: units 0-5, task k does k and k + 4.
        #expect(list.work(forTask: 0, of: 4, shardsPerFolder: 2).map { [$0.folder, $0.shard] } == [[0, 0], [2, 0]])
        #expect(list.work(forTask: 1, of: 4, shardsPerFolder: 2).map { [$0.folder, $0.shard] } == [[0, 1], [2, 1]])
        #expect(list.work(forTask: 3, of: 4, shardsPerFolder: 2).map { [$0.folder, $0.shard] } == [[1, 1]])
        #expect(list.work(forTask: 0, of: 1, shardsPerFolder: 1).map(\.folder) == [0, 1, 2])
        #expect(list.work(forTask: 5, of: 8, shardsPerFolder: 1).isEmpty)
        #expect(FolderList.task(ofFolder: 2, shard: 1, shardsPerFolder: 2, tasks: 4) == 1)
        // Every unit falls to exactly one task.
        let all = (0..<4).flatMap { list.work(forTask: $0, of: 4, shardsPerFolder: 2).map { $0.folder * 2 + $0.shard } }
        #expect(all.sorted() == Array(0..<6))
    }

    @Test func aFolderTwiceOrNoneIsRefused() throws {
        let scratch = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try "/data/a\n/data/b\n/data/a/\n".write(toFile: scratch + "/twice.txt", atomically: true, encoding: .utf8)
        #expect(throws: FolderListError.twice(scratch + "/twice.txt", "/data/a/", 1, 3)) { try FolderList(path: scratch + "/twice.txt") }
        try "# nothing\n\n".write(toFile: scratch + "/empty.txt", atomically: true, encoding: .utf8)
        #expect(throws: FolderListError.empty(scratch + "/empty.txt")) { try FolderList(path: scratch + "/empty.txt") }
    }

    /// A line that is not UTF-8 is named by its number, its bytes shown, rather than making the
    /// whole list "cannot be read"; a list larger than the limit is refused unread.
    @Test func aLineThatIsNotUTF8OrAListTooLargeIsRefusedSayingWhy() throws {
        let scratch = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Data("/data/a\n/data/b\u{FF}d\n".utf8 + [0x2F, 0x78, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: scratch + "/bytes.txt"))
        #expect(throws: FolderListError.notText(scratch + "/bytes.txt", line: 3, shown: "/x\\xFF")) {
            try FolderList(path: scratch + "/bytes.txt")
        }
        #expect(FolderListError.notText("l", line: 3, shown: "/x\\xFF").description.hasPrefix("l line 3, /x\\xFF, is not UTF-8"))
        #expect(FileManager.default.createFile(atPath: scratch + "/large.txt", contents: nil))
        let large = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch + "/large.txt"))
        try large.truncate(atOffset: UInt64(FolderList.maximumBytes + 1))
        try large.close()
        #expect(throws: FolderListError.tooLarge(scratch + "/large.txt", limit: FolderList.maximumBytes)) {
            try FolderList(path: scratch + "/large.txt")
        }
    }
}
