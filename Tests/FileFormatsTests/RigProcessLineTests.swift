@testable import FileFormats
import Foundation
import Testing

/// The lines `process` writes for a rig's recording: each camera's frame rows (a single camera's
/// row with `camera` first) and the rig's changes, written in a fixed order and read back whole.
@Suite struct RigProcessLineTests {
    static let cameras = [RigProcessLine.Change.CameraShutter(camera: "left", shutter: "enabled"),
                          RigProcessLine.Change.CameraShutter(camera: "right", shutter: "held")]

    /// A camera's row is the single camera's row, byte for byte, after `"camera":NAME`.
    @Test func aCamerasRowIsTheSingleCamerasRowAfterItsName() throws {
        let rows = try Fixtures.lines(Fixtures.before + "/rows.jsonl")
        for line in rows {
            let row = try ProcessRow(parsing: line)
            let text = RigProcessLine.frame(camera: "left", row: row).text
            #expect(text == #"{"camera":"left","# + line.dropFirst())
            #expect(try RigProcessLine(parsing: text) == .frame(camera: "left", row: row))
            #expect(RigProcessLine.frameText(camera: "left", row: line) == text)
        }
        let unreadable = ProcessRow(index: 4, file: "frame_000004.jpg", t: 10.133422, outcome: .unreadable(reason: "not an image"))
        #expect(RigProcessLine.frame(camera: "right", row: unreadable).text
            == #"{"camera":"right","index":4,"file":"frame_000004.jpg","t":10.133422,"error":"not an image"}"#)
    }

    /// An enabled rig: its set by camera and place in the camera's folder, the largest difference in seconds.
    @Test func anEnabledRigHasItsSetInOrder() throws {
        let change = RigProcessLine.Change(
            t: 5321.0464114, state: .enabled(largestDifference: 0.0076666, set: [.init(camera: "left", index: 12), .init(camera: "right", index: 10)]),
            cameras: Self.cameras)
        let text = RigProcessLine.rig(change).text
        #expect(text == #"{"rig":"enabled","t":5321.046411,"largest_difference_s":0.007667,"#
            + #""set":[{"camera":"left","index":12},{"camera":"right","index":10}],"#
            + #""cameras":[{"camera":"left","shutter":"enabled"},{"camera":"right","shutter":"held"}]}"#)
        let again = try RigProcessLine(parsing: text)
        #expect(again == .rig(RigProcessLine.Change(
            t: 5321.046411, state: .enabled(largestDifference: 0.007667, set: [.init(camera: "left", index: 12), .init(camera: "right", index: 10)]),
            cameras: Self.cameras)))
        #expect(again.text == text)
    }

    /// A disabled rig: why, in the live terminal's words (quotes escaped).
    @Test func aDisabledRigSaysWhy() throws {
        let change = RigProcessLine.Change(t: 10, state: .disabled(why: "right does not see the \"board\""), cameras: Self.cameras)
        let text = RigProcessLine.rig(change).text
        #expect(text == #"{"rig":"disabled","t":10,"why":"right does not see the \"board\"","#
            + #""cameras":[{"camera":"left","shutter":"enabled"},{"camera":"right","shutter":"held"}]}"#)
        #expect(try RigProcessLine(parsing: text) == .rig(change))
    }

    /// Lines that are neither are refused with what is wrong.
    @Test(arguments: [
        ("[]", "not a JSON object"),
        (#"{"index":1,"file":"a","t":0,"error":"x"}"#, "neither \"rig\" nor a \"camera\" string"),
        (#"{"camera":"left","file":"a","t":0}"#, "left's row: no whole \"index\""),
        (#"{"rig":"enabled","cameras":[]}"#, "no \"t\" in seconds"),
        (#"{"rig":"enabled","t":1}"#, "no \"cameras\" list"),
        (#"{"rig":"enabled","t":1,"cameras":[{"camera":"left"}]}"#, "a camera that is not {\"camera\": name, \"shutter\": state}"),
        (#"{"rig":"enabled","t":1,"cameras":[],"set":[]}"#, "no \"largest_difference_s\" in seconds"),
        (#"{"rig":"enabled","t":1,"cameras":[],"largest_difference_s":0}"#, "no \"set\" list"),
        (#"{"rig":"enabled","t":1,"cameras":[],"largest_difference_s":0,"set":[{"camera":"left","index":"1"}]}"#,
         "a set member that is not {\"camera\": name, \"index\": integer}"),
        (#"{"rig":"disabled","t":1,"cameras":[]}"#, "no \"why\" string"),
        (#"{"rig":"maybe","t":1,"cameras":[]}"#, "\"rig\" is neither \"enabled\" nor \"disabled\""),
    ])
    func aLineThatIsNeitherIsRefused(line: String, reason: String) {
        #expect(throws: RigProcessLine.Problem(reason: reason)) { try RigProcessLine(parsing: line) }
    }
}
