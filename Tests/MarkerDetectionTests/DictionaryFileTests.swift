import Foundation
import MarkerDetection
import Testing

/// Custom dictionary files: every hostile one is refused with what was wrong with it, before
/// OpenCV builds a dictionary from it, and none of OpenCV's internal messages reaches the user.
@Suite struct DictionaryFileTests {
    final class Scratch {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dictionary-tests-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: folder) }
        func write(_ text: String, as name: String) throws -> String {
            let url = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }
    }

    /// What making a detector for loose markers of the dictionary file says, or nil if it works.
    static func refusal(_ path: String) -> String? {
        do {
            _ = try MarkerDetector(pattern: .aruco(.file(path: path)))
            return nil
        } catch {
            return error.description
        }
    }

    static func yaml(count: Int, side: Int, markers: [String], extra: String = "") -> String {
        "%YAML:1.0\nnmarkers: \(count)\nmarkersize: \(side)\n" + extra
            + markers.enumerated().map { "marker_\($0.offset): \"\($0.element)\"\n" }.joined()
    }

    @Test(arguments: [
        // A side of 100000 bits made OpenCV allocate 10 GB and hang; a negative one raised "s >= 0".
        (yaml(count: 1, side: 100_000, markers: ["0101"]), "'markersize' is 100000, outside 2...16 (bits on each side of a marker)"),
        (yaml(count: 1, side: -5, markers: ["0101"]), "'markersize' is -5, outside 2...16 (bits on each side of a marker)"),
        (yaml(count: 1, side: 1, markers: ["1"]), "'markersize' is 1, outside 2...16 (bits on each side of a marker)"),
        (yaml(count: 10_000_000, side: 4, markers: []), "'nmarkers' is 10000000, outside 1...10000 (the number of markers)"),
        (yaml(count: 0, side: 4, markers: []), "'nmarkers' is 0, outside 1...10000 (the number of markers)"),
        ("%YAML:1.0\nnmarkers: 1\nmarkersize: 4.5\n", "'markersize' must be a whole number (bits on each side of a marker)"),
        ("%YAML:1.0\nnmarkers: 1\n", "no 'markersize' (bits on each side of a marker)"),
        // A bit string longer than markersize squared was written past the marker's memory.
        (yaml(count: 1, side: 4, markers: [String(repeating: "1", count: 300)]),
         "'marker_0' must be 16 characters 0 or 1 (markersize 4 squared), found 300 characters"),
        (yaml(count: 1, side: 2, markers: ["01x0"]),
         "'marker_0' must be 4 characters 0 or 1 (markersize 2 squared), found 4 characters with others than 0 and 1"),
        (yaml(count: 3, side: 2, markers: ["0110", "1001"]),
         "no 'marker_2': nmarkers is 3, so marker_0 ... marker_2 must each be a string of bits"),
        ("%YAML:1.0\nnmarkers: 1\nmarkersize: 2\nmarker_0: 0110\n", "'marker_0' must be a string of bits in quotes, like \"0110...\""),
        (yaml(count: 1, side: 2, markers: ["0110"], extra: "maxCorrectionBits: 99\n"),
         "'maxCorrectionBits' is 99, outside 0...4 (bits a detection may correct)"),
        // OpenCV's parser said "buf", "parseValue" or "parseMap" for these.
        ("", "the file is empty"),
        ("%YAML:1.0\nnmarkers: [1\n", "not a readable YAML, XML or JSON file: line 2: Missing , between the elements"),
        ("%YAML:1.0\n- 1\n- 2\n", "expected a map with nmarkers, markersize and marker_0, marker_1, ..."),
        // Found by fuzzing: OpenCV's parser failed with "basic_string::_M_create".
        ("%YAML:1.\nnmarkers: 2\nmarkersize: { :  \"marker_0\":\nmits: 1\n", "not a readable YAML, XML or JSON file"),
    ])
    func hostileYAMLIsRefusedWithWhatIsWrong(text: String, reason: String) throws {
        let scratch = try Scratch()
        let path = try scratch.write(text, as: "dictionary.yml")
        #expect(Self.refusal(path) == "dictionary file '\(path)': \(reason)")
    }

    @Test func jsonAndXMLParseErrorsGiveTheLine() throws {
        let scratch = try Scratch()
        let json = try scratch.write("{\"nmarkers\": 1, \"markersize\":", as: "dictionary.json")
        #expect(Self.refusal(json)?.hasPrefix("dictionary file '\(json)': not a readable YAML, XML or JSON file: line 1: ") == true)
        let xml = try scratch.write("<?xml version=\"1.0\"?>\n<opencv_storage><nmarkers>1</nmarkers><markersize>4", as: "d.xml")
        #expect(Self.refusal(xml)?.hasPrefix("dictionary file '\(xml)': not a readable YAML, XML or JSON file: line 2: ") == true)
    }

    @Test func aWellFormedSmallDictionaryIsRead() throws {
        let scratch = try Scratch()
        let path = try scratch.write(Self.yaml(count: 2, side: 3, markers: ["010110011", "100101110"]), as: "small.yaml")
        #expect(Self.refusal(path) == nil)
    }

    @Test func fifosDevicesAndHugeFilesAreRefusedUnread() throws {
        let scratch = try Scratch()
        let fifo = scratch.folder.appendingPathComponent("fifo.yml").path
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(Self.refusal(fifo) == "dictionary file '\(fifo)' is a FIFO, not a regular file")
        let zero = scratch.folder.appendingPathComponent("zero.yml").path
        try FileManager.default.createSymbolicLink(atPath: zero, withDestinationPath: "/dev/zero")
        #expect(Self.refusal(zero) == "dictionary file '\(zero)' is a character device, not a regular file")
        let huge = try scratch.write("%YAML:1.0\n", as: "huge.yml")
        #expect(truncate(huge, 1 << 30) == 0)
        #expect(Self.refusal(huge) == "'\(huge)' is 1073741824 bytes, more than the limit of 4194304 bytes")
    }

    /// None of the dictionary errors above carries OpenCV's own wording.
    @Test func noOpenCVInternalsReachTheUser() throws {
        let scratch = try Scratch()
        let texts = ["", "%YAML:1.0\nnmarkers: [1\n", "{\"nmarkers\":", "<opencv_storage><nm", "%YAML:1.0\nmarkersize: -1\nnmarkers: 1\n",
                     "%YAML:1.0\nnmarkers: 1\nmarkersize: 2\nmarker_0: 5\n", "\u{1}\u{2}\u{3}"]
        for (index, text) in texts.enumerated() {
            for suffix in ["yml", "json", "xml"] {
                let path = try scratch.write(text, as: "d\(index).\(suffix)")
                let reason = try #require(Self.refusal(path), "\(path)")
                #expect(reason.hasPrefix("dictionary file '\(path)'"), "\(reason)")
                for word in ["OpenCV", "parseValue", "parseMap", "buf", "s >= 0", "in function"] {
                    #expect(!reason.contains(word), "\(reason)")
                }
            }
        }
    }
}
