#if DEBOUNCE_PTHREAD_LOCK
import Glibc

/// A value protected by a lock: the package's one lock type.
///
/// Normally this is `Synchronization.Mutex`. Building with `-Xswiftc -DDEBOUNCE_PTHREAD_LOCK` swaps
/// in a pthread mutex with the same `withLock` shape, for ThreadSanitizer runs: on Linux, `Mutex`
/// waits on a futex that ThreadSanitizer does not see, so it reports races on state that the mutex
/// does protect (reproducible with a few lines that only append to a `Mutex<[Int]>` from four
/// tasks). A pthread mutex is intercepted by the sanitizer, so everything else is checked for real.
@usableFromInline
package struct Locked<Value>: ~Copyable, @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    @usableFromInline
    package init(_ initialValue: consuming sending Value) {
        mutex = .allocate(capacity: 1)
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    // Not inlinable: Glibc is imported internally, and speed does not matter in sanitizer runs.
    @usableFromInline
    package borrowing func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
#else
public import Synchronization

/// A value protected by a lock: the package's one lock type, `Synchronization.Mutex`.
///
/// Build with `-Xswiftc -DDEBOUNCE_PTHREAD_LOCK` for ThreadSanitizer runs (see the pthread variant).
@usableFromInline
package typealias Locked<Value> = Mutex<Value>
#endif
