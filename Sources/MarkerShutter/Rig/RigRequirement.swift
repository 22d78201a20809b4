/// Which cameras of a rig must see the board for a set to be taken (`--require`).
package enum RigRequirement: Sendable, Hashable, CustomStringConvertible {
    /// Every camera of the rig (`--require all`, the default).
    case all
    /// At least this many cameras, 2 or more (`--require N`), for rigs whose cameras do not all overlap.
    case atLeast(Int)

    /// How many cameras of a rig of `cameras` a set needs.
    package func count(of cameras: Int) -> Int {
        switch self {
        case .all: cameras
        case .atLeast(let count): count
        }
    }

    /// `all` or the number, as `--require` takes it.
    package var description: String {
        switch self {
        case .all: "all"
        case .atLeast(let count): "\(count)"
        }
    }
}
