// libFuzzer harness over the ROS 1 bag reader (compiled with RosBags' container and message files by
// Fuzz/build): whatever the bytes, opening the bag returns or throws, and a bag it opens walks and
// reads back consistently (see `exercise`).

import Foundation

let rosBagPath = scratchPath("input.bag")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzROS1Bag(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    writeInput(data, size, to: rosBagPath)
    guard let bag = try? ROS1Bag(path: rosBagPath) else { return 0 }
    exercise(bag)
    return 0
}
