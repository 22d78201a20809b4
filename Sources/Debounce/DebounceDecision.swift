/// What a conditional debouncer does with one value.
///
/// A ``ConditionalDebouncer`` (or a ``ConditionalDebounceMachine`` driven by hand) asks for a decision
/// for every value it receives, so the same stream can let some values through at once and hold
/// others back:
///
/// ```swift
/// // A marker detector: valid detections enable the shutter at once, a lost detection is held
/// // for 0.3 s before the shutter is disabled.
/// let decide: @Sendable (Detection) -> DebounceDecision<Duration> = { detection in
///     detection.isValid ? .now : .hold(.milliseconds(300))
/// }
/// ```
///
/// ## `.debounce` versus `.hold`
///
/// Both make the value *pending*. They differ in how later values move the deadline:
///
/// - ``debounce(_:)`` restarts the wait with every value. A camera that keeps failing at 30 fps
///   sends a new failure every 33 ms, so a 0.3 s debounce is restarted forever and the failure is
///   never delivered while failures keep coming.
/// - ``hold(_:)`` measures the wait from the *first* value of the pending run. Later values
///   replace the pending value but keep the deadline, so the failure is delivered 0.3 s after the
///   first failed frame however many failures follow.
public enum DebounceDecision<Duration: DurationProtocol>: Sendable {
    /// Deliver this value immediately and drop whatever is pending.
    case now

    /// Classic trailing debounce: the value becomes pending and is delivered once the duration has
    /// passed with no newer value. Every later value restarts the wait.
    case debounce(Duration)

    /// The value becomes pending, due the given duration after the *first* value of the current
    /// pending run. Later `.hold` values replace the pending value but do not move the deadline.
    case hold(Duration)

    /// Ignore this value; whatever is pending stays pending with its deadline.
    case drop
}

extension DebounceDecision: Equatable {}
extension DebounceDecision: Hashable where Duration: Hashable {}
