#if canImport(Glibc)
import Glibc
#endif

extension SystemCall {
    /// Has glibc's malloc keep freed blocks of up to 32 MiB in the process for the next allocation,
    /// instead of giving each one back to the system (which then faults the next one in page by
    /// page, zeroing it). For work that allocates and frees buffers of the same few sizes frame
    /// after frame: on 1280x720 frames `process` spent about a tenth of its time in those page
    /// faults (BENCHMARKS.md); at 3840x2160 it changed neither speed nor peak memory measurably.
    /// Each malloc arena (about one per thread) may hold up to 32 MiB more than it uses at the
    /// moment. Does nothing where there is no glibc.
    package static func keepFreedMemoryForReuse() {
        #if canImport(Glibc)
        // `mallopt` and its parameters live in <malloc.h>, which the Glibc module does not export.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3  // M_TRIM_THRESHOLD, M_MMAP_THRESHOLD
        let largest: Int32 = 32 << 20  // glibc's largest mmap threshold on 64-bit systems
        _ = mallopt(mmapThreshold, largest)
        _ = mallopt(trimThreshold, largest)
        #endif
    }
}
