import Calibration
import FileFormats
import Foundation
import MarkerDetection
import Pixels
import Testing

/// Sidecars are input: every field is checked against its stated range, and a refusal names the
/// sidecar and the field.
@Suite struct HostileSidecarTests {
    /// A sidecar of a 9x6 chessboard picture with `fields` replacing the defaults.
    static func sidecar(_ fields: [String: String]) -> String {
        var all = [
            "image": "\"capture_0002.png\"", "pattern": "\"chessboard:9x6\"", "width": "640", "height": "480",
            "markers": "[]", "corners": "[{\"id\":0,\"xy\":[10.5,20.25]}]",
        ]
        all.merge(fields) { $1 }
        return "{" + all.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    /// The reason `PictureSet` gives for a folder of four good sidecars whose second is `text`.
    static func refusal(_ text: String) throws -> String? {
        let folder = try SidecarFolder.write(try BadInputTests.views(4), pattern: "chessboard:9x6")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try text.write(toFile: folder + "/capture_0002.json", atomically: true, encoding: .utf8)
        do {
            _ = try PictureSet(folder: folder, pattern: nil)
            return nil
        } catch {
            guard case .unreadableInput(let path, let reason) = error, path == folder + "/capture_0002.json" else {
                return "unexpected error \(error)"
            }
            return reason
        }
    }

    @Test(arguments: [
        ("\"../escaped.png\"", "is \"../escaped.png\", which has a path separator"),
        ("\"/etc/passwd\"", "is \"/etc/passwd\", which has a path separator"),
        ("\"sub/capture.png\"", "is \"sub/capture.png\", which has a path separator"),
        ("\"..\"", "is \"..\", which holds \"..\""),
        ("\"capture..png\"", "is \"capture..png\", which holds \"..\""),
        ("\".\"", "is \".\""),
        ("\"\"", "is empty"),
        ("\"a\\u0000b.png\"", "holds a NUL byte"),
    ])
    func anImageNameThatIsNotAFileNameIsRefused(name: String, reason: String) throws {
        let message = try Self.refusal(Self.sidecar(["image": name]))
        #expect(message?.hasPrefix("corrupted sidecar: field \"image\" " + reason) == true, "\(message ?? "accepted")")
        #expect(message?.hasSuffix("a picture's name must be a file name in the folder") == true, "\(message ?? "accepted")")
    }

    @Test(arguments: [
        (["width": "100000"], "field \"width\" is 100000, outside the 1...16384 pixels a picture may have"),
        (["height": "16385"], "field \"height\" is 16385, outside the 1...16384 pixels a picture may have"),
        (["width": "1e300"], "no positive \"width\" and \"height\""),
        (["width": "640.5"], "no positive \"width\" and \"height\""),
        (["width": "true"], "no positive \"width\" and \"height\""),
        (["corners": "[{\"id\":0,\"xy\":[1e300,5]}]"],
         "field \"corners[0].xy\" is [1e+300, 5.0], outside the 640x480 picture (x from -1 to 640, y from -1 to 480)"),
        (["corners": "[{\"id\":0,\"xy\":[10,-1.5]}]"],
         "field \"corners[0].xy\" is [10.0, -1.5], outside the 640x480 picture (x from -1 to 640, y from -1 to 480)"),
        (["corners": "[{\"id\":0,\"xy\":[640.5,0]}]"],
         "field \"corners[0].xy\" is [640.5, 0.0], outside the 640x480 picture (x from -1 to 640, y from -1 to 480)"),
        (["corners": "[{\"id\":-1,\"xy\":[1,1]}]"], "field \"corners[0].id\" is -1, outside the ids 0...1048575"),
        (["corners": "[{\"id\":9223372036854775807,\"xy\":[1,1]}]"],
         "field \"corners[0].id\" is 9223372036854775807, outside the ids 0...1048575"),
        (["markers": "[{\"id\":1048576,\"corners\":[[1,1],[2,1],[2,2],[1,2]]}]"],
         "field \"markers[0].id\" is 1048576, outside the ids 0...1048575"),
        (["markers": "[{\"id\":3,\"corners\":[[1,1],[2,1],[2,2],[1,-7]]}]"],
         "field \"markers[0].corners[3]\" is [1.0, -7.0], outside the 640x480 picture (x from -1 to 640, y from -1 to 480)"),
        (["pattern": "\"" + String(repeating: "x", count: 2000) + "\""], "field \"pattern\" is 2000 bytes long, more than 1024"),
    ])
    func aFieldOutsideItsRangeIsRefusedByName(fields: [String: String], reason: String) throws {
        #expect(try Self.refusal(Self.sidecar(fields)) == "corrupted sidecar: " + reason)
    }

    @Test func moreCornersThanASidecarMayListAreRefused() throws {
        let corners = "[" + Array(repeating: "{\"id\":1,\"xy\":[1,1]}", count: 65_537).joined(separator: ",") + "]"
        #expect(try Self.refusal(Self.sidecar(["corners": corners]))
            == "corrupted sidecar: field \"corners\" has 65537 entries, more than the 65536 a sidecar may list")
        let markers = "[" + Array(repeating: "{\"id\":1,\"corners\":[[1,1],[2,1],[2,2],[1,2]]}", count: 16_385).joined(separator: ",") + "]"
        #expect(try Self.refusal(Self.sidecar(["markers": markers]))
            == "corrupted sidecar: field \"markers\" has 16385 entries, more than the 16384 a sidecar may list")
    }

    @Test func aSidecarLargerThanTheLimitIsRefusedBeforeItIsParsed() throws {
        let padding = String(repeating: " ", count: PictureSidecar.maximumBytes)
        #expect(try Self.refusal(Self.sidecar([:]) + padding)
            == "\(PictureSidecar.maximumBytes + Self.sidecar([:]).utf8.count) bytes, more than the \(PictureSidecar.maximumBytes) a sidecar may have")
    }

    @Test func aSidecarThatIsAFIFOIsRefusedWithoutWaiting() throws {
        let folder = try SidecarFolder.write(try BadInputTests.views(4), pattern: "chessboard:9x6")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.removeItem(atPath: folder + "/capture_0002.json")
        #expect(mkfifo(folder + "/capture_0002.json", 0o644) == 0)
        #expect(throws: CalibrationError.unreadableInput(path: folder + "/capture_0002.json", reason: "not a regular file")) {
            try PictureSet(folder: folder, pattern: nil)
        }
    }

    @Test func twoSidecarsNamingOnePictureAreRefused() throws {
        let folder = try SidecarFolder.write(try BadInputTests.views(4), pattern: "chessboard:9x6")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = try String(contentsOfFile: folder + "/capture_0002.json", encoding: .utf8)
        try text.replacingOccurrences(of: "capture_0002.png", with: "capture_0001.png")
            .write(toFile: folder + "/capture_0002.json", atomically: true, encoding: .utf8)
        #expect(throws: CalibrationError.unreadableInput(
            path: folder + "/capture_0002.json",
            reason: "corrupted sidecar: field \"image\" names capture_0001.png, as capture_0001.json does: each picture has one sidecar")) {
            try PictureSet(folder: folder, pattern: nil)
        }
    }

    /// The good sidecars `SidecarFolder` writes pass every check, with the values they hold.
    @Test func aGoodSidecarIsReadWithItsValues() throws {
        let text = Self.sidecar([
            "corners": "[{\"id\":53,\"xy\":[639.5,-1]},{\"id\":0,\"xy\":[640,480]}]",
            "markers": "[{\"id\":1048575,\"corners\":[[0,0],[1,0],[1,1],[0,1]]}]", "trigger": "\"request\"",
        ])
        let sidecar = try PictureSidecar(parsing: Data(text.utf8))
        #expect(sidecar.image == "capture_0002.png" && sidecar.pattern == "chessboard:9x6")
        #expect(sidecar.width == 640 && sidecar.height == 480)
        #expect(sidecar.corners == [.init(id: 53, point: .init(x: 639.5, y: -1)), .init(id: 0, point: .init(x: 640, y: 480))])
        #expect(sidecar.markers.map(\.id) == [1_048_575] && sidecar.markers[0].corners.count == 4)
    }

    /// The fuzzing seeds are good sidecars (so that the fuzzer starts from accepted input).
    @Test func theFuzzingSeedsAreAccepted() throws {
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/seeds/sidecar").path
        let names = SidecarFolder.contents(seeds)
        #expect(names.count >= 3)
        for name in names {
            let sidecar = try PictureSidecar(parsing: Data(contentsOf: URL(fileURLWithPath: seeds + "/" + name)))
            #expect(!sidecar.image.isEmpty, "\(name)")
        }
    }

    /// A sidecar whose width and height are not its picture's is refused, naming both sizes: a
    /// calibration is never made for a size its pictures do not have (`--undistort` would use it on
    /// them). A picture of the sidecar's own size is accepted.
    @Test func aSidecarWhoseSizeIsNotItsPicturesIsRefused() throws {
        let views = try BadInputTests.views(4)
        let folder = try SidecarFolder.write(views, pattern: "chessboard:9x6")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let size = views[1].imageSize
        func picture(width: Int, height: Int) throws -> Data {
            Data(try ImageFile.encode(try PixelBuffer(width: width, height: height, format: .gray8), as: .png))
        }
        try picture(width: size.width, height: size.height).write(to: URL(fileURLWithPath: folder + "/capture_0002.png"))
        #expect(try PictureSet(folder: folder, pattern: nil).views.count == 4)

        try picture(width: size.width / 2, height: size.height / 2).write(to: URL(fileURLWithPath: folder + "/capture_0002.png"))
        let reason = "corrupted sidecar: it gives capture_0002.png as \(size.width)x\(size.height) pixels, "
            + "but the picture is \(size.width / 2)x\(size.height / 2)"
        #expect(throws: CalibrationError.unreadableInput(path: folder + "/capture_0002.json", reason: reason)) {
            try PictureSet(folder: folder, pattern: nil)
        }
    }
}
