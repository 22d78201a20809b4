import FileFormats

/// Refuses documents nested deeper than any calibration file is, before a parser that recurses
/// once per level (Foundation's JSON, OpenCV's FileStorage, libyaml through Yams) meets them: a
/// hostile file of a few megabytes of `[` would otherwise overflow the stack.
///
/// The bounds are far above what OpenCV, ROS, Kalibr and mrcal write (a few levels) and far below
/// what the parsers survive (thousands of levels).
enum NestingGuard {
    /// The deepest nesting a JSON or XML document may have.
    static let maximumDepth = JSONNesting.maximumDepth
    /// YAML: the most flow brackets (`[`, `{`) a document may hold, anywhere.
    static let maximumFlowBrackets = 1000
    /// YAML: the deepest indentation a line may have, in columns.
    static let maximumIndentation = 200
    /// YAML: the most block indicators (`- `, `? `) one line may hold (`- - - a` nests three deep).
    static let maximumIndicatorsPerLine = 64

    /// `nil` when `bytes`, a JSON document, nests at most ``maximumDepth`` deep, else why not
    /// (``JSONNesting``, which calibration.json's own reader applies too).
    static func json(_ bytes: [UInt8]) -> String? { JSONNesting.problem(bytes) }

    /// `nil` when `bytes`, an XML document, nests its elements at most ``maximumDepth`` deep, else
    /// why not. Comments, CDATA sections, processing instructions and quoted attribute values are
    /// skipped; every other `<` starts a tag.
    static func xml(_ bytes: [UInt8]) -> String? {
        var depth = 0, index = 0
        func starts(_ text: String, at position: Int) -> Bool {
            let pattern = Array(text.utf8)
            return position + pattern.count <= bytes.count && Array(bytes[position..<(position + pattern.count)]) == pattern
        }
        func skip(past end: String, from position: Int) -> Int {
            var at = position
            while at < bytes.count, !starts(end, at: at) { at += 1 }
            return at + end.utf8.count
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if starts("<!--", at: index) { index = skip(past: "-->", from: index + 4); continue }
            if starts("<![CDATA[", at: index) { index = skip(past: "]]>", from: index + 9); continue }
            if starts("<?", at: index) { index = skip(past: "?>", from: index + 2); continue }
            let closing = starts("</", at: index)
            var at = index + 1, quote: UInt8?
            while at < bytes.count {
                let byte = bytes[at]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    break
                }
                at += 1
            }
            let selfClosing = at > index + 1 && at - 1 < bytes.count && bytes[at - 1] == UInt8(ascii: "/")
            if closing {
                depth = max(0, depth - 1)
            } else if !selfClosing && !starts("<!", at: index) {
                depth += 1
                if depth > maximumDepth { return "it is nested deeper than \(maximumDepth) levels" }
            }
            index = at + 1
        }
        return nil
    }

    /// `nil` when `bytes`, a YAML document, stays within the bounds above (which bound how deep it
    /// can nest whatever its quoting), else why not.
    static func yaml(_ bytes: [UInt8]) -> String? {
        let brackets = bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "[") || $1 == UInt8(ascii: "{") ? 1 : 0) }
        if brackets > maximumFlowBrackets {
            return "it holds \(brackets) brackets: a calibration file holds at most \(maximumFlowBrackets)"
        }
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let indentation = line.prefix { $0 == 0x20 || $0 == 0x09 }.count
            if indentation > maximumIndentation {
                return "a line is indented \(indentation) columns: a calibration file nests far less"
            }
            var indicators = 0, previous: UInt8 = 0x20
            for byte in line {
                if (previous == UInt8(ascii: "-") || previous == UInt8(ascii: "?")) && (byte == 0x20 || byte == 0x09) { indicators += 1 }
                previous = byte
            }
            if indicators > maximumIndicatorsPerLine {
                return "a line holds \(indicators) block indicators: a calibration file nests far less"
            }
        }
        return nil
    }
}
