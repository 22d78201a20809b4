/// Camera controls to apply before capturing: what `--exposure`, `--focus`, `--control` and
/// `--lock` ask for. ``Camera/apply(_:)`` applies them in that order.
public struct ControlSettings: Sendable, Hashable {
    /// Automatic, or a fixed value.
    public enum Mode: Sendable, Hashable {
        /// The camera's automatic mode.
        case automatic
        /// A fixed value: microseconds for exposure, the focus control's own units for focus.
        case manual(Int64)

        /// Reads `auto` or a whole number.
        ///
        /// - Throws: ``ControlError/Kind/malformed`` naming the text otherwise.
        public init(parsing text: String, of control: String) throws(ControlError) {
            if text == "auto" {
                self = .automatic
            } else if let value = Int64(text) {
                self = .manual(value)
            } else {
                throw ControlError(.malformed, control: text, detail: "\(control) takes auto or a whole number")
            }
        }
    }

    /// Exposure: automatic, or a time in microseconds.
    public var exposure: Mode?
    /// Focus: continuous autofocus, or a fixed `focus_absolute` value.
    public var focus: Mode?
    /// Any other controls, by their `v4l2-ctl` names, set in order.
    public var controls: [ControlAssignment]
    /// Fix exposure, gain, white balance and focus at their current values (see
    /// ``Camera/lockControls()``), after everything else.
    public var lock: Bool

    /// Settings that change nothing unless given.
    public init(exposure: Mode? = nil, focus: Mode? = nil, controls: [ControlAssignment] = [], lock: Bool = false) {
        self.exposure = exposure
        self.focus = focus
        self.controls = controls
        self.lock = lock
    }

    /// Whether applying them would change nothing.
    public var isEmpty: Bool { exposure == nil && focus == nil && controls.isEmpty && !lock }
}
