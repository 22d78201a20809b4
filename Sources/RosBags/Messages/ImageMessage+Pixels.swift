public import MarkerDetection
public import Pixels

/// Why a message's image could not be decoded: an encoding not read, a size that does not fit the
/// data, a compressed image that does not decode.
public struct ImageMessageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public let reason: String

    /// Describes a message that cannot be decoded.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

extension ImageMessage {
    /// The raw encodings read: ROS's `sensor_msgs/image_encodings` names.
    public static let rawEncodings = ["mono8", "8UC1", "bgr8", "8UC3", "rgb8", "bayer_rggb8", "bayer_bggr8", "bayer_gbrg8", "bayer_grbg8"]

    /// Decodes the image: raw pixels copied out row by row (`mono8` as gray, `bgr8` and `rgb8` as
    /// BGR, a Bayer mosaic through OpenCV's demosaicing), a compressed image through ``ImageFile``.
    ///
    /// - Parameters:
    ///   - channels: `.bgr` for colour; `.gray` when only the luma is needed (then a JPEG is decoded
    ///     to its luma alone; raw pixels come as they are, gray for mono8 and BGR for colour, for
    ///     detection converts them).
    ///   - pixelLimit: The most pixels to accept, checked before any is copied or decoded.
    /// - Throws: ``ImageMessageError`` saying what does not fit.
    public func pixels(channels: ImageFile.Channels = .bgr, pixelLimit: Int = ImageFile.defaultPixelLimit) throws(ImageMessageError) -> PixelBuffer {
        guard isComplete else { throw ImageMessageError("only the first \(bytes.count) bytes of the message were read") }
        switch payload {
        case .compressed(let format):
            if format.contains("compressedDepth") {
                throw ImageMessageError("its format is '\(format)' (a depth image); JPEG and PNG images are read")
            }
            do {
                return try ImageFile.decode(Array(bytes[data]), pixelLimit: pixelLimit, channels: channels)
            } catch {
                throw ImageMessageError("its \(format.isEmpty ? "compressed image" : "'\(format)' image") cannot be decoded: \(error)")
            }
        case .raw(let width, let height, let encoding, let step, _):
            guard width > 0, height > 0 else { throw ImageMessageError("its image is \(width)x\(height) pixels") }
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            guard !overflow, pixels <= pixelLimit else {
                throw ImageMessageError("its image is \(width)x\(height) pixels, more than the limit of \(pixelLimit)")
            }
            let bayer = Self.bayerPatterns[encoding]
            let format: PixelFormat
            switch encoding {
            case "mono8", "8UC1": format = .gray8
            case "bgr8", "8UC3": format = .bgr24
            case "rgb8": format = .rgb24
            default:
                guard bayer != nil else {
                    throw ImageMessageError("its encoding is '\(encoding)'; \(Self.rawEncodings.joined(separator: ", ")) are read")
                }
                format = .gray8
            }
            let rowBytes = width * format.bytesPerPixel
            guard step >= rowBytes else { throw ImageMessageError("its step of \(step) bytes is shorter than a row of \(width) \(encoding) pixels") }
            let (span, spanOverflow) = step.multipliedReportingOverflow(by: height - 1)
            guard !spanOverflow, span <= data.count, rowBytes <= data.count - span else {
                throw ImageMessageError("its data of \(data.count) bytes is shorter than \(height) rows of \(step) bytes")
            }
            let image: PixelBuffer
            do {
                image = try PixelBuffer(width: width, height: height, format: format == .rgb24 && channels == .bgr ? .bgr24 : format) { target in
                    bytes.withUnsafeBytes { source in
                        for row in 0..<height {
                            let from = source.baseAddress! + data.lowerBound + row * step
                            let to = target.baseAddress! + row * rowBytes
                            to.copyMemory(from: from, byteCount: rowBytes)
                            if format == .rgb24 && channels == .bgr {
                                let pixels = to.assumingMemoryBound(to: UInt8.self)
                                for x in stride(from: 0, to: rowBytes, by: 3) {
                                    let red = pixels[x]
                                    pixels[x] = pixels[x + 2]
                                    pixels[x + 2] = red
                                }
                            }
                        }
                    }
                }
            } catch {
                throw ImageMessageError("its image cannot be held: \(error)")
            }
            guard let bayer else { return image }
            // BGR for gray too: detection then takes the luma of the colours, as it does of a folder
            // of the same colours (a mosaic's own gray demosaicing gives other values, by up to 0.015 px
            // in the corners found).
            return try BayerShim.demosaic(image, pattern: bayer)
        }
    }

    /// The image as a file to keep: a compressed image's own bytes, raw pixels as a PNG.
    ///
    /// - Returns: The bytes and their file name extension (``fileExtension``).
    /// - Throws: ``ImageMessageError`` when the pixels cannot be decoded or encoded.
    public func imageFile() throws(ImageMessageError) -> (bytes: [UInt8], pathExtension: String) {
        guard isComplete else { throw ImageMessageError("only the first \(bytes.count) bytes of the message were read") }
        switch payload {
        case .compressed:
            return (Array(bytes[data]), fileExtension)
        case .raw:
            do {
                return (try ImageFile.encode(try pixels(), as: .png), "png")
            } catch let error as ImageMessageError {
                throw error
            } catch {
                throw ImageMessageError("its pixels cannot be written as PNG: \(error)")
            }
        }
    }

    /// ROS's Bayer encodings and their layouts.
    static let bayerPatterns: [String: BayerShim.Pattern] = [
        "bayer_rggb8": .rggb, "bayer_bggr8": .bggr, "bayer_gbrg8": .gbrg, "bayer_grbg8": .grbg,
    ]
}
