// libFuzzer harness over the rosbag2 folder reader (compiled with RosBags' container and message
// files and Yams by Fuzz/build): the input is a metadata.yaml, put in a folder beside a small .db3
// and a small .mcap (Fuzz/RosBags/files, made with rosbags). Whatever its text, reading it returns or
// throws, names only files inside the folder, and a folder it opens walks and reads back consistently.

import Foundation

let folder: String = {
    let path = scratchPath("rosbag2")
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let files = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("files").path
    for name in ["bag_0.db3", "bag_0.mcap"] {
        try? FileManager.default.removeItem(atPath: "\(path)/\(name)")
        try! FileManager.default.copyItem(atPath: "\(files)/\(name)", toPath: "\(path)/\(name)")
    }
    return path
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRosbag2Folder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    guard let metadata = try? Rosbag2Metadata(parsing: text) else { return 0 }
    for file in metadata.files {
        precondition(!file.hasPrefix("/") && !file.split(separator: "/").contains(".."), "accepted file \(file.debugDescription)")
    }
    writeInput(data, size, to: "\(folder)/metadata.yaml")
    guard let bag = try? Rosbag2Folder(path: folder) else { return 0 }
    exercise(bag)
    return 0
}
