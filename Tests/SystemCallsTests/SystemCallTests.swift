import Foundation
import SystemCalls
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct SystemCallTests {
    /// A call interrupted by signals is made again until it gives an answer.
    @Test func anInterruptedCallIsMadeAgain() throws {
        var attempts = 0
        let result = try SystemCall.retrying("read") { () -> Int in
            attempts += 1
            if attempts <= 3 {
                errno = EINTR
                return -1
            }
            return 42
        }
        #expect(result == 42)
        #expect(attempts == 4)
    }

    /// The errno of the failing call is the one reported, not one left by a later call.
    @Test func aFailureCarriesItsCallPathAndErrno() {
        var attempts = 0
        #expect(throws: SystemCallError(call: "open", path: "/x", errno: ENOSPC)) {
            try SystemCall.retrying("open", path: "/x") { () -> Int32 in
                attempts += 1
                errno = attempts == 1 ? EINTR : ENOSPC
                return -1
            }
        }
        #expect(attempts == 2)
    }

    @Test func descriptionsNameTheCallTheTextAndTheSymbol() {
        #expect(SystemCallError(call: "VIDIOC_DQBUF", path: "/dev/video0", errno: ENODEV).description
            == "/dev/video0: VIDIOC_DQBUF failed: No such device (ENODEV)")
        #expect(SystemCallError(call: "write", errno: ENOSPC).description == "write failed: No space left on device (ENOSPC)")
        #expect(SystemCallError.explanation(of: EMFILE) == "Too many open files (EMFILE)")
        #expect(SystemCallError.name(of: 4095) == "errno 4095")
    }

    /// Everything reaches the file, however the kernel splits the writes.
    @Test func writeAllWritesEveryByte() throws {
        let path = NSTemporaryDirectory() + "system-call-\(UUID().uuidString)"
        defer { unlink(path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try SystemCall.writeAll(bytes, to: descriptor, path: path)
        close(descriptor)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
    }

    @Test func writeAllReportsTheFailedWrite() {
        let descriptor = open("/dev/full", O_WRONLY | O_CLOEXEC)
        defer { close(descriptor) }
        #expect(throws: SystemCallError(call: "write", path: "/dev/full", errno: ENOSPC)) {
            try SystemCall.writeAll([1, 2, 3], to: descriptor, path: "/dev/full")
        }
    }
}
