// libFuzzer harness over the MCAP reader (compiled with RosBags' container and message files by
// Fuzz/build): whatever the bytes, opening the file returns or throws, and a file it opens walks and
// reads back consistently (see `exercise`).

import Foundation

let mcapPath = scratchPath("input.mcap")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMCAPFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    writeInput(data, size, to: mcapPath)
    guard let file = try? MCAPFile(path: mcapPath) else { return 0 }
    exercise(file)
    return 0
}
