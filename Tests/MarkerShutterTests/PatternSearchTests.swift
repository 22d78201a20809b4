import Foundation
import MarkerDetection
import MarkerShutter
import Pixels
import Testing

/// `live --pattern auto` with a camera: frames kept a quarter second apart by their own clock, the
/// newest five identified each time one is kept, until sure. The sample session's frames stand in
/// for the camera's.
@Suite struct PatternSearchTests {
    static let session = TestPaths.packageRoot + "/Samples/charuco-session"

    static func frame(_ index: Int) throws -> PixelBuffer {
        try ImageFile.read(Self.session + String(format: "/frame_%06d.jpg", index), channels: .gray)
    }

    @Test func framesTooSoonAfterTheLastKeptAreNotLookedAt() throws {
        var search = PatternSearch(identifier: try PatternIdentifier(), window: 5, interval: .milliseconds(250))
        let image = try Self.frame(0)
        #expect(try search.offer(image, at: .milliseconds(0)) != nil)
        #expect(try search.offer(image, at: .milliseconds(100)) == nil)
        #expect(try search.offer(image, at: .milliseconds(249)) == nil)
        #expect(try search.offer(image, at: .milliseconds(250)) != nil)
        // A clock that goes back (a camera restarted) keeps the frame rather than waiting.
        #expect(try search.offer(image, at: .milliseconds(10)) != nil)
    }

    /// One frame a quarter second, as a 30 fps camera gives them: the board is known from the first
    /// frame kept, and each answer looks at no more than the newest five.
    @Test func theSampleSessionsBoardIsFoundAndTheWindowStaysFive() throws {
        var search = PatternSearch(identifier: try PatternIdentifier())
        var answers: [PatternIdentification] = []
        for index in stride(from: 0, to: 60, by: 8) {
            let time = Duration.milliseconds(index * 1000 / 30)
            if let found = try search.offer(try Self.frame(index), at: time) { answers.append(found) }
        }
        #expect(answers.count == 8)
        #expect(answers.allSatisfy { $0.pattern?.description == "charuco:5x7:DICT_6X6_50" }, "\(answers)")
        #expect(answers.map(\.frames) == [1, 2, 3, 4, 5, 5, 5, 5])
    }
}
