/// A control and the value it was (or is to be) set to, named as `v4l2-ctl` names it.
///
/// Its description, `exposure_absolute=250`, is what `v4l2-ctl --set-ctrl` takes; the list a
/// camera returns from ``Camera/apply(_:)`` is what to record next to the pictures.
public struct ControlAssignment: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The control's `v4l2-ctl` name (``CameraControl/v4l2Name``).
    public let name: String
    /// Its value.
    public let value: Int64

    /// Pairs a control name with a value.
    public init(name: String, value: Int64) {
        self.name = name
        self.value = value
    }

    /// Reads `NAME=VALUE`, as `--control` and `v4l2-ctl --set-ctrl` take it.
    ///
    /// - Throws: ``ControlError/Kind/malformed`` naming the text when it is not a name, `=` and a
    ///   whole number.
    public init(parsing text: String) throws(ControlError) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts.first.map(String.init) ?? ""
        guard parts.count == 2, !name.isEmpty, let value = Int64(parts[1]) else {
            throw ControlError(.malformed, control: text, detail: "expected NAME=VALUE with a whole number, such as brightness=10")
        }
        self.init(name: name, value: value)
    }

    public var description: String { "\(name)=\(value)" }
}
