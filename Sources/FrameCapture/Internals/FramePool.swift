import Pixels
import Synchronization

/// Reusable blocks of frame memory, handed out as borrowed ``PixelBuffer``s: a block returns to
/// the pool when the last reference to its buffer goes, so steady streaming allocates no pixel
/// memory. A consumer that keeps many frames makes the pool allocate more blocks; at most
/// `capacity` idle blocks are kept.
final class FramePool: Sendable {
    private struct Block: @unchecked Sendable {
        // @unchecked: a block is owned by exactly one party at a time (the pool's free list, or
        // one PixelBuffer), and only its owner touches it.
        let memory: UnsafeMutableRawPointer
    }

    let byteCount: Int
    let capacity: Int
    private let free = Mutex<[Block]>([])
    private let allocations = Atomic<Int>(0)

    init(byteCount: Int, capacity: Int) {
        self.byteCount = byteCount
        self.capacity = capacity
    }

    deinit {
        free.withLock { blocks in
            for block in blocks { block.memory.deallocate() }
            blocks.removeAll()
        }
    }

    /// Blocks allocated so far (for tests and benchmarks).
    var allocationCount: Int { allocations.load(ordering: .relaxed) }

    /// A pixel buffer over a pooled block whose first `byteCount` bytes `fill` writes.
    func makeBuffer(
        width: Int, height: Int, format: PixelFormat, rowStride: Int, fill: (UnsafeMutableRawPointer) -> Void
    ) throws -> PixelBuffer {
        let block = free.withLock { $0.popLast() } ?? allocate()
        fill(block.memory)
        do {
            return try PixelBuffer(
                borrowing: UnsafeMutableRawBufferPointer(start: block.memory, count: byteCount), width: width,
                height: height, format: format, rowStride: rowStride
            ) { [self] memory in giveBack(Block(memory: memory)) }
        } catch {
            giveBack(block)
            throw error
        }
    }

    private func allocate() -> Block {
        allocations.add(1, ordering: .relaxed)
        return Block(memory: UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64))
    }

    private func giveBack(_ block: Block) {
        let kept = free.withLock { blocks in
            guard blocks.count < capacity else { return false }
            blocks.append(block)
            return true
        }
        if !kept { block.memory.deallocate() }
    }
}
