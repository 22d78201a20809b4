public import Pixels

/// Reading and writing image files: JPEG, PNG, BMP and TIFF in, PNG and JPEG out.
///
/// Decoding checks the header first: an image whose header claims more than the pixel limit is
/// refused before any pixel is decoded, so a small malicious file cannot make the process allocate
/// gigabytes. The format is recognised from the bytes, never from the file name.
public enum ImageFile {
    /// The pixel limit unless one is given: 40 megapixels.
    public static let defaultPixelLimit = 40_000_000

    /// The largest image file ``read(_:pixelLimit:channels:)`` reads: 256 MiB (`MSD_IMAGE_FILE_MAX_BYTES`).
    /// A larger file (a sparse file, a symlink to a huge one) is refused before any byte is read.
    public static let fileByteLimit = Shim.imageFileByteLimit

    /// The most scans a JPEG may have: 100 (`MSD_JPEG_MAX_SCANS`). Each scan of a progressive JPEG
    /// is a pass over the whole image, so a JPEG of more (a baseline one has one, a progressive one
    /// about ten) is refused as ``ImageFileError/undecodable(path:reason:)`` before any is decoded.
    public static let jpegScanLimit = Shim.jpegScanLimit

    /// A format OpenCV's codecs read here.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// JPEG (JFIF or Exif).
        case jpeg
        /// PNG.
        case png
        /// Windows bitmap.
        case bmp
        /// Classic (not Big) TIFF.
        case tiff
    }

    /// What an image's header says, read without decoding it.
    public struct Header: Sendable, Hashable {
        /// The file format.
        public var format: Format
        /// Width in pixels as the header claims it.
        public var width: Int
        /// Height in pixels as the header claims it.
        public var height: Int

        /// Makes a header record.
        public init(format: Format, width: Int, height: Int) {
            self.format = format
            self.width = width
            self.height = height
        }
    }

    /// How to encode an image.
    public enum Encoding: Sendable, Hashable {
        /// Lossless PNG.
        case png
        /// JPEG at a quality of 0...100 (OpenCV's default is 95).
        case jpeg(quality: Int)
    }

    /// What decoding gives.
    public enum Channels: Sendable, Hashable {
        /// BGR24 pixels.
        case bgr
        /// GRAY8 pixels: a JPEG's own luma, which libjpeg gives without the chroma and the colour
        /// conversion (about a third of the work of decoding a 720p frame; OpenCV's
        /// `IMREAD_GRAYSCALE` gives the same pixels), other formats as `IMREAD_GRAYSCALE` gives
        /// them. Detection needs nothing more.
        case gray
    }

    /// Reads and decodes an image file into BGR24 pixels, or GRAY8 ones (wraps `msd_image_read_as`).
    ///
    /// Only a regular file of at most ``fileByteLimit`` bytes is read: a FIFO, device, directory or
    /// socket is refused from its metadata, without waiting on it. The header, read first, is
    /// checked against the pixel limit before the rest of the file is read.
    /// - Parameters:
    ///   - path: The file to read.
    ///   - pixelLimit: The most pixels (width x height) to accept, checked from the header.
    ///   - channels: BGR (the default) or gray.
    /// - Throws: ``ImageFileError``: `unreadable`, `notARegularFile`, `fileTooLarge`, `empty`,
    ///   `unrecognizedFormat`, `truncated`, `tooManyPixels` or `undecodable`, each with `path`.
    public static func read(_ path: String, pixelLimit: Int = defaultPixelLimit, channels: Channels = .bgr) throws(ImageFileError) -> PixelBuffer {
        try Shim.decode(path: path, bytes: [], pixelLimit: pixelLimit, channels: channels)
    }

    /// Decodes an image held in memory into BGR24 pixels, or GRAY8 ones (wraps `msd_image_decode_as`).
    ///
    /// - Parameters:
    ///   - bytes: A whole JPEG, PNG, BMP or TIFF file.
    ///   - pixelLimit: The most pixels (width x height) to accept, checked from the header.
    ///   - channels: BGR (the default) or gray.
    /// - Throws: ``ImageFileError`` as ``read(_:pixelLimit:channels:)`` does, with a `nil` path.
    public static func decode(_ bytes: [UInt8], pixelLimit: Int = defaultPixelLimit, channels: Channels = .bgr) throws(ImageFileError) -> PixelBuffer {
        try Shim.decode(path: nil, bytes: bytes, pixelLimit: pixelLimit, channels: channels)
    }

    /// Reads an image's format and size from its header without decoding it
    /// (wraps `msd_image_header_read`).
    ///
    /// - Throws: ``ImageFileError``: `empty`, `unrecognizedFormat`, `truncated` or `undecodable`.
    public static func header(of bytes: [UInt8]) throws(ImageFileError) -> Header {
        try Shim.header(of: bytes)
    }

    /// Encodes `image` as a whole PNG or JPEG file in memory (wraps `msd_image_encode`).
    ///
    /// GRAY8 and BGR24 are written as they are; RGB24 and YUYV are converted to BGR first. Writing
    /// the bytes is left to the caller, so that it can write to a temporary name and rename.
    /// - Throws: ``ImageFileError/unencodable(reason:)``, for example for a JPEG quality outside
    ///   0...100.
    public static func encode(_ image: PixelBuffer, as encoding: Encoding) throws(ImageFileError) -> [UInt8] {
        switch encoding {
        case .png: try Shim.encode(image, png: true, jpegQuality: 0)
        case .jpeg(let quality): try Shim.encode(image, png: false, jpegQuality: quality)
        }
    }
}
