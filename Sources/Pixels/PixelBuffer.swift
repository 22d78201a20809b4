/// An immutable image in memory: width, height, row stride, pixel format and the bytes.
///
/// The bytes are written once, while the buffer is made, and never change afterwards, so a buffer
/// can be shared between threads and kept for as long as needed (the shutter keeps the last valid
/// frame this way). Frames from a camera and images read from files both arrive as `PixelBuffer`s,
/// and the detector reads the bytes in place, without a copy.
///
/// A buffer either owns its memory (``init(width:height:format:rowStride:initializingWith:)``) or
/// borrows memory someone else manages (``init(borrowing:width:height:format:rowStride:release:)``),
/// which is how a camera frame from a reusable pool reaches the detector without a copy.
public final class PixelBuffer: @unchecked Sendable {
    // @unchecked: the only stored state is immutable after init (the memory is written during init
    // or owned by a caller that promised not to change it); no mutation API exists.

    /// Width in pixels.
    public let width: Int
    /// Height in pixels (rows).
    public let height: Int
    /// Bytes from the start of one row to the start of the next; at least `width * bytesPerPixel`.
    public let rowStride: Int
    /// The layout of each pixel.
    public let format: PixelFormat

    private let base: UnsafeMutableRawPointer
    private let release: @Sendable (UnsafeMutableRawPointer) -> Void

    /// The number of bytes the image spans: `rowStride * height`.
    public var byteCount: Int { rowStride * height }

    /// Makes a buffer that owns its memory and fills it once.
    ///
    /// - Parameters:
    ///   - width: Width in pixels, at least 1.
    ///   - height: Height in pixels, at least 1.
    ///   - format: Pixel layout.
    ///   - rowStride: Bytes per row; `nil` packs rows tightly (`width * format.bytesPerPixel`).
    ///   - initialize: Writes the pixels. The memory starts zeroed.
    /// - Throws: ``PixelBufferError`` when the geometry is impossible, or what `initialize` throws.
    public init(
        width: Int, height: Int, format: PixelFormat, rowStride: Int? = nil,
        initializingWith initialize: (UnsafeMutableRawBufferPointer) throws -> Void = { _ in }
    ) throws {
        let stride = rowStride ?? width * format.bytesPerPixel
        try PixelBuffer.validate(width: width, height: height, format: format, rowStride: stride)
        let count = stride * height
        let memory = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: count)
        do {
            try initialize(UnsafeMutableRawBufferPointer(start: memory, count: count))
        } catch {
            memory.deallocate()
            throw error
        }
        self.width = width
        self.height = height
        self.rowStride = stride
        self.format = format
        self.base = memory
        self.release = { $0.deallocate() }
    }

    /// Makes a buffer over memory that the caller manages, without copying it.
    ///
    /// - Parameters:
    ///   - memory: At least `rowStride * height` bytes that nobody changes until `release` runs.
    ///   - width: Width in pixels, at least 1.
    ///   - height: Height in pixels, at least 1.
    ///   - format: Pixel layout.
    ///   - rowStride: Bytes per row; `nil` packs rows tightly.
    ///   - release: Runs once, when the last reference to the buffer goes away.
    /// - Throws: ``PixelBufferError`` when the geometry is impossible or `memory` is too small.
    public init(
        borrowing memory: UnsafeMutableRawBufferPointer, width: Int, height: Int, format: PixelFormat,
        rowStride: Int? = nil, release: @escaping @Sendable (UnsafeMutableRawPointer) -> Void
    ) throws {
        let stride = rowStride ?? width * format.bytesPerPixel
        try PixelBuffer.validate(width: width, height: height, format: format, rowStride: stride)
        guard let start = memory.baseAddress, memory.count >= stride * height else {
            throw PixelBufferError.tooSmall(needed: stride * height, available: memory.count)
        }
        self.width = width
        self.height = height
        self.rowStride = stride
        self.format = format
        self.base = start
        self.release = release
    }

    /// Makes a buffer that owns a copy of `bytes`.
    ///
    /// - Throws: ``PixelBufferError`` when the geometry is impossible or `bytes` is too short.
    public convenience init(copying bytes: some Collection<UInt8>, width: Int, height: Int, format: PixelFormat, rowStride: Int? = nil) throws {
        let needed = (rowStride ?? width * format.bytesPerPixel) * max(height, 0)
        guard bytes.count >= needed else { throw PixelBufferError.tooSmall(needed: needed, available: bytes.count) }
        try self.init(width: width, height: height, format: format, rowStride: rowStride) { target in
            target.copyBytes(from: bytes.prefix(needed))
        }
    }

    deinit { release(base) }

    /// Calls `body` with the image's bytes (`rowStride * height` of them). Do not let the pointer
    /// escape `body`, and do not write through it.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: base, count: byteCount))
    }

    /// The bytes of row `y`, `width * bytesPerPixel` of them, copied out (for tests and small tools).
    public func row(_ y: Int) -> [UInt8] {
        precondition(y >= 0 && y < height, "row \(y) outside 0..<\(height)")
        let start = base.advanced(by: y * rowStride).assumingMemoryBound(to: UInt8.self)
        return Array(UnsafeBufferPointer(start: start, count: width * format.bytesPerPixel))
    }

    private static func validate(width: Int, height: Int, format: PixelFormat, rowStride: Int) throws {
        guard width > 0, height > 0 else { throw PixelBufferError.emptyImage(width: width, height: height) }
        guard format != .yuyv || width % 2 == 0 else { throw PixelBufferError.oddWidthYUYV(width: width) }
        let (rowBytes, overflow) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        guard !overflow, rowStride >= rowBytes else {
            throw PixelBufferError.strideTooSmall(rowStride: rowStride, width: width, format: format)
        }
        guard !rowStride.multipliedReportingOverflow(by: height).overflow else {
            throw PixelBufferError.tooLarge(width: width, height: height)
        }
    }
}

/// Why a ``PixelBuffer`` could not be made.
public enum PixelBufferError: Error, Equatable, CustomStringConvertible {
    /// Width or height is zero or negative.
    case emptyImage(width: Int, height: Int)
    /// A row stride shorter than one row of pixels.
    case strideTooSmall(rowStride: Int, width: Int, format: PixelFormat)
    /// YUYV pairs pixels, so its width must be even.
    case oddWidthYUYV(width: Int)
    /// Fewer bytes than the geometry needs.
    case tooSmall(needed: Int, available: Int)
    /// The byte count does not fit in memory addresses.
    case tooLarge(width: Int, height: Int)

    public var description: String {
        switch self {
        case .emptyImage(let w, let h): "empty image: \(w)x\(h) pixels"
        case .strideTooSmall(let s, let w, let f):
            "row stride \(s) is smaller than one row of \(w) \(f) pixels (\(w * f.bytesPerPixel) bytes)"
        case .oddWidthYUYV(let w): "YUYV images need an even width, got \(w)"
        case .tooSmall(let n, let a): "pixel memory too small: \(a) bytes for an image that needs \(n)"
        case .tooLarge(let w, let h): "image too large to address: \(w)x\(h)"
        }
    }
}
