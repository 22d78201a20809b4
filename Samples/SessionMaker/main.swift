// Renders the sample session in Samples/charuco-session and checks it against its script.
//
//   swift run -c release make-sample-session --replace

import Foundation
import MarkerShutter

func standardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

let options: Options
do {
    options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    standardError("error: \(error) (see make-sample-session --help)")
    exit(64)
}
if options.help {
    print(Options.usage)
    exit(0)
}

let writer = SessionWriter(folder: options.output, replace: options.replace)
let summary: SessionWriter.Summary
do {
    try writer.prepareFolder()
    summary = try writer.write { print(SessionReport.line(for: $0)) }
} catch {
    standardError("error: \(error)")
    exit(1)
}
print(SessionReport.footer(for: summary))
if !summary.disagreements.isEmpty {
    standardError("error: frames \(SessionReport.ranges(summary.disagreements)) are not as scripted (marked above); change the scene until they are")
    exit(1)
}
