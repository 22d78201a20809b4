import Foundation

/// Names for files derived from frames (annotated JPEGs), one per frame and never two alike, so
/// that no derived file silently replaces another.
///
/// A frame's name keeps its stem and takes the new extension (`left01.png` -> `left01.jpg`). When
/// two frames would get one name (`a.jpg` and `a.png`, or a manifest that lists a file twice), the
/// later ones keep their own extension before the new one (`a.png.jpg`), and if that is taken
/// too, a number (`a.png-2.jpg`).
enum OutputNames {
    /// Unique names with extension `pathExtension` for `files`, in the same order.
    ///
    /// - Parameters:
    ///   - files: Frame file names, in frame order.
    ///   - pathExtension: The extension of the derived files, without the dot (`"jpg"`).
    static func assign(_ files: [String], pathExtension: String) -> [String] {
        var taken = Set<String>()
        // The number each file's numbered names go on from, so that a file listed many times costs
        // one look per listing, not one per name taken before it.
        var nextNumber: [String: Int] = [:]
        return files.map { file in
            let stem = (file as NSString).deletingPathExtension
            var candidates = ["\(stem).\(pathExtension)"]
            if stem != file { candidates.append("\(file).\(pathExtension)") }
            var name: String
            if let free = candidates.first(where: { !taken.contains($0) }) {
                name = free
            } else {
                var number = nextNumber[file, default: 2]
                repeat {
                    name = "\(file)-\(number).\(pathExtension)"
                    number += 1
                } while taken.contains(name)
                nextNumber[file] = number
            }
            taken.insert(name)
            return name
        }
    }
}
