import Calibration
import Foundation
import MarkerDetection
import Testing

/// Pictures whose names are not UTF-8 are read by their own bytes, and shown with those bytes
/// written `\xFF`.
@Suite struct PictureNameTests {
    /// Makes a file (or symbolic link to `target`) whose name is `bytes`, in `folder`.
    static func link(_ target: String, named bytes: [UInt8], in folder: String) -> Bool {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + bytes + [0]
        return path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { symlink(target, $0.baseAddress!) == 0 }
        }
    }

    @Test(.enabled(if: SharedPhotoTests.available, "the shared photos are not next to the package (../shared/images)"))
    func aPictureNameThatIsNotUTF8IsRead() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for number in 1...9 {
            let source = SharedPhotoTests.folder + "/left0\(number).jpg"
            let name: [UInt8] = number == 5 ? Array("left0".utf8) + [0xFF, 0xFE] + Array("5.jpg".utf8) : Array("left0\(number).jpg".utf8)
            #expect(Self.link(source, named: name, in: folder))
        }
        let pictures = try PictureSet(folder: folder, pattern: Pattern(parsing: "chessboard:9x6"))
        #expect(pictures.views.count == 9 && pictures.views.allSatisfy { $0.points.count == 54 })
        #expect(pictures.views.map(\.name).contains("left0\\xFF\\xFE5.jpg"), "\(pictures.views.map(\.name))")
        let image = try pictures.image(of: "left0\\xFF\\xFE5.jpg")
        #expect(image.width == 640 && image.height == 480)
    }

    @Test func anUnreadablePictureWithSuchANameIsNamedAsShown() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(Self.link("/nonexistent", named: Array("bad".utf8) + [0xC3] + Array(".png".utf8), in: folder))
        #expect(throws: CalibrationError.self) { try PictureSet(folder: folder, pattern: Pattern(parsing: "chessboard:9x6")) }
        do {
            _ = try PictureSet(folder: folder, pattern: Pattern(parsing: "chessboard:9x6"))
        } catch let error as CalibrationError {
            guard case .unreadableInput(let path, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == folder + "/bad\\xC3.png")
        }
    }
}
