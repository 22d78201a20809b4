import FileFormats

/// One camera of a rig, as the rig shutter knows it: its name (in messages, sidecars and the
/// picture folder) and the time between its frames (for its motion and its stall).
package struct RigCamera: Sendable, Hashable {
    /// The camera's name: letters, digits, `-` and `_`, 1 to 32 characters.
    package let name: String
    /// The time between two of its frames (1/30 s at 30 fps).
    package let frameInterval: Duration

    /// Makes a camera.
    ///
    /// - Parameters:
    ///   - name: Letters, digits, `-` and `_`, 1 to 32 characters.
    ///   - frameInterval: The time between two of its frames; more than zero.
    /// - Throws: ``RigCameraNameError`` for a name outside those rules.
    package init(name: String, frameInterval: Duration) throws(RigCameraNameError) {
        if let problem = Self.nameProblem(name) { throw RigCameraNameError(name: name, reason: problem) }
        precondition(frameInterval > .zero, "a camera's frame interval must be more than zero, got \(frameInterval)")
        self.name = name
        self.frameInterval = frameInterval
    }

    /// Why `name` cannot name a camera, or `nil` when it can (the picture folder's rule,
    /// ``RigPictureLayout/cameraNameProblem(_:)``).
    package static func nameProblem(_ name: String) -> String? { RigPictureLayout.cameraNameProblem(name) }
}

/// A camera name that breaks the rules (letters, digits, `-`, `_`; 1 to 32 characters).
package struct RigCameraNameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name given.
    package let name: String
    /// What is wrong with it.
    package let reason: String

    package var description: String { "camera name \"\(name)\" \(reason)" }
}
