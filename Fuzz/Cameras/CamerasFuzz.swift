// libFuzzer harness over a rig recording's cameras.json reader (compiled with the FileFormats
// module by Fuzz/build). Whatever the bytes, the reader returns or throws; a file it accepts names
// 2 to 8 distinct cameras with valid names and intervals in range, and writes itself back as text
// that reads to the same cameras.

import FileFormats
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCameras(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let file = try? CamerasFile(parsing: text) else { return 0 }
    precondition(CamerasFile.cameraCounts.contains(file.cameras.count), "accepted \(file.cameras.count) cameras")
    precondition(Set(file.cameras.map(\.name)).count == file.cameras.count, "accepted a name twice: \(file.cameras.map(\.name))")
    for camera in file.cameras {
        precondition(RigPictureLayout.cameraNameProblem(camera.name) == nil, "accepted name \(camera.name.debugDescription)")
        precondition(CamerasFile.frameIntervals.contains(camera.frameInterval), "accepted interval \(camera.frameInterval)")
    }
    do {
        let again = try CamerasFile(parsing: file.text)
        precondition(again == file, "'\(text)' reads back as \(again.cameras), not \(file.cameras)")
        precondition(again.text == file.text, "its text changes on a second writing")
    } catch {
        preconditionFailure("'\(text)' parsed, but its own text does not: \(error)")
    }
    return 0
}
