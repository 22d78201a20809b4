// libFuzzer harness over the manifest parser (compiled with FrameManifest.swift, OutputNames.swift
// and the FileFormats module by Fuzz/build). A parsed manifest must write itself back as text that
// parses to the same files in order, and its files must get one distinct annotation name each.

import FileFormats
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let manifest = try? FrameManifest(parsing: text) else { return 0 }
    do {
        let again = try FrameManifest(parsing: manifest.text)
        precondition(again.entries.map(\.file) == manifest.entries.map(\.file), "files differ after writing '\(text)'")
        precondition(again.entries.map(\.sequence) == manifest.entries.map(\.sequence), "sequences differ after writing '\(text)'")
    } catch {
        preconditionFailure("'\(text)' parsed, but its own text does not: \(error)")
    }
    let names = OutputNames.assign(manifest.entries.map(\.file), pathExtension: "jpg")
    precondition(names.count == manifest.entries.count && Set(names).count == names.count, "annotation names collide for '\(text)'")
    return 0
}
