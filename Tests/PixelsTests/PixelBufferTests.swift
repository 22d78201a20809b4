import Pixels
import Synchronization
import Testing

@Suite struct PixelBufferTests {
    @Test func packsRowsByDefaultAndKeepsWhatWasWritten() throws {
        let buffer = try PixelBuffer(width: 3, height: 2, format: .bgr24) { bytes in
            for i in 0..<bytes.count { bytes[i] = UInt8(i) }
        }
        #expect(buffer.rowStride == 9)
        #expect(buffer.byteCount == 18)
        #expect(buffer.row(1) == Array(9..<18))
    }

    @Test func rowSkipsStridePadding() throws {
        let bytes: [UInt8] = [1, 2, 0xEE, 0xEE, 3, 4, 0xEE, 0xEE]
        let buffer = try PixelBuffer(copying: bytes, width: 2, height: 2, format: .gray8, rowStride: 4)
        #expect(buffer.row(0) == [1, 2])
        #expect(buffer.row(1) == [3, 4])
    }

    @Test func refusesImpossibleGeometry() {
        #expect(throws: PixelBufferError.emptyImage(width: 0, height: 5)) {
            try PixelBuffer(width: 0, height: 5, format: .gray8)
        }
        #expect(throws: PixelBufferError.strideTooSmall(rowStride: 10, width: 4, format: .bgr24)) {
            try PixelBuffer(width: 4, height: 1, format: .bgr24, rowStride: 10)
        }
        #expect(throws: PixelBufferError.oddWidthYUYV(width: 3)) {
            try PixelBuffer(width: 3, height: 1, format: .yuyv)
        }
        #expect(throws: PixelBufferError.tooSmall(needed: 6, available: 5)) {
            try PixelBuffer(copying: [UInt8](repeating: 0, count: 5), width: 3, height: 2, format: .gray8)
        }
        #expect(throws: PixelBufferError.tooLarge(width: Int.max / 2, height: 4)) {
            try PixelBuffer(width: Int.max / 2, height: 4, format: .gray8)
        }
    }

    @Test func borrowedMemoryIsReleasedOnceWhenTheLastReferenceGoes() throws {
        let releases = Mutex(0)
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 8)
        memory.copyBytes(from: [9, 8, 7, 6, 5, 4, 3, 2] as [UInt8])
        do {
            let buffer = try PixelBuffer(borrowing: memory, width: 4, height: 2, format: .gray8) { pointer in
                releases.withLock { $0 += 1 }
                pointer.deallocate()
            }
            #expect(buffer.row(1) == [5, 4, 3, 2])
            #expect(releases.withLock { $0 } == 0)
        }
        #expect(releases.withLock { $0 } == 1)
    }
}
