import Foundation
@testable import MarkerShutter
import Testing

/// Manifests as other tools and hostile hands write them: CRLF lines, timestamps whose nanoseconds
/// do not fit an `Int64`, NUL and control characters in names, names longer than a file name.
@Suite struct ManifestInputTests {
    @Test func crlfLinesAreRead() throws {
        let manifest = try FrameManifest(parsing: "{\"file\":\"a.jpg\",\"t\":0}\r\n{\"file\":\"b.jpg\",\"t\":0.5}\r\n")
        #expect(manifest.entries == [.init(file: "a.jpg", t: 0), .init(file: "b.jpg", t: 0.5)])
    }

    @Test(arguments: [("1e10", "10000000000"), ("-1e10", "-10000000000"), ("9.3e9", "9300000000"), ("1e300", "1e+300")])
    func aTimeWhoseNanosecondsOverflowIsRefusedWithTheRange(t: String, shown: String) {
        #expect(throws: FrameManifestError.badLine(1, reason: "t must be -1000000000 to 1000000000 seconds, got \(shown)")) {
            try FrameManifest(parsing: "{\"file\":\"a.jpg\",\"t\":\(t)}")
        }
    }

    @Test func theLimitsThemselvesAreAccepted() throws {
        let manifest = try FrameManifest(parsing: "{\"file\":\"a.jpg\",\"t\":-1e9}\n{\"file\":\"b.jpg\",\"t\":1e9}")
        let times = manifest.entries.map { FrameTime(seconds: $0.t) }
        #expect(times[0].duration(to: times[1]) == .seconds(2_000_000_000))
    }

    @Test func aNulInANameIsRefused() {
        #expect(throws: FrameManifestError.badLine(1, reason: "file \"a\\u{0}.jpg\" holds a NUL character, which no file name can")) {
            try FrameManifest(parsing: "{\"file\":\"a\\u0000.jpg\",\"t\":0}")
        }
    }

    @Test func aNameLongerThanNameMaxIsRefusedBriefly() throws {
        let name = String(repeating: "x", count: 300) + ".jpg"
        let error = try #require(throws: FrameManifestError.self) {
            try FrameManifest(parsing: "{\"file\":\"\(name)\",\"t\":0}")
        }
        #expect(error == .badLine(1, reason: "file name \"\(String(repeating: "x", count: 24))...\" is 304 bytes long, more than the 255 a file name can have"))
    }

    @Test func controlCharactersInANameAreEscapedInMessages() {
        #expect(throws: FrameManifestError.badLine(1, reason: "file \"\\u{1B}[2J/x\" must be a plain name inside the folder")) {
            try FrameManifest(parsing: "{\"file\":\"\\u001b[2J/x\",\"t\":0}")
        }
    }

    @Test func aFolderRateOutsideItsRangeIsRefused() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: FrameFolderError.badRate(1e-10)) { try FrameFolder(path: folder, framesPerSecond: 1e-10) }
        #expect(FrameFolderError.badRate(1e-10).description
            == "the frame rate must be 0.01 to 10000 frames per second, got 1e-10")
    }
}

@Suite struct AllowedRangeTests {
    @Test func refusesOutsideValuesAndNaNNamingTheValueAndTheRange() throws {
        let hold = InputLimits.holdSeconds
        #expect(try hold.check(0.3, name: "--hold") == 0.3)
        #expect(throws: OutOfRangeError(name: "--hold", value: "10000000000", allowed: "0 to 3600 seconds")) {
            try hold.check(1e10, name: "--hold")
        }
        #expect(throws: OutOfRangeError(name: "--hold", value: "-1", allowed: "0 to 3600 seconds")) {
            try hold.check(-1, name: "--hold")
        }
        for value in [Double.nan, .infinity, -.infinity, 1e20] {
            #expect(!InputLimits.sharpness.contains(value))
        }
        #expect(OutOfRangeError(name: "--jobs", value: "0", allowed: InputLimits.jobs.description).description
            == "--jobs must be 1 to 1024, got 0")
    }
}

@Suite struct FileNameTextTests {
    @Test func controlCharactersAndBackslashesAreEscaped() {
        #expect(FileNameText.escaped("plain-name_01.jpg") == "plain-name_01.jpg")
        #expect(FileNameText.escaped("a\nb\tc\r\\") == "a\\nb\\tc\\r\\\\")
        #expect(FileNameText.escaped("\u{1B}]0;title\u{07}x\u{7F}\u{9B}") == "\\u{1B}]0;title\\u{7}x\\u{7F}\\u{9B}")
        #expect(FileNameText.escaped("café €.jpg") == "café €.jpg")
    }

    @Test func bytesThatAreNotUTF8AreShownAsHexAndTheRestAsText() {
        #expect(FileNameText.text(ofBytes: Array("café.jpg".utf8)) == "café.jpg")
        #expect(FileNameText.text(ofBytes: [0x62, 0xFF, 0xFE, 0x2E, 0x6A]) == "b\\xFF\\xFE.j")
        // A lead byte without its continuation, then a whole two-byte character, then a lone continuation.
        #expect(FileNameText.text(ofBytes: [0xC3, 0x41, 0xC3, 0xA9, 0x80]) == "\\xC3Aé\\x80")
        // An encoded surrogate (ED A0 80) is not UTF-8.
        #expect(FileNameText.text(ofBytes: [0xED, 0xA0, 0x80]) == "\\xED\\xA0\\x80")
    }

    @Test func onlyNamesLongerThanNameMaxAreTooLong() {
        #expect(FileNameText.tooLong(String(repeating: "é", count: 127)) == nil)
        #expect(FileNameText.tooLong(String(repeating: "é", count: 128)) != nil)
    }
}

@Suite struct OutputNamesTests {
    @Test func keepsTheStemAndSeparatesNamesThatWouldMeet() {
        #expect(OutputNames.assign(["left01.jpg", "left02.png"], pathExtension: "jpg") == ["left01.jpg", "left02.jpg"])
        #expect(OutputNames.assign(["a.jpg", "a.png", "a.tif", "a.png"], pathExtension: "jpg")
            == ["a.jpg", "a.png.jpg", "a.tif.jpg", "a.png-2.jpg"])
        #expect(OutputNames.assign(["a.png", "a.png.jpg", "a"], pathExtension: "jpg") == ["a.jpg", "a.png.jpg", "a-2.jpg"])
        #expect(OutputNames.assign(["a.jpg", "a.png", "a.png.jpg"], pathExtension: "jpg") == ["a.jpg", "a.png.jpg", "a.png.jpg.jpg"])
    }

    /// A manifest that lists one file 20,000 times: each listing gets the next number, and a
    /// number a name already took is passed over.
    @Test func oneFileListedManyTimesGetsNumbersInTurn() {
        let names = OutputNames.assign(Array(repeating: "a.png", count: 20_000) + ["a.png-7.jpg"], pathExtension: "jpg")
        #expect(names.count == 20_001)
        #expect(Set(names).count == 20_001)
        #expect(Array(names.prefix(4)) == ["a.jpg", "a.png.jpg", "a.png-2.jpg", "a.png-3.jpg"])
        #expect(names[19_999] == "a.png-19999.jpg")
        #expect(names[20_000] == "a.png-7.jpg.jpg")
        let later = OutputNames.assign(["b.png", "b.png", "b.png-2.jpg", "b.png", "b.png"], pathExtension: "jpg")
        #expect(later == ["b.jpg", "b.png.jpg", "b.png-2.jpg", "b.png-3.jpg", "b.png-4.jpg"])
    }
}

/// A manifest larger than ``InputLimits/manifestBytes`` is refused before it is read.
@Suite struct ManifestSizeTests {
    @Test func aManifestOverTheLimitIsRefusedUnread() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/manifest.jsonl"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("{\"file\":\"a.jpg\",\"t\":0}\n".utf8)))
        #expect(truncate(path, off_t(InputLimits.manifestBytes + 1)) == 0)  // sparse: nothing is written
        #expect(throws: FrameFolderError.manifestTooLarge(path, bytes: InputLimits.manifestBytes + 1)) {
            try FrameFolder(path: folder)
        }
        #expect(FrameFolderError.manifestTooLarge(path, bytes: 67_108_865).description
            == "\(path): 67108865 bytes, more than the limit of 67108864 bytes (64 MiB) for a manifest")
    }

    @Test func aManifestAtTheLimitIsRead() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let line = "{\"file\":\"a.jpg\",\"t\":0}\n"
        let padding = String(repeating: " ", count: 1 << 20 - 1) + "\n"
        var text = line
        while text.utf8.count + padding.utf8.count <= InputLimits.manifestBytes { text += padding }
        text += String(repeating: " ", count: InputLimits.manifestBytes - text.utf8.count)
        #expect(text.utf8.count == InputLimits.manifestBytes)
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/manifest.jsonl"))
        let frames = try FrameFolder(path: folder).frames
        #expect(frames.map(\.file) == ["a.jpg"])
    }
}
