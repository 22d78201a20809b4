import Foundation

/// A command shown in a Markdown document, with the output the document prints for it (if any).
///
/// The conventions, in README.md and Docs/guide.md:
/// - a fenced block tagged `sh` holds commands, one a line (`#` starts a comment); when the next
///   thing after it is an untagged fenced block, that block is the output of the block's last
///   command;
/// - an untagged fenced block whose first line starts with `$ ` is a transcript: each `$ ` line
///   is a command, and the lines up to the next `$ ` line are its output;
/// - an untagged fenced block right after a line `<!-- output of: COMMAND -->` is the output of
///   COMMAND, which is run for it.
///
/// Output is what the command printed on standard output, then what it printed on standard error.
struct DocumentedExample: Equatable, CustomStringConvertible {
    /// The command line, as a shell reads it.
    var command: String
    /// The output the document prints for it, without the final newline; `nil` when it prints none.
    var output: String?
    /// The document's line number of the command (or of the comment naming it).
    var line: Int

    var description: String { "line \(line): \(command)" }

    /// The examples of `markdown`, in document order.
    static func parse(_ markdown: String) -> [DocumentedExample] {
        let lines = markdown.components(separatedBy: "\n")
        var examples: [DocumentedExample] = []
        var index = 0
        var outputOf: (command: String, line: Int)?
        // The sh block just closed and still waiting for an output block.
        var pendingShell: Int?

        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("<!-- output of:"), trimmed.hasSuffix("-->") {
                let text = trimmed.dropFirst("<!-- output of:".count).dropLast("-->".count)
                outputOf = (text.trimmingCharacters(in: .whitespaces), index + 1)
                pendingShell = nil
                index += 1
                continue
            }
            guard line.hasPrefix("```") else {
                if !trimmed.isEmpty { pendingShell = nil; outputOf = nil }
                index += 1
                continue
            }
            let tag = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
            var body: [String] = []
            var end = index + 1
            while end < lines.count, !lines[end].hasPrefix("```") {
                body.append(lines[end])
                end += 1
            }
            let opening = index + 1
            index = end + 1

            if tag == "sh" {
                let before = examples.count
                for (offset, text) in body.enumerated() {
                    let command = text.trimmingCharacters(in: .whitespaces)
                    guard !command.isEmpty, !command.hasPrefix("#") else { continue }
                    examples.append(DocumentedExample(command: command, output: nil, line: opening + 1 + offset))
                }
                pendingShell = examples.count > before ? examples.count - 1 : nil
                outputOf = nil
                continue
            }
            guard tag.isEmpty else {
                pendingShell = nil
                outputOf = nil
                continue
            }
            if let first = body.first, first.hasPrefix("$ ") {
                for (offset, text) in body.enumerated() {
                    if text.hasPrefix("$ ") {
                        examples.append(DocumentedExample(command: String(text.dropFirst(2)), output: "", line: opening + 1 + offset))
                    } else {
                        let last = examples.count - 1
                        examples[last].output = examples[last].output!.isEmpty ? text : examples[last].output! + "\n" + text
                    }
                }
            } else if let named = outputOf {
                examples.append(DocumentedExample(command: named.command, output: body.joined(separator: "\n"), line: named.line))
            } else if let shell = pendingShell {
                examples[shell].output = body.joined(separator: "\n")
            }
            pendingShell = nil
            outputOf = nil
        }
        return examples
    }
}
