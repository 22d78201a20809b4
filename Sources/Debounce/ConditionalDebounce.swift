/// Returns a function that debounces some values and passes the others through at once.
///
/// For every value, `shouldDebounce` decides: `true` debounces it (`.debounce(delay)`: delivered once
/// `delay` has passed without a newer value), `false` delivers it now and drops whatever was pending
/// (`.now`). The returned function can be called from any thread; `action` is called in order,
/// never concurrently.
///
/// ```swift
/// // Show errors only if they persist; show successes at once.
/// let show = conditionalDebounce(delay: .seconds(2), action: { banner.show($0) },
///                                shouldDebounce: { $0.isError })
/// show(result)
/// ```
///
/// - Parameters:
///   - delay: How long a debounced value waits for a newer one.
///   - action: Receives the delivered values.
///   - shouldDebounce: `true` to debounce a value, `false` to deliver it now.
/// - Returns: The function to send values to. It keeps the debouncer alive; when it is released,
///   pending values are dropped.
public func conditionalDebounce<T: Sendable>(
    delay: Duration,
    action: @escaping @Sendable (T) -> Void,
    shouldDebounce: @escaping @Sendable (T) -> Bool
) -> @Sendable (T) -> Void {
    conditionalDebounce(delay: delay, clock: ContinuousClock(), action: action, shouldDebounce: shouldDebounce)
}

/// ``conditionalDebounce(delay:action:shouldDebounce:)`` on a given clock (a `ManualClock` in tests).
///
/// - Parameters:
///   - delay: How long a debounced value waits for a newer one.
///   - clock: The clock the delay is measured on.
///   - action: Receives the delivered values.
///   - shouldDebounce: `true` to debounce a value, `false` to deliver it now.
/// - Returns: The function to send values to; it keeps the debouncer alive.
public func conditionalDebounce<T: Sendable, C: Clock>(
    delay: C.Duration,
    clock: C,
    action: @escaping @Sendable (T) -> Void,
    shouldDebounce: @escaping @Sendable (T) -> Bool
) -> @Sendable (T) -> Void where C.Duration == Duration {
    let debouncer = ConditionalDebouncer<T, C>(
        clock: clock,
        decide: { shouldDebounce($0) ? .debounce(delay) : .now },
        output: { action($0) }
    )
    return { debouncer.send($0) }
}
