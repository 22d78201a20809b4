@testable import FileFormats
import Foundation
import Testing

/// The lines of a rig recording's `events.jsonl`: each kind written as the recorder writes it and
/// read back to the same value, and hostile lines refused in words that say what is wrong.
@Suite struct EventsLineTests {
    @Test func everyKindIsWrittenAndReadBack() throws {
        let lines: [(EventsLine, String)] = [
            (.arrived(camera: "left", t: 5321.046411, dropped: 0), #"{"arrived":"left","t":5321.046411}"#),
            (.arrived(camera: "right", t: 10.1, dropped: 2), #"{"arrived":"right","t":10.1,"dropped":2}"#),
            (.observed(camera: "left", file: "frame_000000.jpg"), #"{"observed":"left","file":"frame_000000.jpg"}"#),
            (.advance(t: 10.03), #"{"advance":10.03}"#),
            (.advanceArrivals(t: 10.02), #"{"advance_arrivals":10.02}"#),
            (.lost(camera: "right"), #"{"lost":"right"}"#),
        ]
        for (line, text) in lines {
            #expect(line.text == text + "\n")
            #expect(try EventsLine(parsing: text) == line)
        }
    }

    /// Lines as JSON allows them but the recorder does not write them (spaces, keys in another
    /// order, escapes, exponents) read to what the recorder's own lines read to.
    @Test(arguments: [
        (#"{ "arrived": "left", "t": 10.5 }"#, EventsLine.arrived(camera: "left", t: 10.5, dropped: 0)),
        (#"{"t":10.5,"arrived":"left","dropped":3}"#, .arrived(camera: "left", t: 10.5, dropped: 3)),
        (#"{"advance":1.05e1}"#, .advance(t: 10.5)),
        (#"{"advance_arrivals":10.5}  "#, .advanceArrivals(t: 10.5)),
        (#"{"observed":"left","file":"a\"b.jpg"}"#, .observed(camera: "left", file: #"a"b.jpg"#)),
        (#"{"lost":"l\u0065ft"}"#, .lost(camera: "left")),
    ])
    func aLineWrittenOtherwiseReadsTheSame(text: String, line: EventsLine) throws {
        #expect(try EventsLine(parsing: text) == line)
    }

    @Test(arguments: [
        (#"{"advance":10}x"#, EventsLine.expected),
        (#"{"advance":10.}"#, EventsLine.expected),
        (#"{"arrived":"left"}"#, EventsLine.expected),
        (#"{"arrived":"left","t":10,"dropped":-1}"#, "dropped -1 is not a count of frames from 0 to 1000000"),
        (#"{"advance":-3}"#, "-3.0 is not a timestamp from 0 to 1e9 seconds"),
        (#"{"advance":1e300}"#, "1e+300 is not a timestamp from 0 to 1e9 seconds"),
        (#"{"lost":"a b"}"#, #"camera name "a b" may hold only letters, digits, "-" and "_""#),
        (#"{"observed":"left","file":"../right/frame_000000.jpg"}"#, #"file "../right/frame_000000.jpg" is not a plain name"#),
        (#"{"wait":3}"#, EventsLine.expected),
        ("[]", EventsLine.expected),
    ])
    func aHostileLineIsRefused(text: String, message: String) {
        let error = #expect(throws: EventsLineError.self) { try EventsLine(parsing: text) }
        #expect(error?.description == message)
    }

    @Test func aLineLongerThanAnyWrittenIsRefusedUnread() {
        let text = #"{"lost":""# + String(repeating: "a", count: 5000) + #""}"#
        let error = #expect(throws: EventsLineError.self) { try EventsLine(parsing: text) }
        #expect(error?.description == "a line of 5011 bytes, more than 4096")
    }
}
