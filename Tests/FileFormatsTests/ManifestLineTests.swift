import FileFormats
import Foundation
import Testing

/// The manifest line type reads the recordings written before it and writes them back byte for byte.
@Suite struct ManifestLineTests {
    /// The bundled recording's manifest (which `live --record` writes again, byte for byte, when it
    /// replays the recording): every line read and written again is the same text.
    @Test func aManifestWrittenBeforeReadsAndWritesBackByteForByte() throws {
        let lines = try Fixtures.lines(Fixtures.packageRoot + "/Samples/charuco-session/manifest.jsonl")
        #expect(lines.count == 120)
        for (index, line) in lines.enumerated() {
            let entry = try ManifestLine(parsing: line)
            #expect(entry.file == String(format: "frame_%06d.jpg", index))
            #expect(entry.text == line + "\n")
        }
    }

    /// Seconds with microseconds at most, no trailing zeros; sequence and controls only when known.
    @Test func aLineIsWrittenWithItsKeysInOrder() throws {
        #expect(ManifestLine(file: "a.jpg", t: 0).text == #"{"file":"a.jpg","t":0}"# + "\n")
        #expect(ManifestLine(file: "a\u{1}.jpg", t: 12.5000004, sequence: 3).text == #"{"file":"a\u0001.jpg","t":12.5,"sequence":3}"# + "\n")
        let line = ManifestLine(file: "b.jpg", t: 0.0333671, sequence: 813, controls: ["gain": 10, "exposure_auto": 1])
        #expect(line.text == #"{"file":"b.jpg","t":0.033367,"sequence":813,"controls":{"exposure_auto":1,"gain":10}}"# + "\n")
        #expect(try ManifestLine(parsing: line.text.dropLast()) == ManifestLine(file: "b.jpg", t: 0.033367, sequence: 813,
                                                                              controls: ["gain": 10, "exposure_auto": 1]))
    }

    /// A rig's line names its camera first; a line without one has no camera.
    @Test func aRigLineNamesItsCamera() throws {
        let line = ManifestLine(camera: "left", file: "frame_000000.jpg", t: 0.004113, sequence: 77)
        #expect(line.text == #"{"camera":"left","file":"frame_000000.jpg","t":0.004113,"sequence":77}"# + "\n")
        #expect(try ManifestLine(parsing: line.text.dropLast()) == line)
        #expect(try ManifestLine(parsing: #"{"file":"a.jpg","t":0}"#).camera == nil)
        #expect(throws: (any Error).self) { try ManifestLine(parsing: #"{"camera":3,"file":"a.jpg","t":0}"#) }
    }

    /// A line without a file name or a time is no manifest line.
    @Test(arguments: [#"{"t":0}"#, #"{"file":"a.jpg"}"#, #"{"file":1,"t":0}"#, "[]", "", #"{"file":"a.jpg","t":0,"sequence":-1}"#])
    func aLineWithoutItsFieldsIsRefused(line: String) {
        #expect(throws: (any Error).self) { try ManifestLine(parsing: line) }
    }
}
