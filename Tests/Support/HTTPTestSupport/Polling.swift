/// Asks `look` again and again, `interval` apart, until it gives an answer; `nil` once a look that
/// began after `limit` (counted from the call) gave none.
///
/// A look is judged by when it began, not by when its answer came back: a test can wait for a
/// thread for minutes in a full suite (the cooperative pool is as wide as the machine has cores,
/// and blocking tests hold them), and an answer read before such a wait says nothing of the time
/// after it. So the limit only ever ends a wait for something that has not come by the limit, never
/// one the test was too starved to see.
public func poll<T>(for limit: Duration, every interval: Duration, _ look: () async throws -> T?) async throws -> T? {
    let end = ContinuousClock.now + limit
    while true {
        let began = ContinuousClock.now
        if let answer = try await look() { return answer }
        if began >= end { return nil }
        try await Task.sleep(for: interval)
    }
}
