#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// System calls as the package makes them: retried while a signal interrupts them (`EINTR`), with
/// `errno` captured immediately after the failing call, before anything else can change it.
package enum SystemCall {
    /// Makes `call` until it is not interrupted.
    ///
    /// - Parameters:
    ///   - name: The call's name, for the error.
    ///   - path: The file it is made on, for the error.
    ///   - call: The call; it returns -1 and sets `errno` on failure.
    /// - Returns: What the call returned.
    /// - Throws: ``SystemCallError`` with the errno of a failure other than `EINTR`.
    @discardableResult
    package static func retrying<Result: SignedInteger>(
        _ name: String, path: String? = nil, _ call: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = call()
            if result != -1 { return result }
            let code = errno
            if code != EINTR { throw SystemCallError(call: name, path: path, errno: code) }
        }
    }

    /// Writes all of `bytes` to `descriptor`, going on after short writes and interruptions.
    ///
    /// - Throws: ``SystemCallError`` (`write`) with the errno of the write that failed.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String? = nil)
        throws(SystemCallError)
    {
        var offset = 0
        while offset < bytes.count {
            offset += try retrying("write", path: path) { write(descriptor, bytes.baseAddress! + offset, bytes.count - offset) }
        }
    }

    /// ``writeAll(_:to:path:)`` for any collection of bytes.
    package static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32, path: String? = nil)
        throws(SystemCallError)
    {
        let contiguous = Array(bytes)
        let failure = contiguous.withUnsafeBytes { buffer -> SystemCallError? in
            do throws(SystemCallError) {
                try writeAll(buffer, to: descriptor, path: path)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }
}
