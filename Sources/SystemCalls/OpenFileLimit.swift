#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension SystemCall {
    /// How many files the process may open (the soft `RLIMIT_NOFILE`), or `nil` when unknown.
    package static func openFileLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(resourceNoFile, &limit) == 0 else { return nil }
        return limit.rlim_cur == rlim_t.max ? Int.max : Int(clamping: limit.rlim_cur)
    }

    /// Raises the soft limit on open files to the hard one (`setrlimit(RLIMIT_NOFILE)`), so that a
    /// shell's default of 1024 does not bound what the process may open; returns the limit in force
    /// afterwards, or `nil` when it cannot be read.
    @discardableResult
    package static func raiseOpenFileLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(resourceNoFile, &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            _ = setrlimit(resourceNoFile, &raised)
        }
        return openFileLimit()
    }

    #if canImport(Glibc)
    private static var resourceNoFile: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }
    #else
    private static var resourceNoFile: Int32 { RLIMIT_NOFILE }
    #endif
}
