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
        let largest: Int32 = 32 << 20  // glibc's largest mmap threshold on 64-bit systems
        mallopt(.mmapThreshold, largest)
        mallopt(.trimThreshold, largest)
    }

    /// Has glibc's malloc take every block of 256 KiB or more (a frame, an encoded picture) straight
    /// from the system and give it back when freed, so that what a long-running process holds in
    /// memory follows what it uses. By default glibc raises that threshold each time such a block
    /// is freed, after which frames come from the arenas and stay there: under a flood of browser
    /// requests `live`'s resident set stepped up by 5 to 27 MiB at random moments (the same on
    /// the code before the browser view's connection limits) and stayed flat with the threshold
    /// fixed. Does nothing where there is no glibc.
    package static func giveLargeBlocksBack() {
        mallopt(.mmapThreshold, 256 << 10)
    }

    private enum MallocParameter: Int32 {
        // From <malloc.h>, which the Glibc module does not export.
        case trimThreshold = -1, mmapThreshold = -3
    }

    private static func mallopt(_ parameter: MallocParameter, _ value: Int32) {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(parameter.rawValue, value)
        #endif
    }
}
