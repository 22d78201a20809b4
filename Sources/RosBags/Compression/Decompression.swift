import CBagCompression

/// The decompressors the containers need, over Debian's libraries, and zlib's CRC-32: the one file
/// that calls into `CBagCompression`.
///
/// Each takes the compressed bytes as a range of a buffer (no copy) and, where the container states
/// it, the size they decompress to (which the caller checked against ``BagLimits/chunkBytes``):
/// the output grows as the data decompresses, never past that size, so that a few bytes claiming a
/// large size cost no more memory than they hold, and data that decompresses to more or less is
/// refused.
enum Decompression {
    /// The first size to allocate for data of `compressed` bytes that may decompress to at most
    /// `limit`: the output then grows as the data really decompresses, so that a few bytes that
    /// claim a gigabyte cost no more memory than they hold.
    private static func initialCapacity(compressed: Int, limit: Int) -> Int { min(limit, max(compressed * 4, 1 << 16)) }

    /// Makes room for more output: doubles `output` up to `limit`; false when it is at the limit.
    private static func grow(_ output: inout [UInt8], limit: Int) -> Bool {
        guard output.count < limit else { return false }
        output.append(contentsOf: repeatElement(0, count: min(limit, output.count * 2) - output.count))
        return true
    }

    /// Zstandard (`ZSTD_decompressStream`), one frame or several, to exactly `expected` bytes.
    ///
    /// - Throws: ``Malformed`` when the data is not zstd, is cut short, or gives another size.
    static func zstd(_ input: [UInt8], _ range: Range<Int>, expected: Int) throws(Malformed) -> [UInt8] {
        // One byte more than stated: data that fills it decompresses to more than stated.
        let output = try zstdStream(input, range, limit: expected + 1, bound: "the \(expected) bytes stated")
        guard output.count == expected else { throw Malformed("zstd data decompresses to \(output.count) bytes, not the \(expected) stated") }
        return output
    }

    /// Zstandard of a size found by decompressing (rosbag2's messages compressed one by one), at most `limit` bytes.
    ///
    /// - Throws: ``Malformed`` when the data is not zstd, is cut short, or decompresses to more than `limit`.
    static func zstd(_ input: [UInt8], _ range: Range<Int>, limit: Int) throws(Malformed) -> [UInt8] {
        try zstdStream(input, range, limit: limit, bound: "the \(limit) bytes allowed")
    }

    /// Zstandard to at most `limit` bytes (`bound` says what that limit is, for the error).
    private static func zstdStream(_ input: [UInt8], _ range: Range<Int>, limit: Int, bound: String) throws(Malformed) -> [UInt8] {
        guard let stream = ZSTD_createDStream() else { throw Malformed("zstd: out of memory") }
        defer { ZSTD_freeDStream(stream) }
        var output = [UInt8](repeating: 0, count: initialCapacity(compressed: range.count, limit: limit))
        var produced = 0
        var consumed = 0
        var hint = 1
        while true {
            let (result, read, written) = output.withUnsafeMutableBytes { target in
                input.withUnsafeBytes { source in
                    var inBuffer = ZSTD_inBuffer(src: source.baseAddress! + range.lowerBound, size: range.count, pos: consumed)
                    var outBuffer = ZSTD_outBuffer(dst: target.baseAddress, size: target.count, pos: produced)
                    let hint = ZSTD_decompressStream(stream, &outBuffer, &inBuffer)
                    return (hint, inBuffer.pos, outBuffer.pos)
                }
            }
            if ZSTD_isError(result) != 0 {
                throw Malformed("zstd data cannot be decompressed (\(String(cString: ZSTD_getErrorName(result))))")
            }
            consumed = read
            produced = written
            hint = result
            if consumed == range.count && (hint == 0 || produced < output.count) { break }
            if produced == output.count, !grow(&output, limit: limit) {
                throw Malformed("zstd data decompresses to more than \(bound)")
            }
        }
        guard hint == 0 else { throw Malformed("zstd data is cut short: its frame does not end") }
        output.removeLast(output.count - produced)
        return output
    }

    /// LZ4's frame format (`LZ4F_decompress`: what ROS 1's roslz4 and MCAP write), one frame or
    /// several, to exactly `expected` bytes.
    ///
    /// - Throws: ``Malformed`` when the data is not LZ4 frames, is cut short, or gives another size.
    static func lz4Frame(_ input: [UInt8], _ range: Range<Int>, expected: Int) throws(Malformed) -> [UInt8] {
        var context: OpaquePointer?
        let created = LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION))
        guard LZ4F_isError(created) == 0, let context else { throw Malformed("lz4: cannot make a decompression context") }
        defer { LZ4F_freeDecompressionContext(context) }
        // One byte more than stated: data that fills it decompresses to more than stated.
        let limit = expected + 1
        var output = [UInt8](repeating: 0, count: initialCapacity(compressed: range.count, limit: limit))
        var consumed = 0
        var produced = 0
        var hint = 1
        while true {
            if consumed == range.count && (hint == 0 || produced < output.count) { break }
            if produced == output.count, !grow(&output, limit: limit) {
                throw Malformed("lz4 data decompresses to more than the \(expected) bytes stated")
            }
            let (result, read, written) = output.withUnsafeMutableBytes { target in
                input.withUnsafeBytes { source in
                    var targetSize = target.count - produced
                    var sourceSize = range.count - consumed
                    let result = LZ4F_decompress(context, target.baseAddress.map { $0 + produced }, &targetSize,
                                                 source.baseAddress! + range.lowerBound + consumed, &sourceSize, nil)
                    return (result, sourceSize, targetSize)
                }
            }
            if LZ4F_isError(result) != 0 {
                throw Malformed("lz4 data cannot be decompressed (\(String(cString: LZ4F_getErrorName(result))))")
            }
            consumed += read
            produced += written
            hint = result
            if read == 0 && written == 0 && produced < output.count && consumed < range.count { throw Malformed("lz4 data makes no progress") }
        }
        guard hint == 0 else { throw Malformed("lz4 data is cut short: its frame does not end") }
        guard produced == expected else { throw Malformed("lz4 data decompresses to \(produced) bytes, not the \(expected) stated") }
        output.removeLast(output.count - produced)
        return output
    }

    /// bzip2 (`BZ2_bzDecompress`: ROS 1's bz2 chunks) to exactly `expected` bytes.
    ///
    /// - Throws: ``Malformed`` when the data is not bzip2, is cut short, or gives another size.
    static func bzip2(_ input: [UInt8], _ range: Range<Int>, expected: Int) throws(Malformed) -> [UInt8] {
        var stream = bz_stream()
        guard BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK else { throw Malformed("bz2: cannot start decompressing") }
        defer { BZ2_bzDecompressEnd(&stream) }
        // One byte more than stated: data that fills it decompresses to more than stated.
        let limit = expected + 1
        var output = [UInt8](repeating: 0, count: initialCapacity(compressed: range.count, limit: limit))
        var consumed = 0
        var produced = 0
        while true {
            // libbz2 counts in 32 bits: at most 1 GiB in and out at a time.
            if produced == output.count, !grow(&output, limit: limit) {
                throw Malformed("bz2 data decompresses to more than the \(expected) bytes stated")
            }
            let inCount = min(range.count - consumed, 1 << 30)
            let outCount = min(output.count - produced, 1 << 30)
            let status = output.withUnsafeMutableBytes { target in
                input.withUnsafeBytes { source in
                    // libbz2 takes a mutable pointer to its input but never writes through it.
                    stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress!.advanced(by: range.lowerBound + consumed)
                        .assumingMemoryBound(to: CChar.self))
                    stream.avail_in = UInt32(inCount)
                    stream.next_out = target.baseAddress!.advanced(by: produced).assumingMemoryBound(to: CChar.self)
                    stream.avail_out = UInt32(outCount)
                    return BZ2_bzDecompress(&stream)
                }
            }
            consumed += inCount - Int(stream.avail_in)
            produced += outCount - Int(stream.avail_out)
            switch status {
            case BZ_STREAM_END:
                guard produced == expected else { throw Malformed("bz2 data decompresses to \(produced) bytes, not the \(expected) stated") }
                output.removeLast(output.count - produced)
                return output
            case BZ_OK:
                if consumed == range.count && produced < output.count { throw Malformed("bz2 data is cut short") }
            case BZ_DATA_ERROR, BZ_DATA_ERROR_MAGIC: throw Malformed("bz2 data is corrupt (libbz2 status \(status))")
            case BZ_MEM_ERROR: throw Malformed("bz2: out of memory")
            default: throw Malformed("bz2 data cannot be decompressed (libbz2 status \(status))")
            }
        }
    }

    /// The CRC-32 (ISO-HDLC, as zlib computes it) of `range` of `bytes`: MCAP's chunk checksum.
    static func crc32(_ bytes: [UInt8], _ range: Range<Int>) -> UInt32 {
        bytes.withUnsafeBytes { buffer in
            var crc = CBagCompression.crc32(0, nil, 0)
            var start = range.lowerBound
            while start < range.upperBound {
                let count = min(range.upperBound - start, 1 << 30)
                crc = CBagCompression.crc32(crc, buffer.baseAddress!.advanced(by: start).assumingMemoryBound(to: UInt8.self), UInt32(count))
                start += count
            }
            return UInt32(truncatingIfNeeded: crc)
        }
    }
}
