/// A document of another tool read into plain values: what JSON, YAML, OpenCV FileStorage and
/// mrcal's Python literals have in common.
enum DocumentValue: Sendable, Hashable {
    case map([String: DocumentValue])
    case list([DocumentValue])
    case number(Double)
    case string(String)
    case null

    /// The value at `key` of a map.
    subscript(key: String) -> DocumentValue? {
        guard case .map(let map) = self else { return nil }
        return map[key]
    }

    /// The keys of a map, sorted.
    var keys: [String] {
        guard case .map(let map) = self else { return [] }
        return map.keys.sorted()
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// A whole number.
    var integer: Int? {
        guard let number, number == number.rounded(), abs(number) < 1e15 else { return nil }
        return Int(number)
    }

    /// A list of numbers, or a list of lists of numbers row by row.
    var numbers: [Double]? {
        guard case .list(let items) = self else { return nil }
        var values: [Double] = []
        for item in items {
            if let number = item.number {
                values.append(number)
            } else if case .list = item, let row = item.numbers {
                values += row
            } else {
                return nil
            }
        }
        return values
    }

    /// A matrix's numbers row by row: a list, or a map with `data` (OpenCV's `!!opencv-matrix`,
    /// ROS's `rows`/`cols`/`data`).
    var matrix: [Double]? {
        if let values = numbers { return values }
        return self["data"]?.numbers
    }
}
