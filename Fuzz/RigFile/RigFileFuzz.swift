// libFuzzer harness over rig.json's reader (compiled with the FileFormats module by Fuzz/build).
// Whatever the bytes, the reader returns or throws, and never recurses deeper than JSONNesting
// allows; a rig it accepts is one (2 to 64 cameras with distinct names, each camera matrix 9 finite
// numbers with positive focal lengths, poses and matrices of their shapes, every camera a set, a
// pair or a placement names one of the rig's), and written back as a rig.json it reads to the
// same text.

import FileFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRigFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let rig = try? RigFile.read(bytes) else { return 0 }
    let names = Set(rig.cameras.map(\.name))
    precondition(RigFile.cameraCounts.contains(rig.cameras.count) && names.count == rig.cameras.count && !names.contains(""),
                 "accepted cameras \(rig.cameras.map(\.name))")
    for camera in rig.cameras {
        let k = camera.camera_matrix.map(\.value)
        precondition(k.count == 9 && k.allSatisfy(\.isFinite) && k[0] > 0 && k[4] > 0, "accepted camera matrix \(k)")
        precondition(camera.image_width > 1 && camera.image_height > 1, "accepted size \(camera.image_width)x\(camera.image_height)")
        precondition(camera.distortion_coefficients.allSatisfy(\.value.isFinite), "accepted distortion that is not finite")
        let extrinsics = camera.extrinsics
        precondition(extrinsics.rotation_matrix.count == 9 && extrinsics.rotation_vector.count == 3 && extrinsics.translation.count == 3
            && extrinsics.covariance.count == 6 && extrinsics.covariance.allSatisfy { $0.count == 6 }
            && extrinsics.rotation_vector_degrees.count == 3 && extrinsics.translation_values.count == 3,
            "accepted extrinsics of the wrong shape")
        precondition(camera.covariance.allSatisfy { $0.count == camera.parameters.count }, "accepted a covariance that is not square")
    }
    let named = rig.sets.flatMap(\.cameras) + rig.placement.flatMap { [$0.camera, $0.from] } + rig.pairs.flatMap { [$0.first, $0.second] }
    precondition(named.allSatisfy(names.contains), "accepted a camera that is not one of the rig's")
    precondition(rig.rms.value.isFinite && rig.rms.value >= 0, "accepted an RMS of \(rig.rms.value)")
    let text = rig.text
    do {
        let again = try RigFile.read(Array(text.utf8))
        precondition(again.text == text, "a rig read back writes a different text")
    } catch {
        preconditionFailure("a rig it read, written back, does not read: \(error)")
    }
    return 0
}
