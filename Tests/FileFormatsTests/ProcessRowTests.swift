@testable import FileFormats
import Foundation
import Testing

/// The row type writes the rows `process` wrote before it existed, and reads them back whole.
@Suite struct ProcessRowTests {
    /// Every row `process` wrote (valid, invalid and unreadable frames), read and written again,
    /// is the same line.
    @Test func rowsWrittenBeforeReadAndWriteBackByteForByte() throws {
        let lines = try Fixtures.lines(Fixtures.before + "/rows.jsonl")
        #expect(lines.count == 40)
        var counts = (valid: 0, invalid: 0, unreadable: 0)
        for (index, line) in lines.enumerated() {
            let row = try ProcessRow(parsing: line)
            #expect(row.index == index && row.file == String(format: "frame_%06d.jpg", index))
            switch row.outcome {
            case .detected(let detected) where detected.valid: counts.valid += 1
            case .detected: counts.invalid += 1
            case .unreadable: counts.unreadable += 1
            }
            #expect(row.text == line)
        }
        #expect(counts.valid == 36 && counts.invalid == 3 && counts.unreadable == 1)
    }

    /// A frame that could not be read: its four fields, in order.
    @Test func anUnreadableFrameHasItsErrorRow() throws {
        let row = ProcessRow(index: 4, file: "frame_000004.jpg", t: 0.1334224, outcome: .unreadable(reason: "not an image"))
        #expect(row.text == #"{"index":4,"file":"frame_000004.jpg","t":0.133422,"error":"not an image"}"#)
        #expect(try ProcessRow(parsing: row.text) == ProcessRow(index: 4, file: "frame_000004.jpg", t: 0.133422,
                                                                outcome: .unreadable(reason: "not an image")))
    }

    /// A detected frame: nulls for what is not known, `why` only for an invalid frame.
    @Test func aDetectedFrameHasItsRowInOrder() throws {
        let detected = ProcessRow.Detected(
            sequence: nil, valid: false, detection: RecordedDetection(markers: [], corners: [.init(id: 2, point: .init(x: 1, y: 2.0006))]),
            sharpness: nil, detectMilliseconds: 4.1224, shutter: "disabled", heldIndex: nil, why: ["no \"markers\""])
        let row = ProcessRow(index: 3, file: nil, t: 0.1, outcome: .detected(detected))
        #expect(row.text == #"{"index":3,"file":null,"t":0.1,"sequence":null,"valid":false,"markers":[],"#
            + #""corners":[{"id":2,"xy":[1,2.001]}],"sharpness":null,"detect_ms":4.122,"shutter":"disabled","held_index":null,"#
            + #""why":["no \"markers\""]}"#)
        let again = try ProcessRow(parsing: row.text)
        #expect(again.file == nil && again.text == row.text)
    }

    /// Lines that are not rows are refused with what is wrong.
    @Test(arguments: [
        ("[]", "not a JSON object"), (#"{"file":"a","t":0}"#, "no whole \"index\""),
        (#"{"index":1,"file":"a","t":0}"#, "neither \"valid\" nor \"error\""),
        (#"{"index":1,"file":2,"t":0,"error":"x"}"#, "\"file\" is neither a string nor null"),
    ])
    func aLineThatIsNoRowIsRefused(line: String, reason: String) {
        #expect(throws: ProcessRow.Problem(reason: reason)) { try ProcessRow(parsing: line) }
    }
}
