/// A path split into its folder and its last name, as `dirname` and `basename` split it.
///
/// Foundation's `NSString.deletingLastPathComponent` traps on a relative path of one character
/// (`g`, `.`, `é`, `g/`), the name a user may well give an output: every path an output is made
/// from is split here instead.
enum PathParts {
    /// The folder and the last name of `path`; trailing slashes are not part of the name.
    ///
    /// `g` is `("", "g")`, `a/b` is `("a", "b")`, `/g` is `("/", "g")`, `a//b/` is `("a", "b")`,
    /// `/` is `("/", "")` and the empty path is `("", "")`.
    public static func split(_ path: String) -> (folder: String, name: String) {
        let slash = UInt8(ascii: "/")
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == slash { bytes.removeLast() }
        if bytes == [slash] { return ("/", "") }
        guard let cut = bytes.lastIndex(of: slash) else { return ("", String(decoding: bytes, as: UTF8.self)) }
        let name = String(decoding: bytes[(cut + 1)...], as: UTF8.self)
        var folder = bytes[..<cut]
        while let last = folder.last, last == slash { folder.removeLast() }
        return (folder.isEmpty ? "/" : String(decoding: folder, as: UTF8.self), name)
    }

    /// The folder of `path`, empty when it names none (`g`).
    public static func folder(of path: String) -> String { split(path).folder }
}
