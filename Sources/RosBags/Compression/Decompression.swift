import CBagCompression

/// The decompressors the containers need, over Debian's libraries, and zlib's CRC-32: the one file
/// that calls into `CBagCompression`.
///
/// Each takes the compressed bytes as a range of a buffer (no copy) and, where the container states
/// it, the size they decompress to: the output is allocated at that size, after the caller checked
/// it against ``BagLimits/chunkBytes``, and data that decompresses to more or less is refused.
enum Decompression {
    /// Zstandard (`ZSTD_decompress`), one frame or several, to exactly `expected` bytes.
    ///
    /// - Throws: ``Malformed`` when the data is not zstd, is cut short, or gives another size.
    static func zstd(_ input: [UInt8], _ range: Range<Int>, expected: Int) throws(Malformed) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: expected)
        let result = output.withUnsafeMutableBytes { target in
            input.withUnsafeBytes { source in
                ZSTD_decompress(target.baseAddress, target.count, source.baseAddress! + range.lowerBound, range.count)
            }
        }
        if ZSTD_isError(result) != 0 {
            throw Malformed("zstd data cannot be decompressed (\(String(cString: ZSTD_getErrorName(result))))")
        }
        guard result == expected else { throw Malformed("zstd data decompresses to \(result) bytes, not the \(expected) stated") }
        return output
    }

    /// Zstandard whose size is given in its frame header, or found by decompressing (rosbag2's
    /// messages compressed one by one), to at most `limit` bytes.
    ///
    /// - Throws: ``Malformed`` when the data is not zstd, is cut short, or decompresses to more than `limit`.
    static func zstd(_ input: [UInt8], _ range: Range<Int>, limit: Int) throws(Malformed) -> [UInt8] {
        let stated = input.withUnsafeBytes { ZSTD_getFrameContentSize($0.baseAddress! + range.lowerBound, range.count) }
        if stated == ZSTD_CONTENTSIZE_ERROR { throw Malformed("the data is not a zstd frame") }
        if stated != ZSTD_CONTENTSIZE_UNKNOWN {
            guard stated <= UInt64(limit) else { throw Malformed("zstd frame states \(stated) bytes, more than the \(limit) allowed") }
            return try zstd(input, range, expected: Int(stated))
        }
        // No size in the header: decompress in steps, growing the output up to the limit.
        guard let stream = ZSTD_createDStream() else { throw Malformed("zstd: out of memory") }
        defer { ZSTD_freeDStream(stream) }
        var output = [UInt8](repeating: 0, count: min(limit, max(range.count * 4, 1 << 16)))
        var produced = 0
        var consumed = 0
        while true {
            let (hint, read, written) = output.withUnsafeMutableBytes { target in
                input.withUnsafeBytes { source in
                    var inBuffer = ZSTD_inBuffer(src: source.baseAddress! + range.lowerBound, size: range.count, pos: consumed)
                    var outBuffer = ZSTD_outBuffer(dst: target.baseAddress, size: target.count, pos: produced)
                    let hint = ZSTD_decompressStream(stream, &outBuffer, &inBuffer)
                    return (hint, inBuffer.pos, outBuffer.pos)
                }
            }
            if ZSTD_isError(hint) != 0 {
                throw Malformed("zstd data cannot be decompressed (\(String(cString: ZSTD_getErrorName(hint))))")
            }
            consumed = read
            produced = written
            if hint == 0 && consumed == range.count { break }
            if produced == output.count {
                guard output.count < limit else { throw Malformed("zstd data decompresses to more than the \(limit) bytes allowed") }
                output.append(contentsOf: repeatElement(0, count: min(limit, output.count * 2) - output.count))
            } else if consumed == range.count {
                throw Malformed("zstd data is cut short")
            }
        }
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
        var output = [UInt8](repeating: 0, count: expected)
        var consumed = 0
        var produced = 0
        var hint = 0
        while consumed < range.count {
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
            if read == 0 && written == 0 {
                throw Malformed(produced == expected ? "lz4 data decompresses to more than the \(expected) bytes stated" : "lz4 data makes no progress")
            }
        }
        guard hint == 0 else { throw Malformed("lz4 data is cut short: its frame does not end") }
        guard produced == expected else { throw Malformed("lz4 data decompresses to \(produced) bytes, not the \(expected) stated") }
        return output
    }

    /// bzip2 (`BZ2_bzBuffToBuffDecompress`: ROS 1's bz2 chunks) to exactly `expected` bytes.
    ///
    /// - Throws: ``Malformed`` when the data is not bzip2, is cut short, or gives another size.
    static func bzip2(_ input: [UInt8], _ range: Range<Int>, expected: Int) throws(Malformed) -> [UInt8] {
        guard let inputCount = UInt32(exactly: range.count), UInt32(exactly: expected) != nil else {
            throw Malformed("bz2 data of \(range.count) bytes for \(expected) is beyond what libbz2 takes")
        }
        // One more byte than stated: data that fills it decompresses to more than stated.
        var output = [UInt8](repeating: 0, count: expected + 1)
        var produced = UInt32(expected + 1)
        let status = output.withUnsafeMutableBytes { target in
            input.withUnsafeBytes { bytes in
                // libbz2 takes a mutable pointer to its input but never writes through it.
                BZ2_bzBuffToBuffDecompress(target.baseAddress!.assumingMemoryBound(to: CChar.self), &produced,
                                           UnsafeMutablePointer(mutating: bytes.baseAddress!.advanced(by: range.lowerBound)
                                               .assumingMemoryBound(to: CChar.self)),
                                           inputCount, 0, 0)
            }
        }
        switch status {
        case BZ_OK: break
        case BZ_OUTBUFF_FULL: throw Malformed("bz2 data decompresses to more than the \(expected) bytes stated")
        case BZ_DATA_ERROR, BZ_DATA_ERROR_MAGIC: throw Malformed("bz2 data is corrupt (libbz2 status \(status))")
        case BZ_UNEXPECTED_EOF: throw Malformed("bz2 data is cut short")
        case BZ_MEM_ERROR: throw Malformed("bz2: out of memory")
        default: throw Malformed("bz2 data cannot be decompressed (libbz2 status \(status))")
        }
        guard Int(produced) == expected else { throw Malformed("bz2 data decompresses to \(produced) bytes, not the \(expected) stated") }
        output.removeLast()
        return output
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
