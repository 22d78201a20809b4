// libFuzzer harness over a rig recording's events.jsonl line reader (compiled with the FileFormats
// module by Fuzz/build). Whatever the bytes, the reader returns or throws; a line it accepts holds
// only values in the ranges it states, and writes itself back as text that reads to the same event.

import FileFormats
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvents(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
        guard let event = try? EventsLine(parsing: line) else { continue }
        func checkTime(_ t: Double) { precondition(t.isFinite && EventsLine.times.contains(t), "accepted time \(t)") }
        func checkCamera(_ name: String) { precondition(RigPictureLayout.cameraNameProblem(name) == nil, "accepted camera \(name.debugDescription)") }
        switch event {
        case .arrived(let camera, let t, let dropped):
            checkCamera(camera)
            checkTime(t)
            precondition(EventsLine.droppedCounts.contains(dropped), "accepted dropped \(dropped)")
        case .observed(let camera, let file):
            checkCamera(camera)
            precondition(!file.isEmpty && !file.contains("/") && file != "." && file != "..", "accepted file \(file.debugDescription)")
        case .advance(let t), .advanceArrivals(let t):
            checkTime(t)
        case .lost(let camera):
            checkCamera(camera)
        }
        let written = event.text
        precondition(written.hasSuffix("\n") && written.dropLast().firstIndex(of: "\n") == nil, "a line written with a line break inside")
        do {
            let again = try EventsLine(parsing: written.dropLast())
            // Times are written to the microsecond: the second reading equals the first's writing.
            precondition(again.text == written, "'\(line)' writes \(written) but reads back as \(again.text)")
        } catch {
            preconditionFailure("'\(line)' parsed, but its own text does not: \(error)")
        }
    }
    return 0
}
