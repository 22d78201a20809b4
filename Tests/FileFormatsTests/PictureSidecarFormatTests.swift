@testable import FileFormats
import Foundation
import Testing

/// The sidecar type writes the bytes `live` wrote before it existed, and reads them back whole.
@Suite struct PictureSidecarFormatTests {
    /// Each sidecar `live --replay Samples/charuco-session --auto` wrote, read and written again,
    /// is the same file byte for byte.
    @Test func sidecarsWrittenBeforeReadAndWriteBackByteForByte() throws {
        let folder = Fixtures.before + "/pictures"
        let names = try Fixtures.names(in: folder, endingIn: ".json")
        #expect(names == ["capture_0001.json", "capture_0002.json", "capture_0003.json"])
        for name in names {
            let bytes = try Fixtures.bytes(folder + "/" + name)
            let sidecar = try PictureSidecar(parsing: bytes)
            #expect(sidecar.image == name.replacingOccurrences(of: ".json", with: ".png"))
            #expect(sidecar.pattern == "charuco:5x7:DICT_6X6_250" && sidecar.trigger == "auto" && sidecar.valid == true)
            #expect(Data(sidecar.text.utf8) == bytes, "\(name)")
        }
    }

    /// Every field in its place: nulls for what is not known, controls only when set.
    @Test func aSidecarIsWrittenWithItsKeysInOrder() throws {
        let point = RecordedDetection.Point.init(x:y:)
        var sidecar = PictureSidecar(
            image: "capture_0007.png", pattern: "chessboard:9x6", trigger: "request", frameIndex: 12, t: 0.4002611,
            sequence: nil, sourceFile: "a\"b.jpg", shutter: "held", holdAgeSeconds: 0.1, width: 640, height: 480, valid: true,
            detection: RecordedDetection(
                markers: [.init(id: 3, corners: [point(1, 2), point(3.0004, 2), point(3, 4.5), point(1, -0.0001)])],
                corners: [.init(id: 0, point: point(10.25, 20.125))]),
            sharpness: 402.174)
        #expect(sidecar.text == #"{"image":"capture_0007.png","pattern":"chessboard:9x6","trigger":"request","frame_index":12,"#
            + #""t":0.400261,"sequence":null,"source_file":"a\"b.jpg","shutter":"held","hold_age_s":0.1,"width":640,"#
            + #""height":480,"valid":true,"markers":[{"id":3,"corners":[[1,2],[3,2],[3,4.5],[1,0]]}],"#
            + #""corners":[{"id":0,"xy":[10.25,20.125]}],"sharpness":402.17}"# + "\n")
        sidecar.controls = ["gain": 10, "exposure_absolute": 400]
        #expect(sidecar.text.hasSuffix(#","sharpness":402.17,"controls":{"exposure_absolute":400,"gain":10}}"# + "\n"))
        let again = try PictureSidecar(parsing: Data(sidecar.text.utf8))
        #expect(again.controls == ["gain": 10, "exposure_absolute": 400] && again.frameIndex == 12 && again.sequence == nil)
        #expect(again.text == sidecar.text)
    }

    /// Fields nothing depends on are read when they have their type and passed over otherwise.
    @Test func optionalFieldsOfAnotherTypeArePassedOver() throws {
        let text = #"{"image":"p.png","pattern":"chessboard:9x6","width":8,"height":6,"markers":[],"corners":[],"#
            + #""trigger":7,"frame_index":"x","t":true,"sequence":-1,"valid":"yes","controls":{"gain":1.5}}"#
        let sidecar = try PictureSidecar(parsing: Data(text.utf8))
        #expect(sidecar.trigger == nil && sidecar.frameIndex == nil && sidecar.t == nil && sidecar.sequence == nil)
        #expect(sidecar.valid == nil && sidecar.controls == nil && sidecar.width == 8 && sidecar.height == 6)
    }

    /// Input that is no JSON object at all is refused as a whole.
    @Test(arguments: ["", "[]", "nul", "{\"image\":", "\"text\"", "{} {}"])
    func textThatIsNoObjectIsRefused(text: String) {
        #expect(throws: PictureSidecar.Problem(field: nil, reason: "not a JSON object")) {
            try PictureSidecar(parsing: Data(text.utf8))
        }
    }
}
