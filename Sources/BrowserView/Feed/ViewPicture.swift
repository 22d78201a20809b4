import Foundation
public import MarkerShutter
public import Pixels

/// A picture the session saved, as the view lists it, with a small JPEG thumbnail.
public struct ViewPicture: Sendable, Hashable {
    /// The capture's number (`capture_0003.png` is 3).
    public let number: Int
    /// The picture's path.
    public let file: String
    /// The index of the frame it shows.
    public let frameIndex: Int
    /// Who asked: a request (key, button, command) or `--auto`.
    public let trigger: PictureFolder.Trigger
    /// How long the frame had been held when the picture was taken; `nil` while enabled.
    public let holdAge: Duration?
    /// A JPEG at most ``thumbnailWidth`` pixels wide, or `nil` when no pixels were given.
    public let thumbnail: [UInt8]?

    /// The widest thumbnail, in pixels.
    public static let thumbnailWidth = 160

    /// A picture, with its thumbnail made from `pixels` (the saved frame).
    ///
    /// - Parameters:
    ///   - files: The files `PictureFolder.save` wrote.
    ///   - frameIndex: The frame's index.
    ///   - trigger: Who asked.
    ///   - holdAge: The hold's age when taken; `nil` while the shutter was enabled.
    ///   - pixels: The frame saved, for the thumbnail.
    public init(files: PictureFolder.Saved, frameIndex: Int, trigger: PictureFolder.Trigger, holdAge: Duration?,
                pixels: PixelBuffer?) {
        self.init(number: files.number, file: files.image, frameIndex: frameIndex, trigger: trigger, holdAge: holdAge,
                  pixels: pixels)
    }

    /// A picture of plain values, with its thumbnail made from `pixels`.
    ///
    /// - Parameters:
    ///   - number: The capture's number.
    ///   - file: The picture's path.
    ///   - frameIndex: The frame's index.
    ///   - trigger: Who asked.
    ///   - holdAge: The hold's age when taken; `nil` while the shutter was enabled.
    ///   - pixels: The frame saved, for the thumbnail.
    public init(number: Int, file: String, frameIndex: Int, trigger: PictureFolder.Trigger, holdAge: Duration?,
                pixels: PixelBuffer?) {
        self.number = number
        self.file = file
        self.frameIndex = frameIndex
        self.trigger = trigger
        self.holdAge = holdAge
        thumbnail = pixels.flatMap(Thumbnail.jpeg(of:))
    }

    /// The picture's file name, without the folders: what the view shows of it, so that no client
    /// learns where the server keeps its files.
    public var fileName: String {
        file.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? file
    }

    /// The thumbnail as a `data:` URL for an `<img>`, or `nil`.
    var thumbnailDataURL: String? {
        thumbnail.map { "data:image/jpeg;base64," + Data($0).base64EncodedString() }
    }
}
