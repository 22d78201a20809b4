import SystemCalls
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct OpenFileLimitTests {
    static var hardLimitIsFinite: Bool {
        var limit = rlimit()
        return getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 && limit.rlim_max != rlim_t.max && limit.rlim_max > 1
    }

    /// A soft limit below the hard one is raised to it, and read back.
    @Test(.enabled(if: hardLimitIsFinite, "the hard limit on open files is infinite or 1: no soft limit below it to raise"))
    func theSoftLimitIsRaisedToTheHardOne() throws {
        var limit = rlimit()
        try #require(getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0)
        let hard = limit.rlim_max
        // One below the hard limit: tests running beside this one must not run out of descriptors.
        limit.rlim_cur = hard - 1
        try #require(setrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0)
        #expect(SystemCall.openFileLimit() == Int(hard) - 1)
        let raised = SystemCall.raiseOpenFileLimit()
        #expect(raised == Int(hard))
        try #require(getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0)
        #expect(limit.rlim_cur == hard)
    }
}

private let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
