import FileFormats
import Foundation
import Testing

/// The set sidecar of a rig: written with its keys in order, read back to the same value, and
/// refused when it names files outside the set or cameras that cannot be.
@Suite struct RigSetSidecarTests {
    static let sidecar = RigSetSidecar(
        set: "set_0001", trigger: "request", syncTolerance: 1.0 / 60, maxMotion: 0.5,
        cameras: [
            .init(name: "left", device: "/dev/video0", frameIndex: 12, t: 0.400261, sequence: 5222, valid: true,
                  markers: 17, corners: 48, motion: 0.1234),
            .init(name: "right", device: "/dev/video2", frameIndex: 11, t: 0.410261, sequence: 77, valid: true,
                  markers: 16, corners: 44, motion: nil),
        ])

    @Test func aSetSidecarIsWrittenWithItsKeysInOrder() {
        #expect(Self.sidecar.text == #"{"set":"set_0001","trigger":"request","largest_difference_s":0.01,"sync_tolerance_s":0.016667,"#
            + #""max_motion_px_per_frame":0.5,"cameras":["#
            + #"{"name":"left","device":"/dev/video0","image":"left/set_0001.png","sidecar":"left/set_0001.json","frame_index":12,"#
            + #""t":0.400261,"sequence":5222,"valid":true,"markers":17,"corners":48,"motion_px_per_frame":0.123},"#
            + #"{"name":"right","device":"/dev/video2","image":"right/set_0001.png","sidecar":"right/set_0001.json","frame_index":11,"#
            + #""t":0.410261,"sequence":77,"valid":true,"markers":16,"corners":44,"motion_px_per_frame":null}]}"# + "\n")
    }

    @Test func aSetSidecarReadsBackAsWritten() throws {
        let read = try RigSetSidecar(parsing: Data(Self.sidecar.text.utf8))
        #expect(read.set == "set_0001")
        #expect(read.cameras.map(\.name) == ["left", "right"])
        #expect(read.cameras[0].motion == 0.123)
        #expect(read.cameras[1].motion == nil)
        #expect(read.cameras[1].sequence == 77)
        #expect(abs(read.largestDifference - 0.01) < 1e-9)
        #expect(read.maxMotion == 0.5)
        #expect(read.text == Self.sidecar.text)
    }

    /// A sidecar that points outside its set, or names a camera no folder can have, is refused
    /// with the field to blame.
    @Test(arguments: [
        (#""image":"left/set_0001.png""#, #""image":"../etc/passwd""#, #"field "cameras[0].image" is not "left/set_0001.png", the camera's image of this set"#),
        (#""name":"left""#, #""name":"l/r""#, #"field "cameras[0].name" may hold only letters, digits, "-" and "_""#),
        (#""name":"right""#, #""name":"left""#, #"field "cameras[1].name" is "left", named twice"#),
        (#""set":"set_0001""#, #""set":"a/b""#, #"field "set" is "a/b.png", which has a path separator: a picture's name must be a file name in the folder"#),
        (#""t":0.410261"#, #""t":"soon""#, #"field "cameras[1].t" is missing or not a finite number"#),
        (#""motion_px_per_frame":null"#, #""motion_px_per_frame":-1"#, #"field "cameras[1].motion_px_per_frame" is -1.0, not a motion of 0 or more"#),
    ])
    func aSidecarOutOfItsRangesIsRefused(original: String, replacement: String, message: String) throws {
        var text = Self.sidecar.text
        let range = try #require(text.range(of: original))
        text.replaceSubrange(range, with: replacement)
        #expect(throws: PictureSidecar.Problem.self) { try RigSetSidecar(parsing: Data(text.utf8)) }
        do {
            _ = try RigSetSidecar(parsing: Data(text.utf8))
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test func aSetOfOneCameraIsRefused() throws {
        var one = Self.sidecar
        one.cameras.removeLast()
        #expect(throws: PictureSidecar.Problem.self) { try RigSetSidecar(parsing: Data(one.text.utf8)) }
        do {
            _ = try RigSetSidecar(parsing: Data(one.text.utf8))
        } catch {
            #expect(error.field == "cameras")
            #expect("\(error)" == #"field "cameras" has 1 entries, not the 2 to 8 a set has"#)
        }
    }

    /// The folder layout rig calibration reads: each camera's folder is an ordinary picture folder.
    @Test func theRigPictureLayout() {
        let layout = RigPictureLayout(folder: "pictures")
        #expect(layout.image(camera: "left", stem: "set_0001") == "pictures/left/set_0001.png")
        #expect(layout.cameraSidecar(camera: "left", stem: "set_0001") == "pictures/left/set_0001.json")
        #expect(layout.setSidecar(stem: "set_0001") == "pictures/set_0001.json")
        #expect(RigPictureLayout(folder: "/tmp/p/").cameraFolder("right") == "/tmp/p/right")
    }

    @Test(arguments: [("left", true), ("cam_2-b", true), ("", false), (".", false), ("..", false), ("a b", false),
                      ("é", false), (String(repeating: "a", count: 32), true), (String(repeating: "a", count: 33), false)])
    func cameraNames(name: String, allowed: Bool) {
        #expect((RigPictureLayout.cameraNameProblem(name) == nil) == allowed)
    }
}
