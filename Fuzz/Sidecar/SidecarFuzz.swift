// libFuzzer harness over the picture sidecar parser (compiled with the FileFormats module by
// Fuzz/build). Whatever the bytes, the parser returns or throws; a sidecar it accepts holds only
// values inside the ranges it states, and reads the same a second time.

import FileFormats
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSidecar(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let sidecar = try? PictureSidecar(parsing: bytes) else { return 0 }
    precondition(PictureSidecar.nameProblem(sidecar.image) == nil, "accepted image name \(sidecar.image.debugDescription)")
    precondition(!sidecar.image.contains("/") && !sidecar.image.contains(".."), "accepted image name \(sidecar.image.debugDescription)")
    precondition(PictureSidecar.imageSides.contains(sidecar.width) && PictureSidecar.imageSides.contains(sidecar.height),
                 "accepted size \(sidecar.width)x\(sidecar.height)")
    precondition(sidecar.corners.count <= PictureSidecar.maximumCorners && sidecar.markers.count <= PictureSidecar.maximumMarkers)
    let points = sidecar.corners.map(\.point) + sidecar.markers.flatMap(\.corners)
    for point in points {
        precondition(point.x.isFinite && point.y.isFinite, "accepted point \(point)")
        precondition(point.x >= -1 && point.x <= Double(sidecar.width) && point.y >= -1 && point.y <= Double(sidecar.height),
                     "accepted point \(point) in a \(sidecar.width)x\(sidecar.height) picture")
    }
    for id in sidecar.corners.map(\.id) + sidecar.markers.map(\.id) {
        precondition(PictureSidecar.ids.contains(id), "accepted id \(id)")
    }
    precondition(sidecar.markers.allSatisfy { $0.corners.count == 4 })
    precondition((try? PictureSidecar(parsing: bytes)) == sidecar, "a second reading differs")
    return 0
}
