import Calibration
import Foundation
import MarkerDetection
import Pixels
import Testing

/// Input a calibration cannot use: a clear error naming what is wrong.
@Suite struct BadInputTests {
    static func views(_ count: Int) throws -> [CalibrationView] {
        Array(try SyntheticViews.projected(camera: SyntheticCalibrationTests.pinhole, columns: 9, rows: 6, noise: 0.3, seed: 1)
            .prefix(count))
    }

    @Test func fewerViewsThanTheModelNeeds() throws {
        let views = try Self.views(3)
        #expect(throws: CalibrationError.tooFewViews(usable: 3, needed: 4, model: .rational, rejected: [])) {
            try CameraCalibration.calibrate(views, model: .rational)
        }
        let error = CalibrationError.tooFewViews(usable: 3, needed: 4, model: .rational, rejected: [])
        #expect(error.description == "3 usable views, but the rational model needs at least 4. "
            + "Take more pictures of the whole target from different positions and angles.")
    }

    @Test func everyViewCollinear() throws {
        let views = try Self.views(5).map { view in
            var row = view
            row.points = view.points.filter { $0.id < 9 }  // the board's first row only
            return row
        }
        let expected = views.map { RejectedView(name: $0.name, reason: "its corners lie on one line") }
        #expect(throws: CalibrationError.tooFewViews(usable: 0, needed: 3, model: .pinhole, rejected: expected)) {
            try CameraCalibration.calibrate(views, model: .pinhole)
        }
        let error = CalibrationError.tooFewViews(usable: 0, needed: 3, model: .pinhole, rejected: expected)
        #expect(error.description.contains("set aside: 5 (its corners lie on one line)"))
    }

    @Test func mixedImageSizes() throws {
        var views = try Self.views(5)
        views[1].imageSize = ImageSize(width: 1280, height: 720)
        let error = CalibrationError.mixedImageSizes(["640x480 in 4 (view_00, ...)", "1280x720 in 1 (view_01)"])
        #expect(throws: error) { try CameraCalibration.calibrate(views, model: .pinhole) }
        #expect(error.description.hasPrefix("the pictures have different sizes (640x480 in 4 (view_00, ...), 1280x720 in 1 (view_01))"))
    }

    @Test(arguments: [
        ("{\"image\":\"capture_0002.png\"", "not a JSON object"),
        ("[1, 2]", "not a JSON object"),
        ("{\"image\":\"capture_0002.png\",\"pattern\":\"chessboard:9x6\",\"width\":640,\"height\":480,\"markers\":[],\"corners\":[{\"id\":1}]}",
         "corner 0 is not {\"id\": integer, \"xy\": [x, y]}"),
        ("{\"image\":\"capture_0002.png\",\"pattern\":\"chessboard:9x6\",\"markers\":[],\"corners\":[]}",
         "no positive \"width\" and \"height\""),
        ("{\"image\":\"capture_0002.png\",\"pattern\":\"chessboard:0x6\",\"width\":640,\"height\":480,\"markers\":[],\"corners\":[]}",
         "invalid pattern"),
    ])
    func corruptedSidecar(text: String, reason: String) throws {
        let folder = try SidecarFolder.write(try Self.views(4), pattern: "chessboard:9x6")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try text.write(toFile: folder + "/capture_0002.json", atomically: true, encoding: .utf8)
        do {
            _ = try PictureSet(folder: folder, pattern: nil)
            Issue.record("a corrupted sidecar was accepted")
        } catch {
            guard case .unreadableInput(let path, let message) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == folder + "/capture_0002.json")
            #expect(message.hasPrefix("corrupted sidecar: " + reason), "\(message)")
        }
    }

    @Test func sidecarsOfAnotherPattern() throws {
        let folder = try SidecarFolder.write(try Self.views(4), pattern: "chessboard:9x6")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: CalibrationError.unreadableInput(
            path: folder, reason: "its sidecars were detected with chessboard:9x6, not the --pattern chessboard:7x5")) {
            try PictureSet(folder: folder, pattern: Pattern(parsing: "chessboard:7x5"))
        }
    }

    /// Without a pattern the target is identified from the pictures: pictures that cannot be read
    /// leave nothing to identify it from.
    @Test func aFolderOfUnreadableImagesNeedsAPattern() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/a.png", contents: Data()))
        #expect(throws: CalibrationError.unreadableInput(
            path: folder, reason: "it has no sidecars and none of its pictures can be read to identify its target; name it with --pattern")) {
            try PictureSet(folder: folder, pattern: nil)
        }
    }

    /// Pictures that show no target leave doubt, said with what was seen; no pattern is guessed.
    @Test func aFolderOfPicturesWithoutATargetNeedsAPattern() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gray = try PixelBuffer(copying: [UInt8](repeating: 128, count: 320 * 240), width: 320, height: 240, format: .gray8)
        #expect(FileManager.default.createFile(atPath: folder + "/a.png", contents: Data(try ImageFile.encode(gray, as: .png))))
        #expect(throws: CalibrationError.unreadableInput(
            path: folder, reason: "it has no sidecars and its target cannot be identified: no target found in 1 frame; name it with --pattern")) {
            try PictureSet(folder: folder, pattern: nil)
        }
    }
}
