@testable import FileFormats
import Foundation
import Testing

/// A rig recording's `cameras.json`: written as the recorder writes it, read back to the same
/// cameras, and hostile files refused in words that say what is wrong.
@Suite struct CamerasFileTests {
    @Test func wholeRatesAreWrittenAsFramesPerSecondAndOthersToTheNanosecond() throws {
        let file = CamerasFile(cameras: [
            .init(name: "left", frameInterval: .seconds(1) / 30), .init(name: "right", frameInterval: .nanoseconds(33_366_700)),
        ])
        #expect(file.text == #"{"cameras":[{"name":"left","fps":30},{"name":"right","frame_interval":0.0333667}]}"# + "\n")
        #expect(try CamerasFile(parsing: file.text) == file)
    }

    @Test(arguments: [
        (#"{"cameras":[{"name":"left","fps":30}]}"#, "cameras.json names 1 cameras; a rig has 2 to 8"),
        (#"{"cameras":[{"name":"left","fps":30},{"name":"left","fps":30}]}"#, "cameras.json names camera left twice"),
        (#"{"cameras":[{"name":"left","fps":30},{"name":"../x","fps":30}]}"#,
         #"cameras.json: camera name "../x" may hold only letters, digits, "-" and "_""#),
        (#"{"cameras":[{"name":"left","fps":30},{"name":"right","fps":1001}]}"#,
         "cameras.json: camera right needs fps from 1 to 1000 or frame_interval from 0.001 to 1 s"),
        (#"{"cameras":[{"name":"left","fps":30},{"name":"right","frame_interval":0}]}"#,
         "cameras.json: camera right needs fps from 1 to 1000 or frame_interval from 0.001 to 1 s"),
        (#"{"cameras":[{"name":"left","fps":30},{"name":"right","fps":1e300}]}"#,
         #"cameras.json is not {"cameras":[{"name":...,"fps":...},...]}"#),
        ("not json", #"cameras.json is not {"cameras":[{"name":...,"fps":...},...]}"#),
    ])
    func aHostileFileIsRefused(text: String, message: String) {
        let error = #expect(throws: CamerasFileError.self) { try CamerasFile(parsing: text) }
        #expect(error?.description == message)
    }

    @Test func nineCamerasAreTooMany() {
        let cameras = (0..<9).map { #"{"name":"c\#($0)","fps":30}"# }.joined(separator: ",")
        let error = #expect(throws: CamerasFileError.self) { try CamerasFile(parsing: #"{"cameras":[\#(cameras)]}"#) }
        #expect(error?.description == "cameras.json names 9 cameras; a rig has 2 to 8")
    }
}
